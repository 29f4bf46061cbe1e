# Shared by script/docs and script/api-check: the SDK's public modules, and the flags that let the
# toolchain's tools (swift-symbolgraph-extract, swift-api-digester) load them from a debug build.
# Source it after `swift build --target PortalAuthGNOME`.

# What a Linux app imports: both cores, their shared base (re-exported by each), and the desktop.
sdk_modules=(AuthBase PortalAuth TurnkeyAuth PortalAuthGNOME)
# Those whose every public symbol has an abstract; script/docs fails when one has none. All four.
sdk_documented_modules=(AuthBase PortalAuth TurnkeyAuth PortalAuthGNOME)

sdk_build_dir=$(swift build --show-bin-path)
# The C modules PortalAuthGNOME imports are found through their generated module maps; their
# headers through pkg-config (only -I: the tools take no -pthread).
sdk_module_flags=(-I "$sdk_build_dir/Modules" -target "$(uname -m)-unknown-linux-gnu"
    -I "$sdk_build_dir/CAuthPlatform.build" -I "$sdk_build_dir/CGLibSupport.build"
    -I Sources/CGio -I Sources/CLibsoup -I Sources/CLibsecret)
for flag in $(pkg-config --cflags-only-I gio-2.0 libsoup-3.0 libsecret-1); do
    sdk_module_flags+=(-Xcc "$flag")
done

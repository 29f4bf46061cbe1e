#!/usr/bin/env bash
# The part of script/test-trixie that runs inside the trixie root (the repository at /src): prints
# the stack's versions, builds warning-free, then runs the Swift suites (core, emulator, GNOME/keyring,
# CLI) and the UI suite in a private desktop session, with the floors of Tests/expected-counts.
set -uo pipefail
cd /src
logs=/src/.build/trixie-logs
rm -rf "$logs"
mkdir -p "$logs"
export PORTAL_TEST_LOG_DIR="$logs"
failed=()
started=$(date +%s)

echo "== the stack"
. /etc/os-release
echo "Debian $VERSION_ID ($VERSION_CODENAME)"
for module in gtk4 libadwaita-1 libsoup-3.0 libsecret-1 glib-2.0; do
    echo "$module $(pkg-config --modversion "$module")"
done
gnome-keyring-daemon --version | head -n 1
swift --version 2>&1 | head -n 1

echo "== swift build --build-tests"
if ! swift build --build-tests >"$logs/build.log" 2>&1; then
    cat "$logs/build.log"
    echo "The build failed on trixie; the full output is above."
    exit 1
fi
if ! script/lib/own-warnings.sh "$logs/build.log" /src >"$logs/warnings.txt"; then
    cat "$logs/warnings.txt"
    failed+=("build warnings ($(wc -l <"$logs/warnings.txt"))")
fi
built=$(date +%s)
echo "built in $((built - started)) s"

# The suites run in the private desktop session (bus, keyring, Xvfb, AT-SPI) script/test uses.
cat >"$logs/suites.sh" <<'EOF'
cd /src
status=0
counts() { /usr/bin/python3 script/lib/test-counts.py "$1" "$2" Tests/expected-counts Tests/allowed-skips || status=1; }
echo "== swift test"
swift test --skip-build --no-parallel --xunit-output "$PORTAL_TEST_LOG_DIR/swift.xml" || status=1
counts swift "$PORTAL_TEST_LOG_DIR/swift-swift-testing.xml"
echo "== Tests/ui/run"
PORTAL_JUNIT_XML="$PORTAL_TEST_LOG_DIR/ui.xml" Tests/ui/run || status=1
counts ui "$PORTAL_TEST_LOG_DIR/ui.xml"
exit $status
EOF
script/with-desktop-session bash "$logs/suites.sh" || failed+=("suites (see above)")
finished=$(date +%s)
echo "suites in $((finished - built)) s; $((finished - started)) s in all"

if [ ${#failed[@]} -gt 0 ]; then
    echo "FAILED on trixie:"
    printf '  %s\n' "${failed[@]}"
    exit 1
fi
echo "All passed on trixie."

# The installed layout of Portal Sign-In (contract §5), shared by script/install, script/uninstall
# and Tests/data/run so that all three agree on every path. Sourced, not run.
PORTAL_APP_ID=io.github.portalauth.SignIn
PORTAL_DOMAIN=portal-sign-in
PORTAL_SCHEME_MIME=x-scheme-handler/io.github.portalauth.signin
PORTAL_DESKTOP_NAME="$PORTAL_APP_ID.desktop"
PORTAL_EXECUTABLES=(portal-sign-in portal-auth portal-auth-emulator)

# Relative to the prefix.
PORTAL_DESKTOP_FILE="share/applications/$PORTAL_APP_ID.desktop"
PORTAL_METAINFO_FILE="share/metainfo/$PORTAL_APP_ID.metainfo.xml"
PORTAL_ICON_FILE="share/icons/hicolor/scalable/apps/$PORTAL_APP_ID.svg"
PORTAL_SYMBOLIC_ICON_FILE="share/icons/hicolor/symbolic/apps/$PORTAL_APP_ID-symbolic.svg"
PORTAL_SCHEMA_FILE="share/glib-2.0/schemas/$PORTAL_APP_ID.gschema.xml"
# D-Bus activation: the desktop hands redirect URIs over org.freedesktop.Application.Open, never argv.
PORTAL_DBUS_SERVICE_FILE="share/dbus-1/services/$PORTAL_APP_ID.service"
PORTAL_MANIFEST="share/portal-sign-in/installed-files"

# The languages listed in po/LINGUAS (comments and blank lines ignored).
portal_languages() {
    sed 's/#.*//' "${PORTAL_SOURCE_ROOT:-.}/po/LINGUAS" | tr -s ' \t' '\n' | sed '/^$/d'
}

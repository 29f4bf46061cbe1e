# Sourced by script/with-keepassxc and script/with-kwallet, inside script/with-desktop-session.
# bus_without_keyring NAME FOLDER COMMAND…: runs COMMAND on a session bus of its own that can start
# no service but the ones a test installs under $XDG_DATA_HOME/dbus-1/services (the app's), so
# gnome-keyring never stands in for the Secret Service under test; the desktop session's display
# and accessibility bus (AT_SPI_BUS_ADDRESS, so AT-SPI still reaches the app) are kept. NAME is the
# caller's, for its error messages; FOLDER gets the bus's configuration.
bus_without_keyring() {
    local name="$1" folder="$2" address=""
    shift 2
    mkdir -p "$folder"
    for _ in $(seq 1 100); do
        address=$(gdbus call --session --dest org.a11y.Bus --object-path /org/a11y/bus \
                  --method org.a11y.Bus.GetAddress 2>/dev/null | sed -n "s/^('\(.*\)',)$/\1/p") && [ -n "$address" ] && break
        sleep 0.1
    done
    [ -n "$address" ] || { echo "$name: the accessibility bus did not answer" >&2; exit 1; }
    export AT_SPI_BUS_ADDRESS="$address"
    cat >"$folder/bus.conf" <<CONF
<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>unix:tmpdir=$XDG_RUNTIME_DIR</listen>
  <auth>EXTERNAL</auth>
  <servicedir>$XDG_DATA_HOME/dbus-1/services</servicedir>
  <policy context="default"><allow send_destination="*" eavesdrop="true"/><allow eavesdrop="true"/><allow own="*"/></policy>
</busconfig>
CONF
    exec dbus-run-session --config-file="$folder/bus.conf" -- "$@"
}

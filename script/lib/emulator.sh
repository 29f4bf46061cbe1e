# The emulator's administration from shell scripts. Source it; needs bash and curl.
# The admin API answers only this run's admin token, which the emulator writes to its token file
# (mode 0600; script/start-emulator prints the file's path on its second line).

# The default token file of an emulator on PORT (what the emulator writes without --admin-token-file).
emulator_token_file() {
    echo "${XDG_RUNTIME_DIR:-$HOME/.cache}/portal-auth-emulator/$1.token"
}

# emulator_admin BASE_URL TOKEN_FILE PATH [CURL ARGUMENTS…]: one request to BASE_URL/emulator/v1/PATH
# with the token from TOKEN_FILE. The token reaches curl on stdin (--config -), never a command line.
emulator_admin() {
    local url=$1 token_file=$2 path=$3 token
    shift 3
    token=$(<"$token_file") || return 1
    printf 'header = "Authorization: Bearer %s"\n' "$token" | curl -fsS --config - "$@" "$url/emulator/v1/$path"
}

# emulator_dashboard_url BASE_URL TOKEN_FILE: the dashboard's address, http://127.0.0.1:PORT/dashboard/KEY/,
# to print for a person. The emulator gives it to the admin token's holder (GET /emulator/v1/dashboard),
# so it is found for an emulator whose start-up lines this script never saw. The key opens the
# dashboard and nothing else; the admin token stays off the command line and out of the address.
emulator_dashboard_url() {
    local answer address
    answer=$(emulator_admin "$1" "$2" dashboard) || return 1
    address=$(printf '%s\n' "$answer" | sed -n 's/.*"url" *: *"\([^"]*\)".*/\1/p' | sed 's#\\/#/#g')
    [ -n "$address" ] || return 1
    echo "$address"
}

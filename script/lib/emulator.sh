# The emulator's administration from shell scripts. Source it; needs bash and curl.
# The admin API and the dashboard answer only this run's admin token, which the emulator writes to
# its token file (mode 0600; script/start-emulator prints the file's path on its second line).

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

# The dashboard's address with the token, to print for a person (the one line that shows it).
emulator_dashboard_url() {
    local url=$1 token_file=$2 token
    token=$(<"$token_file") || return 1
    echo "$url/?token=$token"
}

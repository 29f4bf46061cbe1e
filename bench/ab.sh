#!/usr/bin/env bash
# Old against new portal-auth, alternating round by round in one run (bench/alternate.py), the way
# every CLI change in docs/PERFORMANCE.md is proven: `methods` (one GET to the emulator on loopback)
# and `handle-redirect` (a fresh grant minted outside the timing before every run, saved in the
# session's keyring), each binary with its own session key.
#   bench/ab.sh OLD_PORTAL_AUTH NEW_PORTAL_AUTH [ROUNDS]   (default 61 rounds)
# Uses the emulator of the newer build ($PORTAL_AUTH_EMULATOR, else next to NEW_PORTAL_AUTH).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -z "${PORTAL_DESKTOP_SESSION_INNER:-}" ]; then
    exec script/with-desktop-session "$0" "$@"
fi
old=$(realpath "$1") new=$(realpath "$2") runs=${3:-61}
work=$(mktemp -d)
source script/lib/bench.sh
trap 'bench_cleanup; rm -rf "$work"' EXIT
prefix=$(dirname "$(dirname "$new")")
PORTAL_AUTH_EMULATOR=${PORTAL_AUTH_EMULATOR:-$(dirname "$new")/portal-auth-emulator}
started=$(script/start-emulator --binary "$PORTAL_AUTH_EMULATOR" --log "$work/emulator.log" --owner $$)
read -r base_url pid <<< "$started"
bench_pids+=("$pid")
host=${base_url#http://}
export PORTAL_API_HOST="$host" PORTAL_AUTH_EMULATOR_HOST="$host"
echo "== portal-auth methods, old vs new"
/usr/bin/python3 bench/alternate.py --runs "$runs" --warmup 3 \
    "old=$old --api-host $host methods" "new=$new --api-host $host methods"
echo "== portal-auth handle-redirect, old vs new (both through bash -c; bash's own time subtracted, 'w/ bash' beside)"
mint="/usr/bin/python3 bench/appdriver.py mint $base_url > $work/redirect"
/usr/bin/python3 bench/alternate.py --runs "$runs" --warmup 3 --shell --prepare "$mint" \
    "old=read -r uri < $work/redirect; PORTAL_SESSION_KEY=ab-old $old --api-host $host handle-redirect - <<< \"\$uri\" > /dev/null" \
    "new=read -r uri < $work/redirect; PORTAL_SESSION_KEY=ab-new $new --api-host $host handle-redirect - <<< \"\$uri\" > /dev/null"

# Shared by script/bench and script/soak, inside script/with-desktop-session. Sourced, not run.
# Expects: $work (a scratch directory the caller removes) and the repository as the current directory.

bench_pids=()   # everything started here, ended by bench_cleanup

bench_cleanup() {
    local pid
    for pid in ${bench_pids[@]+"${bench_pids[@]}"}; do kill "$pid" 2>/dev/null || true; done
    for pid in ${bench_pids[@]+"${bench_pids[@]}"}; do wait "$pid" 2>/dev/null || true; done
    bench_pids=()
}

# On failure: the end of the app's log (secrets masked, as the tests do), for a first look.
bench_show_logs() {
    [ -s "$work/app.log" ] || return 0
    echo "--- the end of portal-sign-in's log:" >&2
    tail -20 "$work/app.log" | sed -E 's/(pg_|pst_)[A-Za-z0-9_-]+|eyJ[A-Za-z0-9_.-]+/[redacted]/g' >&2
}

# The C probes (bench/*.c), built with the system compiler against the system libraries.
bench_build_probes() {
    cc -O2 -o "$work/first-pixels" bench/first-pixels.c $(pkg-config --cflags --libs x11 xdamage)
    cc -O2 -shared -fPIC -o "$work/usable-frame.so" bench/usable-frame.c $(pkg-config --cflags --libs gtk4)
    cc -O2 -o "$work/count-frames" bench/count-frames.c $(pkg-config --cflags --libs x11 xdamage)
    cc -O2 -o "$work/baseline-gtk4" bench/baseline-gtk4.c $(pkg-config --cflags --libs gtk4)
    cc -O2 -o "$work/baseline-adwaita" bench/baseline-adwaita.c $(pkg-config --cflags --libs libadwaita-1)
}

# The app as a user has it (binaries, schema, brand marks, translations), in a throwaway prefix.
# Sets $prefix.
bench_install_app() {
    prefix="$work/prefix"
    script/install --prefix "$prefix" --no-default-handler > "$work/install.log" 2>&1 \
        || { cat "$work/install.log" >&2; return 1; }
    export PORTAL_SIGN_IN="$prefix/bin/portal-sign-in"
}

# Starts the emulator on a free port with script/start-emulator (the one launcher every script uses).
# Sets $base_url and $host, and chooses it for both backends (PORTAL_AUTH_EMULATOR_HOST): nothing
# else is configured, so no ID is needed.
bench_start_emulator() {
    local started pid
    started=$(script/start-emulator --binary "$prefix/bin/portal-auth-emulator" --log "$work/emulator.log" --owner $$) || return 1
    read -r base_url pid <<< "$started"
    bench_pids+=("$pid")
    host=${base_url#http://}
    export PORTAL_API_HOST="$host" PORTAL_AUTH_EMULATOR_HOST="$host"
}

# Starts portal-sign-in and waits until it sits on its Sign-in page (read through AT-SPI).
# Sets $app_pid.
bench_start_app() {
    "$prefix/bin/portal-sign-in" > "$work/app.log" 2>&1 &
    app_pid=$!
    bench_pids+=("$app_pid")
    /usr/bin/python3 - "$app_pid" <<'EOF'
import sys
sys.path.insert(0, "bench")
import appdriver
appdriver.App(int(sys.argv[1])).on_sign_in_page()
EOF
}

bench_stop_app() {
    kill "$app_pid" 2>/dev/null || true
    wait "$app_pid" 2>/dev/null || true
}

# "median p25 p75" of the numbers on stdin (quartiles as Python's statistics.quantiles, exclusive method).
quartiles() { /usr/bin/python3 -c 'import statistics, sys
v = [float(x) for x in sys.stdin.read().split()]
q = statistics.quantiles(v, n=4) if len(v) > 1 else v * 3
print(statistics.median(v), q[0], q[2])'; }

# The median of the numbers on stdin.
median() { sort -g | awk '{ v[NR] = $1 } END { if (NR == 0) print "nan"; else if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

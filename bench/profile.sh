#!/usr/bin/env bash
# Gathers the evidence behind docs/PERFORMANCE.md ("where the time and memory go"): library and
# relocation counts, the dynamic loader's own time (LD_DEBUG=statistics), perf profiles by DSO,
# RSS by mapping at GTK's first frame (beyond the libadwaita baseline too), and a timeline of the
# steps up to the usable page (uprobes; perf probe needs root). Slow-ish (a few minutes) and
# verbose: for the engineer who optimises, not for CI.
#   bench/profile.sh [OUTDIR]     (default build/profile)
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -z "${PORTAL_DESKTOP_SESSION_INNER:-}" ]; then
    script/install-deps
    command -v perf >/dev/null || { echo "profile: needs perf (apt-get install linux-perf)" >&2; exit 1; }
    exec script/with-desktop-session "$0" "$@"
fi
out=$(realpath -m "${1:-build/profile}")
mkdir -p "$out"
work=$(mktemp -d)
source script/lib/bench.sh
# The uprobes this script adds (group pbench) are removed again at exit; no others are touched.
trap 'bench_cleanup; rm -rf "$work"; perf probe -q -d "pbench:*" 2>/dev/null || true' EXIT
bench_build_probes
bench_install_app
bench_start_emulator
gtk4="$work/baseline-gtk4" adwaita="$work/baseline-adwaita" app="$prefix/bin/portal-sign-in" cli="$prefix/bin/portal-auth"
# The shim that lets the probe see GTK's first frame and the usable page (bench/usable-frame.c).
usable=(FIRST_PIXELS_USABLE="$work/usable-frame.so" BENCH_USABLE_LABELS="Continue with Google|Continue with Apple|Sign Out…|Sign Out")
curl_methods=(curl -s -H x-portal-auth-environment-id:local-dev "$base_url/api/v3/auth/methods")

echo "== shared libraries loaded (ldd) and the dynamic loader's work before main (LD_DEBUG=statistics)" | tee "$out/loading.txt"
grep -m1 'model name' /proc/cpuinfo | tee -a "$out/loading.txt"
for name in gtk4 adwaita app cli curl; do
    case $name in
        gtk4) cmd=("$work/first-pixels" "$gtk4") binary=$gtk4 ;;
        adwaita) cmd=("$work/first-pixels" "$adwaita") binary=$adwaita ;;
        app) cmd=("$work/first-pixels" "$app") binary=$app ;;
        cli) cmd=("$cli" --api-host "$host" methods) binary=$cli ;;
        curl) cmd=("${curl_methods[@]}") binary=$(command -v curl) ;;
    esac
    libs=$(ldd "$binary" | grep -c '=>' || true)
    # One file per process (the probe writes one too): the program's is the one with most relocations.
    LD_DEBUG=statistics LD_DEBUG_OUTPUT="$work/ld-$name" "${cmd[@]}" > /dev/null 2>&1 || true
    file=$(grep -H 'number of relocations:' "$work/ld-$name".* | sort -t: -k3 -n | tail -1 | cut -d: -f1)
    echo "-- $name: $libs libraries (ldd)" | tee -a "$out/loading.txt"
    sed -n 's/^ *[0-9]*: *//p' "$file" | grep -v '^$' | head -8 | sed 's/^/   /' | tee -a "$out/loading.txt"
    rm -f "$work/ld-$name".*
done

echo "== perf stat: 20 runs each (task-clock = CPU, page-faults = memory touched)" | tee "$out/perf-stat.txt"
perf stat -r 20 -e task-clock,page-faults,context-switches -- "${curl_methods[@]}" > /dev/null 2>> "$out/perf-stat.txt"
perf stat -r 20 -e task-clock,page-faults,context-switches -- "$cli" --api-host "$host" methods > /dev/null 2>> "$out/perf-stat.txt"
cat "$out/perf-stat.txt"

echo "== perf stat: start-up to the window's map (first damage), 9 runs each (CPU time is less disturbed by a busy machine than wall time)" | tee -a "$out/perf-stat.txt"
for binary in "$adwaita" "$app"; do
    perf stat -r 9 -e task-clock,page-faults -- "$work/first-pixels" "$binary" > /dev/null 2>> "$out/perf-stat.txt"
done
sed -n '/start-up to the window/,$p' "$out/perf-stat.txt" | grep -E 'Performance|task-clock|page-faults|elapsed'

echo "== perf record: portal-auth methods x40, where the CPU goes by DSO"
for i in $(seq 40); do echo "$cli --api-host $host methods"; done > "$work/cli-loop.sh"
perf record -q -F 20000 -o "$work/cli.data" -- bash "$work/cli-loop.sh" > /dev/null 2>&1
report() { perf report "$@" --stdio --no-children -g none --percentage relative 2>/dev/null | grep -E '^ +[0-9]' || true; }
report -i "$work/cli.data" --comm portal-auth --sort dso > "$out/cli-by-dso.txt"
report -i "$work/cli.data" --comm portal-auth --sort dso,sym > "$out/cli-by-symbol.txt"
head -15 "$out/cli-by-dso.txt"

echo "== perf record: start-up to the usable page x8, libadwaita baseline vs portal-sign-in, CPU by DSO"
for name in adwaita app; do
    binary=$adwaita; [ $name = app ] && binary=$app
    for i in $(seq 8); do echo "env ${usable[*]@Q} $work/first-pixels $binary"; done > "$work/start-loop.sh"
    perf record -q -F 10000 -o "$work/start-$name.data" -- bash "$work/start-loop.sh" > /dev/null 2>&1
    comm=$(basename "$binary"); comm=${comm:0:15}
    echo "-- $name ($comm)" | tee "$out/startup-by-dso-$name.txt"
    # perf samples of the program itself only (not the probe or bash), as a share of its own samples.
    report -i "$work/start-$name.data" --comm "$comm" --sort dso >> "$out/startup-by-dso-$name.txt"
    report -i "$work/start-$name.data" --comm "$comm" --sort dso,sym > "$out/startup-by-symbol-$name.txt"
    head -16 "$out/startup-by-dso-$name.txt"
done

echo "== RSS by mapping at GTK's first frame (KiB), largest first"
for name in adwaita app; do
    binary=$adwaita; [ $name = app ] && binary=$app
    env "${usable[@]}" FIRST_PIXELS_SMAPS="$work/smaps-$name" "$work/first-pixels" "$binary" > /dev/null
    awk '/^[0-9a-f]+-[0-9a-f]+ / { name = ($6 == "" ? "[anon]" : $6) } /^Rss:/ { rss[name] += $2 }
         END { for (n in rss) if (rss[n] > 0) printf "%8d %s\n", rss[n], n }' "$work/smaps-$name" \
        | sort -rn > "$out/rss-by-mapping-$name.txt"
    echo "-- $name: total $(awk '{ s += $1 } END { print s }' "$out/rss-by-mapping-$name.txt") KiB"
    head -15 "$out/rss-by-mapping-$name.txt" || true
done
echo "-- the app beyond the libadwaita baseline, by mapping (KiB; + where the app holds more)"
awk 'NR == FNR { base[$2] = $1; next } { d = $1 - base[$2]; delete base[$2]; if (d != 0) printf "%+8d %s\n", d, $2 }
     END { for (n in base) printf "%+8d %s\n", -base[n], n }' \
    "$out/rss-by-mapping-adwaita.txt" "$out/rss-by-mapping-app.txt" | sort -rn > "$out/rss-beyond-baseline.txt"
head -20 "$out/rss-beyond-baseline.txt"
echo "== start-up timeline: ms from exec to each step, and ms inside each step (uprobes), median of 9 runs"
libs=/lib/x86_64-linux-gnu
# probe BINARY NAME FUNCTION [ret]: an uprobe at FUNCTION's entry (event NAME), with "ret" also one
# at its return (event NAME_ret), so the time inside each call can be summed.
probe() {
    perf probe -q -x "$1" --add "pbench:$2=$3" > /dev/null 2>&1 || { echo "(no probe $3 in $1)"; return 0; }
    [ "${4:-}" != ret ] || perf probe -q -x "$1" --add "pbench:$2_ret=$3%return" > /dev/null 2>&1 || true
}
# A Swift function of the app by its demangled name (release builds keep the symbol table).
swift_symbol() {
    if [ ! -s "$work/symbols" ]; then
        nm "$app" | awk '$3 ~ /^\$s/ { print $3 }' > "$work/mangled"
        swift demangle --simplified --compact < "$work/mangled" | paste -d'\t' "$work/mangled" - > "$work/symbols"
    fi
    awk -F'\t' -v want="$1" '$2 == want { print $1; exit }' "$work/symbols"
}
probe "$adwaita" main main
probe "$app" main_swift portal_sign_in_main
# What the app does before GTK starts, each step's time inside it:
probe "$libs/libc.so.6" gettext_binding bindtextdomain ret
probe "$libs/libgio-2.0.so.0" resources g_resources_register ret
if command -v swift > /dev/null; then
    probe "$app" loop_bridge "$(swift_symbol 'static MainLoopBridge.attach()')" ret
    probe "$app" name_owner_check "$(swift_symbol 'SessionBusName.owner()')" ret
    probe "$app" flow_start "$(swift_symbol 'SignInFlow.start(uris:)')" ret
fi
probe "$libs/libgio-2.0.so.0" settings_new g_settings_new ret
probe "$libs/libgio-2.0.so.0" settings_read_string g_settings_get_string ret
probe "$libs/libgio-2.0.so.0" settings_read_bool g_settings_get_boolean ret
probe "$libs/libgio-2.0.so.0" bus_get_sync g_bus_get_sync ret
probe "$libs/libgio-2.0.so.0" dbus_call_sync g_dbus_connection_call_sync ret
probe "$libs/libgio-2.0.so.0" app_register g_application_register ret
probe "$libs/libgio-2.0.so.0" presence_watch g_bus_watch_name ret
probe "$libs/libsecret-1.so.0" secret_service_get secret_service_get
probe "$libs/libsecret-1.so.0" secret_service_ready secret_service_get_finish
probe "$libs/libsecret-1.so.0" keyring_search secret_service_search
probe "$libs/libsecret-1.so.0" keyring_search_done secret_service_search_finish
probe "$libs/libsecret-1.so.0" keyring_lookup secret_password_lookupv
probe "$libs/libsecret-1.so.0" keyring_answer secret_password_lookup_finish
probe "$libs/libsoup-3.0.so.0" soup_session soup_session_new ret
probe "$libs/libgtk-4.so.1" gtk_init gtk_init ret
probe "$libs/libgtk-4.so.1" display_open gdk_display_open ret
probe "$libs/libadwaita-1.so.0" adw_init adw_init ret
probe "$libs/libgtk-4.so.1" css_from_data gtk_css_provider_load_from_data ret
probe "$libs/libgdk_pixbuf-2.0.so.0" svg_loader gdk_pixbuf_loader_new_with_type
probe "$libs/librsvg-2.so.2" svg_parse rsvg_handle_new_with_flags
probe "$libs/librsvg-2.so.2" svg_parse_stream rsvg_handle_new_from_stream_sync ret
probe "$libs/libadwaita-1.so.0" window_new adw_application_window_new
# The app makes its window and pages from .ui files in its GResource, not with the call above (which
# the baseline makes): each file's parse and build, and the time inside them.
probe "$libs/libgtk-4.so.1" ui_file gtk_builder_new_from_resource ret
probe "$libs/libgtk-4.so.1" present gtk_window_present ret
probe "$libs/libgtk-4.so.1" renderer_realize gsk_renderer_realize ret
probe "$libs/libgtk-4.so.1" first_render gsk_renderer_render
for name in adwaita app; do
    binary=$adwaita; [ $name = app ] && binary=$app
    comm=$(basename "$binary"); comm=${comm:0:15}
    : > "$work/timeline-$name"
    for i in $(seq 9); do
        perf record -q -o "$work/tl.data" -e 'pbench:*' -e sched:sched_process_exec -- env "${usable[@]}" \
            "$work/first-pixels" "$binary" > "$work/fp" 2>/dev/null || continue
        # Per run: each step's first entry (ms after the exec of the program, not of the probe), and
        # for steps probed at their return too, the calls and the ms spent inside them, per thread,
        # up to the first frame that shows the sign-in buttons (the probe's last figure).
        perf script -i "$work/tl.data" -F comm,tid,time,event 2>/dev/null | awk -v want="$comm" -v fp="$(cat "$work/fp")" '
            $1 == want { t = $3 + 0; if (!t0) t0 = t; ev = $4; sub(/:$/, "", ev); sub(/^pbench:/, "", ev)
                         if (ev ~ /_ret__return$/) { sub(/_ret__return$/, "", ev); key = ev SUBSEP $2
                             if (key in open) { inside[ev] += t - open[key]; calls[ev]++; delete open[key] } next }
                         if (!(ev in seen)) { seen[ev] = 1; order[++n] = ev; first[ev] = (t - t0) * 1000 }
                         open[ev SUBSEP $2] = t }
            END { for (i = 1; i <= n; i++) { ev = order[i]
                      printf "%s %.1f %s %s\n", ev, first[ev], (ev in calls) ? calls[ev] : "-", (ev in calls) ? sprintf("%.2f", inside[ev] * 1000) : "-" }
                  split(fp, f, " ")   # from fork, by the probe: mapped, first frame, usable page
                  printf "window_mapped(probe) %s - -\nfirst_frame(probe) %s - -\nusable_page(probe) %s - -\n", f[1], f[4], f[6] }' >> "$work/timeline-$name"
    done
    echo "-- $name: step, first entry (ms after exec), calls, ms inside them (medians of the runs)" | tee "$out/timeline-$name.txt"
    awk '{ at[$1] = at[$1] " " $2; c[$1] = c[$1] " " $3; d[$1] = d[$1] " " $4 }
         END { for (e in at) print e "|" at[e] "|" c[e] "|" d[e] }' "$work/timeline-$name" \
        | while IFS='|' read -r event at calls inside; do
              m() { tr ' ' '\n' <<< "$1" | grep -v '^$' | grep -v '^-$' | median; }
              printf '   %-22s %8.1f ms %6s calls %8s ms inside\n' "$event" "$(m "$at")" "$(m "$calls" | sed 's/^nan$/-/')" \
                  "$(m "$inside" | sed 's/^nan$/-/')"
          done | sort -k2 -n | tee -a "$out/timeline-$name.txt"
done
echo "(all of it in $out)"

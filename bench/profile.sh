#!/usr/bin/env bash
# Gathers the evidence behind docs/PERFORMANCE.md ("where the time and memory go"): library and
# relocation counts, the dynamic loader's own time (LD_DEBUG=statistics), perf profiles by DSO,
# and RSS by mapping at first pixels. Slow-ish (a minute or two) and verbose: for the engineer who
# optimises, not for CI.
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

echo "== perf stat: start-up to first pixels, 9 runs each (CPU time is less disturbed by a busy machine than wall time)" | tee -a "$out/perf-stat.txt"
for binary in "$adwaita" "$app"; do
    perf stat -r 9 -e task-clock,page-faults -- "$work/first-pixels" "$binary" > /dev/null 2>> "$out/perf-stat.txt"
done
sed -n '/start-up to first pixels/,$p' "$out/perf-stat.txt" | grep -E 'Performance|task-clock|page-faults|elapsed'

echo "== perf record: portal-auth methods x40, where the CPU goes by DSO"
for i in $(seq 40); do echo "$cli --api-host $host methods"; done > "$work/cli-loop.sh"
perf record -q -F 20000 -o "$work/cli.data" -- bash "$work/cli-loop.sh" > /dev/null 2>&1
report() { perf report "$@" --stdio --no-children -g none --percentage relative 2>/dev/null | grep -E '^ +[0-9]' || true; }
report -i "$work/cli.data" --comm portal-auth --sort dso > "$out/cli-by-dso.txt"
report -i "$work/cli.data" --comm portal-auth --sort dso,sym > "$out/cli-by-symbol.txt"
head -15 "$out/cli-by-dso.txt"

echo "== perf record: start-up to first pixels x8, libadwaita baseline vs portal-sign-in, CPU by DSO"
for name in adwaita app; do
    binary=$adwaita; [ $name = app ] && binary=$app
    for i in $(seq 8); do echo "$work/first-pixels $binary"; done > "$work/start-loop.sh"
    perf record -q -F 10000 -o "$work/start-$name.data" -- bash "$work/start-loop.sh" > /dev/null 2>&1
    comm=$(basename "$binary"); comm=${comm:0:15}
    echo "-- $name ($comm)" | tee "$out/startup-by-dso-$name.txt"
    # perf samples of the program itself only (not the probe or bash), as a share of its own samples.
    report -i "$work/start-$name.data" --comm "$comm" --sort dso >> "$out/startup-by-dso-$name.txt"
    report -i "$work/start-$name.data" --comm "$comm" --sort dso,sym > "$out/startup-by-symbol-$name.txt"
    head -16 "$out/startup-by-dso-$name.txt"
done

echo "== RSS by mapping at first pixels (KiB), largest first"
for name in adwaita app; do
    binary=$adwaita; [ $name = app ] && binary=$app
    FIRST_PIXELS_SMAPS="$work/smaps-$name" "$work/first-pixels" "$binary" > /dev/null
    awk '/^[0-9a-f]+-[0-9a-f]+ / { name = ($6 == "" ? "[anon]" : $6) } /^Rss:/ { rss[name] += $2 }
         END { for (n in rss) if (rss[n] > 0) printf "%8d %s\n", rss[n], n }' "$work/smaps-$name" \
        | sort -rn > "$out/rss-by-mapping-$name.txt"
    echo "-- $name: total $(awk '{ s += $1 } END { print s }' "$out/rss-by-mapping-$name.txt") KiB"
    head -15 "$out/rss-by-mapping-$name.txt" || true
done
echo "== start-up timeline: ms from exec to each step (uprobes, first hit per run), median of 9 runs"
libs=/lib/x86_64-linux-gnu
probe() { perf probe -q -x "$1" --add "pbench:$2=$3" > /dev/null 2>&1 || echo "(no probe $3 in $1)"; }
probe "$adwaita" main main
probe "$app" main_swift portal_sign_in_main
probe "$libs/libgio-2.0.so.0" app_register g_application_register
probe "$libs/libgio-2.0.so.0" settings_new g_settings_new
probe "$libs/libgtk-4.so.1" gtk_init gtk_init
probe "$libs/libgtk-4.so.1" display_open gdk_display_open
probe "$libs/libgtk-4.so.1" display_opened 'gdk_display_open%return'
probe "$libs/libadwaita-1.so.0" adw_init adw_init
probe "$libs/libgtk-4.so.1" css_from_data gtk_css_provider_load_from_data
probe "$libs/libsoup-3.0.so.0" soup_session soup_session_new
probe "$libs/libgdk_pixbuf-2.0.so.0" svg_loader gdk_pixbuf_loader_new_with_type
probe "$libs/libadwaita-1.so.0" window_new adw_application_window_new
probe "$libs/libgtk-4.so.1" present gtk_window_present
probe "$libs/libgtk-4.so.1" renderer_realize gsk_renderer_realize
probe "$libs/libgtk-4.so.1" first_render gsk_renderer_render
probe "$app" keyring_lookup portal_shim_keyring_lookup
for name in adwaita app; do
    binary=$adwaita; [ $name = app ] && binary=$app
    comm=$(basename "$binary"); comm=${comm:0:15}
    : > "$work/timeline-$name"
    for i in $(seq 9); do
        perf record -q -o "$work/tl.data" -e 'pbench:*' -e sched:sched_process_exec -- "$work/first-pixels" "$binary" > "$work/fp" 2>/dev/null || continue
        # Times relative to the exec of the program (not of the probe); first hit of each probe.
        perf script -i "$work/tl.data" -F comm,time,event 2>/dev/null | awk -v want="$comm" -v fp="$(cut -d' ' -f1 "$work/fp")" '
            $1 == want { t = $2 + 0; if (!t0) t0 = t; ev = $3; sub(/:$/, "", ev); sub(/^pbench:/, "", ev)
                         if (!(ev in seen)) { seen[ev] = 1; printf "%s %.1f\n", ev, (t - t0) * 1000 } }
            END { printf "first_pixels(probe) %s\n", fp }' >> "$work/timeline-$name"
    done
    echo "-- $name" | tee "$out/timeline-$name.txt"
    awk '{ v[$1] = v[$1] " " $2; if (!($1 in order)) { order[$1] = ++n; names[n] = $1 } }
         END { for (i = 1; i <= n; i++) print names[i], v[names[i]] }' "$work/timeline-$name" \
        | while read -r event values; do
              printf '   %-22s %8.1f ms\n' "$event" "$(tr ' ' '\n' <<< "$values" | grep -v '^$' | median)"
          done | sort -k2 -n | tee -a "$out/timeline-$name.txt"
done
echo "(all of it in $out)"

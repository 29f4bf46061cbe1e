"""Start-up on Wayland: fork -> the first frame the program commits to its window, and RSS then.

    wayland-first-frame.py --runs N --warmup W --json FILE NAME=COMMAND…

Runs inside a Wayland session (script/with-desktop-session --wayland). Each program is started
with WAYLAND_DEBUG=client, so libwayland writes every request the program sends to the compositor on
stderr, stamped with its own clock (CLOCK_REALTIME, microseconds); the first frame is the first
wl_surface.commit on the window's surface (the one given an xdg_surface) after a wl_buffer was
attached to it: the moment the finished pixels are handed to the compositor. Two earlier stamps of
the same run split it: "connected", the program's first request (wl_display.get_registry, as
gtk_init opens the display), and "window", the window's xdg_toplevel (the app's window realized). The fork time is taken
on the same clock, so the difference resolves microseconds and does not depend on how fast this
script reads the pipe. RSS and PSS are read from /proc when the commit line arrives, then the
program is ended. Programs run alternately, W warm-up rounds first; prints medians (min, max) and
writes every run to FILE.
"""
import argparse
import json
import os
import re
import shlex
import signal
import statistics
import subprocess
import sys
import time

STAMP = re.compile(r"^\[\s*(\d+)\.(\d{3})\]\s+->\s+(\S+)@(\d+)\.(\w+)\((.*)\)\s*$")
WRAP = 1 << 32   # libwayland prints the microseconds as an unsigned 32-bit number


def memory_kb(pid):
    rss = pss = 0
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                rss = int(line.split()[1])
    with open(f"/proc/{pid}/smaps_rollup") as rollup:
        for line in rollup:
            if line.startswith("Pss:"):
                pss = int(line.split()[1])
    return rss, pss


def first_frame(command, timeout=60.0):
    """(milliseconds from fork to the first committed frame, RSS kB, PSS kB, milliseconds to the
    display connection, milliseconds to the window's toplevel) of one start-up."""
    env = dict(os.environ, WAYLAND_DEBUG="client", GDK_BACKEND="wayland")
    started_us = time.clock_gettime_ns(time.CLOCK_REALTIME) // 1000
    process = subprocess.Popen(command, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE, text=True, errors="replace")
    window_surfaces, attached = set(), set()
    connected_us = window_us = None
    deadline = time.monotonic() + timeout
    try:
        for line in process.stderr:
            match = STAMP.match(line)
            if match:
                stamp_us = int(match.group(1)) * 1000 + int(match.group(2))
                interface, object_id, request, arguments = match.group(3), match.group(4), match.group(5), match.group(6)
                if connected_us is None:
                    connected_us = stamp_us
                if interface == "xdg_surface" and request == "get_toplevel" and window_us is None:
                    window_us = stamp_us
                if interface == "xdg_wm_base" and request == "get_xdg_surface":
                    window_surfaces.update(re.findall(r"wl_surface@(\d+)", arguments))
                elif interface == "wl_surface" and object_id in window_surfaces:
                    if request == "attach" and "wl_buffer@" in arguments:
                        attached.add(object_id)
                    elif request == "commit" and object_id in attached:
                        rss, pss = memory_kb(process.pid)
                        since_fork = lambda us: ((us if us is not None else stamp_us) - started_us) % WRAP / 1000
                        return since_fork(stamp_us), rss, pss, since_fork(connected_us), since_fork(window_us)
            if time.monotonic() > deadline:
                break
        raise RuntimeError(f"{command[0]} committed no frame (exit status {process.poll()})")
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        process.stderr.close()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=61)
    parser.add_argument("--warmup", type=int, default=2)
    parser.add_argument("--json", required=True)
    parser.add_argument("programs", nargs="+", help="NAME=COMMAND")
    options = parser.parse_args()
    programs = [entry.split("=", 1) for entry in options.programs]
    results = {name: [] for name, _ in programs}
    for round_number in range(-options.warmup, options.runs):
        # Forwards on even rounds, backwards on odd ones, as bench/alternate.py does.
        for name, command in (programs if round_number % 2 == 0 else programs[::-1]):
            measured = first_frame(shlex.split(command))
            if round_number >= 0:
                results[name].append(measured)
    print(f"{'':28} {'median ms':>10} {'p25':>8} {'p75':>8} {'min ms':>10} {'max ms':>10} {'RSS MiB':>10} {'p25':>8} {'p75':>8}"
          f" {'PSS MiB':>10} {'connected':>10} {'window':>8}")
    summary = {}
    for name, _ in programs:
        times = [run[0] for run in results[name]]
        rss = statistics.median(run[1] for run in results[name])
        pss = statistics.median(run[2] for run in results[name])
        time_quartiles = statistics.quantiles(times, n=4)
        rss_quartiles = statistics.quantiles([run[1] for run in results[name]], n=4)
        connected = statistics.median(run[3] for run in results[name])
        window = statistics.median(run[4] for run in results[name])
        summary[name] = {"median_ms": statistics.median(times), "p25_ms": time_quartiles[0], "p75_ms": time_quartiles[2],
                         "rss_kb": rss, "rss_p25_kb": rss_quartiles[0], "rss_p75_kb": rss_quartiles[2],
                         "pss_kb": pss, "connected_ms": connected, "window_ms": window, "runs": results[name]}
        print(f"{name:28} {statistics.median(times):10.1f} {time_quartiles[0]:8.1f} {time_quartiles[2]:8.1f}"
              f" {min(times):10.1f} {max(times):10.1f} {rss / 1024:10.1f} {rss_quartiles[0] / 1024:8.1f}"
              f" {rss_quartiles[2] / 1024:8.1f} {pss / 1024:10.1f} {connected:10.1f} {window:8.1f}")
    with open(options.json, "w") as out:
        json.dump(summary, out)


if __name__ == "__main__":
    sys.exit(main())

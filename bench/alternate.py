#!/usr/bin/python3
"""Times whole processes against each other, alternating them run by run, for script/bench.

    alternate.py [--runs N] [--warmup N] [--shell] [--prepare CMD] [--json FILE] NAME=COMMAND...

Every round runs each command once, in turn, forwards on even rounds and backwards on odd ones, so
a machine that gets busier or quieter during the measurement slows every command alike: on this
shared 2-core machine the load changes within seconds, and timing all runs of one command, then all
of the other (as hyperfine does) moved ratios by ±30 % between runs of the same build.

--prepare CMD runs before every timed run, outside the timing (a shell command).
--shell runs each COMMAND with `bash -c`, and subtracts the median time of `bash -c ''` measured
alternately with them, so that what is left is the command's own work (hyperfine's --shell does
the same); without it a COMMAND is split into words and run directly.

Prints, per command: median, quartiles, min, max (wall time, ms) and the median CPU time (user +
system of the process and the children it waited for); with --shell the median with bash itself
beside it. --json writes {"NAME": {"median_ms": …, "p25_ms": …, "p75_ms": …, "times_ms": […],
"cpu_ms": […], "with_shell_median_ms": …}} (the last with --shell: the median of the whole
`bash -c COMMAND`, bash included) for the summary.
"""
import argparse
import json
import os
import shlex
import statistics
import subprocess
import sys
import time


def parse():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=61)
    parser.add_argument("--warmup", type=int, default=3)
    parser.add_argument("--shell", action="store_true")
    parser.add_argument("--prepare")
    parser.add_argument("--json")
    parser.add_argument("commands", nargs="+", metavar="NAME=COMMAND")
    options = parser.parse_args()
    options.commands = [entry.split("=", 1) for entry in options.commands]
    if any(len(entry) != 2 for entry in options.commands):
        parser.error("each command is NAME=COMMAND")
    return options


def run_once(argv, prepare):
    """Wall and CPU milliseconds of one run; stdout is discarded, a failure ends the measurement."""
    if prepare:
        subprocess.run(prepare, shell=True, check=True, executable="/bin/bash")
    with open(os.devnull, "wb") as devnull:
        start = time.perf_counter()
        pid = os.posix_spawnp(argv[0], argv, os.environ, file_actions=[(os.POSIX_SPAWN_DUP2, devnull.fileno(), 1)])
        _, status, usage = os.wait4(pid, 0)
        wall = (time.perf_counter() - start) * 1000.0
    if status != 0:
        sys.exit(f"alternate: '{shlex.join(argv)}' failed (status {os.waitstatus_to_exitcode(status)})")
    return wall, (usage.ru_utime + usage.ru_stime) * 1000.0


def main():
    options = parse()
    commands = [(name, ["/bin/bash", "-c", command] if options.shell else shlex.split(command))
                for name, command in options.commands]
    if options.shell:
        commands.append(("(shell)", ["/bin/bash", "-c", ""]))
    wall = {name: [] for name, _ in commands}
    cpu = {name: [] for name, _ in commands}
    for round_number in range(-options.warmup, options.runs):
        ordered = commands if round_number % 2 == 0 else commands[::-1]
        for name, argv in ordered:
            # The shell baseline needs no prepared input.
            elapsed, used = run_once(argv, None if name == "(shell)" else options.prepare)
            if round_number >= 0:
                wall[name].append(elapsed)
                cpu[name].append(used)

    shell = statistics.median(wall.pop("(shell)")) if options.shell else 0.0
    cpu.pop("(shell)", None)
    results = {}
    print(f"{'':30} {'median':>8} {'p25':>8} {'p75':>8} {'min':>8} {'max':>8} {'CPU':>8}"
          + (f" {'w/ bash':>8}" if options.shell else "")
          + f"   (ms, {options.runs} alternating runs"
          + (f"; all but 'w/ bash' minus {shell:.1f} ms for bash itself)" if options.shell else ")"))
    for name, times in wall.items():
        with_shell = statistics.median(times)
        times = sorted(t - shell for t in times)
        quartiles = statistics.quantiles(times, n=4)
        median = statistics.median(times)
        print(f"{name:30} {median:8.1f} {quartiles[0]:8.1f} {quartiles[2]:8.1f} {times[0]:8.1f} {times[-1]:8.1f}"
              f" {statistics.median(cpu[name]):8.1f}" + (f" {with_shell:8.1f}" if options.shell else ""))
        results[name] = {"median_ms": median, "p25_ms": quartiles[0], "p75_ms": quartiles[2], "times_ms": times,
                         "cpu_ms": cpu[name], "with_shell_median_ms": with_shell}
    if options.json:
        with open(options.json, "w") as out:
            json.dump(results, out)


if __name__ == "__main__":
    main()

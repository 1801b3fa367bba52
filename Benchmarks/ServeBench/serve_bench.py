#!/usr/bin/env python3
"""`webimage serve` beside thumbor, a libvips peer (libvips_peer.py) and nginx, side by side in one run (issues 15
and 29).

Run through Benchmarks/serve_bench.sh, which installs wrk and nginx, makes the venv and the release builds.
Every side gets the same number of workers (--workers, default the number of cores); every side fetches its
sources from one nginx on loopback. Rounds alternate the sides (the first one rotates), so load from elsewhere
hits all alike; each row prints the range over rounds, the range of the per-round ratios and each side's CPU time
per request. Rows (issue 29's table): w1 cold WebP at five sizes, w2 imgproxy's JPEG workload, w3 one cached
result beside a bare Hummingbird handler and nginx, w4 100 identical cold requests at once, w5 a 7360×4912 JPEG
with each side's peak RSS; w2 and w5 also compare output quality with a reference resize. Each round of w1, w2
and w5 also runs libvips' raw ceiling (libvips_ceiling.py: the peer's processing in as many threads, no HTTP),
with a warning when the peer reaches less than 90 % of it.

Usage: serve_bench.py --binary PATH --bare-binary PATH --venv DIR [--rounds 3] [--duration 10] [--workers N]
       [--rows w1,w2,w3,w4,w5] [--profile w1|w2|w3|w5:FILE]…
"""
import argparse
import atexit
import glob
import os
import shutil
import signal
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True  # no __pycache__ beside the sources in the work tree

import images  # noqa: E402
import rows  # noqa: E402
import servers  # noqa: E402


def loadavg():
    with open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:3])


def webp_libraries(options):
    """The libwebp each probed side calls: the one `webimage` links, and Pillow's bundled copy."""
    libraries = {}
    linked = subprocess.run(["ldd", options.binary], capture_output=True, text=True).stdout
    for line in linked.splitlines():
        if line.strip().startswith("libwebp.so"):
            libraries["ours"] = os.path.realpath(line.split("=>")[1].split("(")[0].strip())
    pillow = glob.glob(os.path.join(options.venv, "lib", "python*", "site-packages", "pillow.libs", "libwebp-*.so*"))
    if pillow:
        libraries["thumbor"] = pillow[0]
    return libraries


def print_table(table):
    header = ("row", "ours", "peer", "ratio (per round)", "target", "CPU/req ours", "CPU/req peer")
    widths = [max(len(line[i]) for line in [header] + table) for i in range(len(header))]
    print()
    for line in [header] + table:
        print("  ".join(cell.ljust(width) for cell, width in zip(line, widths)).rstrip())


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", required=True)
    parser.add_argument("--bare-binary", required=True, help="webimage-benchmarks (its --bare-server, for w3)")
    parser.add_argument("--venv", required=True)
    parser.add_argument("--images", default=".build-bench/serve-images")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--duration", type=int, default=10, help="seconds of wrk per round and side")
    parser.add_argument("--workers", type=int, default=os.cpu_count())
    parser.add_argument("--rows", default="w1,w2,w3,w4,w5")
    parser.add_argument("--profile", metavar="ROW:FILE", action="append", default=[],
                        help="after the rows, perf record -g our server during a w1, w2, w3 or w5 round, report to "
                             "FILE")
    options = parser.parse_args()

    work = tempfile.mkdtemp(prefix="serve-bench-")
    processes = servers.Processes()
    probes = servers.EncodeProbes(webp_libraries(options))

    def cleanup():
        processes.stop_all()
        probes.remove()
        shutil.rmtree(work, ignore_errors=True)

    atexit.register(cleanup)
    for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(signum, lambda number, frame: sys.exit(128 + number))

    image_root = images.Fixtures(options.images).ensure()
    print("serve_bench: %d cores, %d workers per server, %d rounds, %d s of wrk per round; load average %s"
          % (os.cpu_count(), options.workers, options.rounds, options.duration, loadavg()), flush=True)

    nginx = servers.Nginx(processes, work, os.path.abspath(image_root), options.workers)
    nginx.wait("/u/probe/cold/cold-000.jpg")
    sides = {side: servers.start_side(side, processes, options, work) for side in servers.SIDES}
    for side in sides.values():
        side.wait()
    bench = rows.Bench(options, work, processes, nginx, sides, image_root, probes)
    bench.check_outputs()

    table = []
    for row in options.rows.split(","):
        print("\n== %s (load average %s)" % (row, loadavg()), flush=True)
        table.extend(getattr(bench, "row_" + row)())
    for request in options.profile:
        row, report = request.split(":", 1)
        bench.profile(row, os.path.abspath(report))

    print_table(table)
    print("load average at the end: %s" % loadavg())


if __name__ == "__main__":
    main()

"""The driver of serve_bench's rows. `Bench` holds the servers and runs wrk; the rows themselves live in
cold_rows (W1, W2, W5), hit_row (W3) and burst_row (W4). Each row returns table lines: (row, ours, peer, ratio over
rounds, target, ours's CPU per request, the peer's)."""
import json
import os
import shutil
import signal
import subprocess

import pyvips

import measure
import routes
import servers
from burst_row import BurstRow
from cold_rows import COLD, ColdRows
from hit_row import HIT_CONNECTIONS, HitRow

LUA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "urls.lua")


class Bench(ColdRows, HitRow, BurstRow):
    def __init__(self, options, work, processes, nginx, sides, image_root, probes):
        self.options, self.work, self.processes, self.probes = options, work, processes, probes
        self.nginx, self.sides = nginx, sides
        self.image_root = image_root
        self.cold_names = ["cold/cold-%03d.jpg" % i for i in range(100)]
        self.photo_names = ["photos/photos-%03d.jpg" % i for i in range(100)]
        self.files = 0

    def wrk(self, base, paths, connections, group):
        """One wrk run of --duration seconds over `paths` (wrk -t2); the result carries req/s, latencies and the
        CPU time process group `group` used per completed request. Waits for the group to go idle afterwards."""
        self.files += 1
        url_file = os.path.join(self.work, "urls-%d.txt" % self.files)
        with open(url_file, "w") as f:
            f.write("\n".join(paths) + "\n")
        threads = min(2, connections)
        env = dict(os.environ, BENCH_URLS=url_file, BENCH_THREADS=str(threads))
        duration = self.options.duration
        before = measure.cpu_ms(group)
        result = subprocess.run(["wrk", "-t", str(threads), "-c", str(connections), "-d", "%ds" % duration,
                                 "--timeout", "30s", "-s", LUA, base], env=env, capture_output=True, text=True,
                                timeout=duration + 120)
        used = measure.cpu_ms(group) - before
        measure.settle(group)
        os.remove(url_file)
        line = next((l for l in result.stdout.splitlines() if l.startswith("BENCH ")), None)
        if line is None:
            raise RuntimeError("wrk printed no result:\n%s\n%s" % (result.stdout, result.stderr))
        run = json.loads(line[6:])
        run["rate"] = run["requests"] / run["seconds"]
        run["cpu_ms"] = used / run["requests"] if run["requests"] else float("nan")
        return run

    def check_outputs(self):
        """Each side's answer for one image of each workload: status, type, size in pixels and in bytes."""
        print("\n== outputs (one request each; sizes show the encoders work alike)")
        # The last field is imgproxy's size (1024×683 and 2040×1360 fitted, rounded half away from zero): the
        # libvips peer, which works as imgproxy does, must answer exactly it.
        for names, width, height, quality, extension, imgproxy_size in (
                (self.cold_names, 256, 256, 75, "webp", (256, 171)),
                (self.photo_names, 512, 512, 80, "jpg", (512, 341))):
            for side in servers.SIDES:
                path = routes.ALL[side](self.nginx.source("check-" + side, names[1]), width, height, quality,
                                        extension)
                status, body = servers.http_get(self.sides[side].base + path, timeout=60)
                if status != 200:
                    raise RuntimeError("%s answered %d for %s: %r" % (side, status, path, body[:200]))
                image = pyvips.Image.new_from_buffer(body, "")
                loader = image.get("vips-loader")
                print("  %-8s %s → %s %dx%d, %d bytes" % (side, names[1], loader, image.width, image.height,
                                                          len(body)))
                if max(image.width, image.height) != max(width, height) or extension[:3] not in loader.replace(
                        "jpeg", "jpg"):
                    raise RuntimeError("%s made %s %dx%d, not a %s fitting %dx%d" % (
                        side, loader, image.width, image.height, extension, width, height))
                if side == "pyvips" and (image.width, image.height) != imgproxy_size:
                    raise RuntimeError("the libvips peer made %dx%d, imgproxy makes %dx%d" % (
                        image.width, image.height, *imgproxy_size))

    def profile(self, row, report):
        """perf record -g on our server during one more round of `row` (w1, w2, w3 or w5); the report goes to
        `report`: time by shared object, then by symbol."""
        ours = self.sides["ours"]
        data = os.path.join(self.work, "perf-%s.data" % row)
        print("\n== profile: perf record -g on our server (pid %d) during a %s round" % (ours.process.pid, row))
        if row == "w3":
            paths, connections = [self.hit_path()] * 2, HIT_CONNECTIONS
        elif row in COLD:
            make_paths, connections = COLD[row]
            paths = make_paths(self, "ours", "p%s" % row)
        else:
            raise RuntimeError("--profile takes w1, w2, w3 or w5, not %s" % row)
        perf = subprocess.Popen(["perf", "record", "-g", "-o", data, "-p", str(ours.process.pid)],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        try:
            run = self.wrk(ours.base, paths, connections, ours.process.pid)
        finally:
            perf.send_signal(signal.SIGINT)
            perf.wait(timeout=120)
        print("  %.1f req/s under perf" % run["rate"])
        views = (("time by shared object (self)", ["--no-children", "--sort", "dso", "--percent-limit", "0.5"]),
                 ("time by symbol (self)", ["--no-children", "--sort", "dso,symbol", "--percent-limit", "0.4"]),
                 ("time by function with its callees (inclusive)", ["--children", "--sort", "symbol",
                                                                    "--percent-limit", "2"]))
        demangle = shutil.which("swift-demangle")
        with open(report, "w") as out:
            for title, arguments in views:
                text = subprocess.run(["perf", "report", "-i", data, "--stdio", "-g", "none"] + arguments,
                                      capture_output=True, text=True).stdout
                if demangle:
                    text = subprocess.run([demangle, "--simplified", "--compact"], input=text, capture_output=True,
                                          text=True).stdout
                lines = [" ".join(line.split())[:220] for line in text.splitlines()
                         if line.strip() and not line.startswith("#")]
                out.write("### %s, %s row, %.1f req/s under perf\n%s\n\n" % (title, row, run["rate"],
                                                                             "\n".join(lines)))
        print("  report written to %s" % report)

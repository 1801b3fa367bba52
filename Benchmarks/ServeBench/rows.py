"""The rows of serve_bench. Each returns table lines: (row, ours, peer, ratio over rounds, target)."""
import http.client
import json
import os
import shutil
import signal
import statistics
import subprocess
import threading
import time

import pyvips

import routes
import servers

LUA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "urls.lua")
SIDES = ("ours", "thumbor", "pyvips")


def span(values, fmt="%.0f", unit=""):
    low, high = min(values), max(values)
    text = fmt % low if fmt % low == fmt % high else "%s–%s" % (fmt % low, fmt % high)
    return text + unit


def ratios(ours, peer, fmt="%.2f"):
    """The range and median of the per-round ratios ours ÷ peer."""
    values = [a / b for a, b in zip(ours, peer) if b]
    return "%s× (median %s)" % (span(values, fmt), fmt % statistics.median(values)) if values else "n/a"


def rotated(items, round_index):
    items = list(items)
    shift = round_index % len(items)
    return items[shift:] + items[:shift]


def vm_hwm_mb(pid):
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    raise RuntimeError("no VmHWM for %d" % pid)


class Bench:
    def __init__(self, options, work, processes, nginx, sides, image_root, probes):
        self.options, self.work, self.processes, self.probes = options, work, processes, probes
        self.nginx, self.sides = nginx, sides
        self.image_root = image_root
        self.cold_names = ["cold/cold-%03d.jpg" % i for i in range(100)]
        self.photo_names = ["photos/photos-%03d.jpg" % i for i in range(100)]
        self.files = 0

    # wrk

    def wrk(self, base, paths, threads, connections):
        self.files += 1
        url_file = os.path.join(self.work, "urls-%d.txt" % self.files)
        with open(url_file, "w") as f:
            f.write("\n".join(paths) + "\n")
        env = dict(os.environ, BENCH_URLS=url_file, BENCH_THREADS=str(threads))
        duration = self.options.duration
        result = subprocess.run(["wrk", "-t", str(threads), "-c", str(connections), "-d", "%ds" % duration,
                                 "--timeout", "30s", "-s", LUA, base], env=env, capture_output=True, text=True,
                                timeout=duration + 120)
        os.remove(url_file)
        line = next((l for l in result.stdout.splitlines() if l.startswith("BENCH ")), None)
        if line is None:
            raise RuntimeError("wrk printed no result:\n%s\n%s" % (result.stdout, result.stderr))
        run = json.loads(line[6:])
        run["rate"] = run["requests"] / run["seconds"]
        return run

    def cold_rounds(self, label, names, width, height, quality, extension, connections, per_second):
        """Every side, every round, each request a source URL nobody has seen (a fresh nonce in its path)."""
        runs = {side: [] for side in SIDES}
        count = per_second * self.options.duration
        for r in range(self.options.rounds):
            for side in rotated(SIDES, r):
                route = routes.ALL[side]
                paths = [route(self.nginx.source("%s%d-%s-%d" % (label, r, side, i), names[i % len(names)]),
                               width, height, quality, extension) for i in range(count)]
                run = self.wrk(self.sides[side].base, paths, min(2, connections), connections)
                runs[side].append(run)
                problems = []
                if run["wraps"]:
                    problems.append("RAN OUT OF DISTINCT URLS (%d wraps): not all cold" % run["wraps"])
                if run["errors"] or run["status_errors"]:
                    problems.append("%d socket errors, %d non-2xx" % (run["errors"], run["status_errors"]))
                print("  round %d %-8s %7.1f req/s  p50 %7.1f ms  p95 %7.1f ms  (%d requests) %s"
                      % (r + 1, side, run["rate"], run["p50_ms"], run["p95_ms"], run["requests"],
                         "; ".join(problems)), flush=True)
        return runs

    def cold_table(self, title, runs, targets):
        lines = []
        ours = runs["ours"]
        for peer in ("thumbor", "pyvips"):
            theirs = runs[peer]
            lines.append(("%s: req/s vs %s" % (title, peer), span([r["rate"] for r in ours], "%.1f"),
                          span([r["rate"] for r in theirs], "%.1f"),
                          ratios([r["rate"] for r in ours], [r["rate"] for r in theirs]), targets.get(peer, "")))
            for key in ("p50_ms", "p95_ms"):
                lines.append(("%s: %s vs %s (ratio = time)" % (title, key[:3], peer),
                              span([r[key] for r in ours], "%.1f", " ms"), span([r[key] for r in theirs], "%.1f", " ms"),
                              ratios([r[key] for r in ours], [r[key] for r in theirs]), ""))
        return lines

    # rows

    def check_outputs(self):
        """Each side's answer for one image of each workload: status, type, size in pixels and in bytes."""
        print("\n== outputs (one request each; sizes show the encoders work alike)")
        for names, width, height, quality, extension in ((self.cold_names, 256, 256, 75, "webp"),
                                                         (self.photo_names, 512, 512, 80, "jpg")):
            for side in SIDES:
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

    def row_cold(self):
        print("  1024×683 JPEG → fit 256×256 WebP q75, every URL distinct; wrk -t2 -c%d; ours signed (--key/--salt)"
              % (2 * self.options.workers))
        runs = self.cold_rounds("c", self.cold_names, 256, 256, 75, "webp", 2 * self.options.workers, 600)
        return self.cold_table("cold 1024→256 WebP q75", runs,
                               {"thumbor": "≥ 2×", "pyvips": "≥ 1.2×"})

    def row_imgproxy(self):
        print("  imgproxy's workload: 100 photos 2040×1360 → fit 512×512 JPEG q80, wrk -t2 -c2, every URL distinct")
        runs = self.cold_rounds("i", self.photo_names, 512, 512, 80, "jpg", 2, 300)
        return self.cold_table("imgproxy 2040→512 JPEG q80 c2", runs, {})

    def row_warm(self):
        """Our memory hits beside nginx sending the same result bytes from files."""
        ours = self.sides["ours"]
        paths = self.warm_paths()
        body = open(os.path.join(self.nginx.results, "w000.webp"), "rb").read()
        static = ["/r/w%03d.webp" % i for i in range(len(paths))]
        rates = {"ours": [], "nginx": []}
        print("  100 results of the cold row, each already a hit; wrk -t2 -c8 cycling over them")
        for r in range(self.options.rounds):
            for side in rotated(("ours", "nginx"), r):
                base, urls = (ours.base, paths) if side == "ours" else (self.nginx.base, static)
                run = self.wrk(base, urls, 2, 8)
                rates[side].append(run["rate"])
                print("  round %d %-6s %9.0f req/s  p50 %6.2f ms  p95 %6.2f ms  %s" % (
                    r + 1, side, run["rate"], run["p50_ms"], run["p95_ms"],
                    "%d socket errors, %d non-2xx" % (run["errors"], run["status_errors"])
                    if run["errors"] or run["status_errors"] else ""), flush=True)
        return [("warm hits (%d B WebP) vs nginx static: req/s" % len(body), span(rates["ours"]),
                 span(rates["nginx"]), ratios(rates["ours"], rates["nginx"]), "≥ 0.5×")]

    def warm_paths(self):
        """Our paths of the warm row, each requested twice (made, then a hit); the bytes go to nginx's /r/."""
        ours = self.sides["ours"]
        paths = [routes.ours(self.nginx.source("warm", name), 256, 256, 75, "webp") for name in self.cold_names]
        for index, path in enumerate(paths):
            for _ in range(2):
                status, body = servers.http_get(ours.base + path, timeout=60)
                if status != 200:
                    raise RuntimeError("ours answered %d for %s" % (status, path))
            with open(os.path.join(self.nginx.results, "w%03d.webp" % index), "wb") as f:
                f.write(body)
        return paths

    def burst(self, base, path, count=100):
        """`count` requests for one path at once, each on its own connection opened beforehand."""
        host, port = base.split("//")[1].split(":")
        connections = [http.client.HTTPConnection(host, int(port), timeout=60) for _ in range(count)]
        for connection in connections:
            connection.connect()
        statuses = [None] * count
        gate = threading.Barrier(count + 1)

        def one(index):
            gate.wait()
            connections[index].request("GET", path)
            response = connections[index].getresponse()
            response.read()
            statuses[index] = response.status

        threads = [threading.Thread(target=one, args=(i,)) for i in range(count)]
        for thread in threads:
            thread.start()
        gate.wait()
        start = time.monotonic()
        for thread in threads:
            thread.join()
        wall = time.monotonic() - start
        for connection in connections:
            connection.close()
        return wall, statuses

    def counted_burst(self, side, path):
        """(wall seconds, statuses, encodes or None) of one burst; encodes from a uprobe on WebPEncode (ours,
        thumbor) or the pyvips server's own counter."""
        server = self.sides[side]
        burst = lambda: self.burst(server.base, path)
        if side == "pyvips":
            before = server.encodes()
            wall, statuses = burst()
            return wall, statuses, server.encodes() - before
        (wall, statuses), encodes = self.probes.count(side, servers.group_pids(server.process.pid), burst)
        return wall, statuses, encodes

    def row_burst(self):
        print("  100 identical requests at once for a source nobody has fetched (1024 px → 256 px WebP);")
        print("  origin fetches from nginx's log, encodes from uprobes on WebPEncode (pyvips: its own counter)")
        found = {side: {"fetches": [], "encodes": [], "wall": []} for side in SIDES}
        for r in range(self.options.rounds):
            for side in rotated(SIDES, r):
                server = self.sides[side]
                nonce = "b%d-%s" % (r, side)
                path = routes.ALL[side](self.nginx.source(nonce, self.cold_names[50]), 256, 256, 75, "webp")
                downloads = server.downloads() if side == "ours" else None
                wall, statuses, encodes = self.counted_burst(side, path)
                time.sleep(0.3)
                fetches = self.nginx.fetches("/u/%s/" % nonce)
                found[side]["fetches"].append(fetches)
                found[side]["wall"].append(wall * 1000)
                if encodes is not None:
                    found[side]["encodes"].append(encodes)
                bad = [s for s in statuses if s != 200]
                print("  round %d %-8s %6.0f ms  origin fetches %3d%s  encodes %s  %s" % (
                    r + 1, side, wall * 1000, fetches,
                    "" if downloads is None else " (/metrics: %d downloads)" % (server.downloads() - downloads),
                    "n/a" if encodes is None else encodes,
                    "non-200: %s" % sorted(set(bad)) if bad else "all 200"), flush=True)
        lines = []
        for peer in ("thumbor", "pyvips"):
            ours, theirs = found["ours"], found[peer]
            lines += [
                ("100 identical cold: origin fetches vs %s" % peer, span(ours["fetches"]), span(theirs["fetches"]),
                 "", "1"),
                ("100 identical cold: encodes vs %s" % peer, span(ours["encodes"]) if ours["encodes"] else "n/a",
                 span(theirs["encodes"]) if theirs["encodes"] else "n/a", "", "1"),
                ("100 identical cold: wall vs %s (ratio = time)" % peer, span(ours["wall"], unit=" ms"),
                 span(theirs["wall"], unit=" ms"), ratios(ours["wall"], theirs["wall"]), ""),
            ]
        return lines

    def rss_round(self, side, r):
        name = "rss%d-%s" % (r, side)
        if side == "ours":
            server = servers.Ours(self.processes, os.path.abspath(self.options.binary), self.work,
                                  self.options.workers, name=name)
        else:
            server = servers.PyvipsServer(self.processes, self.options.venv, self.work, self.options.workers,
                                          name=name)
        try:
            server.wait()
            idle = vm_hwm_mb(server.process.pid)
            paths = [routes.ALL[side](self.nginx.source("%s-%d" % (name, i), "large/large-000.jpg"), 500, 500, 80,
                                      "jpg") for i in range(4)]
            statuses = [None] * 4

            def one(index):
                statuses[index] = servers.http_get(server.base + paths[index], timeout=120)[0]

            threads = [threading.Thread(target=one, args=(i,)) for i in range(4)]
            start = time.monotonic()
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            wall = time.monotonic() - start
            peak = vm_hwm_mb(server.process.pid)
            print("  round %d %-8s VmHWM idle %5.1f MB, after 4 requests %6.1f MB, %5.2f s, statuses %s"
                  % (r + 1, side, idle, peak, wall, statuses), flush=True)
            if statuses != [200] * 4:
                raise RuntimeError("%s answered %s" % (side, statuses))
            return peak
        finally:
            self.processes.stop(server.process)

    def row_rss(self):
        print("  a fresh server per round; 4 requests at once, 7360×4912 JPEG (%.1f MB) → fit 500×500 JPEG q80"
              % (os.path.getsize(os.path.join(self.image_root, "large/large-000.jpg")) / 1e6))
        peaks = {"ours": [], "pyvips": []}
        for r in range(self.options.rounds):
            for side in rotated(("ours", "pyvips"), r):
                peaks[side].append(self.rss_round(side, r))
        return [("VmHWM, 4 × 7360×4912 JPEG → fit 500 vs pyvips", span(peaks["ours"], "%.0f", " MB"),
                 span(peaks["pyvips"], "%.0f", " MB"), ratios(peaks["ours"], peaks["pyvips"]), "≤ 200 MB")]

    def profile(self, row, report):
        """perf record -g on our server during one more round of `row` (cold or warm); the report goes to
        `report`: time by shared object, then by symbol."""
        ours = self.sides["ours"]
        data = os.path.join(self.work, "perf-%s.data" % row)
        print("\n== profile: perf record -g on our server (pid %d) during a %s round" % (ours.process.pid, row))
        if row == "warm":
            paths, connections = self.warm_paths(), 8
        else:
            paths = [routes.ours(self.nginx.source("p-%d" % i, self.cold_names[i % 100]), 256, 256, 75, "webp")
                     for i in range(600 * self.options.duration)]
            connections = 2 * self.options.workers
        perf = subprocess.Popen(["perf", "record", "-g", "-o", data, "-p", str(ours.process.pid)],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        try:
            run = self.wrk(ours.base, paths, 2, connections)
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

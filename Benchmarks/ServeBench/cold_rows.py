"""W1, W2 and W5: every request names a source URL no server has seen (a fresh nonce in nginx's path), so every
side fetches, decodes and encodes (W1 on purpose asks for five sizes of each source: ours may fetch it once)."""
import os
import statistics

import measure
import quality
import routes
import servers

W1_BOXES = tuple((width, width) for width in (256, 240, 224, 208, 192))
LARGE = "large/large-000.jpg"


def row_work(bench, row):
    """(source names, boxes W×H, quality, format) of a cold row: its URLs and libvips' raw ceiling both do it."""
    return {"w1": (bench.cold_names, W1_BOXES, 75, "webp"),
            "w2": (bench.photo_names, ((512, 512),), 80, "jpg"),
            "w5": ([LARGE], ((500, 500),), 80, "jpg")}[row]


def w1_paths(bench, side, tag):
    """Consecutive groups of 500 (100 fresh sources × 5 widths, one nonce a group, enough groups that wrk never
    wraps); within a group each source's 5 requests are 100 apart, each pass over the sources at other widths."""
    route = routes.ALL[side]
    names, boxes, q, extension = row_work(bench, "w1")
    paths = []
    for group in range(-(-1000 * bench.options.duration // 500)):
        for turn in range(len(boxes)):
            for index, name in enumerate(names):
                width, height = boxes[(index + turn) % len(boxes)]
                paths.append(route(bench.nginx.source("%s-%d" % (tag, group), name), width, height, q, extension))
    return paths


def one_box_paths(bench, side, tag, row, per_second):
    """A row asking one box of each source in turn, every URL distinct: `per_second` URLs per second of wrk."""
    route = routes.ALL[side]
    names, ((width, height),), q, extension = row_work(bench, row)
    return [route(bench.nginx.source("%s-%d" % (tag, i), names[i % len(names)]), width, height, q, extension)
            for i in range(per_second * bench.options.duration)]


def w2_paths(bench, side, tag):
    return one_box_paths(bench, side, tag, "w2", 300)


def w5_paths(bench, side, tag):
    return one_box_paths(bench, side, tag, "w5", 40)


# Each cold row's paths and wrk connections (--profile runs one more round of ours with them).
COLD = {"w1": (w1_paths, 4), "w2": (w2_paths, 2), "w5": (w5_paths, 4)}


class ColdRows:
    def cold_rounds(self, row, fresh=False):
        """Every side, every round, the sides' order rotating. `fresh`: a new server per side and round, so its
        VmHWM is this workload's peak."""
        make_paths, connections = COLD[row]
        runs = {side: [] for side in servers.SIDES + ("ceiling",)}
        for r in range(self.options.rounds):
            for side in measure.rotated(servers.SIDES, r):
                tag = "%s-%d-%s" % (row, r, side)
                server = servers.start_side(side, self.processes, self.options, self.work, tag) if fresh \
                    else self.sides[side]
                try:
                    if fresh:
                        server.wait()
                    run = self.wrk(server.base, make_paths(self, side, tag), connections, server.process.pid)
                    if fresh:
                        run["peak_mb"] = measure.peak_rss_mb(server.process.pid)
                finally:
                    if fresh:
                        self.processes.stop(server.process)
                run["fetches"] = self.nginx.fetches("/u/%s-" % tag)
                runs[side].append(run)
                self.print_round(r, side, run)
            runs["ceiling"].append(self.ceiling(row))
            print("  round %d ceiling  %7.1f img/s  CPU %6.1f ms/image: libvips_ceiling.py, the peer's processing "
                  "in %d threads, no HTTP" % (r + 1, runs["ceiling"][-1]["rate"], runs["ceiling"][-1]["cpu_ms"],
                                              self.options.workers), flush=True)
        return runs

    def ceiling(self, row):
        """libvips' raw ceiling for `row`: the libvips peer's processing of the row's sources and boxes, from memory,
        in as many threads as the peer has workers, for --duration seconds."""
        names, boxes, q, extension = row_work(self, row)
        return servers.libvips_ceiling(self.options.venv, self.options.workers, self.options.duration, q,
                                       extension, boxes, [os.path.join(self.image_root, name) for name in names])

    @staticmethod
    def print_round(r, side, run):
        problems = []
        if run["wraps"]:
            problems.append("RAN OUT OF DISTINCT URLS (%d wraps): not all cold" % run["wraps"])
        if run["errors"] or run["status_errors"]:
            problems.append("%d socket errors, %d non-2xx" % (run["errors"], run["status_errors"]))
        print("  round %d %-8s %7.1f req/s  p50 %7.1f ms  p95 %7.1f ms  CPU %6.1f ms/request (%.2f cores)  "
              "%d requests, %d origin fetches%s %s" % (r + 1, side, run["rate"], run["p50_ms"], run["p95_ms"],
                                                       run["cpu_ms"], run["cpu_ms"] * run["rate"] / 1000,
                                                       run["requests"], run["fetches"],
                                          "  peak RSS %.0f MB" % run["peak_mb"] if "peak_mb" in run else "",
                                          "; ".join(problems)), flush=True)

    @staticmethod
    def throughput_lines(title, runs, targets):
        """One line a peer: req/s of both, the per-round ratios, the target and CPU per request of both."""
        ours = runs["ours"]
        lines = []
        for peer in ("thumbor", "pyvips"):
            theirs = runs[peer]
            lines.append(("%s: req/s vs %s" % (title, peer), measure.span([r["rate"] for r in ours], "%.1f"),
                          measure.span([r["rate"] for r in theirs], "%.1f"),
                          measure.ratios([r["rate"] for r in ours], [r["rate"] for r in theirs]),
                          targets.get(peer, ""), measure.span([r["cpu_ms"] for r in ours], "%.1f", " ms"),
                          measure.span([r["cpu_ms"] for r in theirs], "%.1f", " ms")))
        return lines

    @staticmethod
    def ceiling_lines(title, runs):
        """The libvips peer beside libvips' raw ceiling (printed, with a warning under 90 % of it) and a table line."""
        peer, ceiling = runs["pyvips"], runs["ceiling"]
        peer_rates, ceiling_rates = [r["rate"] for r in peer], [r["rate"] for r in ceiling]
        share = statistics.median(p / c for p, c in zip(peer_rates, ceiling_rates))
        print("  libvips raw ceiling: %s img/s, %s ms CPU per image; the libvips peer: %s req/s, %s ms CPU per "
              "request (median %.1f %% of the ceiling)" % (
                  measure.span(ceiling_rates, "%.1f"), measure.span([r["cpu_ms"] for r in ceiling], "%.1f"),
                  measure.span(peer_rates, "%.1f"), measure.span([r["cpu_ms"] for r in peer], "%.1f"), share * 100))
        if share < 0.9:
            print("  WARNING: the libvips peer reaches only %.1f %% of libvips' raw ceiling: serving it costs more "
                  "than 10 %%, so a win over the peer is partly a win over its server" % (share * 100))
        return [("%s: libvips peer vs its raw ceiling (ours column: peer)" % title, measure.span(peer_rates, "%.1f"),
                 measure.span(ceiling_rates, "%.1f"), measure.ratios(peer_rates, ceiling_rates), "≥ 0.9×",
                 measure.span([r["cpu_ms"] for r in peer], "%.1f", " ms"),
                 measure.span([r["cpu_ms"] for r in ceiling], "%.1f", " ms"))]

    def row_w1(self):
        print("  W1: 100 × 1024×683 JPEG → fit WebP q75 at 5 widths each (256…192), wrk -t2 -c4, a fresh nonce "
              "per 500 requests (ours may fetch a source once for its 5 sizes)")
        runs = self.cold_rounds("w1")
        targets = {"thumbor": "≥ 2×", "pyvips": "≥ 1.5×"}
        title = "W1 1024→5 widths WebP q75 c4"
        return (self.throughput_lines(title, runs, targets) + self.ceiling_lines(title, runs)
                + quality.compare(self, "W1", self.cold_names[:5], 256, 256, 75, "webp"))

    def row_w2(self):
        print("  W2, imgproxy's workload: 100 photos 2040×1360 → fit 512×512 JPEG q80, wrk -t2 -c2, every URL "
              "distinct")
        runs = self.cold_rounds("w2")
        title = "W2 2040→512 JPEG q80 c2"
        lines = self.throughput_lines(title, runs, {"pyvips": "≥ 1.2×"}) + self.ceiling_lines(title, runs)
        return lines + quality.compare(self, "W2", self.photo_names[:5], 512, 512, 80, "jpg")

    def row_w5(self):
        print("  W5: one 7360×4912 JPEG → fit 500×500 JPEG q80, every URL distinct, wrk -t2 -c4; a fresh server "
              "per side and round (peak RSS = VmHWM, thumbor: its largest process)")
        runs = self.cold_rounds("w5", fresh=True)
        title = "W5 7360→500 JPEG q80 c4"
        lines = self.throughput_lines(title, runs, {"pyvips": "≥ 1.2×"}) + self.ceiling_lines(title, runs)
        ours = [r["peak_mb"] for r in runs["ours"]]
        for peer in ("thumbor", "pyvips"):
            theirs = [r["peak_mb"] for r in runs[peer]]
            lines.append(("W5 peak RSS (VmHWM) vs %s (ratio = memory)" % peer, measure.span(ours, unit=" MB"),
                          measure.span(theirs, unit=" MB"), measure.ratios(ours, theirs), "ours ≤ 100 MB", "", ""))
        return lines + quality.compare(self, "W5", [LARGE], 500, 500, 80, "jpg")

"""W3: one cached result under load. Ours answers it from its result cache; beside it the framework's own
ceiling (a bare Hummingbird handler sending the same bytes from memory) and nginx sending them from a file, so
the row separates what the server adds from what Hummingbird costs."""
import os

import measure
import routes
import servers

HIT_CONNECTIONS = 64
HIT_FILE = "hit.webp"


class HitRow:
    def hit_path(self):
        """Our path for one 256 px WebP, requested twice so it is a hit; its bytes go to nginx's /r/ folder."""
        ours = self.sides["ours"]
        path = routes.ours(self.nginx.source("hit", self.cold_names[0]), 256, 256, 75, "webp")
        for _ in range(2):
            status, body = servers.http_get(ours.base + path, timeout=60)
            if status != 200:
                raise RuntimeError("ours answered %d for %s" % (status, path))
        with open(os.path.join(self.nginx.results, HIT_FILE), "wb") as f:
            f.write(body)
        return path

    def row_w3(self):
        path = self.hit_path()
        file = os.path.join(self.nginx.results, HIT_FILE)
        bare = servers.BareServer(self.processes, os.path.abspath(self.options.bare_binary), self.work, file)
        try:
            bare.wait()
            targets = {"ours": (self.sides["ours"], path), "bare": (bare, "/" + HIT_FILE),
                       "nginx": (self.nginx, "/r/" + HIT_FILE)}
            for side, (server, side_path) in targets.items():
                status, body = servers.http_get(server.base + side_path)
                if status != 200 or body != open(file, "rb").read():
                    raise RuntimeError("%s did not answer the hit's bytes (status %d)" % (side, status))
            print("  W3: one cached result (%d B WebP), wrk -t2 -c%d on one path: ours (a hit), a bare Hummingbird "
                  "handler (bytes in memory), nginx (a file)" % (os.path.getsize(file), HIT_CONNECTIONS))
            runs = {side: [] for side in targets}
            for r in range(self.options.rounds):
                for side in measure.rotated(targets, r):
                    server, side_path = targets[side]
                    # urls.lua gives each wrk thread its own lines: one per thread.
                    run = self.wrk(server.base, [side_path] * 2, HIT_CONNECTIONS, server.process.pid)
                    runs[side].append(run)
                    problems = "%d socket errors, %d non-2xx" % (run["errors"], run["status_errors"]) \
                        if run["errors"] or run["status_errors"] else ""
                    print("  round %d %-6s %9.0f req/s  p50 %6.2f ms  p95 %6.2f ms  CPU %6.3f ms/request (%.2f cores)"
                          "  %s" % (r + 1, side, run["rate"], run["p50_ms"], run["p95_ms"], run["cpu_ms"],
                                    run["cpu_ms"] * run["rate"] / 1000, problems), flush=True)
        finally:
            self.processes.stop(bare.process)
        lines = []
        pairs = (("ours", "nginx", "≥ 0.5×"), ("ours", "bare", "≥ 0.8×"), ("bare", "nginx", ""))
        for first, second, target in pairs:
            mine, theirs = runs[first], runs[second]
            title = "W3 one hit c64: req/s %s vs %s" % (first, second)
            if first != "ours":
                title += " (ours column: %s)" % first
            lines.append((title, measure.span([r["rate"] for r in mine]), measure.span([r["rate"] for r in theirs]),
                          measure.ratios([r["rate"] for r in mine], [r["rate"] for r in theirs]), target,
                          measure.span([r["cpu_ms"] for r in mine], "%.3f", " ms"),
                          measure.span([r["cpu_ms"] for r in theirs], "%.3f", " ms")))
        return lines

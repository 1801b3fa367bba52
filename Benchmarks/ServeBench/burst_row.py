"""W4: 100 identical requests at once for a source nobody has fetched: does a side fetch and encode it once?"""
import http.client
import threading
import time

import measure
import routes
import servers


def burst(base, path, count=100):
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


class BurstRow:
    def counted_burst(self, side, path):
        """(wall seconds, statuses, encodes or None, CPU ms) of one burst; encodes from a uprobe on WebPEncode
        (ours, thumbor) or the pyvips server's own counter."""
        server = self.sides[side]
        group = server.process.pid
        before = measure.cpu_ms(group)
        if side == "pyvips":
            encodes_before = server.encodes()
            wall, statuses = burst(server.base, path)
            encodes = server.encodes() - encodes_before
        else:
            (wall, statuses), encodes = self.probes.count(side, servers.group_pids(group),
                                                          lambda: burst(server.base, path))
        measure.settle(group)
        return wall, statuses, encodes, measure.cpu_ms(group) - before

    def row_w4(self):
        print("  W4: 100 identical requests at once for a source nobody has fetched (1024 px → 256 px WebP);")
        print("  origin fetches from nginx's log, encodes from uprobes on WebPEncode (pyvips: its own counter)")
        found = {side: {"fetches": [], "encodes": [], "wall": [], "cpu": []} for side in servers.SIDES}
        for r in range(self.options.rounds):
            for side in measure.rotated(servers.SIDES, r):
                server = self.sides[side]
                nonce = "b%d-%s" % (r, side)
                path = routes.ALL[side](self.nginx.source(nonce, self.cold_names[50]), 256, 256, 75, "webp")
                downloads = server.downloads() if side == "ours" else None
                wall, statuses, encodes, cpu = self.counted_burst(side, path)
                fetches = self.nginx.fetches("/u/%s/" % nonce)
                found[side]["fetches"].append(fetches)
                found[side]["wall"].append(wall * 1000)
                found[side]["cpu"].append(cpu / len(statuses))
                if encodes is not None:
                    found[side]["encodes"].append(encodes)
                bad = [s for s in statuses if s != 200]
                print("  round %d %-8s %6.0f ms  CPU %5.1f ms/request  origin fetches %3d%s  encodes %s  %s" % (
                    r + 1, side, wall * 1000, cpu / len(statuses), fetches,
                    "" if downloads is None else " (/metrics: %d downloads)" % (server.downloads() - downloads),
                    "n/a" if encodes is None else encodes,
                    "non-200: %s" % sorted(set(bad)) if bad else "all 200"), flush=True)
        lines = []
        for peer in ("thumbor", "pyvips"):
            ours, theirs = found["ours"], found[peer]
            lines += [
                ("W4 100 identical cold: origin fetches vs %s" % peer, measure.span(ours["fetches"]),
                 measure.span(theirs["fetches"]), "", "1", "", ""),
                ("W4 100 identical cold: encodes vs %s" % peer,
                 measure.span(ours["encodes"]) if ours["encodes"] else "n/a",
                 measure.span(theirs["encodes"]) if theirs["encodes"] else "n/a", "", "1", "", ""),
                ("W4 100 identical cold: wall vs %s (ratio = time)" % peer, measure.span(ours["wall"], unit=" ms"),
                 measure.span(theirs["wall"], unit=" ms"), measure.ratios(ours["wall"], theirs["wall"]), "",
                 measure.span(ours["cpu"], "%.1f", " ms"), measure.span(theirs["cpu"], "%.1f", " ms")),
            ]
        return lines

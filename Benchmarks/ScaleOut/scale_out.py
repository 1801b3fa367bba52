"""Several `webimage serve` instances behind nginx, sharing a Redis Cluster and an S3 store, under a mixed
cold/warm load while one instance and one Redis master are killed with SIGKILL (see scale_out.sh).

Each result URL has a source URL of its own, so the origin's fetches per distinct URL say how often a result was
made again instead of shared (target ≤ 1.1). Every 200 body is hashed and checked afterwards against the same URL
answered by a reference instance with no shared tier (target: zero wrong bytes)."""
import argparse
import hashlib
import http.client
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Soak"))
import fixtures  # noqa: E402  (the soak's photo-like image maker)
import stack  # noqa: E402

FORMATS = ["webp", "jpg", "avif"]
COUNTERS = ["swiftwebimage_serve_result_cache_hits_total", "swiftwebimage_shared_cache_hits_total",
            "swiftwebimage_shared_cache_errors_total", "swiftwebimage_result_store_hits_total",
            "swiftwebimage_result_store_errors_total", "swiftwebimage_serve_source_downloads_total"]


class Load:
    """Closed-loop clients over keep-alive connections to nginx; every answer kept as (time, seconds, status, URL,
    body hash)."""

    def __init__(self, port, sources, cold_share, seed):
        self.port, self.cold_share = port, cold_share
        rng = random.Random(seed)
        self.pool = [(index, name, width, fmt) for index, (name, width, fmt) in enumerate(
            (name, width, fmt) for name in sources for width in range(64, 1024) for fmt in FORMATS)]
        rng.shuffle(self.pool)
        self.next_cold = 0
        self.answered = []
        self.records = []
        self.lock = threading.Lock()
        self.start = None

    def path(self, origin, item):
        index, name, width, fmt = item
        return stack.image_path("rs:fit:%d:%d/q:75" % (width, width), origin.url("v%d/%s" % (index, name)), fmt)

    def run(self, origin, seconds, clients, seed):
        self.start = time.monotonic()
        threads = [threading.Thread(target=self.client, args=(origin, seconds, random.Random(seed + n)))
                   for n in range(clients)]
        for thread in threads:
            thread.start()
        return threads

    def client(self, origin, seconds, rng):
        connection = None
        while time.monotonic() - self.start < seconds:
            with self.lock:
                cold = not self.answered or rng.random() < self.cold_share
                if cold:
                    item = self.pool[self.next_cold]
                    self.next_cold += 1
                else:
                    item = rng.choice(self.answered)
            path = self.path(origin, item)
            began = time.monotonic()
            status, digest = None, None
            try:
                if connection is None:
                    connection = http.client.HTTPConnection(stack.HOST, self.port, timeout=60)
                connection.request("GET", path)
                response = connection.getresponse()
                body = response.read()
                status = response.status
                digest = hashlib.sha256(body).hexdigest() if status == 200 else None
                if response.getheader("Connection", "").lower() == "close":
                    connection.close()
                    connection = None
            except (OSError, http.client.HTTPException) as error:
                status = "connection: %s" % type(error).__name__
                if connection:
                    connection.close()
                connection = None
            ended = time.monotonic()
            with self.lock:
                self.records.append((began - self.start, ended - began, status, path, digest, "cold" if cold else "warm"))
                if cold and status == 200:
                    self.answered.append(item)


def percentile(values, fraction):
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def make_sources(binary, work, count):
    """`count` photo-like 1024×768 JPEGs made with `webimage convert`."""
    sources = {}
    for seed in range(count):
        png = os.path.join(work, "source-%d.png" % seed)
        jpeg = os.path.join(work, "source-%d.jpg" % seed)
        with open(png, "wb") as out:
            out.write(fixtures.photo_png(1024, 768, seed))
        subprocess.run([binary, "convert", png, jpeg, "--quality", "0.85"], check=True, capture_output=True)
        with open(jpeg, "rb") as source:
            sources["photo-%d.jpg" % seed] = source.read()
    return sources


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", required=True)
    parser.add_argument("--moto", required=True)
    parser.add_argument("--duration", type=float, default=60)
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--instances", type=int, default=3)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--cold-share", type=float, default=0.25)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", help="write the figures here too")
    parser.add_argument("--keep", action="store_true")
    arguments = parser.parse_args()
    arguments.binary, arguments.moto = os.path.abspath(arguments.binary), os.path.abspath(arguments.moto)

    work = tempfile.mkdtemp(prefix="scale-out-")
    processes = []
    try:
        sources = make_sources(arguments.binary, work, 6)
        cluster = stack.RedisCluster(work)
        processes.append(cluster)
        moto = stack.Moto(arguments.moto, work)
        processes.append(moto)
        origin = stack.Origin(sources)
        processes.append(origin)
        instances = [stack.Serve(arguments.binary, work, n, arguments.workers, cluster.url(), moto.endpoint())
                     for n in range(arguments.instances)]
        processes += instances
        nginx = stack.Nginx(work, [serve.port for serve in instances])
        processes.append(nginx)

        duration = arguments.duration
        load = Load(nginx.port, sorted(sources), arguments.cold_share, arguments.seed)
        threads = load.run(origin, duration, arguments.clients, arguments.seed)
        events = {}

        def at(fraction):
            time.sleep(max(0.0, load.start + fraction * duration - time.monotonic()))
            return time.monotonic() - load.start

        victim = instances[1]
        events["instance killed"] = at(0.30)
        victim.kill()
        events["instance restarted"] = at(0.40)
        victim.start()
        events["instance listening"] = time.monotonic() - load.start
        events["redis master killed"] = at(0.60)
        killed_port = cluster.kill_a_master()
        healthy = cluster.wait_healthy(30)
        events["redis replica took over"] = time.monotonic() - load.start if healthy else float("nan")
        for thread in threads:
            thread.join()
        fetches = origin.fetches()
        counters = dict.fromkeys(COUNTERS, 0.0)
        for serve in instances:
            for name, value in serve.counters(COUNTERS).items():
                counters[name] += value

        # The expected bytes: each distinct URL answered by an instance with no shared tier.
        reference = stack.Serve(arguments.binary, work, 99, arguments.workers)
        processes.append(reference)
        expected = {}
        connection = http.client.HTTPConnection(stack.HOST, reference.port, timeout=60)
        for path in sorted({record[3] for record in load.records if record[4]}):
            connection.request("GET", path)
            response = connection.getresponse()
            body = response.read()
            expected[path] = hashlib.sha256(body).hexdigest() if response.status == 200 else None

        report(load, events, fetches, expected, counters, arguments, killed_port)
    finally:
        for process in reversed(processes):
            process.stop()
        if arguments.keep:
            print("kept %s" % work)
        else:
            shutil.rmtree(work, ignore_errors=True)


def report(load, events, fetches, expected, counters, arguments, killed_port):
    records = load.records
    duration = arguments.duration
    ok = [r for r in records if r[2] == 200]
    failures = {}
    for r in records:
        if r[2] != 200:
            failures[str(r[2])] = failures.get(str(r[2]), 0) + 1
    wrong = sum(1 for r in ok if expected.get(r[3]) != r[4])
    distinct = {r[3] for r in ok}
    made = sum(fetches.values())
    ratio = made / len(distinct) if distinct else float("nan")
    # Fetches per URL among those first asked for after the first 20 % of the run (caches warm, faults included).
    late = {r[3] for r in ok if r[5] == "cold" and r[0] >= 0.2 * duration}
    late_ratio = sum(fetches.get(source_of(path), 0) for path in late) / len(late) if late else float("nan")

    killed, restarted = events["instance killed"], events["instance listening"]
    redis_killed = events["redis master killed"]
    redis_back = events["redis replica took over"]
    phases = [("before faults", 0, killed), ("instance down", killed, restarted),
              ("instance back", restarted, redis_killed), ("redis master down", redis_killed, redis_back),
              ("after failover", redis_back, duration)]
    print("scale-out: %d × webimage serve behind nginx (least_conn, 1 retry), Redis Cluster 3+3, S3 (moto); "
          "%d clients, %.0f s, %d%% cold" % (arguments.instances, arguments.clients, duration,
                                             round(arguments.cold_share * 100)))
    for name, when in sorted(events.items(), key=lambda item: item[1]):
        print("  %6.1f s  %s%s" % (when, name, " (port %d)" % killed_port if name == "redis master killed" else ""))
    print("requests: %d answered 200 of %d (%.1f req/s); non-2xx by cause: %s"
          % (len(ok), len(records), len(ok) / duration, json.dumps(failures, sort_keys=True) if failures else "none"))
    print("origin fetches per distinct URL: %.3f (%d fetches, %d URLs); URLs first asked after %.0f s: %.3f "
          "(target ≤ 1.1)" % (ratio, made, len(distinct), 0.2 * duration, late_ratio))
    print("bodies checked against a reference instance: %d, wrong: %d (target 0)" % (len(ok), wrong))
    print("instances' counters (the killed one's since its restart): " + ", ".join(
        "%s %d" % (name.replace("swiftwebimage_", "").replace("_total", ""), value) for name, value in counters.items()))
    print("%-18s %8s %8s %8s %8s %8s" % ("phase", "requests", "p50 ms", "p99 ms", "cold p50", "warm p50"))
    phase_figures = []
    for name, start, end in phases:
        inside = [r for r in records if start <= r[0] < end]
        times = [r[1] * 1000 for r in inside if r[2] == 200]
        cold = [r[1] * 1000 for r in inside if r[2] == 200 and r[5] == "cold"]
        warm = [r[1] * 1000 for r in inside if r[2] == 200 and r[5] == "warm"]
        figures = {"phase": name, "from": start, "to": end, "requests": len(inside), "p50": percentile(times, 0.5),
                   "p99": percentile(times, 0.99), "cold_p50": percentile(cold, 0.5), "warm_p50": percentile(warm, 0.5),
                   "non_2xx": sum(1 for r in inside if r[2] != 200)}
        phase_figures.append(figures)
        print("%-18s %8d %8.1f %8.1f %8.1f %8.1f" % (name, len(inside), figures["p50"], figures["p99"],
                                                     figures["cold_p50"], figures["warm_p50"]))
    if arguments.json:
        with open(arguments.json, "w") as out:
            json.dump({"events": events, "requests": len(records), "answered": len(ok), "non_2xx": failures,
                       "fetches_per_url": ratio, "late_fetches_per_url": late_ratio, "wrong": wrong,
                       "counters": counters,
                       "phases": phase_figures}, out, indent=1)


def source_of(path):
    """The origin path a result URL's source names (`/img/vN/NAME`)."""
    source = urllib.parse.unquote(path.split("/plain/", 1)[1].rsplit("@", 1)[0])
    return "/" + source.split("/", 3)[3]


if __name__ == "__main__":
    main()

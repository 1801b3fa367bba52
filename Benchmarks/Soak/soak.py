#!/usr/bin/env python3
"""Soak of `webimage serve` (issue 27): a real release server, a loopback origin of valid and hostile sources,
a mix of valid, hostile, fuzzed and misbehaving clients for a set time, a SIGKILL and restart on the same cache
in the first fifth, and a SIGTERM drain at the end. Prints every figure beside its target; exits 1 when a
target is missed.

Run through Benchmarks/soak.sh, which makes the release build. Python 3 standard library only.

Usage: soak.py --binary PATH [--duration 600 | --quick] [--workers 2] [--queue 64] [--drain-seconds 10]
               [--seed 1] [--slowloris 100] [--fuzz-stills] [--keep]
"""
import argparse
import atexit
import hashlib
import http.client
import os
import random
import shutil
import signal
import socket
import sys
import tempfile
import threading
import time

sys.dont_write_bytecode = True  # no __pycache__ beside the sources in the work tree

import fixtures  # noqa: E402
import load  # noqa: E402
import monitor  # noqa: E402
import origin as origins  # noqa: E402
import rawclients  # noqa: E402
import report  # noqa: E402
import server  # noqa: E402


def loadavg():
    with open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:3])


def options():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", required=True)
    parser.add_argument("--duration", type=int, default=600, help="seconds of load (default 600)")
    parser.add_argument("--quick", action="store_true", help="60 s of load")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--queue", type=int, default=64)
    parser.add_argument("--drain-seconds", type=int, default=10)
    parser.add_argument("--memory-cache-bytes", type=int, default=8 << 20,
                        help="small, so the memory tier fills during the warm-up (default 8 MiB)")
    parser.add_argument("--seed", type=int, default=int(time.time()) % 100_000)
    parser.add_argument("--slowloris", type=int, default=100, help="connections per slowloris burst")
    parser.add_argument("--keep", action="store_true", help="keep the work directory (logs, cache)")
    parser.add_argument("--fuzz-stills", action="store_true",
                        help="fuzz still sources only (an animation enlarged keeps every frame at the result's size)")
    parsed = parser.parse_args()
    if parsed.quick:
        parsed.duration = 60
    return parsed


def cache_check(serve, known, tally_rng):
    """After the restart: every result answered before the kill (up to 1,500 of them) comes back byte-identical
    with its ETag, or remade (a new ETag and a whole image), never corrupt."""
    entries = list(known.snapshot().items())
    tally_rng.shuffle(entries)
    before = serve.metrics()
    result = {"checked": 0, "identical": 0, "remade": 0, "corrupt": [], "other": []}
    connection = http.client.HTTPConnection(server.HOST, serve.port, timeout=60)
    for path, (etag, digest, length) in entries[:1500]:
        for _ in range(20):
            connection.request("GET", path)
            response = connection.getresponse()
            body = response.read()
            if response.status != 429:
                break
            time.sleep(0.2)
        result["checked"] += 1
        same_bytes = hashlib.sha256(body).hexdigest() == digest
        if response.status != 200:
            result["other"].append("%s → %d %r" % (path, response.status, body[:120]))
        elif response.getheader("ETag") == etag and same_bytes:
            result["identical"] += 1
        elif response.getheader("ETag") != etag and load.magic_ok(body):
            result["remade"] += 1
            known.add(path, response.getheader("ETag"), body)
        else:
            result["corrupt"].append("%s: ETag %s → %s, %d → %d bytes" % (path, etag, response.getheader("ETag"),
                                                                          length, len(body)))
    connection.close()
    after = serve.metrics()
    delta = lambda name: after.get(name, 0) - before.get(name, 0)  # noqa: E731
    result["disk hits"] = delta('swiftwebimage_serve_result_cache_hits_total{tier="disk"}')
    result["misses"] = delta("swiftwebimage_serve_result_cache_misses_total")
    result["corrupt counted"] = after.get('swiftwebimage_serve_corrupt_cache_values_total{tier="disk"}', 0)
    return result


def drain(serve, origin_server, seed):
    """Requests under way (two cold valid ones, a dripping source), then SIGTERM: how long the exit took,
    its status, and what the requests under way were answered."""
    answers = []

    def one(kind, path):
        try:
            connection = http.client.HTTPConnection(server.HOST, serve.port, timeout=60)
            connection.request("GET", path)
            response = connection.getresponse()
            response.read()
            answers.append((kind, response.status))
        except (OSError, http.client.HTTPException) as error:
            answers.append((kind, repr(error)[:60]))

    paths = [("valid", server.image_path("rs:fit:600:600/q:95", origin_server.url("drain%d-%d" % (seed, i),
                                                                                  "photo.png"), "png"))
             for i in range(2)]
    # One dripping source: it holds one of the two worker slots until its 5 s download deadline, so everything
    # under way can end before the drain deadline (a second one would queue a valid request behind both).
    paths.append(("drip", server.image_path("w:100", origin_server.hostile_url("drain%d" % seed, "drip"))))
    threads = [threading.Thread(target=one, args=path) for path in paths]
    for thread in threads:
        thread.start()
    time.sleep(0.5)
    newcomer = []

    def knock():
        """A new client while the drain goes on: refused, or told the service is not ready."""
        time.sleep(0.3)
        try:
            with socket.create_connection((server.HOST, serve.port), timeout=2) as sock:
                sock.sendall(b"GET /ready HTTP/1.1\r\nHost: d\r\nConnection: close\r\n\r\n")
                newcomer.append(sock.recv(64).split(b"\r\n")[0].decode(errors="replace") or "closed")
        except OSError as error:
            newcomer.append(type(error).__name__)

    status, seconds = serve.terminate(serve.drain_seconds + 30, knock)
    for thread in threads:
        thread.join(timeout=60)
    return {"status": status, "seconds": seconds, "answers": answers, "newcomer": newcomer[0]}


def main():
    opts = options()
    binary = os.path.abspath(opts.binary)
    work = tempfile.mkdtemp(prefix="soak-")
    state = {}

    def cleanup():
        if "serve" in state:
            state["serve"].stop()
        if opts.keep:
            print("work directory kept: %s" % work)
        else:
            shutil.rmtree(work, ignore_errors=True)

    atexit.register(cleanup)
    for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(signum, lambda number, frame: sys.exit(128 + number))

    print("soak: %d s of load, seed %d, %d cores, load average %s" % (opts.duration, opts.seed, os.cpu_count(),
                                                                     loadavg()), flush=True)
    valid = fixtures.valid_images(binary, work)
    origin = origins.Origin(valid)
    serve = server.Serve(binary, work, [origin.base + "/", "http://%s:%d/" % (server.HOST, origin.hanging.port)],
                         opts.workers, opts.queue, opts.drain_seconds)
    serve.arguments += ["--memory-cache-bytes", str(opts.memory_cache_bytes)]
    state["serve"] = serve
    serve.start()
    print("server: %s" % " ".join(serve.arguments[1:]), flush=True)

    stills = [name for name in load.IMAGES if name != "moon.gif"]
    mix = load.Load(serve, origin, opts.seed, stills if opts.fuzz_stills else load.IMAGES)
    valid_path = server.image_path("rs:fit:100:100", origin.url("pipeline", "photo.jpg"))

    def big_path(rng):
        nonce = "big" if rng.random() < 0.5 else mix.fresh("b")
        return server.image_path("rs:fit:640:480/q:100", origin.url(nonce, "photo.png"), "png")

    misbehaving = rawclients.Misbehaving(rawclients.Cases(serve.port, valid_path, big_path), opts.seed)
    slowloris = rawclients.Slowloris(serve.port, connections=opts.slowloris)
    watch = monitor.Monitor(serve, slowloris)
    watch.start()
    mix.start(valid_workers=4, hostile_workers=2, fuzz_workers=1)
    misbehaving.thread.start()
    slowloris.thread.start()
    start = time.monotonic()

    # The SIGKILL, a fifth of the way in, with the load running.
    time.sleep(max(10, opts.duration // 5))
    crashed_before_kill = not serve.alive()
    mix.killing.set()
    for part in (mix, misbehaving, slowloris, watch):
        part.running.clear()  # no new requests: the ones under way are cut by the kill
    serve.kill()
    killed_at = time.monotonic() - start
    mix.pause()
    print("killed (SIGKILL) at %.0f s with %d results known; restarting on the same cache" % (
        killed_at, len(mix.known.entries)), flush=True)
    serve.start()
    time.sleep(1)
    baseline = monitor.proc_sample(serve.pid)
    check = cache_check(serve, mix.known, random.Random(opts.seed))
    print("cache after the restart: %d checked, %d identical, %d remade, %d corrupt, %d other" % (
        check["checked"], check["identical"], check["remade"], len(check["corrupt"]), len(check["other"])), flush=True)
    restarted_at = watch.now()
    for part in (misbehaving, slowloris, watch):
        part.running.set()
    mix.resume()

    time.sleep(max(0.0, opts.duration - (time.monotonic() - start)))
    crashed = crashed_before_kill or not serve.alive()
    stopping = time.monotonic()
    misbehaving.stopping.set()
    slowloris.stopping.set()
    mix.stop()
    misbehaving.thread.join(timeout=60)
    slowloris.thread.join(timeout=60)
    print("load stopped at %.0f s, the last requests under way took %.1f s (load average %s)" % (
        stopping - start, time.monotonic() - stopping, loadavg()), flush=True)

    # Open files back where they were once every client has gone (the hanging sources' 5 s included).
    settled = None
    for _ in range(60):
        sample = monitor.proc_sample(serve.pid) if serve.alive() else None
        if sample and abs(sample[2] - baseline[2]) <= 10:
            settled = sample
            break
        time.sleep(1)
    final = monitor.proc_sample(serve.pid) if serve.alive() else None
    metrics = serve.metrics() if serve.alive() else {}
    watch.stop()
    drained = drain(serve, origin, opts.seed) if serve.alive() else None
    origin.stop()

    with open(os.path.join(work, "samples.csv"), "w") as f:
        f.write("seconds,start,rss_kb,threads,fds\n")
        f.writelines("%.1f,%d,%d,%d,%d\n" % sample for sample in watch.samples)
    result = report.Report(opts, mix, misbehaving, slowloris, watch, check, drained, crashed, baseline, settled,
                           final, metrics, restarted_at, serve.log_paths)
    missed = result.show()
    print("load average at the end: %s" % loadavg())
    sys.exit(1 if missed else 0)


if __name__ == "__main__":
    main()

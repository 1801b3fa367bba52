"""Samples the server process every second (RSS, threads, open files from /proc) and times `GET /health` on a
fresh connection four times a second, noting whether a slowloris burst was on."""
import os
import socket
import threading
import time

import server


def proc_sample(pid):
    """(RSS in kB, threads, open files) of `pid`, or None once it is gone."""
    try:
        rss = threads = None
        with open("/proc/%d/status" % pid) as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    rss = int(line.split()[1])
                elif line.startswith("Threads:"):
                    threads = int(line.split()[1])
        return rss, threads, len(os.listdir("/proc/%d/fd" % pid))
    except (OSError, ValueError):
        return None


def health_seconds(port, timeout=5.0):
    """Seconds for one `GET /health` on a new connection (connect included), or None when it failed."""
    started = time.monotonic()
    try:
        with socket.create_connection((server.HOST, port), timeout=timeout) as sock:
            sock.settimeout(timeout)
            sock.sendall(b"GET /health HTTP/1.1\r\nHost: monitor\r\nConnection: close\r\n\r\n")
            data = b""
            while True:
                chunk = sock.recv(4096)
                if not chunk:
                    break
                data += chunk
        if not data.startswith(b"HTTP/1.1 200"):
            return None
        return time.monotonic() - started
    except OSError:
        return None


class Monitor:
    def __init__(self, serve, slowloris):
        self.serve, self.slowloris = serve, slowloris
        self.samples = []        # (seconds since start, server start number, rss kB, threads, fds)
        self.health = []         # (seconds since start, seconds or None, slowloris on)
        self.started = time.monotonic()
        self.running = threading.Event()
        self.running.set()
        self.stopping = threading.Event()
        self.threads = [threading.Thread(target=self.sample_loop, daemon=True),
                        threading.Thread(target=self.health_loop, daemon=True)]

    def now(self):
        return time.monotonic() - self.started

    def start(self):
        for thread in self.threads:
            thread.start()

    def stop(self):
        self.stopping.set()
        self.running.set()
        for thread in self.threads:
            thread.join()

    def sample_loop(self):
        while not self.stopping.wait(1.0):
            if self.running.is_set() and self.serve.alive():
                sample = proc_sample(self.serve.pid)
                if sample:
                    self.samples.append((self.now(), self.serve.starts) + sample)

    def health_loop(self):
        while not self.stopping.wait(0.25):
            if self.running.is_set():
                on = self.slowloris.active.is_set()
                self.health.append((self.now(), health_seconds(self.serve.port), on))

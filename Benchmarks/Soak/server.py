"""The `webimage serve` process under soak: started in its own session on a fixed loopback port (a restart takes
the same port and cache directory), signed URLs, Prometheus metrics on a second port."""
import base64
import hashlib
import hmac
import os
import signal
import socket
import subprocess
import time
import urllib.parse

HOST = "127.0.0.1"
KEY = "943b421c9eb07c830af81030552c86009268de4e532ba2ee2eab8247c6da0881"
SALT = "520f986b998545b4785e0defbc4f3c12"


def free_port():
    with socket.socket() as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


def sign(path):
    """imgproxy's signature: HMAC-SHA256(key, salt + path), base64url without padding, in front of the path."""
    digest = hmac.new(bytes.fromhex(KEY), bytes.fromhex(SALT) + path.encode(), hashlib.sha256).digest()
    return "/" + base64.urlsafe_b64encode(digest).decode().rstrip("=") + path


def image_path(options, source, extension=None):
    path = "/%s/plain/%s" % (options, urllib.parse.quote(source, safe=""))
    return sign(path + ("@" + extension if extension else ""))


class Serve:
    def __init__(self, binary, work, allowed_sources, workers, queue, drain_seconds):
        self.binary, self.work = binary, work
        self.port, self.metrics_port = free_port(), free_port()
        self.cache = os.path.join(work, "cache")
        self.drain_seconds = drain_seconds
        self.arguments = [binary, "serve", "--bind", "%s:%d" % (HOST, self.port), "--key", KEY, "--salt", SALT,
                          "--allow-private-sources", "--cache-dir", self.cache, "--workers", str(workers),
                          "--queue", str(queue), "--metrics-bind", "%s:%d" % (HOST, self.metrics_port),
                          "--drain-seconds", str(drain_seconds),
                          # Animations processed up to 100 frames (imgproxy's default, 1, would make every one a
                          # still): the 5,000-frame bomb of 1 MP frames is then 100 MP, over the 50 MP limit.
                          "--max-animation-frames", "100"]
        for prefix in allowed_sources:
            self.arguments += ["--allowed-source", prefix]
        self.process = None
        self.starts = 0
        self.log_paths = []

    def start(self, seconds=60):
        """Starts the server and waits for its `listening on` line."""
        self.starts += 1
        log_path = os.path.join(self.work, "serve-%d.log" % self.starts)
        self.log_paths.append(log_path)
        log = open(log_path, "ab")
        self.process = subprocess.Popen(self.arguments, stdout=subprocess.PIPE, stderr=log, stdin=subprocess.DEVNULL,
                                        start_new_session=True)
        log.close()
        deadline = time.monotonic() + seconds
        line = self.process.stdout.readline().decode(errors="replace")
        if not line.startswith("listening on http://"):
            self.process.kill()
            raise RuntimeError("serve printed %r; log %s:\n%s" % (line, log_path, self.log_tail()))
        # The metrics listener starts beside the image listener.
        while time.monotonic() < deadline:
            try:
                with socket.create_connection((HOST, self.metrics_port), timeout=1):
                    return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("the metrics listener never answered")

    @property
    def pid(self):
        return self.process.pid

    def alive(self):
        return self.process is not None and self.process.poll() is None

    def kill(self):
        os.kill(self.process.pid, signal.SIGKILL)
        self.process.wait()

    def terminate(self, timeout, meanwhile=lambda: None):
        """SIGTERM, then `meanwhile()`; (exit status or None when it outlived `timeout`, seconds until it exited)."""
        started = time.monotonic()
        os.kill(self.process.pid, signal.SIGTERM)
        meanwhile()
        try:
            status = self.process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            return None, time.monotonic() - started
        return status, time.monotonic() - started

    def stop(self):
        if self.alive():
            self.process.kill()
            self.process.wait()

    def log_tail(self, characters=3000):
        with open(self.log_paths[-1], errors="replace") as f:
            return f.read()[-characters:]

    def metrics(self):
        """{series: value} of the Prometheus text on the metrics listener."""
        connection = socket.create_connection((HOST, self.metrics_port), timeout=5)
        connection.sendall(b"GET /metrics HTTP/1.1\r\nHost: m\r\nConnection: close\r\n\r\n")
        data = b""
        while True:
            chunk = connection.recv(65536)
            if not chunk:
                break
            data += chunk
        connection.close()
        values = {}
        for line in data.decode(errors="replace").split("\r\n\r\n", 1)[-1].splitlines():
            if line and not line.startswith("#") and " " in line:
                series, value = line.rsplit(" ", 1)
                try:
                    values[series] = float(value)
                except ValueError:
                    pass
        return values

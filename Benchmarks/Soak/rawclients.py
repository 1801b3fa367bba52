"""Clients that misbehave on raw sockets: malformed, oversized and ambiguous requests, pipelining, clients that
leave before or during the answer, and slowloris (headers that never end, one line every few seconds)."""
import random
import re
import socket
import struct
import threading
import time

import server

STATUS = re.compile(rb"HTTP/1\.[01] (\d{3}) ")
ERROR_STATUSES = {400, 413, 414, 431}


def connect(port, timeout=5):
    sock = socket.create_connection((server.HOST, port), timeout=timeout)
    sock.settimeout(timeout)
    return sock


def reset(sock):
    """Closes with a TCP reset instead of an orderly close."""
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    sock.close()


def read_all(sock, idle=3.0, limit=4 << 20):
    """Everything received until the peer closes, `idle` seconds pass without a byte, or `limit` bytes."""
    sock.settimeout(idle)
    data = b""
    try:
        while len(data) < limit:
            chunk = sock.recv(65536)
            if not chunk:
                return data, True
            data += chunk
    except socket.timeout:
        return data, False
    except OSError:
        return data, True
    return data, False


def server_gone(sock):
    """Whether the server closed `sock` (or answered on it, which it does only before closing)."""
    try:
        return sock.recv(1024, socket.MSG_DONTWAIT) is not None
    except BlockingIOError:
        return False


def statuses(data):
    """The status of each whole or partial response in `data`, read in order (Content-Length or chunked)."""
    found, index = [], 0
    while True:
        match = STATUS.match(data, index)
        if not match:
            return found
        found.append(int(match.group(1)))
        end = data.find(b"\r\n\r\n", index)
        if end < 0:
            return found
        head, index = data[index:end].lower(), end + 4
        length = re.search(rb"\r\ncontent-length:\s*(\d+)", head)
        if length:
            index += int(length.group(1))
        elif b"transfer-encoding: chunked" in head:
            while True:
                line_end = data.find(b"\r\n", index)
                if line_end < 0:
                    return found
                size = int(data[index:line_end].split(b";")[0] or b"0", 16)
                index = line_end + 2 + size + 2
                if size == 0:
                    break


class Cases:
    """Each case sends something and checks what came back; returns (name, ok, detail)."""

    def __init__(self, port, valid_path, big_path):
        self.port, self.valid_path, self.big_path = port, valid_path, big_path

    def exchange(self, payload, idle=3.0):
        sock = connect(self.port)
        try:
            sock.sendall(payload)
        except OSError:
            pass  # the server may close before reading it all: what it answered still counts
        data, closed = read_all(sock, idle)
        sock.close()
        return statuses(data), closed, data

    def refused(self, name, payload, allowed=ERROR_STATUSES):
        """A request the server must refuse (or drop): one answer at most, in `allowed`, never 2xx or 5xx."""
        answered, _, data = self.exchange(payload)
        ok = len(answered) <= 1 and all(status in allowed for status in answered)
        return name, ok, "answered %s: %r" % (answered, data[:120])

    def garbage(self, rng):
        return self.refused("garbage bytes", rng.randbytes(rng.randrange(1, 4000)).replace(b"\r\n", b"") + b"\r\n\r\n")

    def garbage_line(self, rng):
        return self.refused("garbage request line", b"HELLO \x01\x02 WORLD\r\nHost: a\r\n\r\n")

    def long_line(self, rng):
        return self.refused("100 KB request line", b"GET /" + b"a" * 100_000 + b" HTTP/1.1\r\nHost: a\r\n\r\n")

    def long_header(self, rng):
        return self.refused("100 KB header", b"GET /health HTTP/1.1\r\nHost: a\r\nX-Big: " + b"b" * 100_000
                            + b"\r\n\r\n")

    def many_headers(self, rng):
        lines = b"".join(b"X-%d: v\r\n" % i for i in range(5000))
        return self.refused("5,000 headers", b"GET /health HTTP/1.1\r\nHost: a\r\n" + lines + b"\r\n")

    def content_length_and_chunked(self, rng):
        # A smuggling attempt: front and back ends that pick different framings see different requests.
        return self.refused("Content-Length with Transfer-Encoding",
                            b"GET /health HTTP/1.1\r\nHost: a\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n"
                            b"\r\n0\r\n\r\nGET /health HTTP/1.1\r\nHost: a\r\n\r\n")

    def two_content_lengths(self, rng):
        return self.refused("two Content-Lengths",
                            b"GET /health HTTP/1.1\r\nHost: a\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nxy")

    def huge_content_length(self, rng):
        return self.refused("Content-Length 10^20",
                            b"GET /health HTTP/1.1\r\nHost: a\r\nContent-Length: 99999999999999999999\r\n\r\n")

    def no_host(self, rng):
        return self.refused("HTTP/1.1 without Host", b"GET /health HTTP/1.1\r\n\r\n", {400})

    def nul_in_path(self, rng):
        return self.refused("NUL in the path", b"GET /hea\x00lth HTTP/1.1\r\nHost: a\r\n\r\n")

    def header_without_colon(self, rng):
        return self.refused("header line without a colon", b"GET /health HTTP/1.1\r\nHost: a\r\nNoColon\r\n\r\n")

    def unknown_version(self, rng):
        return self.refused("HTTP/9.9", b"GET /health HTTP/9.9\r\nHost: a\r\n\r\n", ERROR_STATUSES | {505})

    def unknown_method(self, rng):
        return self.refused("method FOOBAR", b"FOOBAR /health HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n",
                            ERROR_STATUSES | {404, 405, 501})

    def pipelined(self, rng):
        requests = b"".join(b"GET /health HTTP/1.1\r\nHost: a\r\n\r\n" for _ in range(5))
        requests += b"GET %s HTTP/1.1\r\nHost: a\r\n\r\n" % self.valid_path.encode()
        requests += b"GET /health HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n"
        answered, _, data = self.exchange(requests, idle=30)
        ok = answered in ([200] * 7, [200] * 5 + [429, 200])
        return "7 pipelined requests", ok, "answered %s" % answered

    def half_close(self, rng):
        sock = connect(self.port)
        sock.sendall(b"GET /health HTTP/1.1\r\nHost: a\r\n\r\n")
        sock.shutdown(socket.SHUT_WR)
        data, _ = read_all(sock)
        sock.close()
        answered = statuses(data)
        return "request then half-close", answered in ([], [200]), "answered %s" % answered

    def leave_before_answer(self, rng):
        sock = connect(self.port)
        sock.sendall(b"GET %s HTTP/1.1\r\nHost: a\r\n\r\n" % self.big_path(rng).encode())
        if rng.random() < 0.5:
            reset(sock)
        else:
            sock.close()
        return "left before the answer", True, ""

    def leave_during_answer(self, rng):
        sock = connect(self.port)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        sock.sendall(b"GET %s HTTP/1.1\r\nHost: a\r\n\r\n" % self.big_path(rng).encode())
        try:
            sock.recv(1024)
        except OSError:
            pass
        reset(sock)
        return "left during the answer", True, ""

    def partial_body(self, rng):
        sock = connect(self.port)
        sock.sendall(b"GET /health HTTP/1.1\r\nHost: a\r\nContent-Length: 100\r\n\r\nabc")
        time.sleep(0.2)
        sock.close()
        return "announced a body, sent 3 bytes, left", True, ""

    ALL = ["garbage", "garbage_line", "long_line", "long_header", "many_headers", "content_length_and_chunked",
           "two_content_lengths", "huge_content_length", "no_host", "nul_in_path", "header_without_colon",
           "unknown_version", "unknown_method", "pipelined", "half_close", "leave_before_answer",
           "leave_during_answer", "partial_body"]


class Misbehaving:
    """One thread running the cases in random order until stopped; results by case."""

    def __init__(self, cases, seed):
        self.cases, self.rng = cases, random.Random(seed)
        self.results = {}
        self.failures = []
        self.stopping = threading.Event()
        self.running = threading.Event()
        self.running.set()
        self.thread = threading.Thread(target=self.loop, daemon=True)

    def loop(self):
        while not self.stopping.is_set():
            self.running.wait()
            name = self.rng.choice(Cases.ALL)
            try:
                label, ok, detail = getattr(self.cases, name)(self.rng)
            except OSError as error:
                if not self.running.is_set() or self.stopping.is_set():
                    continue
                label, ok, detail = name, False, "connection error %r" % error
            if not self.running.is_set():
                continue  # the SIGKILL came during this case
            counts = self.results.setdefault(label, [0, 0])
            counts[0 if ok else 1] += 1
            if not ok and len(self.failures) < 20:
                self.failures.append("%s: %s" % (label, detail))
            time.sleep(0.05)


class Slowloris:
    """Bursts of `connections` connections that each send a request line, then one header line every
    `interval` seconds and never the blank line; `active` seconds on, `rest` off. Counts connections the server
    closed and how long they had lived."""

    def __init__(self, port, connections=100, interval=5.0, active=20.0, rest=10.0):
        self.port, self.connections, self.interval = port, connections, interval
        self.active_seconds, self.rest = active, rest
        self.active = threading.Event()
        self.stopping = threading.Event()
        self.running = threading.Event()
        self.running.set()
        self.opened = self.closed_by_server = self.refused = 0
        self.lifetimes = []
        self.thread = threading.Thread(target=self.loop, daemon=True)

    def loop(self):
        while not self.stopping.is_set():
            self.running.wait()
            self.burst()
            self.stopping.wait(self.rest)

    def burst(self):
        held = []
        for _ in range(self.connections):
            try:
                sock = connect(self.port)
                sock.sendall(b"GET /health HTTP/1.1\r\nHost: a\r\n")
                held.append((time.monotonic(), sock))
                self.opened += 1
            except OSError:
                self.refused += 1
        self.active.set()
        ends = time.monotonic() + self.active_seconds
        line = 0
        while held and time.monotonic() < ends and not self.stopping.is_set() and self.running.is_set():
            self.stopping.wait(min(self.interval, max(0.0, ends - time.monotonic())))
            line += 1
            alive = []
            for opened, sock in held:
                try:
                    if server_gone(sock):
                        raise ConnectionResetError
                    sock.sendall(b"X-Slow-%d: x\r\n" % line)
                    alive.append((opened, sock))
                except OSError:
                    self.closed_by_server += 1
                    self.lifetimes.append(time.monotonic() - opened)
                    sock.close()
            held = alive
        self.active.clear()
        for _, sock in held:
            sock.close()

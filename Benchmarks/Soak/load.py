"""The request mix of the soak, over keep-alive connections (http.client), and its tally.

Valid requests: cold (a source URL nobody has seen), warm (a URL answered before: same bytes, same ETag),
revalidations (If-None-Match → 304), HEAD, /info. Hostile: sources that are bombs, broken or misbehaving, bad
signatures, refused sources, expired URLs. Fuzz: random processing options with absurd values, signed."""
import hashlib
import http.client
import random
import threading
import time
import urllib.parse

import server

# What each kind of request may be answered; 429 (queue full) is allowed for every one.
VALID = {"cold": {200}, "warm": {200}, "revalidate": {304}, "head": {200}, "info": {200}}
HOSTILE = {
    "pixel-png": {422}, "pixel-jpeg": {422}, "pixel-webp": {422},    # header declares ≥ 268 MP: over 50 MP
    "frames-gif": {422}, "canvas-gif": {422},   # 5,000 frames of 1 MP (100 kept: 100 MP); a 65,535² canvas
    "truncated-jpeg": {422}, "truncated-png": {422}, "random": {422}, "html": {422},
    "gzip": {422},                  # the service asks for no Content-Encoding and decodes none: not an image
    "oversize": {422},              # announces 60 MB: over the 50 MB limit
    "endless": {422, 504},          # chunked zeros: 50 MB reached (422), or the 5 s deadline first (504)
    "drip": {504}, "stall": {504}, "hang": {504},                    # the 5 s deadline, the 3 s idle one
    "loop-a": {404}, "chain": {404},                                 # a redirect loop; more than 5 hops
    "500": {502}, "503": {502}, "missing": {404},
    "bad-signature": {403}, "not-allowed": {404}, "expired": {404},
}
SLOW_HOSTILE = {"drip", "stall", "hang", "endless", "oversize"}
IMAGES = ["photo.jpg", "photo.png", "alpha.png", "photo.webp", "alpha.webp", "photo.gif", "moon.gif"]
FORMATS = [None, None, "jpg", "webp", "png", "gif", "avif"]


def magic_ok(body):
    """Whether `body` starts like an image the service writes."""
    return (body[:3] == b"\xff\xd8\xff" or body[:8] == b"\x89PNG\r\n\x1a\n" or body[:6] in (b"GIF87a", b"GIF89a")
            or (body[:4] == b"RIFF" and body[8:12] == b"WEBP") or body[4:8] == b"ftyp" or body[:2] == b"\xff\x0a")


class Tally:
    """Statuses by category, failures with their request, latencies by category."""

    def __init__(self):
        self.lock = threading.Lock()
        self.statuses = {}
        self.failures = []  # the first three of each category
        self.failed = {}    # category → requests answered outside their class
        self.latencies = {}
        self.cut = 0  # requests cut by the SIGKILL (connection errors while it happened)

    def record(self, category, status, seconds, failure=None):
        with self.lock:
            counts = self.statuses.setdefault(category, {})
            counts[status] = counts.get(status, 0) + 1
            if isinstance(status, int):
                self.latencies.setdefault(category, []).append(seconds)
            if failure:
                self.failed[category] = self.failed.get(category, 0) + 1
                if self.failed[category] <= 3:
                    self.failures.append("%s: %s" % (category, failure))

    def count(self, predicate):
        with self.lock:
            return sum(n for category, counts in self.statuses.items() for status, n in counts.items()
                       if predicate(category, status))


class Known:
    """Results answered 200: path → (ETag, SHA-256 of the body, length)."""

    def __init__(self):
        self.lock = threading.Lock()
        self.entries = {}
        self.paths = []

    def add(self, path, etag, body):
        with self.lock:
            if path not in self.entries:
                self.paths.append(path)
            self.entries[path] = (etag, hashlib.sha256(body).hexdigest(), len(body))

    def pick(self, rng):
        with self.lock:
            if not self.paths:
                return None, None
            path = rng.choice(self.paths)
            return path, self.entries[path]

    def snapshot(self):
        with self.lock:
            return dict(self.entries)


def fuzz_options(rng):
    """Half the time options shaped as the service reads them but with absurd numbers, otherwise anything."""
    return shaped_options(rng) if rng.random() < 0.5 else random_options(rng)


def shaped_options(rng):
    """One to four real options with their arguments in place, the numbers picked from the extremes."""
    def number():
        return rng.choice(["0", "1", "2", "3", "17", "255", "1000", "4096", "8192", "8193", "65535", "100000",
                           "2147483647", "-1"])

    def real():
        return rng.choice(["0", "0.001", "0.5", "1", "1.5", "8", "9", "99.9", "1000", "1e9", "-0.5"])
    shapes = [lambda: "rs:%s:%s:%s:%s" % (rng.choice(["fit", "fill", "fill-down", "force", "auto"]), number(),
                                          number(), rng.choice(["0", "1"])),
              lambda: "el:1/w:%s/h:%s" % (number(), number()), lambda: "bl:%s" % real(),
              lambda: "sh:%s" % real(), lambda: "pix:%s" % number(), lambda: "pd:%s:%s" % (number(), number()),
              lambda: "ex:1:%s" % rng.choice(["ce", "no", "soea"]), lambda: "rot:%s" % number(),
              lambda: "dpr:%s" % real(), lambda: "z:%s" % real(), lambda: "q:%s" % number(),
              lambda: "mb:%s" % number(), lambda: "c:%s:%s" % (rng.choice([number(), real()]), number()), lambda: "t:%s" % number(),
              lambda: "g:%s:%s:%s" % (rng.choice(["ce", "nowe", "soea", "fp", "sm"]), number(), number()),
              lambda: "bg:%s" % rng.choice(["ffffff", "0:0:0", "255:255:255", "fff"]),
              lambda: "exar:1/rs:fill:%s:%s" % (number(), number()), lambda: "fl:1:1", lambda: "ar:1",
              lambda: "mw:%s/mh:%s" % (number(), number())]
    return "/".join(rng.choice(shapes)() for _ in range(rng.randint(1, 4)))


def random_options(rng):
    """One to four options, each a real option name (or a made-up one) with arguments from a menu of the
    reasonable and the absurd."""
    names = ["rs", "resize", "s", "w", "h", "rt", "el", "ex", "exar", "g", "c", "t", "pd", "rot", "fl", "ar",
             "bl", "sh", "pix", "bg", "q", "fq", "mb", "f", "dpr", "z", "mw", "mh", "skp", "cb", "exp", "fn", "att",
             "pr", "wm", "msr", "zz", "", "rs:fit", "strip_metadata"]
    values = ["0", "1", "-1", "2", "100", "300", "8192", "8193", "65535", "99999999999999999999", "-99999", "1e309",
              "nan", "inf", "0.5", "1.0000000001", "0x10", "", "fit", "fill", "force", "auto", "ce", "sm", "fp",
              "no", "soea", "ffffff", "zzzzzz", "jpg", "webp", "png", "gif", "avif", "tiff", "bmp", "%00", "%2F",
              "..", "a" * 300, "%C3%A9", "true", "false", "t", "f", "7fffffff", "default"]
    parts = []
    for _ in range(rng.randint(1, 4)):
        arguments = [rng.choice(values) for _ in range(rng.choice([0, 1, 1, 2, 3, 5, 12]))]
        parts.append(":".join([rng.choice(names)] + arguments))
    return "/".join(parts)


class Load:
    """The mix's worker threads against one server port; pause() holds them (the restart), stop() ends them."""

    def __init__(self, serve, origin, seed, fuzz_images=IMAGES):
        self.serve, self.origin, self.fuzz_images = serve, origin, fuzz_images
        self.tally, self.known = Tally(), Known()
        self.running = threading.Event()
        self.running.set()
        self.stopping = threading.Event()
        self.killing = threading.Event()
        self.paused = threading.Event()
        self.idle = {}
        self.threads = []
        self.seed = seed
        self.nonce = 0
        self.nonce_lock = threading.Lock()

    def fresh(self, prefix):
        with self.nonce_lock:
            self.nonce += 1
            return "%s%d-%d" % (prefix, self.seed, self.nonce)

    def start(self, valid_workers, hostile_workers, fuzz_workers):
        plan = [("valid", self.valid_step)] * valid_workers + [("hostile", self.hostile_step)] * hostile_workers \
            + [("fuzz", self.fuzz_step)] * fuzz_workers
        for index, (name, step) in enumerate(plan):
            thread = threading.Thread(target=self.worker, args=(index, step), name="%s-%d" % (name, index),
                                      daemon=True)
            thread.start()
            self.threads.append(thread)

    def pause(self):
        """Holds every worker between requests; returns once all are held."""
        self.running.clear()
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and sum(self.idle.values()) < len(self.threads):
            time.sleep(0.05)

    def resume(self):
        self.killing.clear()
        self.running.set()

    def stop(self):
        self.stopping.set()
        self.running.set()
        for thread in self.threads:
            thread.join(timeout=60)

    def worker(self, index, step):
        rng = random.Random(self.seed * 1000 + index)
        connection = None
        while not self.stopping.is_set():
            if not self.running.is_set():
                self.idle[index] = 1
                if connection:
                    connection.close()
                    connection = None
                self.running.wait()
                self.idle[index] = 0
                continue
            if connection is None:
                connection = http.client.HTTPConnection(server.HOST, self.serve.port, timeout=40)
            try:
                step(connection, rng)
            except (OSError, http.client.HTTPException) as error:
                connection.close()
                connection = None
                if self.killing.is_set() or not self.running.is_set():
                    with self.tally.lock:
                        self.tally.cut += 1
                else:
                    self.tally.record(getattr(step, "__name__", "step"), "error", 0,
                                      "connection error %r" % error)
                    time.sleep(0.2)
        if connection:
            connection.close()

    def request(self, connection, method, path, headers=None):
        started = time.monotonic()
        connection.request(method, path, headers=dict({"Accept": "*/*"}, **(headers or {})))
        response = connection.getresponse()
        body = response.read()
        if response.getheader("Connection", "").lower() == "close":
            connection.close()
        return response, body, time.monotonic() - started

    def valid_step(self, connection, rng):
        roll = rng.random()
        path, entry = self.known.pick(rng)
        if path is None or roll < 0.35:
            self.cold(connection, rng)
        elif roll < 0.65:
            response, body, seconds = self.request(connection, "GET", path)
            self.check_valid("warm", path, response, body, seconds, entry)
        elif roll < 0.8:
            response, body, seconds = self.request(connection, "GET", path, {"If-None-Match": entry[0]})
            self.check_valid("revalidate", path, response, body, seconds, entry)
        elif roll < 0.93:
            response, body, seconds = self.request(connection, "HEAD", path)
            self.check_valid("head", path, response, body, seconds, entry)
        else:
            source = self.origin.url(self.fresh("i"), rng.choice(IMAGES))
            info = "/info" + server.sign("/plain/" + urllib.parse.quote(source, safe=""))
            response, body, seconds = self.request(connection, "GET", info)
            self.check_valid("info", info, response, body, seconds, None)

    def cold(self, connection, rng):
        name = rng.choice(IMAGES)
        width, height = rng.randrange(24, 480), rng.randrange(24, 480)
        options = rng.choice(["rs:fit:%d:%d" % (width, height), "rs:fill:%d:%d/g:sm" % (width, height),
                              "w:%d" % width, "rs:fill:%d:%d/bl:2" % (width, height), "h:%d/q:60" % height])
        path = server.image_path(options, self.origin.url(self.fresh("c"), name), rng.choice(FORMATS))
        response, body, seconds = self.request(connection, "GET", path)
        self.check_valid("cold", path, response, body, seconds, None)

    def check_valid(self, category, path, response, body, seconds, entry):
        status = response.status
        failure = None
        if status == 429:
            pass
        elif status not in VALID[category]:
            failure = "%s %s → %d %r" % (category, path, status, body[:160])
        elif category in ("cold", "warm") and not magic_ok(body):
            failure = "%s %s → 200 with a body that is not an image: %r" % (category, path, body[:40])
        elif category == "cold":
            self.known.add(path, response.getheader("ETag"), body)
        elif category == "warm" and (response.getheader("ETag") != entry[0]
                                     or hashlib.sha256(body).hexdigest() != entry[1]):
            failure = "warm %s: ETag %s → %s, %d → %d bytes, same bytes: %s" % (
                path, entry[0], response.getheader("ETag"), entry[2], len(body),
                hashlib.sha256(body).hexdigest() == entry[1])
        elif category == "head" and (body or response.getheader("Content-Length") != str(entry[2])):
            failure = "HEAD %s: Content-Length %s (GET had %d), %d body bytes" % (
                path, response.getheader("Content-Length"), entry[2], len(body))
        self.tally.record(category, status, seconds, failure)

    def hostile_step(self, connection, rng):
        kind = rng.choice(sorted(HOSTILE))
        if kind in SLOW_HOSTILE and rng.random() < 0.6:
            kind = rng.choice(sorted(set(HOSTILE) - SLOW_HOSTILE))  # fewer of the 5 s ones
        options = "rs:fit:%d:%d" % (rng.randrange(16, 400), rng.randrange(16, 400))
        nonce = self.fresh("h")
        if kind == "bad-signature":
            path = server.image_path(options, self.origin.url(nonce, "photo.jpg"))
            path = "/" + ("A" if path[1] != "A" else "B") + path[2:]
        elif kind == "not-allowed":
            path = server.image_path(options, "http://127.0.0.2:%d/v/%s/photo.jpg" % (self.origin.port, nonce))
        elif kind == "expired":
            path = server.image_path(options + "/exp:%d" % rng.randrange(1, 1_600_000_000),
                                     self.origin.url(nonce, "photo.jpg"))
        else:
            path = server.image_path(options, self.origin.hostile_url(nonce, "chain0" if kind == "chain" else kind))
        response, body, seconds = self.request(connection, "GET", path)
        status = response.status
        failure = None
        if status != 429 and status not in HOSTILE[kind]:
            failure = "%s → %d (expected %s) %r" % (path, status, sorted(HOSTILE[kind]), body[:160])
        self.tally.record("hostile " + kind, status, seconds, failure)

    def fuzz_step(self, connection, rng):
        options = fuzz_options(rng)
        source = self.origin.url("fuzz%d" % rng.randrange(8), rng.choice(self.fuzz_images))
        path = server.image_path(options, source, rng.choice([None, None, "png", "webp", "tiff", "x" * 40]))
        response, body, seconds = self.request(connection, "GET", path)
        status = response.status
        failure = None
        if status == 200 and not magic_ok(body):
            failure = "%s → 200 with a body that is not an image %r" % (path, body[:40])
        elif status >= 500 and not (status == 503 and b"processing timed out" in body):
            failure = "%s → %d %r" % (path, status, body[:200])
        self.tally.record("fuzz", status, seconds, failure)

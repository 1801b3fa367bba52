"""The processes serve_bench starts: nginx (the origin and the static peer), `webimage serve`, thumbor, the libvips
peer (side "pyvips") and libvips' raw ceiling. Each server is its own process group on a free loopback port, killed
(group and all) on exit."""
import json
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
import urllib.request

HOST = "127.0.0.1"
SIDES = ("ours", "thumbor", "pyvips")


def free_port():
    with socket.socket() as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


def http_get(url, timeout=10, headers=None):
    """(status, body) of one GET; HTTP error statuses are answers, not exceptions."""
    request = urllib.request.Request(url, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


class Processes:
    """Every process the benchmark started, each in its own session so that its children go with it."""

    def __init__(self):
        self.running = []

    def start(self, arguments, log_path, env=None):
        log = open(log_path, "ab")
        process = subprocess.Popen(arguments, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                   env=env, start_new_session=True)
        log.close()
        self.running.append(process)
        return process

    def stop(self, process):
        if process.poll() is None:
            try:
                os.killpg(process.pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()
        # Children of a group leader that already left (thumbor's forks) still carry its group id.
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        if process in self.running:
            self.running.remove(process)

    def stop_all(self):
        for process in list(reversed(self.running)):
            self.stop(process)


def wait_ready(url, process, log_path, seconds=60):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError("%s exited with %s; log %s:\n%s" % (url, process.returncode, log_path,
                                                                   open(log_path, errors="replace").read()[-2000:]))
        try:
            status, _ = http_get(url, timeout=2)
            if status == 200:
                return
        except OSError:
            pass
        time.sleep(0.1)
    raise RuntimeError("%s not ready after %d s; log %s" % (url, seconds, log_path))


NGINX_CONF = """\
daemon off;
master_process on;
worker_processes {workers};
{user}
pid {work}/nginx.pid;
error_log {work}/nginx-error.log warn;
events {{ worker_connections 1024; }}
http {{
    types {{ image/jpeg jpg; image/webp webp; }}
    sendfile on;
    tcp_nopush on;
    keepalive_requests 1000000;
    client_body_temp_path {work}/client_body;
    proxy_temp_path {work}/proxy;
    fastcgi_temp_path {work}/fastcgi;
    uwsgi_temp_path {work}/uwsgi;
    scgi_temp_path {work}/scgi;
    log_format bench '$request_uri $status';
    server {{
        listen {host}:{port};
        access_log {work}/origin-access.log bench;
        # /u/NONCE/kind/name.jpg serves images/kind/name.jpg: a fresh nonce makes a URL no proxy has seen.
        location ~ ^/u/[^/]+/(?<image>[a-z]+/[a-z0-9.-]+)$ {{
            root {images};
            try_files /$image =404;
        }}
        # The static peer of the warm row: result bytes written by the benchmark, not logged.
        location /r/ {{
            access_log off;
            alias {results}/;
        }}
    }}
}}
"""


class Nginx:
    def __init__(self, processes, work, images, workers):
        self.work, self.port = work, free_port()
        self.results = os.path.join(work, "static-results")
        os.makedirs(self.results)
        self.access_log = os.path.join(work, "origin-access.log")
        conf = os.path.join(work, "nginx.conf")
        with open(conf, "w") as f:
            f.write(NGINX_CONF.format(workers=workers, work=work, host=HOST, port=self.port, images=images,
                                      results=self.results, user="user root;" if os.geteuid() == 0 else ""))
        log = os.path.join(work, "nginx.out")
        self.process = processes.start(["nginx", "-p", work, "-e", os.path.join(work, "nginx-error.log"),
                                        "-c", conf], log)
        self.base = "http://%s:%d" % (HOST, self.port)

    def wait(self, probe):
        wait_ready(self.base + probe, self.process, os.path.join(self.work, "nginx-error.log"))

    def source(self, nonce, name):
        return "%s/u/%s/%s" % (self.base, nonce, name)

    def fetches(self, fragment):
        """Requests in the access log whose URI contains `fragment`."""
        with open(self.access_log) as f:
            return sum(1 for line in f if fragment in line)


class Ours:
    """`webimage serve` with a signing key, `--workers`, a queue that wrk's connections never fill, loopback
    sources allowed and Prometheus metrics on a second port (its download counter)."""

    KEY = "943b421c9eb07c830af81030552c86009268de4e532ba2ee2eab8247c6da0881"
    SALT = "520f986b998545b4785e0defbc4f3c12"

    def __init__(self, processes, binary, work, workers, name="ours"):
        self.port, self.metrics_port = free_port(), free_port()
        self.log = os.path.join(work, name + ".log")
        cache = os.path.join(work, name + "-cache")
        self.process = processes.start([binary, "serve", "--bind", "%s:%d" % (HOST, self.port),
                                        "--key", self.KEY, "--salt", self.SALT, "--allow-private-sources",
                                        "--cache-dir", cache, "--workers", str(workers), "--queue", "512",
                                        "--metrics-bind", "%s:%d" % (HOST, self.metrics_port)], self.log)
        self.base = "http://%s:%d" % (HOST, self.port)

    def wait(self):
        wait_ready(self.base + "/health", self.process, self.log)

    def downloads(self):
        """Source downloads started, from /metrics (the service's encode counter is not a metric yet)."""
        _, body = http_get("http://%s:%d/metrics" % (HOST, self.metrics_port))
        for line in body.decode().splitlines():
            if line.startswith("swiftwebimage_downloads_started_total"):
                return int(float(line.rsplit(" ", 1)[1]))
        return 0


def group_stats(group):
    """{pid: the fields of /proc/PID/stat after the command name (field 3 onwards)} of every live process in
    process group `group` (thumbor's forks included)."""
    stats = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open("/proc/%s/stat" % entry) as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[2]) == group:
            stats[int(entry)] = fields
    return stats


def group_pids(group):
    return list(group_stats(group))


class EncodeProbes:
    """Counts calls of libwebp's `WebPEncode` with uprobes (`perf probe`): ours links Debian's libwebp, thumbor
    Pillow's bundled copy. The probes are system-wide definitions, so they are deleted on exit; counting is per
    process (`perf stat -p`), so other programs using libwebp meanwhile are not counted."""

    GROUP = "servebench"

    def __init__(self, libraries):
        self.events = {}
        if shutil.which("perf") is None:
            return
        for name, library in libraries.items():
            result = subprocess.run(["perf", "probe", "-q", "-x", library,
                                     "%s:%s=WebPEncode" % (self.GROUP, name)], capture_output=True, text=True)
            if result.returncode == 0:
                self.events[name] = "%s:%s" % (self.GROUP, name)
            else:
                print("  no uprobe for %s (%s): %s" % (name, library, result.stderr.strip()[:200]))

    def count(self, name, pids, action):
        """Runs `action()` while counting the probe in `pids`; (result of action, count or None)."""
        if name not in self.events:
            return action(), None
        output = tempfile.NamedTemporaryFile(prefix="perf-stat-", delete=False)
        output.close()
        stat = subprocess.Popen(["perf", "stat", "-x", ",", "-e", self.events[name], "-o", output.name,
                                 "-p", ",".join(str(pid) for pid in pids)],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(0.5)
        try:
            result = action()
            time.sleep(0.3)
        finally:
            stat.send_signal(signal.SIGINT)
            stat.wait(timeout=30)
        with open(output.name) as f:
            lines = [line for line in f if self.events[name] in line]
        os.remove(output.name)
        return result, int(lines[0].split(",")[0]) if lines and lines[0].split(",")[0].isdigit() else None

    def remove(self):
        if self.events:
            subprocess.run(["perf", "probe", "-q", "-d", "%s:*" % self.GROUP], capture_output=True)
            self.events = {}


THUMBOR_CONF = """\
LOADER = 'thumbor.loaders.http_loader'
STORAGE = 'thumbor.storages.file_storage'
FILE_STORAGE_ROOT_PATH = '{work}/{name}-storage'
RESULT_STORAGE = None
ALLOW_UNSAFE_URL = True
ENGINE = 'thumbor.engines.pil'
QUALITY = 80
MAX_AGE = 0
HTTP_LOADER_MAX_CLIENTS = 64
"""


class Thumbor:
    """thumbor 7.8.0 from PyPI with its defaults where they matter: the HTTP loader, file storage of sources (in
    the temp dir), no result storage, the PIL engine on the IO loop; `--processes` forks that many servers."""

    def __init__(self, processes, venv, work, workers, name="thumbor"):
        self.port = free_port()
        self.log = os.path.join(work, name + ".log")
        conf = os.path.join(work, name + ".conf")
        with open(conf, "w") as f:
            f.write(THUMBOR_CONF.format(work=work, name=name))
        self.process = processes.start([os.path.join(venv, "bin", "thumbor"), "-i", HOST, "-p", str(self.port),
                                        "-c", conf, "-l", "error", "--processes", str(workers)], self.log)
        self.base = "http://%s:%d" % (HOST, self.port)

    def wait(self):
        wait_ready(self.base + "/healthcheck", self.process, self.log)


class LibvipsPeer:
    """libvips_peer.py: libvips driven as imgproxy drives it, one thread per connection, WORKERS images at once."""

    SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "libvips_peer.py")

    def __init__(self, processes, venv, work, workers, name="pyvips"):
        self.port = free_port()
        self.log = os.path.join(work, name + ".log")
        self.process = processes.start([os.path.join(venv, "bin", "python"), "-B", self.SCRIPT, str(self.port),
                                        str(workers)], self.log)
        self.base = "http://%s:%d" % (HOST, self.port)

    def wait(self):
        wait_ready(self.base + "/health", self.process, self.log)

    def encodes(self):
        """Its own count of encodes (the peer's code, so it can count exactly)."""
        return int(http_get(self.base + "/stats")[1])


def libvips_ceiling(venv, threads, seconds, quality, extension, boxes, files):
    """libvips_ceiling.py's run: {"images", "seconds", "rate" (images/s), "cpu_ms" (per image)}."""
    script = os.path.join(os.path.dirname(LibvipsPeer.SCRIPT), "libvips_ceiling.py")
    result = subprocess.run([os.path.join(venv, "bin", "python"), "-B", script, str(threads), str(seconds),
                             str(quality), extension, ",".join("%dx%d" % box for box in boxes)] + list(files),
                            capture_output=True, text=True, timeout=seconds + 300)
    line = next((l for l in result.stdout.splitlines() if l.startswith("CEILING ")), None)
    if result.returncode != 0 or line is None:
        raise RuntimeError("libvips_ceiling.py failed (%d):\n%s%s" % (result.returncode, result.stdout,
                                                                     result.stderr[-2000:]))
    return json.loads(line[8:])


class BareServer:
    """W3's ceiling of the framework: `webimage-benchmarks --bare-server`, a bare Hummingbird handler answering
    every GET with one file's bytes held in memory."""

    def __init__(self, processes, binary, work, file):
        self.port = free_port()
        self.log = os.path.join(work, "bare.log")
        self.process = processes.start([binary, "--bare-server", str(self.port), file], self.log)
        self.base = "http://%s:%d" % (HOST, self.port)

    def wait(self):
        wait_ready(self.base + "/health", self.process, self.log)


def start_side(side, processes, options, work, name=None):
    """A new server of `side` (ours, thumbor or pyvips, the libvips peer) with `options.workers`; `name` keeps its
    files apart from another server of the same side."""
    name = name or side
    if side == "ours":
        return Ours(processes, os.path.abspath(options.binary), work, options.workers, name=name)
    if side == "thumbor":
        return Thumbor(processes, options.venv, work, options.workers, name=name)
    return LibvipsPeer(processes, options.venv, work, options.workers, name=name)

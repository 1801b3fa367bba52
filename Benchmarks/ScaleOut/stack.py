"""The processes of the scale-out benchmark, all on 127.0.0.1 and free ports: a Redis Cluster of 3 masters and 3
replicas, moto's S3 server, a counting origin, `webimage serve` instances sharing the cluster and the store, and
nginx in front of them (least_conn, one retry on the next upstream)."""
import http.server
import os
import signal
import socket
import subprocess
import threading
import time
import urllib.request

# The soak's signing and ports (Benchmarks/Soak is on the path: scale_out.py puts it there).
from server import HOST, KEY, SALT, free_port, image_path  # noqa: E402,F401


def wait_for_port(port, seconds=30):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        try:
            with socket.create_connection((HOST, port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError("nothing listens on %d" % port)


def stop(process):
    if process and process.poll() is None:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()


class RedisCluster:
    """`redis-server --cluster-enabled yes` × 6 joined by `redis-cli --cluster create … --cluster-replicas 1`, with
    a 1 s node timeout so a killed master's replica takes over within seconds."""

    def __init__(self, work):
        self.work = os.path.join(work, "redis")
        os.makedirs(self.work)
        self.ports = [free_port() for _ in range(6)]
        self.processes = {}
        for port in self.ports:
            self.processes[port] = subprocess.Popen(
                ["redis-server", "--bind", HOST, "--port", str(port), "--cluster-enabled", "yes",
                 "--cluster-node-timeout", "1000", "--cluster-replica-validity-factor", "0",
                 "--cluster-port", str(free_port()), "--cluster-config-file", "nodes-%d.conf" % port,
                 "--dir", self.work, "--dbfilename", "dump-%d.rdb" % port, "--save", "", "--appendonly", "no",
                 "--maxmemory", "512mb", "--maxmemory-policy", "allkeys-lru"],
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        for port in self.ports:
            wait_for_port(port)
        subprocess.run(["redis-cli", "--cluster", "create"] + ["%s:%d" % (HOST, p) for p in self.ports]
                       + ["--cluster-replicas", "1", "--cluster-yes"], check=True, capture_output=True, timeout=120)
        if not self.wait_healthy(60):
            raise RuntimeError("the cluster did not come up")

    def cli(self, port, *arguments):
        run = subprocess.run(["redis-cli", "-h", HOST, "-p", str(port)] + list(arguments), capture_output=True,
                             text=True, timeout=10)
        return run.stdout

    def nodes(self):
        """(port, is master, is down) of every node, as a live node sees them."""
        for port in self.ports:
            if self.processes[port].poll() is None:
                lines = self.cli(port, "CLUSTER", "NODES").splitlines()
                if lines:
                    result = []
                    for line in lines:
                        fields = line.split()
                        flags = fields[2].split(",")
                        result.append((int(fields[1].split(":")[1].split("@")[0]), "master" in flags,
                                       "fail" in flags or "fail?" in flags or fields[7] == "disconnected"))
                    return result
        return []

    def wait_healthy(self, seconds):
        """Whether, within `seconds`, three live masters serve every slot (`cluster_state:ok` on a live node)."""
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            live = [p for p in self.ports if self.processes[p].poll() is None]
            if live and "cluster_state:ok" in self.cli(live[0], "CLUSTER", "INFO") \
                    and sum(1 for _, master, down in self.nodes() if master and not down) == 3:
                return True
            time.sleep(0.2)
        return False

    def kill_a_master(self):
        port = next(port for port, master, down in self.nodes() if master and not down)
        self.processes[port].send_signal(signal.SIGKILL)
        self.processes[port].wait()
        return port

    def url(self):
        return "redis-cluster://" + ",".join("%s:%d" % (HOST, p) for p in self.ports[:3])

    def stop(self):
        for process in self.processes.values():
            stop(process)


class Moto:
    """moto's S3 server (the project's .build-moto environment) with one bucket; it checks no signature."""

    def __init__(self, executable, work):
        self.port = free_port()
        self.process = subprocess.Popen([executable, "-H", HOST, "-p", str(self.port)], stdout=subprocess.DEVNULL,
                                        stderr=subprocess.DEVNULL, start_new_session=True, cwd=work)
        wait_for_port(self.port)
        request = urllib.request.Request("http://%s:%d/results" % (HOST, self.port), method="PUT", headers={
            "Authorization": "AWS4-HMAC-SHA256 Credential=AKID/20260101/us-east-1/s3/aws4_request, "
                             "SignedHeaders=host, Signature=0"})
        urllib.request.urlopen(request, timeout=10).read()

    def endpoint(self):
        return "http://%s:%d" % (HOST, self.port)

    def stop(self):
        stop(self.process)


class Origin:
    """The images under /img/NAME, each fetch counted by path."""

    def __init__(self, images):
        self.images = images
        self.counts = {}
        self.lock = threading.Lock()
        origin = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def do_GET(self):
                name = self.path.rsplit("/", 1)[-1]
                body = origin.images.get(name)
                with origin.lock:
                    origin.counts[self.path] = origin.counts.get(self.path, 0) + 1
                self.send_response(200 if body else 404)
                self.send_header("Content-Type", "image/jpeg" if body else "text/plain")
                body = body or b"no such image"
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

        self.server = http.server.ThreadingHTTPServer((HOST, 0), Handler)
        self.server.daemon_threads = True
        self.port = self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def url(self, name):
        return "http://%s:%d/img/%s" % (HOST, self.port, name)

    def fetches(self):
        with self.lock:
            return dict(self.counts)

    def stop(self):
        self.server.shutdown()


class Serve:
    """One `webimage serve`: its own port and disk cache, the cluster and the store shared when given. A restart
    takes the same port and cache."""

    def __init__(self, binary, work, index, workers, shared_cache=None, s3_endpoint=None):
        self.port, self.metrics_port = free_port(), free_port()
        self.log = os.path.join(work, "serve-%d.log" % index)
        self.arguments = [binary, "serve", "--bind", "%s:%d" % (HOST, self.port), "--key", KEY, "--salt", SALT,
                          "--allow-private-sources", "--cache-dir", os.path.join(work, "cache-%d" % index),
                          "--workers", str(workers), "--metrics-bind", "%s:%d" % (HOST, self.metrics_port)]
        if shared_cache:
            self.arguments += ["--shared-cache", shared_cache, "--shared-cache-deadline-ms", "50"]
        if s3_endpoint:
            self.arguments += ["--result-store", "s3://results/scale-out", "--s3-endpoint", s3_endpoint]
        self.environment = dict(os.environ, AWS_ACCESS_KEY_ID="AKID", AWS_SECRET_ACCESS_KEY="secret")
        self.process = None
        self.start()

    def start(self):
        with open(self.log, "ab") as log:
            self.process = subprocess.Popen(self.arguments, stdout=log, stderr=log, env=self.environment,
                                            start_new_session=True)
        wait_for_port(self.port)

    def counters(self, names):
        """The sum over each metric's series of `names`, from the metrics listener."""
        text = urllib.request.urlopen("http://%s:%d/metrics" % (HOST, self.metrics_port), timeout=10).read().decode()
        sums = dict.fromkeys(names, 0.0)
        for line in text.splitlines():
            name = line.split("{", 1)[0].split(" ", 1)[0]
            if name in sums:
                sums[name] += float(line.rsplit(" ", 1)[1])
        return sums

    def kill(self):
        self.process.send_signal(signal.SIGKILL)
        self.process.wait()

    def stop(self):
        stop(self.process)


class Nginx:
    """nginx in front of the instances: least_conn, a failed upstream (refused, reset, 502/503/504) retried once
    on the next, and left alone for 2 s after one failure."""

    def __init__(self, work, upstream_ports):
        self.port = free_port()
        prefix = os.path.join(work, "nginx")
        os.makedirs(os.path.join(prefix, "logs"))
        servers = "".join("        server %s:%d max_fails=1 fail_timeout=2s;\n" % (HOST, p) for p in upstream_ports)
        config = os.path.join(prefix, "nginx.conf")
        with open(config, "w") as out:
            out.write("""worker_processes 1;
pid %(prefix)s/nginx.pid;
error_log %(prefix)s/logs/error.log warn;
events { worker_connections 1024; }
http {
    access_log off;
    client_body_temp_path %(prefix)s/body;
    proxy_temp_path %(prefix)s/proxy;
    upstream webimage {
        least_conn;
%(servers)s        keepalive 32;
    }
    server {
        listen %(host)s:%(port)d;
        location / {
            proxy_pass http://webimage;
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            proxy_next_upstream error timeout http_502 http_503 http_504;
            proxy_next_upstream_tries 2;
            proxy_connect_timeout 1s;
            proxy_read_timeout 30s;
        }
    }
}
""" % {"prefix": prefix, "servers": servers, "host": HOST, "port": self.port})
        self.process = subprocess.Popen(["nginx", "-p", prefix, "-c", config, "-g", "daemon off;"],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        wait_for_port(self.port)

    def stop(self):
        stop(self.process)

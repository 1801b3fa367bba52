"""The soak's origin on 127.0.0.1: valid images under /v/NONCE/NAME, hostile sources under /h/NONCE/KIND, and a
second listener that accepts connections and never answers. A fresh NONCE makes a source URL nobody has seen."""
import http.server
import socket
import threading
import time

import fixtures

HOST = "127.0.0.1"
# How long a misbehaving answer goes on at most: far past the service's download deadlines (5 s, 3 s idle).
HOLD_SECONDS = 30


class Origin:
    def __init__(self, valid):
        self.valid = valid
        jpeg = valid["photo.jpg"][0]
        png = valid["photo.png"][0]
        self.hostile = {
            "pixel-png": (fixtures.png_header_bomb(), "image/png"),
            "pixel-jpeg": (fixtures.jpeg_header_bomb(jpeg), "image/jpeg"),
            "pixel-webp": (fixtures.webp_header_bomb(), "image/webp"),
            "frames-gif": (fixtures.gif_animation(1000, 1000, 5000), "image/gif"),
            "canvas-gif": (fixtures.gif_animation(65_535, 65_535, 3), "image/gif"),
            "truncated-jpeg": (jpeg[:len(jpeg) // 2], "image/jpeg"),
            "truncated-png": (png[:len(png) // 2], "image/png"),
            "random": (fixtures.random_bytes(20_000, 7), "image/jpeg"),
            "html": (b"<!doctype html><title>not an image</title>" * 20, "text/html"),
        }
        self.gzip_bomb = fixtures.gzip_bomb()
        self.counts = {}
        self.lock = threading.Lock()
        origin = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def do_GET(self):
                parts = self.path.split("/")
                try:
                    if len(parts) == 4 and parts[1] == "v" and parts[3] in origin.valid:
                        origin.count("valid")
                        self.answer(200, *origin.valid[parts[3]])
                    elif len(parts) == 4 and parts[1] == "h":
                        origin.count(parts[3])
                        origin.misbehave(self, parts[2], parts[3])
                    else:
                        self.answer(404, b"no such file", "text/plain")
                except (BrokenPipeError, ConnectionResetError, socket.timeout):
                    self.close_connection = True

            def answer(self, status, body, kind, extra=()):
                self.send_response(status)
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(body)))
                for name, value in extra:
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(body)

        class Server(http.server.ThreadingHTTPServer):
            def handle_error(self, request, client_address):
                pass  # the service hangs up on sources it refuses: nothing to report

        self.server = Server((HOST, 0), Handler)
        self.server.daemon_threads = True
        self.port = self.server.server_address[1]
        self.base = "http://%s:%d" % (HOST, self.port)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.hanging = Hanging()

    def count(self, kind):
        with self.lock:
            self.counts[kind] = self.counts.get(kind, 0) + 1

    def url(self, nonce, name):
        return "%s/v/%s/%s" % (self.base, nonce, name)

    def hostile_url(self, nonce, kind):
        if kind == "hang":
            return "http://%s:%d/h/%s/hang" % (HOST, self.hanging.port, nonce)
        return "%s/h/%s/%s" % (self.base, nonce, kind)

    def misbehave(self, handler, nonce, kind):
        if kind in self.hostile:
            handler.answer(200, *self.hostile[kind])
        elif kind == "gzip":
            handler.answer(200, self.gzip_bomb, "image/png", [("Content-Encoding", "gzip")])
        elif kind in ("500", "503"):
            handler.answer(int(kind), b"origin failure", "text/plain")
        elif kind == "missing":
            handler.answer(404, b"no such image", "text/plain")
        elif kind in ("loop-a", "loop-b"):
            other = "loop-b" if kind == "loop-a" else "loop-a"
            handler.answer(302, b"", "text/plain", [("Location", "/h/%s/%s" % (nonce, other))])
        elif kind.startswith("chain"):
            hop = int(kind[5:] or 0) + 1
            handler.answer(302, b"", "text/plain", [("Location", "/h/%s/chain%d" % (nonce, hop))])
        elif kind == "oversize":
            # Announces 60 MB (over the 50 MB limit) and sends zeros until the client leaves.
            self.stream(handler, [("Content-Length", str(60_000_000))], chunked=False)
        elif kind == "endless":
            self.stream(handler, [("Transfer-Encoding", "chunked")], chunked=True)
        elif kind == "drip":
            handler.send_response(200)
            handler.send_header("Content-Type", "image/jpeg")
            handler.send_header("Content-Length", "100000")
            handler.end_headers()
            deadline = time.monotonic() + HOLD_SECONDS
            while time.monotonic() < deadline:
                handler.wfile.write(b"\xff")
                handler.wfile.flush()
                time.sleep(0.4)
            handler.close_connection = True
        elif kind == "stall":
            handler.send_response(200)
            handler.send_header("Content-Type", "image/jpeg")
            handler.send_header("Content-Length", "100000")
            handler.end_headers()
            handler.wfile.write(self.valid["photo.jpg"][0][:200])
            handler.wfile.flush()
            time.sleep(HOLD_SECONDS)
            handler.close_connection = True
        else:
            handler.answer(404, b"no such kind", "text/plain")

    def stream(self, handler, headers, chunked):
        handler.send_response(200)
        handler.send_header("Content-Type", "image/png")
        for name, value in headers:
            handler.send_header(name, value)
        handler.end_headers()
        block = b"\x00" * 65536
        piece = (b"%x\r\n" % len(block)) + block + b"\r\n" if chunked else block
        deadline = time.monotonic() + HOLD_SECONDS
        while time.monotonic() < deadline:
            handler.wfile.write(piece)
        handler.close_connection = True

    def stop(self):
        self.server.shutdown()
        self.server.server_close()
        self.hanging.stop()


class Hanging:
    """Accepts connections and never reads or answers; each is closed after HOLD_SECONDS."""

    def __init__(self):
        self.listener = socket.socket()
        self.listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.listener.bind((HOST, 0))
        self.listener.listen(512)
        self.port = self.listener.getsockname()[1]
        self.held = []
        self.running = True
        threading.Thread(target=self.accept, daemon=True).start()

    def accept(self):
        self.listener.settimeout(1)
        while self.running:
            try:
                connection, _ = self.listener.accept()
                self.held.append((time.monotonic(), connection))
            except socket.timeout:
                pass
            except OSError:
                return
            while self.held and time.monotonic() - self.held[0][0] > HOLD_SECONDS:
                self.held.pop(0)[1].close()

    def stop(self):
        self.running = False
        self.listener.close()
        for _, connection in self.held:
            connection.close()

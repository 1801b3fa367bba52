"""The image test's origin: serves a directory on 127.0.0.1 (python3's http.server). /slow/NAME is NAME held
back: ARRIVED_FILE is created when such a request comes in, and the body goes one byte every 0.2 s (the
service's idle timeout never fires) until RELEASE_FILE exists, then the rest at once. The test thus knows a
request is in flight, and for as long as it needs, without guessing a delay. Logs to stderr.

Usage: origin.py DIRECTORY PORT ARRIVED_FILE RELEASE_FILE
"""
import functools
import http.server
import os
import pathlib
import sys
import time


class Handler(http.server.SimpleHTTPRequestHandler):
    def do_GET(self):
        if not self.path.startswith("/slow/"):
            return super().do_GET()
        body = (pathlib.Path(directory) / self.path[len("/slow/"):]).read_bytes()
        pathlib.Path(arrived).touch()
        self.send_response(200)
        self.send_header("Content-Type", "application/octet-stream")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        sent = 0
        while sent < len(body) - 1 and not os.path.exists(release):
            self.wfile.write(body[sent:sent + 1])
            self.wfile.flush()
            sent += 1
            time.sleep(0.2)
        self.wfile.write(body[sent:])


directory, port, arrived, release = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
server = http.server.ThreadingHTTPServer(("127.0.0.1", port), functools.partial(Handler, directory=directory))
server.serve_forever()

#!/usr/bin/python3
"""Peer for the manager's cold end-to-end benchmark: the same work with the Python stack.

For each URL: download (http.client, one persistent connection per worker thread), decode with Pillow,
make a 256 px thumbnail (aspect kept), write the original bytes and the thumbnail (JPEG) to a cache
directory. Runs with the given concurrency through concurrent.futures and prints the elapsed seconds.

Usage: peer_pillow.py BASE_URL COUNT CONCURRENCY CACHE_DIR
"""
import concurrent.futures
import hashlib
import http.client
import io
import os
import sys
import threading
import time
import urllib.parse

from PIL import Image

local = threading.local()


def connection(host, port):
    conn = getattr(local, "conn", None)
    if conn is None:
        conn = http.client.HTTPConnection(host, port, timeout=15)
        local.conn = conn
    return conn


def fetch(url):
    parts = urllib.parse.urlsplit(url)
    for attempt in range(2):
        conn = connection(parts.hostname, parts.port)
        try:
            conn.request("GET", parts.path, headers={"Accept": "image/*,*/*;q=0.8"})
            response = conn.getresponse()
            body = response.read()
            if response.status != 200:
                raise RuntimeError("status %d" % response.status)
            return body
        except (http.client.HTTPException, OSError):
            conn.close()
            local.conn = None
            if attempt == 1:
                raise


def load(url, cache_dir):
    data = fetch(url)
    image = Image.open(io.BytesIO(data))
    image.draft("RGB", (256, 256))  # Pillow's DCT-domain downscale, the same trick our JPEG decoder uses
    image = image.convert("RGBA" if image.mode in ("RGBA", "LA", "P") else "RGB")
    image.thumbnail((256, 256))
    name = hashlib.md5(url.encode()).hexdigest()
    with open(os.path.join(cache_dir, name + ".jpg"), "wb") as f:
        f.write(data)
    out = io.BytesIO()
    image.convert("RGB").save(out, format="JPEG", quality=75)
    with open(os.path.join(cache_dir, name + "-thumb.jpg"), "wb") as f:
        f.write(out.getvalue())
    return image.size


def main():
    base, count, concurrency, cache_dir = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
    os.makedirs(cache_dir, exist_ok=True)
    urls = ["%s/%d.jpg" % (base, i) for i in range(count)]
    start = time.perf_counter()
    with concurrent.futures.ThreadPoolExecutor(max_workers=concurrency) as pool:
        sizes = list(pool.map(lambda u: load(u, cache_dir), urls))
    elapsed = time.perf_counter() - start
    if any(max(size) != 256 for size in sizes):
        raise SystemExit("unexpected thumbnail size")
    print("%.6f" % elapsed)


if __name__ == "__main__":
    main()

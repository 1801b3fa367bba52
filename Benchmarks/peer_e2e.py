#!/usr/bin/env python3
"""Peer for the end-to-end `webimage fetch --thumbnail 256x256` benchmark: the same work in Python.

For each URL (a thread pool of CONCURRENCY, one requests.Session per thread): download, decode and make a
256 px thumbnail (aspect kept) with Pillow (`draft` for JPEG, then `thumbnail`) or pyvips
(`thumbnail_buffer`, pixels computed), and store the original bytes in CACHE_DIR under the md5 of the URL.
Prints the elapsed seconds.

Usage: peer_e2e.py pillow|pyvips URL_FILE CONCURRENCY CACHE_DIR
"""
import concurrent.futures
import hashlib
import io
import os
import sys
import threading
import time

import requests

local = threading.local()


def session():
    if getattr(local, "session", None) is None:
        local.session = requests.Session()
    return local.session


def thumbnail_pillow(data):
    from PIL import Image

    image = Image.open(io.BytesIO(data))
    image.draft("RGB", (256, 256))
    image = image.convert("RGBA" if image.mode in ("RGBA", "LA", "P") else "RGB")
    image.thumbnail((256, 256))
    return image.size


def thumbnail_pyvips(data):
    import pyvips

    image = pyvips.Image.thumbnail_buffer(data, 256, height=256)
    image.write_to_memory()
    return image.width, image.height


def load(url, cache_dir, thumbnail):
    response = session().get(url, headers={"Accept": "image/*,*/*;q=0.8"}, timeout=15)
    if response.status_code != 200:
        raise RuntimeError("status %d for %s" % (response.status_code, url))
    data = response.content
    width, height = thumbnail(data)
    if max(width, height) > 256:
        raise RuntimeError("thumbnail %dx%d for %s" % (width, height, url))
    with open(os.path.join(cache_dir, hashlib.md5(url.encode()).hexdigest()), "wb") as f:
        f.write(data)


def main():
    peer, url_file, concurrency, cache_dir = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
    thumbnail = {"pillow": thumbnail_pillow, "pyvips": thumbnail_pyvips}[peer]
    with open(url_file) as f:
        urls = [line.strip() for line in f if line.strip()]
    os.makedirs(cache_dir, exist_ok=True)
    thumbnail(_probe_image())
    start = time.monotonic()
    with concurrent.futures.ThreadPoolExecutor(max_workers=concurrency) as pool:
        for future in [pool.submit(load, url, cache_dir, thumbnail) for url in urls]:
            future.result()
    print("%.6f" % (time.monotonic() - start))


def _probe_image():
    """A tiny PNG, decoded once before timing so library start-up is not counted."""
    import base64

    return base64.b64decode(
        "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg=="
    )


if __name__ == "__main__":
    main()

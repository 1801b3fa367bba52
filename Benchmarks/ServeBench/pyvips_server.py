#!/usr/bin/env python3
"""The pyvips peer of serve_bench: a small aiohttp image server.

GET /fit/W/H/QUALITY/FORMAT/<percent-encoded source URL> fetches the source (one shared aiohttp client session,
keep-alive), makes a `thumbnail_buffer` that fits W×H without enlarging, encodes it (`webp` or `jpg`, metadata
dropped) on a thread pool of WORKERS threads (pyvips releases the GIL inside libvips) and answers the bytes.
libvips runs one thread per operation (`VIPS_CONCURRENCY=1`, as imgproxy sets it), so WORKERS is the number of
images processed at once. GET /health answers 200; GET /stats the number of encodes so far.

Usage: pyvips_server.py PORT WORKERS
"""
import asyncio
import concurrent.futures
import os
import sys
import threading
import urllib.parse

os.environ.setdefault("VIPS_CONCURRENCY", "1")

import aiohttp  # noqa: E402
import pyvips  # noqa: E402
from aiohttp import web  # noqa: E402

TYPES = {"webp": "image/webp", "jpg": "image/jpeg"}


encodes = 0
encodes_lock = threading.Lock()


def process(data, width, height, quality, extension):
    global encodes
    image = pyvips.Image.thumbnail_buffer(data, width, height=height, size="down")
    body = image.write_to_buffer("." + extension, Q=quality, keep="none")
    with encodes_lock:
        encodes += 1
    return body


async def fit(request):
    parts = request.raw_path.split("/", 6)
    if len(parts) != 7 or parts[5] not in TYPES:
        return web.Response(status=400, text="GET /fit/W/H/QUALITY/webp|jpg/<percent-encoded URL>")
    width, height, quality, extension = int(parts[2]), int(parts[3]), int(parts[4]), parts[5]
    source = urllib.parse.unquote(parts[6])
    async with request.app["client"].get(source) as response:
        if response.status != 200:
            return web.Response(status=502, text="source answered %d" % response.status)
        data = await response.read()
    loop = asyncio.get_running_loop()
    try:
        body = await loop.run_in_executor(request.app["pool"], process, data, width, height, quality, extension)
    except pyvips.Error as error:
        return web.Response(status=422, text=str(error))
    return web.Response(body=body, content_type=TYPES[extension])


async def health(request):
    return web.Response(text="ok")


async def stats(request):
    with encodes_lock:
        return web.Response(text=str(encodes))


async def start(app):
    app["client"] = aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=64))


async def stop(app):
    await app["client"].close()
    app["pool"].shutdown()


def main():
    port, workers = int(sys.argv[1]), int(sys.argv[2])
    app = web.Application()
    app["pool"] = concurrent.futures.ThreadPoolExecutor(max_workers=workers)
    app.on_startup.append(start)
    app.on_cleanup.append(stop)
    app.router.add_get("/health", health)
    app.router.add_get("/stats", stats)
    app.router.add_get("/fit/{rest:.*}", fit)
    web.run_app(app, host="127.0.0.1", port=port, access_log=None, print=None)


if __name__ == "__main__":
    main()

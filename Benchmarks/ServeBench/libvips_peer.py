#!/usr/bin/env python3
"""The libvips peer of serve_bench: libvips driven the way imgproxy (v4) drives it, behind a plain threaded server.

Serving, as imgproxy's handler: one thread per client connection (HTTP/1.1 keep-alive) does the whole request. It
takes one of WORKERS slots (imgproxy's worker limit, taken before the download), fetches the source over a
kept-alive connection of its own, processes it and answers. GET /fit/W/H/QUALITY/webp|jpg/<percent-encoded source
URL> fits the source into W×H without enlarging; GET /health answers 200; GET /stats the number of encodes so far.

Processing, as imgproxy's vips/vips.go, vips/vips.c and processing/{prepare,scale_on_load,scale,...}.go:
libvips runs one thread per image (VIPS_CONCURRENCY=1) with its operation cache off; the header is read from a
memory source (sequential access) for the size; the scale is imgproxy's for fit without enlarging, sizes rounded
half away from zero; JPEG sources are reloaded with shrink 8, 4 or 2 once the shrink reaches it, WebP sources with
`scale`; then `resize` (lanczos3, premultiplied when there is alpha) by the remaining scale, sRGB when the source is
in another colourspace, flattened on white for JPEG output, saved with metadata dropped and imgproxy's default save
options (JPEG: Q, optimize_coding, not interlaced; WebP: Q, effort 4, default preset). Sources here carry no EXIF
orientation, so nothing is rotated. libvips_ceiling.py runs `process` without HTTP.

Usage: libvips_peer.py PORT WORKERS
"""
import http.client
import http.server
import math
import os
import sys
import threading
import urllib.parse

os.environ["VIPS_CONCURRENCY"] = "1"  # read when libvips starts, i.e. on importing pyvips

import pyvips  # noqa: E402

# imgproxy: "Disable libvips cache. Since processing pipeline is fine tuned, we won't get much profit from it."
pyvips.cache_set_max(0)
pyvips.cache_set_max_mem(0)

TYPES = {"webp": "image/webp", "jpg": "image/jpeg"}
SAVE_OPTIONS = {"jpg": {"optimize_coding": True, "interlace": False}, "webp": {"effort": 4, "preset": "default"}}
PROCESSING_SPACES = ("srgb", "rgb", "b-w")  # imgproxy's guessTargetColorspace keeps these as they are


def scale_length(length, scale):
    """imgproxy's imath.Scale: Go's math.Round, half away from zero (lengths are positive)."""
    return int(math.floor(length * scale + 0.5))


def fit_scale(width, height, box_width, box_height):
    """imgproxy's calcScale for rs:fit without enlarge (dpr 1): one scale for both axes."""
    shrink = max(width / box_width, height / box_height, 1.0)
    return 1.0 / shrink


def fit_size(width, height, box_width, box_height):
    """The output size imgproxy answers for fit W×H of a width×height source."""
    scale = fit_scale(width, height, box_width, box_height)
    return scale_length(width, scale), scale_length(height, scale)


def jpeg_shrink(shrink):
    """scale_on_load.go's calcJpegShink: libjpeg shrinks by 8, 4 or 2 only."""
    return next((factor for factor in (8, 4, 2) if shrink >= factor), 1)


def load(data, box_width, box_height):
    """(image, horizontal scale, vertical scale) still to apply: the header read, then scale_on_load.go's reload.
    Each load reads a memory source over `data`, as imgproxy's loaders read a source: pyvips' *_buffer loaders would
    copy the whole file into a new blob each time (two copies of 7 MB per W5 request)."""
    image = pyvips.Image.new_from_source(pyvips.Source.new_from_memory(data), "", access="sequential")
    width, height = image.width, image.height
    scale = fit_scale(width, height, box_width, box_height)
    # The shrink reaching each scaled length, the smaller one, so no axis is shrunk past its target.
    preshrink = min(width / scale_length(width, scale), height / scale_length(height, scale))
    loader = image.get("vips-loader")
    if preshrink <= 1 or loader not in ("jpegload_source", "webpload_source"):
        return image, scale, scale
    if loader == "jpegload_source":
        preshrink = jpeg_shrink(preshrink)
        if preshrink == 1:
            return image, scale, scale
        image = pyvips.Image.jpegload_source(pyvips.Source.new_from_memory(data), shrink=preshrink,
                                             access="sequential")
    else:
        image = pyvips.Image.webpload_source(pyvips.Source.new_from_memory(data), scale=1.0 / preshrink,
                                             access="sequential")
    wscale, hscale = scale * width / image.width, scale * height / image.height
    # An exact preshrink leaves no resize to do on that axis.
    if image.width == scale_length(image.width, wscale):
        wscale = 1.0
    if image.height == scale_length(image.height, hscale):
        hscale = 1.0
    return image, wscale, hscale


def resize(image, wscale, hscale):
    """vips.c's vips_resize_go: lanczos3 (resize's default kernel), premultiplied when there is alpha."""
    if not image.hasalpha():
        return image.resize(wscale, vscale=hscale, kernel="lanczos3")
    band_format = image.format
    premultiplied = image.premultiply().cast(band_format)
    return premultiplied.resize(wscale, vscale=hscale, kernel="lanczos3").unpremultiply().cast(band_format)


def process(data, box_width, box_height, quality, extension):
    """The encoded bytes of `data` fitted into box_width×box_height as imgproxy makes them."""
    image, wscale, hscale = load(data, box_width, box_height)
    if image.interpretation not in PROCESSING_SPACES:
        image = image.colourspace("srgb")
    if wscale != 1 or hscale != 1:
        image = resize(image, wscale, hscale)
    if extension == "jpg" and image.hasalpha():
        image = image.flatten(background=[255, 255, 255])
    return image.write_to_buffer("." + extension, Q=quality, keep="none", **SAVE_OPTIONS[extension])


class Handler(http.server.BaseHTTPRequestHandler):
    """One instance per client connection, run by that connection's thread; `origin` is its own connection to the
    source server, kept alive across requests."""

    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True
    origin = None

    def do_GET(self):
        if self.path == "/health":
            return self.answer(200, b"ok", "text/plain")
        if self.path == "/stats":
            with self.server.encodes_lock:
                return self.answer(200, str(self.server.encodes).encode(), "text/plain")
        parts = self.path.split("/", 6)
        if len(parts) != 7 or parts[1] != "fit" or parts[5] not in TYPES:
            return self.answer(400, b"GET /fit/W/H/QUALITY/webp|jpg/<percent-encoded URL>", "text/plain")
        width, height, quality, extension = int(parts[2]), int(parts[3]), int(parts[4]), parts[5]
        with self.server.workers:
            status, data = self.fetch(urllib.parse.unquote(parts[6]))
            if status != 200:
                return self.answer(502, b"source answered %d" % status, "text/plain")
            try:
                body = process(data, width, height, quality, extension)
            except pyvips.Error as error:
                return self.answer(422, str(error).encode(), "text/plain")
        with self.server.encodes_lock:
            self.server.encodes += 1
        self.answer(200, body, TYPES[extension])

    def fetch(self, source):
        """(status, body) of GET `source` on this connection's origin connection; a connection the origin closed
        while idle is opened again once."""
        url = urllib.parse.urlsplit(source)
        port = url.port or 80
        target = url.path + ("?" + url.query if url.query else "")
        for attempt in (1, 2):
            if self.origin is None or self.origin.host != url.hostname or self.origin.port != port:
                self.close_origin()
                self.origin = http.client.HTTPConnection(url.hostname, port, timeout=60)
            try:
                self.origin.request("GET", target)
                response = self.origin.getresponse()
                return response.status, response.read()
            except (http.client.HTTPException, ConnectionError):
                self.close_origin()
                if attempt == 2:
                    raise

    def close_origin(self):
        if self.origin is not None:
            self.origin.close()
            self.origin = None

    def answer(self, status, body, content_type):
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def finish(self):
        self.close_origin()
        super().finish()

    def log_message(self, format, *args):
        pass  # no access log, as the other sides run


class Server(http.server.ThreadingHTTPServer):
    request_queue_size = 1024  # W4 opens 100 connections at once

    def __init__(self, port, workers):
        super().__init__(("127.0.0.1", port), Handler)
        self.workers = threading.BoundedSemaphore(workers)
        self.encodes, self.encodes_lock = 0, threading.Lock()


def main():
    port, workers = int(sys.argv[1]), int(sys.argv[2])
    Server(port, workers).serve_forever()


if __name__ == "__main__":
    main()

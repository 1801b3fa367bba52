"""The image test's client (python3's standard library only): signs URLs as imgproxy does, asks the container
over 127.0.0.1 on a new connection each time (as probes do), and checks answers by their status and by the
format and dimensions the image's own header gives. Each check prints one line; a failed one exits 1.

Usage:
  checks.py wait PORT SINCE TIMEOUT
      Polls /health until it answers 200; prints the seconds since SINCE (a Unix time).
  checks.py fixtures DIRECTORY
      Writes the SVG sources that need the image's data files: text (fontconfig, fonts) and an embedded PNG
      (gdk-pixbuf's loaders).
  checks.py serve PORT METRICS_PORT KEY SALT ORIGIN_PORT
      The service's answers: signed local and http sources, SVG text and embedded images drawn, /health,
      /ready, bad signatures, metrics.
  checks.py drain PORT KEY SALT ORIGIN_PORT ARRIVED_FILE RELEASE_FILE DRAIN_SECONDS STOP_COMMAND...
      A request held in flight by the origin (origin.py), STOP_COMMAND run: /ready 503 and /health 200 while
      it drains; then the origin released, the request answered, STOP_COMMAND done within the drain deadline
      with status 0.
"""
import base64
import hashlib
import hmac
import http.client
import os
import struct
import subprocess
import sys
import threading
import time
import zlib

# Black text on white: its glyphs are drawn only when fontconfig finds a font.
TEXT_SVG = ('<svg xmlns="http://www.w3.org/2000/svg" width="64" height="32"><rect width="64" height="32" fill="#fff"/>'
            '<text x="2" y="27" font-family="sans-serif" font-size="30" fill="#000">Hi</text></svg>')


def red_png():
    """A 2x2 opaque red PNG."""
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    rows = b"".join(b"\x00" + b"\xff\x00\x00" * 2 for _ in range(2))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 2, 2, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))


# A PNG drawn by librsvg through gdk-pixbuf: red only when a loader reads it.
EMBEDDED_SVG = ('<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16"><image width="16" height="16" '
                f'href="data:image/png;base64,{base64.b64encode(red_png()).decode()}"/></svg>')


def fail(message):
    print(f"image-test: FAILED: {message}", flush=True)
    sys.exit(1)


def ok(message):
    print(f"image-test: ok: {message}", flush=True)


def sign(key_hex, salt_hex, path):
    """imgproxy's signature: base64url(HMAC-SHA256(key, salt + path)) without padding, before the path."""
    digest = hmac.new(bytes.fromhex(key_hex), bytes.fromhex(salt_hex) + path.encode(), hashlib.sha256).digest()
    return "/" + base64.urlsafe_b64encode(digest).decode().rstrip("=") + path


def get(port, path, timeout=30):
    """(status, body) of GET path on a new connection; (None, error) when nothing answers."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        connection.request("GET", path)
        response = connection.getresponse()
        return response.status, response.read()
    except OSError as error:
        return None, str(error).encode()
    finally:
        connection.close()


def image_header(data):
    """(format, width, height) from the image's own header: JPEG's SOF, PNG's IHDR, WebP's VP8/VP8L/VP8X,
    AVIF's ftyp and ispe."""
    if data.startswith(b"\xff\xd8"):
        index = 2
        while index + 9 < len(data):
            marker, length = data[index + 1], struct.unpack(">H", data[index + 2:index + 4])[0]
            if marker in (0xC0, 0xC1, 0xC2):
                height, width = struct.unpack(">HH", data[index + 5:index + 9])
                return "jpeg", width, height
            index += 2 + length
    if data.startswith(b"\x89PNG\r\n\x1a\n"):
        width, height = struct.unpack(">II", data[16:24])
        return "png", width, height
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        chunk = data[12:16]
        if chunk == b"VP8 ":
            width, height = struct.unpack("<HH", data[26:30])
            return "webp", width & 0x3FFF, height & 0x3FFF
        if chunk == b"VP8L":
            bits = int.from_bytes(data[21:25], "little")
            return "webp", (bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1
        if chunk == b"VP8X":
            return "webp", int.from_bytes(data[24:27], "little") + 1, int.from_bytes(data[27:30], "little") + 1
    if data[4:8] == b"ftyp" and data[8:12] in (b"avif", b"avis"):
        index = data.find(b"ispe")
        if index > 0:
            width, height = struct.unpack(">II", data[index + 8:index + 16])
            return "avif", width, height
    return None, 0, 0


def bmp_pixels(data):
    """[(red, green, blue)] of a 24- or 32-bit uncompressed BMP."""
    offset, width, height, bits = (struct.unpack("<I", data[10:14])[0], *struct.unpack("<ii", data[18:26]),
                                   struct.unpack("<H", data[28:30])[0])
    step, stride = bits // 8, (width * bits // 8 + 3) & ~3
    return [tuple(data[offset + row * stride + column * step + channel] for channel in (2, 1, 0))
            for row in range(abs(height)) for column in range(width)]


def expect_status(port, path, status, what):
    answer, body = get(port, path)
    if answer != status:
        fail(f"{what}: {path} answered {answer} (expected {status}): {body[:200]!r}")
    ok(f"{what}: {status}")
    return body


def expect_image(port, path, expected, what):
    body = expect_status(port, path, 200, what)
    found = image_header(body)
    if found != expected:
        fail(f"{what}: {path} gave {found} (expected {expected})")
    ok(f"{what}: {found[0]} {found[1]}x{found[2]}")


def wait(port, since, timeout):
    deadline = time.time() + timeout
    while time.time() < deadline:
        status, _ = get(port, "/health", timeout=1)
        if status == 200:
            print(f"{time.time() - since:.2f}")
            return
        time.sleep(0.01)
    fail(f"/health did not answer 200 within {timeout} s")


def serve(port, metrics_port, key, salt, origin_port):
    origin = f"http://127.0.0.1:{origin_port}"
    body = expect_status(port, "/health", 200, "/health")
    if body != b"ok\n":
        fail(f"/health said {body!r}")
    expect_status(port, "/ready", 200, "/ready")
    # Local files under IMGPROXY_LOCAL_FILESYSTEM_ROOT (a read-only bind mount), each written as another format.
    expect_image(port, sign(key, salt, "/rs:fill:16:8/plain/local:///basn6a08.png@jpg"), ("jpeg", 16, 8),
                 "local PNG as JPEG")
    expect_image(port, sign(key, salt, "/rs:fit:40:40/plain/local:///test.webp@png"), ("png", 40, 40),
                 "local WebP as PNG")
    # The loopback http origin.
    expect_image(port, sign(key, salt, f"/rs:fill:20:20/plain/{origin}/colors-no-alpha.heic@webp"), ("webp", 20, 20),
                 "http HEIC as WebP")
    expect_image(port, sign(key, salt, f"/rs:fill:24:12/plain/{origin}/basn6a08.png@avif"), ("avif", 24, 12),
                 "http PNG as AVIF")
    # SVG sources that need the image's data files (checks.py fixtures wrote them).
    drawn = bmp_pixels(expect_status(port, sign(key, salt, f"/plain/{origin}/text.svg@bmp"), 200, "SVG text as BMP"))
    dark = sum(1 for pixel in drawn if max(pixel) < 96)
    # DejaVu Sans draws "Hi" with 173 dark pixels; with no font, pango draws two hollow boxes (72).
    if dark < 120:
        fail(f"SVG text: {dark} dark pixels of {len(drawn)}: no font drawn")
    ok(f"SVG text drawn: {dark} dark pixels of {len(drawn)}")
    embedded = bmp_pixels(expect_status(port, sign(key, salt, f"/plain/{origin}/embedded.svg@bmp"), 200,
                                        "SVG with an embedded PNG as BMP"))
    if any(pixel != (255, 0, 0) for pixel in embedded):
        fail(f"SVG embedded PNG: pixels {sorted(set(embedded))[:4]}, not all red")
    ok(f"SVG embedded PNG drawn: {len(embedded)} red pixels")
    # imgproxy Pro's watermark_text, drawn by pango over the red 80x40 rendering of the embedded SVG.
    markup = base64.urlsafe_b64encode(b'<span size="24pt">Hi</span>').decode().rstrip("=")
    marked = bmp_pixels(expect_status(port, sign(key, salt, f"/rs:force:80:40:1/wm:1:nowe/wmt:{markup}/plain/"
                                                 f"{origin}/embedded.svg@bmp"), 200, "a text watermark as BMP"))
    dark = sum(1 for pixel in marked if max(pixel) < 96)
    # DejaVu Sans draws a 24 pt "Hi" with 157 dark pixels.
    if dark < 120:
        fail(f"text watermark: {dark} dark pixels of {len(marked)}: no text drawn")
    ok(f"text watermark drawn: {dark} dark pixels of {len(marked)}")
    # imgproxy Pro's video thumbnails, read by FFmpeg in the image's `webimage video-frame` child: the frame at 2 s
    # (grey 160), and a sprite sheet of the frames at 0, 1 and 2 s.
    frame = bmp_pixels(expect_status(port, sign(key, salt, f"/vts:2/rs:fit:32:32/plain/{origin}/clip.mp4@bmp"), 200,
                                     "a video's frame as BMP"))
    if len(frame) != 32 * 24 or any(abs(channel - 160) > 3 for pixel in frame for channel in pixel):
        fail(f"video frame: {len(frame)} pixels, {sorted(set(frame))[:4]}, not 32x24 of grey 160")
    ok(f"video frame read: {len(frame)} pixels of grey 160")
    expect_image(port, sign(key, salt, f"/vts:0/vtt:1:3:1:16:12/plain/{origin}/clip.mp4@png"), ("png", 48, 12),
                 "a video's sprite sheet as PNG")
    good = sign(key, salt, "/rs:fill:16:8/plain/local:///basn6a08.png@jpg")
    expect_status(port, "/" + "A" * 43 + good[44:], 403, "a bad signature")
    expect_status(port, "/unsafe/rs:fill:16:8/plain/local:///basn6a08.png@jpg", 403, "an unsigned URL")
    text = expect_status(metrics_port, "/metrics", 200, "the metrics listener").decode()
    if "swiftwebimage_serve_encodes_total 9" not in text:
        fail("the metrics do not count the nine encodes: " + text[:400])
    ok("metrics count the nine encodes")


def drain(port, key, salt, origin_port, arrived, release, drain_seconds, stop_command):
    path = sign(key, salt, f"/rs:fill:10:10/plain/http://127.0.0.1:{origin_port}/slow/basn6a08.png@png")
    answer = {}
    request = threading.Thread(target=lambda: answer.update(result=get(port, path, timeout=60)))
    request.start()
    deadline = time.time() + 30
    while not os.path.exists(arrived):
        if time.time() > deadline:
            fail("the slow request never reached the origin")
        time.sleep(0.01)
    started = time.time()
    stop = subprocess.Popen(stop_command, stdout=subprocess.DEVNULL)
    # From the moment the drain starts: /ready 503 (on new connections), /health 200.
    while True:
        status, _ = get(port, "/ready", timeout=5)
        if status == 503:
            break
        if status != 200 or time.time() - started > 10:
            fail(f"/ready answered {status} after the stop signal, not 503")
        time.sleep(0.01)
    ok(f"/ready: 503 {time.time() - started:.2f} s after podman stop started")
    expect_status(port, "/health", 200, "/health while draining")
    open(release, "w").close()
    request.join()
    status, body = answer["result"]
    if status != 200 or image_header(body) != ("png", 10, 10):
        fail(f"the request in flight answered {status} {image_header(body) if status == 200 else body[:200]!r}")
    ok("the request in flight: 200 png 10x10")
    code = stop.wait()
    took = time.time() - started
    if code != 0:
        fail(f"podman stop exited {code}")
    if took > drain_seconds:
        fail(f"the container took {took:.1f} s to stop, more than the {drain_seconds} s drain deadline")
    ok(f"stopped in {took:.2f} s (drain deadline {drain_seconds} s)")


def fixtures(directory):
    for name, content in (("text.svg", TEXT_SVG), ("embedded.svg", EMBEDDED_SVG)):
        with open(os.path.join(directory, name), "w") as file:
            file.write(content)


command, arguments = sys.argv[1], sys.argv[2:]
if command == "fixtures":
    fixtures(arguments[0])
elif command == "wait":
    wait(int(arguments[0]), float(arguments[1]), float(arguments[2]))
elif command == "serve":
    serve(int(arguments[0]), int(arguments[1]), arguments[2], arguments[3], int(arguments[4]))
elif command == "drain":
    drain(int(arguments[0]), arguments[1], arguments[2], int(arguments[3]), arguments[4], arguments[5],
          float(arguments[6]), arguments[7:])
else:
    fail(f"unknown command {command}")

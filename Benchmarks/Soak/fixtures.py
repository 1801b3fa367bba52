"""The soak's source bytes: valid images made with the project's own `webimage convert` from one generated PNG
(plus an animated GIF of the test corpus), and hostile files built byte by byte. Nothing is downloaded."""
import os
import random
import struct
import subprocess
import zlib

CORPUS_GIF = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "Tests", "Corpus", "gif",
                          "samples", "moon_impact.gif")


def _chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def png(width, height, rows, alpha=False):
    """A PNG (RGB or RGBA, 8 bits) from `rows`, a list of bytes per row without the filter byte."""
    header = struct.pack(">IIBBBBB", width, height, 8, 6 if alpha else 2, 0, 0, 0)
    raw = b"".join(b"\x00" + row for row in rows)
    return b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", header) + _chunk(b"IDAT", zlib.compress(raw, 6)) \
        + _chunk(b"IEND", b"")


def photo_png(width, height, seed, alpha=False):
    """Something photo-like enough for the encoders to work: gradients, a few discs and noise."""
    rng = random.Random(seed)
    discs = [(rng.randrange(width), rng.randrange(height), rng.randrange(20, 120),
              bytes(rng.randrange(256) for _ in range(3))) for _ in range(6)]
    rows = []
    for y in range(height):
        row = bytearray()
        for x in range(width):
            pixel = [(x * 255 // width + seed * 40) & 0xFF, (y * 255 // height) & 0xFF, ((x + y) * 3) & 0xFF]
            for cx, cy, r, colour in discs:
                if (x - cx) ** 2 + (y - cy) ** 2 < r * r:
                    pixel = list(colour)
            noise = rng.randrange(-12, 13)
            row += bytes(max(0, min(255, value + noise)) for value in pixel)
            if alpha:
                row.append(255 if (x // 16 + y // 16) % 3 else 90)
        rows.append(bytes(row))
    return png(width, height, rows, alpha)


def valid_images(binary, work):
    """{name: (bytes, content type)}: JPEG, PNG, PNG with alpha, WebP, GIF and an animated GIF."""
    folder = os.path.join(work, "images")
    os.makedirs(folder, exist_ok=True)
    made = {}
    sources = {"photo.png": photo_png(640, 480, 1), "alpha.png": photo_png(320, 240, 2, alpha=True)}
    for name, data in sources.items():
        with open(os.path.join(folder, name), "wb") as f:
            f.write(data)
        made[name] = (data, "image/png")
    for name, source, quality, kind in (("photo.jpg", "photo.png", "0.85", "image/jpeg"),
                                        ("photo.webp", "photo.png", "0.8", "image/webp"),
                                        ("alpha.webp", "alpha.png", "0.8", "image/webp"),
                                        ("photo.gif", "photo.png", None, "image/gif")):
        out = os.path.join(folder, name)
        command = [binary, "convert", os.path.join(folder, source), out] + (["--quality", quality] if quality else [])
        subprocess.run(command, check=True, capture_output=True, timeout=120)
        with open(out, "rb") as f:
            made[name] = (f.read(), kind)
    with open(CORPUS_GIF, "rb") as f:
        made["moon.gif"] = (f.read(), "image/gif")
    return made


def png_header_bomb(width=100_000, height=100_000):
    """A valid PNG header declaring width × height, with a few bytes of image data."""
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", header) + _chunk(b"IDAT", zlib.compress(b"\x00" * 64)) \
        + _chunk(b"IEND", b"")


def jpeg_header_bomb(jpeg, width=65_000, height=65_000):
    """`jpeg` with its frame header rewritten to declare width × height (JPEG's sides stop at 65,535)."""
    data = bytearray(jpeg)
    index = 2
    while index + 4 < len(data):
        marker, length = data[index + 1], struct.unpack(">H", data[index + 2:index + 4])[0]
        if marker in (0xC0, 0xC1, 0xC2):
            data[index + 5:index + 9] = struct.pack(">HH", height, width)
            return bytes(data)
        index += 2 + length
    raise ValueError("no frame header")


def webp_header_bomb(width=16_384, height=16_384):
    """An extended WebP whose canvas is width × height around a lossless 1×1 image."""
    def chunk(kind, payload):
        return kind + struct.pack("<I", len(payload)) + payload + (b"\x00" if len(payload) % 2 else b"")
    le24 = lambda value: struct.pack("<I", value)[:3]  # noqa: E731
    pixel = bytes([0x2F, 0x00, 0x00, 0x00, 0x00, 0x07, 0x10, 0x11, 0xFD, 0x0F, 0x44, 0x44, 0xFF, 0x03])
    body = b"WEBP" + chunk(b"VP8X", b"\x00\x00\x00\x00" + le24(width - 1) + le24(height - 1)) + chunk(b"VP8L", pixel)
    return b"RIFF" + struct.pack("<I", len(body)) + body


def gif_animation(width, height, frames):
    """A looping GIF89a of `frames` frames of one black pixel each on a width × height canvas (under 25 bytes a
    frame): thousands of frames, or a huge canvas, in a small file."""
    out = bytearray(b"GIF89a" + struct.pack("<HH", width, height) + b"\x80\x00\x00" + b"\x00\x00\x00\xff\xff\xff")
    out += b"\x21\xff\x0bNETSCAPE2.0\x03\x01\x00\x00\x00"
    for index in range(frames):
        out += b"\x21\xf9\x04\x00\x0a\x00\x00\x00"
        out += b"\x2c" + struct.pack("<HHHH", index % width, 0, 1, 1) + b"\x00"
        out += b"\x02\x02\x44\x01\x00"  # LZW, minimum code size 2: clear, index 0, end
    return bytes(out + b"\x3b")


def random_bytes(size, seed):
    return random.Random(seed).randbytes(size)


def gzip_bomb(inflated=200 * 1024 * 1024):
    """Gzip of `inflated` zero bytes (about a thousand times smaller)."""
    compressor = zlib.compressobj(9, zlib.DEFLATED, 31)
    block = b"\x00" * (1 << 20)
    parts = [compressor.compress(block) for _ in range(inflated >> 20)]
    return b"".join(parts) + compressor.flush()


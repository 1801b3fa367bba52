"""Deterministic photo-like test images for serve_bench, made with pyvips and kept under .build-bench.

One 3072×3072 texture (Perlin noise at four scales per channel: broad colour fields down to fine detail) is made
once; every photo is a crop of it at its own offset and flip, with its own colour cast and film grain, saved as a
baseline JPEG at quality 85. Nothing is downloaded and nothing large is committed.
"""
import os

import pyvips

VERSION = "1"
FIELD = 3072


def _texture():
    bands = []
    for band in range(3):
        total = None
        for layer, (cell, amplitude) in enumerate(((512, 60), (128, 35), (32, 22), (8, 14))):
            noise = pyvips.Image.perlin(FIELD, FIELD, cell_size=cell, seed=101 + band * 10 + layer) * amplitude
            total = noise if total is None else total + noise
        bands.append(total)
    return bands[0].bandjoin(bands[1:])


def _photo(texture, width, height, seed):
    if width <= FIELD and height <= FIELD:
        x = (seed * 367) % (FIELD - width + 1)
        y = (seed * 211) % (FIELD - height + 1)
        image = texture.crop(x, y, width, height)
    else:
        image = texture.resize(max(width, height) / FIELD, kernel="linear").crop(0, 0, width, height)
    if seed % 2:
        image = image.fliphor()
    cast = [110 + (seed * 13) % 40, 105 + (seed * 29) % 30, 95 + (seed * 7) % 40]
    grain = pyvips.Image.gaussnoise(width, height, sigma=6, mean=0, seed=seed)
    return (image + grain + cast).cast("uchar").copy(interpretation="srgb")


class Fixtures:
    """The benchmark's source images: `cold/` 100 × 1024×683, `photos/` 100 × 2040×1360, `large/` one 7360×4912."""

    SETS = (("cold", 1024, 683, 100), ("photos", 2040, 1360, 100), ("large", 7360, 4912, 1))

    def __init__(self, root):
        self.root = os.path.join(root, "v" + VERSION)

    def names(self, kind):
        count = next(n for name, _, _, n in self.SETS if name == kind)
        return ["%s/%s-%03d.jpg" % (kind, kind, i) for i in range(count)]

    def ensure(self):
        """Makes whatever is missing; returns the folder nginx serves."""
        texture = None
        for kind, width, height, count in self.SETS:
            os.makedirs(os.path.join(self.root, kind), exist_ok=True)
            for index, name in enumerate(self.names(kind)):
                path = os.path.join(self.root, name)
                if os.path.exists(path):
                    continue
                if texture is None:
                    print("making test images under %s (once)…" % self.root, flush=True)
                    texture = _texture().copy_memory()
                data = _photo(texture, width, height, index + 1).write_to_buffer(".jpg", Q=85, keep="none")
                with open(path + ".part", "wb") as f:
                    f.write(data)
                os.replace(path + ".part", path)
        return self.root

"""Deterministic photo-like test images for serve_bench, made with pyvips and kept under .build-bench.

One 3072×3072 texture (Perlin-noise luminance at four scales with hard-edged shapes, and slow colour on top) is
made once; every photo is a crop of it at its own offset and flip, with its own colour cast and film grain, saved as a
baseline JPEG at quality 85. Nothing is downloaded and nothing large is committed.
"""
import os

import pyvips

VERSION = "2"
FIELD = 3072


def _texture():
    """Luminance shared by the three channels (broad light, objects with hard edges, mid detail, fine texture),
    with slowly varying colour on top, as in a photo; values around 0, scaled to bytes later."""
    def perlin(cell, seed):
        return pyvips.Image.perlin(FIELD, FIELD, cell_size=cell, seed=seed)

    light = perlin(768, 1) * 45 + perlin(192, 2) * 25 + perlin(48, 3) * 14 + perlin(8, 4) * 9
    objects = (perlin(256, 5) > 0.1).ifthenelse(38, -12) + (perlin(96, 6) > 0.25).ifthenelse(-30, 0)
    luminance = light + objects
    warm, cool = perlin(640, 7) * 30, perlin(512, 8) * 26
    return (luminance + warm).bandjoin([luminance - (warm + cool) * 0.3, luminance + cool])


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

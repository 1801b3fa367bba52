"""Smart gravity beside pyvips' smartcrop(interesting="attention") on the corpus's photos (issue 26).

Run through Benchmarks/smart_crop.sh, which makes the venv and the release build.

Usage: compare.py --binary PATH/webimage-benchmarks [--repeats 5]

Each photo is decoded once with pyvips (HEIC with heif-convert first; upright, 8-bit sRGB) and handed to both sides as the same pixels: to
pyvips as a memory image (three bands when opaque, as a JPEG would be), to ours as raw RGBA8 through
`webimage-benchmarks --smartcrop`. Per photo three boxes whose short side is half the photo's: square, 16:9
and 9:16. Per case: both origins, the intersection over union of the two crops, and the best of `repeats`
timings of a smart crop (finding the box and cutting it out) and of a centre crop, on each side.
"""

import argparse
import os
import statistics
import subprocess
import tempfile
import time

import pyvips

CORPUS = "Tests/Corpus"
PHOTOS = [
    "webp/bryce.webp",
    "avif/Summer_in_Tomsk_720p_5x4_grid.avif",
    "heif/arrow.heic",
    "avif/free_property.avif",
    "avif/Chimera_10bit_cropped_to_1920x1008.avif",
    "avif/Ronda_rotate90.avif",
    "avif/abandoned_filmgrain.avif",
    "avif/fruits_2layer_thumbsize.avif",
    "avif/kids_720p.avif",
    "avif/fox.profile1.10bpc.yuv444.avif",
    "avif/kimono.rotate90.avif",
    "avif/Irvine_CA.avif",
]


def decode(path, work):
    """The photo upright as 8-bit sRGB, its alpha kept only when some pixel is not opaque."""
    if path.endswith(".heic"):
        # pyvips-binary's libheif has no HEVC decoder: the system's heif-convert (Scripts/setup.sh) decodes it.
        png = os.path.join(work, os.path.basename(path) + ".png")
        subprocess.run(["heif-convert", path, png], check=True, capture_output=True)
        path = png
    image = pyvips.Image.new_from_file(path).autorot()
    if image.interpretation != "srgb" or image.format != "uchar":
        image = image.colourspace("srgb").cast("uchar")
    if image.hasalpha() and image[image.bands - 1].min() == 255:
        image = image[:image.bands - 1]
    return image.copy_memory()


def boxes(width, height):
    side = min(width, height) // 2
    long_side = side * 16 // 9
    return [("1:1", side, side), ("16:9", long_side, side), ("9:16", side, long_side)]


def best_seconds(repeats, body):
    body()
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        body()
        best = min(best, time.perf_counter() - start)
    return best


def pyvips_origin(image, width, height):
    _, found = image.smartcrop(width, height, interesting="attention", attention_x=True, attention_y=True)
    # libvips centres the box on its attention point, clipped to the image.
    left = min(max(0, found["attention_x"] - width // 2), image.width - width)
    top = min(max(0, found["attention_y"] - height // 2), image.height - height)
    return left, top


def iou(a, b, width, height):
    dx = max(0, min(a[0], b[0]) + width - max(a[0], b[0]))
    dy = max(0, min(a[1], b[1]) + height - max(a[1], b[1]))
    overlap = dx * dy
    return overlap / (2 * width * height - overlap)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", required=True)
    parser.add_argument("--repeats", type=int, default=5)
    options = parser.parse_args()
    pyvips.cache_set_max(0)  # every call computes: no answer from libvips' operation cache

    cases = []
    with tempfile.TemporaryDirectory() as work:
        images = {}
        for index, photo in enumerate(PHOTOS):
            image = decode(os.path.join(CORPUS, photo), work)
            rgba = image if image.bands == 4 else image.bandjoin(255)
            raw = os.path.join(work, f"{index}.rgba")
            with open(raw, "wb") as out:
                out.write(rgba.write_to_memory())
            images[photo] = image
            for name, width, height in boxes(image.width, image.height):
                cases.append((photo, raw, name, width, height))
        table = os.path.join(work, "cases.tsv")
        with open(table, "w") as out:
            for photo, raw, _, width, height in cases:
                image = images[photo]
                out.write(f"{raw}\t{image.width}\t{image.height}\t{width}\t{height}\n")
        ours = subprocess.run([options.binary, "--smartcrop", table], check=True, capture_output=True,
                              text=True).stdout.split("\n")

    print(f"libvips {pyvips.version(0)}.{pyvips.version(1)}.{pyvips.version(2)}, "
          f"{pyvips.concurrency_get()} threads; best of {options.repeats}; times in ms\n")
    print(f"{'photo':44} {'size':>11} {'box':>5} {'ours x,y':>11} {'pyvips x,y':>11} {'IoU':>5} "
          f"{'ours sm':>8} {'ours ctr':>8} {'vips sm':>8} {'vips ctr':>8}")
    rows = []
    for (photo, _, name, width, height), line in zip(cases, ours):
        fields = line.split("\t")
        mine = (int(fields[0]), int(fields[1]))
        image = images[photo]
        theirs = pyvips_origin(image, width, height)
        left, top = (image.width - width) // 2, (image.height - height) // 2
        vips_smart = best_seconds(options.repeats, lambda: image.smartcrop(
            width, height, interesting="attention").copy_memory())
        vips_centre = best_seconds(options.repeats, lambda: image.crop(left, top, width, height).copy_memory())
        row = (iou(mine, theirs, width, height), float(fields[2]), float(fields[3]), vips_smart, vips_centre)
        rows.append(row)
        size = f"{image.width}x{image.height}"
        print(f"{photo:44} {size:>11} {name:>5} {mine[0]:>5},{mine[1]:<5} {theirs[0]:>5},{theirs[1]:<5} "
              f"{row[0]:5.3f} {row[1] * 1e3:8.2f} {row[2] * 1e3:8.2f} {row[3] * 1e3:8.2f} {row[4] * 1e3:8.2f}")

    overlaps = [row[0] for row in rows]
    print(f"\nIoU over {len(rows)} cases: mean {statistics.mean(overlaps):.3f}, median "
          f"{statistics.median(overlaps):.3f}, min {min(overlaps):.3f}; "
          f"{sum(o == 1 for o in overlaps)} identical, {sum(o >= 0.9 for o in overlaps)} at least 0.9")
    for label, column in (("ours sm", 1), ("ours centre", 2), ("pyvips sm", 3), ("pyvips centre", 4)):
        values = [row[column] * 1e3 for row in rows]
        print(f"{label:14} ms: median {statistics.median(values):7.2f}, min {min(values):7.2f}, "
              f"max {max(values):7.2f}")
    ours_extra = [(row[1] - row[2]) * 1e3 for row in rows]
    vips_extra = [(row[3] - row[4]) * 1e3 for row in rows]
    ratio = [row[3] / row[1] for row in rows]
    print(f"sm over centre, ms: ours median {statistics.median(ours_extra):.2f} "
          f"(max {max(ours_extra):.2f}), pyvips median {statistics.median(vips_extra):.2f} "
          f"(max {max(vips_extra):.2f}); pyvips sm / ours sm: median {statistics.median(ratio):.2f}, "
          f"range {min(ratio):.2f}-{max(ratio):.2f}")


if __name__ == "__main__":
    main()

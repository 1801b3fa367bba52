"""Image quality beside a reference resize (the issue: "no worse than libvips'"). Each side's output is compared
with pyvips' lanczos3 resize of the FULL-resolution source (no shrink-on-load, so the reference is the best this
kernel can do), by the mean absolute difference per channel value (0–255)."""
import os

import pyvips

import routes
import servers


def reference(source, width, height):
    """lanczos3 from the full-resolution decode to exactly width×height, sRGB, 8-bit."""
    image = pyvips.Image.new_from_buffer(source, "")
    resized = image.resize(width / image.width, vscale=height / image.height, kernel="lanczos3")
    resized = resized.colourspace("srgb").cast("uchar")
    if (resized.width, resized.height) != (width, height):
        raise RuntimeError("reference came out %dx%d, not %dx%d" % (resized.width, resized.height, width, height))
    return resized


def fit(width, height, box_width, box_height):
    scale = min(box_width / width, box_height / height, 1)
    return round(width * scale), round(height * scale)


def mean_difference(body, source, box_width, box_height):
    """(width, height, mean |output − reference|) of one side's output; the reference is made at the output's
    size, which may differ from the exact fit by a pixel (each server rounds its own way)."""
    output = pyvips.Image.new_from_buffer(body, "")
    if output.hasalpha():
        output = output.flatten()
    output = output.colourspace("srgb").cast("uchar")
    source_image = pyvips.Image.new_from_buffer(source, "")
    expected = fit(source_image.width, source_image.height, box_width, box_height)
    if abs(output.width - expected[0]) > 1 or abs(output.height - expected[1]) > 1:
        raise RuntimeError("output %dx%d does not fit %dx%d as %dx%d" % (output.width, output.height, box_width,
                                                                         box_height, *expected))
    ref = reference(source, output.width, output.height)
    return output.width, output.height, (output.cast("int") - ref.cast("int")).abs().avg()


def compare(bench, row, names, width, height, quality, extension):
    """Every side's output for each of `names` (a fresh nonce, so it is made now) beside the reference; prints
    each and flags where ours is worse than the pyvips server's. Table lines: the mean over `names`."""
    print("  quality: mean |Δ| per channel value (0–255) from pyvips' lanczos3 resize of the full-resolution source")
    found = {side: [] for side in servers.SIDES}
    for name in names:
        with open(os.path.join(bench.image_root, name), "rb") as f:
            source = f.read()
        cells = []
        for side in servers.SIDES:
            path = routes.ALL[side](bench.nginx.source("q%s-%s" % (row, side), name), width, height, quality,
                                    extension)
            status, body = servers.http_get(bench.sides[side].base + path, timeout=120)
            if status != 200:
                raise RuntimeError("%s answered %d for %s: %r" % (side, status, path, body[:200]))
            out_width, out_height, difference = mean_difference(body, source, width, height)
            found[side].append(difference)
            cells.append("%s %dx%d %.2f" % (side, out_width, out_height, difference))
        flag = "  OURS WORSE THAN PYVIPS" if found["ours"][-1] > found["pyvips"][-1] else ""
        print("    %-22s %s%s" % (os.path.basename(name), ", ".join(cells), flag), flush=True)
    mean = {side: sum(values) / len(values) for side, values in found.items()}
    lines = []
    for peer in ("thumbor", "pyvips"):
        lines.append(("%s quality: mean |Δ| from lanczos3 vs %s (%d source%s)" % (row, peer, len(names),
                                                                               "s" if len(names) > 1 else ""),
                      "%.2f" % mean["ours"], "%.2f" % mean[peer], "%.2f×" % (mean["ours"] / mean[peer]),
                      "≤ pyvips'" if peer == "pyvips" else "", "", ""))
    if mean["ours"] > mean["pyvips"]:
        print("  %s quality: OURS (%.2f) IS WORSE THAN PYVIPS (%.2f)" % (row, mean["ours"], mean["pyvips"]))
    return lines

"""Replaces the layers of an OCI image layout (umoci writes them gzip-compressed) with the same tars compressed
by zstd, and points the manifest and the index at them. The layer's uncompressed digest (its diff_id) is
checked before anything changes, so the image's content is the same; only its transfer size shrinks.

zstd at level 19 with a 256 MiB long-distance window: the window spans the whole layer, so data repeated far
apart (ICU's tables, in libicudata and again in the binary's Foundation) is stored once. Unpacking needs that
much memory once, at pull or load time. Output is reproducible: the same tar and the same zstd version give the
same bytes (a fixed thread count, which zstd's output does not depend on beyond one).

Usage: zstd-layers.py LAYOUT TAG TAR...   (one uncompressed tar per layer, in the manifest's order)
"""
import hashlib
import json
import os
import subprocess
import sys

ZSTD = ["zstd", "--quiet", "--force", "-19", "--long=28", "--threads=2", "--stdout"]
ZSTD_LAYER = "application/vnd.oci.image.layer.v1.tar+zstd"


def fail(message):
    sys.exit(f"zstd-layers: {message}")


def blob_path(layout, digest):
    algorithm, _, hex_digest = digest.partition(":")
    return os.path.join(layout, "blobs", algorithm, hex_digest)


def file_digest(path):
    digest = hashlib.sha256()
    with open(path, "rb") as file:
        for chunk in iter(lambda: file.read(1 << 20), b""):
            digest.update(chunk)
    return "sha256:" + digest.hexdigest()


def write_blob(layout, data):
    digest = "sha256:" + hashlib.sha256(data).hexdigest()
    with open(blob_path(layout, digest), "wb") as file:
        file.write(data)
    return digest


def main():
    if len(sys.argv) < 4:
        fail(__doc__.strip().splitlines()[-1])
    layout, tag, tars = sys.argv[1], sys.argv[2], sys.argv[3:]
    with open(os.path.join(layout, "index.json")) as file:
        index = json.load(file)
    entry = next((m for m in index["manifests"]
                  if m.get("annotations", {}).get("org.opencontainers.image.ref.name") == tag), None)
    if entry is None:
        fail(f"no manifest tagged {tag} in {layout}")
    with open(blob_path(layout, entry["digest"])) as file:
        manifest = json.load(file)
    with open(blob_path(layout, manifest["config"]["digest"])) as file:
        diff_ids = json.load(file)["rootfs"]["diff_ids"]
    if len(tars) != len(manifest["layers"]):
        fail(f"{len(tars)} tars for {len(manifest['layers'])} layers")

    for number, (layer, tar) in enumerate(zip(manifest["layers"], tars)):
        if file_digest(tar) != diff_ids[number]:
            fail(f"{tar} is not layer {number} (its digest differs from the image's diff_id)")
        compressed = subprocess.run(ZSTD + [tar], check=True, capture_output=True).stdout
        os.unlink(blob_path(layout, layer["digest"]))
        layer.update(mediaType=ZSTD_LAYER, digest=write_blob(layout, compressed), size=len(compressed))

    data = json.dumps(manifest, separators=(",", ":")).encode()
    os.unlink(blob_path(layout, entry["digest"]))
    entry.update(digest=write_blob(layout, data), size=len(data))
    with open(os.path.join(layout, "index.json"), "w") as file:
        json.dump(index, file, separators=(",", ":"))


main()

#!/usr/bin/env bash
# `make image`: webimage built in release and an OCI image of it for linux/amd64, written as an oci-archive in
# .build-image/ whose path is the last line printed. One layer: a Debian bookworm minbase root made by mmdebstrap
# with the packages holding the libraries the binary needs (runtime-packages.sh), ca-certificates, tzdata, a user
# `webimage` (uid 10001) and the binary, then cut down by prune-root.py to those libraries, their data and the
# binary: no shell, package manager or other program. The layer is zstd-compressed (zstd-layers.py). Nothing is
# pulled from a registry.
#
# Reproducible enough to compare: SOURCE_DATE_EPOCH (default: the last commit's time) clamps every file's time
# and dates the image. The same tree and the same state of Debian's archive give the same layer digest (printed
# at the end).
#
# Variables: IMAGE_VERSION (default `git describe --tags --always --dirty`), IMAGE_SOURCE (the repository's URL
# for org.opencontainers.image.source; default the `origin` remote when it is http(s), else the placeholder the
# README uses), IMAGE_LICENSES (SPDX; default NOASSERTION: the repository declares no licence), IMAGE_MIRROR and
# IMAGE_SECURITY_MIRROR (Debian's archive and its security archive).
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"

out="$root/.build-image"
scratch="$root/.build-release"
mirror="${IMAGE_MIRROR:-http://deb.debian.org/debian}"
security="${IMAGE_SECURITY_MIRROR:-http://deb.debian.org/debian-security}"
user_id=10001
cache_dir=/var/cache/webimage

export SOURCE_DATE_EPOCH="${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct)}"
created="$(date -u -d "@$SOURCE_DATE_EPOCH" +%Y-%m-%dT%H:%M:%SZ)"
version="${IMAGE_VERSION:-$(git describe --tags --always --dirty)}"
revision="$(git rev-parse HEAD)"
remote="$(git config --get remote.origin.url || true)"
case "$remote" in
    http://*|https://*) default_source="${remote%.git}" ;;
    *) default_source="https://github.com/OWNER/SwiftWebImage" ;;
esac
source_url="${IMAGE_SOURCE:-$default_source}"
licenses="${IMAGE_LICENSES:-NOASSERTION}"

step() { echo "image: $*"; }
started=$SECONDS

# Static Swift standard library and Foundation: the binary needs no toolchain library, only Debian's.
step "building webimage in release ($scratch)"
swift build -c release --product webimage --scratch-path "$scratch" --static-swift-stdlib
binary="$(swift build -c release --scratch-path "$scratch" --show-bin-path)/webimage"

rm -rf "$out"
mkdir -p "$out"
# Symbols are for debuggers, not for the service: without them the release binary is under half its size.
strip --strip-all -o "$out/webimage" "$binary"

packages="$(bash "$root/Scripts/image/runtime-packages.sh" "$binary")"
step "runtime packages (from the binary's NEEDED entries): $(echo $packages)"

# minbase without documentation, manual pages and translations (the copyright files stay); merged /usr set up
# by mmdebstrap's hook, which installs usr-is-merged rather than usrmerge (and the Perl it needs). The binary and
# its cache directory go in before the root is pruned to what the binary needs; the pruning removes apt's and
# dpkg's files, mmdebstrap's own set-up files among them, so mmdebstrap's cleanup of those is skipped.
step "making the bookworm root filesystem with mmdebstrap (SOURCE_DATE_EPOCH=$SOURCE_DATE_EPOCH)"
mmdebstrap --quiet --variant=minbase --architectures=amd64 --format=tar --skip=cleanup/apt,cleanup/mmdebstrap \
    --hook-dir=/usr/share/mmdebstrap/hooks/merged-usr \
    --aptopt='APT::Install-Recommends "false"' \
    --dpkgopt='path-exclude=/usr/share/doc/*' --dpkgopt='path-include=/usr/share/doc/*/copyright' \
    --dpkgopt='path-exclude=/usr/share/man/*' --dpkgopt='path-exclude=/usr/share/info/*' \
    --dpkgopt='path-exclude=/usr/share/locale/*' --dpkgopt='path-exclude=/usr/share/lintian/*' \
    --include="ca-certificates,tzdata,$(echo $packages | tr ' ' ',')" \
    --customize-hook="chroot \"\$1\" groupadd --gid $user_id webimage" \
    --customize-hook="chroot \"\$1\" useradd --no-log-init --uid $user_id --gid $user_id --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin webimage" \
    --customize-hook="install -D -m 0755 \"$out/webimage\" \"\$1/usr/local/bin/webimage\"" \
    --customize-hook="install -d -m 0700 -o $user_id -g $user_id \"\$1$cache_dir\"" \
    --customize-hook="python3 \"$root/Scripts/image/prune-root.py\" \"\$1\" usr/local/bin/webimage base-files ca-certificates tzdata" \
    --customize-hook="chroot \"\$1\" /usr/local/bin/webimage serve --help >/dev/null" \
    bookworm "$out/rootfs.tar" \
    "deb $mirror bookworm main" "deb $mirror bookworm-updates main" "deb $security bookworm-security main"

step "assembling the image with umoci"
layout="$out/oci"
umoci init --layout "$layout"
umoci new --image "$layout:webimage"
umoci raw add-layer --image "$layout:webimage" --history.created "$created" \
    --history.created_by "mmdebstrap --variant=minbase bookworm + ca-certificates tzdata $(echo $packages), webimage $version (swift build -c release --static-swift-stdlib), pruned to what webimage needs" \
    "$out/rootfs.tar"
umoci config --image "$layout:webimage" --no-history --created "$created" --os linux --architecture amd64 \
    --config.user "$user_id:$user_id" --config.workingdir / \
    --config.entrypoint webimage --config.entrypoint serve \
    --config.env PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    --config.env IMGPROXY_BIND=:8080 --config.env WEBIMAGE_CACHE_DIR="$cache_dir" \
    --config.exposedports 8080/tcp --config.stopsignal SIGTERM \
    --config.label org.opencontainers.image.title=webimage \
    --config.label "org.opencontainers.image.description=webimage serve: an imgproxy-compatible image service" \
    --config.label "org.opencontainers.image.source=$source_url" \
    --config.label "org.opencontainers.image.version=$version" \
    --config.label "org.opencontainers.image.revision=$revision" \
    --config.label "org.opencontainers.image.licenses=$licenses" \
    --config.label "org.opencontainers.image.created=$created" \
    --config.label org.opencontainers.image.base.name=debian:bookworm

step "compressing the layer with zstd"
python3 "$root/Scripts/image/zstd-layers.py" "$layout" webimage "$out/rootfs.tar"

archive="$out/webimage-$version-linux-amd64.oci.tar"
skopeo copy --quiet "oci:$layout:webimage" "oci-archive:$archive:webimage:$version"
# skopeo reads the archive back: the manifest, the platform and the labels as a registry client sees them.
skopeo inspect --config "oci-archive:$archive" | python3 -c '
import json, sys
config = json.load(sys.stdin)
assert (config["os"], config["architecture"]) == ("linux", "amd64"), config
print("image: entrypoint", config["config"]["Entrypoint"], "user", config["config"]["User"],
      "labels", ", ".join(sorted(config["config"]["Labels"])))'

# The layer's digests: diff_id (the uncompressed tar, what "same root filesystem" means) and the compressed blob.
diff_id="$(skopeo inspect --config "oci-archive:$archive" | python3 -c '
import json, sys; print(" ".join(json.load(sys.stdin)["rootfs"]["diff_ids"]))')"
blob="$(skopeo inspect --raw "oci-archive:$archive" | python3 -c '
import json, sys; print(" ".join(layer["digest"] for layer in json.load(sys.stdin)["layers"]))')"
step "layer: diff_id $diff_id, blob $blob"

megabytes() { python3 -c "print(f'{$1 / 1e6:.1f} MB')"; }
step "size: archive $(megabytes "$(stat -c %s "$archive")") (zstd layer), unpacked $(megabytes "$(stat -c %s "$out/rootfs.tar")")" \
    "(webimage $(megabytes "$(stat -c %s "$out/webimage")"))"
# The layer's tar stays (to compare two builds file by file); the staging copies go.
rm -rf "$out/webimage" "$layout"
step "built in $((SECONDS - started)) s"
echo "$archive"

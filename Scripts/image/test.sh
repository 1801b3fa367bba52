#!/usr/bin/env bash
# `make image-test`: loads the oci-archive `make image` wrote (or the one given) into a fresh podman store and
# runs it as an operator does: IMGPROXY_* variables only, --read-only with a tmpfs for the cache, as the image's
# non-root user, test images on a read-only bind mount under IMGPROXY_LOCAL_FILESYSTEM_ROOT, a loopback http
# origin, --network host, every port on 127.0.0.1 chosen free here. checks.py asks the questions; this script
# measures the time from `podman run` to the first 200 over IMAGE_TEST_RUNS runs (default 3) and reports it.
# Usage: test.sh [ARCHIVE]
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
here="$root/Scripts/image"
archive="${1:-$(ls -t "$root"/.build-image/*.oci.tar 2>/dev/null | head -1)}"
[ -f "$archive" ] || { echo "image-test: no image archive: run make image first" >&2; exit 1; }
runs="${IMAGE_TEST_RUNS:-3}"
drain_seconds=20 # webimage serve's default drain deadline
started=$SECONDS

export CONTAINERS_CONF="$here/containers.conf"
work="$(mktemp -d /tmp/webimage-image-test.XXXXXX)"
podman=(podman --root "$work/storage" --runroot "$work/run" --storage-driver overlay)

cleanup() {
    set +e
    [ -n "${origin_pid:-}" ] && kill "$origin_pid"
    "${podman[@]}" rm --force --all --time 0 >/dev/null 2>&1
    "${podman[@]}" rmi --force --all >/dev/null 2>&1
    # The overlay driver mounts its own directory privately; nothing may stay mounted under the work directory.
    findmnt --raw --noheadings --output TARGET | grep "^$work/" | sort -r | xargs -r umount
    rm -rf "$work"
}
trap cleanup EXIT

free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
say() { echo "image-test: $*"; }

"${podman[@]}" load --quiet --input "$archive" >/dev/null
image="$("${podman[@]}" images --quiet --no-trunc | head -1)"
say "loaded $(basename "$archive") into a fresh store ($("${podman[@]}" images --format '{{.Repository}}:{{.Tag}} {{.Size}}'))"

# The root filesystem: the binary, the data it reads, the package list scanners read, and no program else.
files="$("${podman[@]}" export "$("${podman[@]}" create "$image")" | tar --list | sed 's|^\./||')"
for path in usr/local/bin/webimage etc/ssl/certs/ca-certificates.crt usr/share/zoneinfo/UTC etc/fonts/fonts.conf \
    etc/os-release etc/passwd var/lib/dpkg/status var/cache/webimage/; do
    grep -qx "$path" <<< "$files" || { say "FAILED: the image has no /$path"; exit 1; }
done
for path in usr/bin/sh usr/bin/bash usr/bin/dash usr/bin/apt usr/bin/dpkg usr/bin/perl usr/sbin/ldconfig; do
    ! grep -qx "$path" <<< "$files" || { say "FAILED: the image holds /$path"; exit 1; }
done
say "ok: $(wc -l <<< "$files") paths: webimage, CA bundle, zoneinfo, fonts, dpkg status; no shell, apt, dpkg or perl"
"${podman[@]}" rm --all >/dev/null

# The test images: on a read-only bind mount, and behind the origin.
mkdir -m 0755 "$work/images" "$work/origin"
install -m 0644 "$root/Tests/Corpus/pngsuite/png/basn6a08.png" "$root/Tests/Corpus/webp/test.webp" "$work/images/"
install -m 0644 "$root/Tests/Corpus/pngsuite/png/basn6a08.png" "$root/Tests/Corpus/heif/colors-no-alpha.heic" "$work/origin/"
python3 "$here/checks.py" fixtures "$work/origin"
# A video for imgproxy Pro's video thumbnails: 64x48, 10 frames a second for 3 s, frame N all grey 8N (Debian's
# ffmpeg, which Scripts/setup.sh installs).
command -v ffmpeg >/dev/null || { say "FAILED: ffmpeg is needed to make the test video (Scripts/setup.sh installs it)"; exit 1; }
ffmpeg -nostdin -loglevel error -f lavfi -i "color=s=64x48:r=10:d=3,format=rgb24,geq=r='8*N':g='8*N':b='8*N'" \
    -c:v libx264 -pix_fmt yuv420p "$work/origin/clip.mp4"
origin_port="$(free_port)"
python3 "$here/origin.py" "$work/origin" "$origin_port" "$work/slow-arrived" "$work/slow-release" 2>"$work/origin.log" &
origin_pid=$!

key="$(python3 -c 'import secrets; print(secrets.token_hex(32))')"
salt="$(python3 -c 'import secrets; print(secrets.token_hex(16))')"

# Starts container NAME listening on PORT (metrics on METRICS_PORT); prints the seconds from `podman run` to
# the first 200.
run() {
    local name="$1" port="$2" metrics_port="$3" since
    since="$(date +%s.%N)"
    "${podman[@]}" run --detach --name "$name" --network host --read-only \
        --tmpfs /var/cache/webimage:rw,size=256m,mode=0700,U \
        --volume "$work/images:/images:ro" \
        --env IMGPROXY_KEY="$key" --env IMGPROXY_SALT="$salt" --env IMGPROXY_BIND="127.0.0.1:$port" \
        --env IMGPROXY_LOCAL_FILESYSTEM_ROOT=/images --env IMGPROXY_ALLOW_LOOPBACK_SOURCE_ADDRESSES=true \
        --env IMGPROXY_PROMETHEUS_BIND="127.0.0.1:$metrics_port" --env IMGPROXY_DOWNLOAD_TIMEOUT=30 \
        --env IMGPROXY_ENABLE_VIDEO_THUMBNAILS=true \
        "$image" >/dev/null
    python3 "$here/checks.py" wait "$port" "$since" 30 || { "${podman[@]}" logs "$name" >&2; return 1; }
}

# Stops container NAME, checking that it drains a request in flight and exits 0 within the deadline.
stop() {
    local name="$1" port="$2" code
    rm -f "$work/slow-arrived" "$work/slow-release"
    python3 "$here/checks.py" drain "$port" "$key" "$salt" "$origin_port" "$work/slow-arrived" "$work/slow-release" \
        "$drain_seconds" \
        "${podman[@]}" stop --time $((drain_seconds + 10)) "$name" || { "${podman[@]}" logs "$name" >&2; return 1; }
    code="$("${podman[@]}" inspect --format '{{.State.ExitCode}}' "$name")"
    [ "$code" = 0 ] || { say "FAILED: $name exited $code"; "${podman[@]}" logs "$name" >&2; return 1; }
    say "ok: $name exited 0"
}

startups=()
for index in $(seq 1 "$runs"); do
    name="webimage-test-$index"
    port="$(free_port)"
    metrics_port="$(free_port)"
    startups+=("$(run "$name" "$port" "$metrics_port")")
    if [ "$index" = 1 ]; then
        pid="$("${podman[@]}" inspect --format '{{.State.Pid}}' "$name")"
        uid="$(awk '/^Uid:/ { print $2 }' "/proc/$pid/status")"
        [ "$uid" = 10001 ] || { say "FAILED: the service runs as uid $uid, not the image's user 10001"; exit 1; }
        say "ok: runs as uid $uid, root filesystem read-only: $("${podman[@]}" inspect --format '{{.HostConfig.ReadonlyRootfs}}' "$name")"
        python3 "$here/checks.py" serve "$port" "$metrics_port" "$key" "$salt" "$origin_port" \
            || { "${podman[@]}" logs "$name" >&2; exit 1; }
    fi
    stop "$name" "$port"
done

say "from podman run to the first 200: ${startups[*]} s (target: under 2 s)"
say "passed in $((SECONDS - started)) s"

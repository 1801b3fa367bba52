#!/usr/bin/env bash
# `webimage serve` beside thumbor 7.8.0, a libvips peer (imgproxy's way, through pyvips) and nginx, side by side in
# one run (issues 15 and 29); each cold row also runs libvips' raw ceiling (the peer's processing without HTTP).
#
#   bash Benchmarks/serve_bench.sh [--rounds 3] [--duration 10] [--workers N] [--rows w1,w2,w3,w4,w5]
#                                  [--profile w1:perf-w1.txt] [--profile w3:perf-w3.txt]
#
# Installs wrk and nginx from Debian when missing, makes the Python environment .build-bench/serve-venv
# (thumbor 7.8.0, pyvips + pyvips-binary 8.18.7; its own, because thumbor pins a Pillow older than the
# one the end-to-end benchmark's .build-bench/venv uses), builds `webimage` and `webimage-benchmarks` (W3's bare
# Hummingbird handler) in release and runs Benchmarks/ServeBench/serve_bench.py, which starts every server itself
# on free loopback ports, kills them on exit and removes its temp dir; then `webimage-benchmarks serve-limit` (W2's
# and W5's raw limit). Test images are made once under .build-bench/serve-images.
set -euo pipefail
cd "$(dirname "$0")/.."

missing=()
command -v wrk >/dev/null || missing+=(wrk)
command -v nginx >/dev/null || missing+=(nginx)
if ((${#missing[@]})); then
    echo "installing ${missing[*]} (apt)…"
    apt-get -o DPkg::Lock::Timeout=600 install -y --no-install-recommends "${missing[@]}" >/dev/null \
        || { apt-get update -qq && apt-get -o DPkg::Lock::Timeout=600 install -y --no-install-recommends "${missing[@]}" >/dev/null; }
fi
command -v perf >/dev/null || echo "perf not found: encodes are not counted for ours and thumbor (apt-get install linux-perf)"

venv=.build-bench/serve-venv
if ! "$venv/bin/python" -c 'import pyvips, thumbor, importlib.metadata as m; assert m.version("thumbor") == "7.8.0" and m.version("pyvips-binary") == "8.18.7"' 2>/dev/null; then
    echo "making $venv (pip install thumbor==7.8.0 pyvips pyvips-binary==8.18.7)…"
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet "thumbor==7.8.0" pyvips "pyvips-binary==8.18.7"
fi

mkdir -p .build-bench
: > .build-bench/serve-build.log
for product in webimage webimage-benchmarks; do
    if ! swift build -c release --product "$product" -Xswiftc -warnings-as-errors >> .build-bench/serve-build.log 2>&1; then
        tail -40 .build-bench/serve-build.log >&2
        exit 1
    fi
done
grep -E "error|warning:|complete" .build-bench/serve-build.log | sort -u || true
bin="$(swift build -c release --show-bin-path)"
for product in webimage webimage-benchmarks; do
    [[ -x "$bin/$product" ]] || { echo "no release $product in $bin" >&2; exit 1; }
done

"$venv/bin/python" Benchmarks/ServeBench/serve_bench.py --binary "$bin/webimage" \
    --bare-binary "$bin/webimage-benchmarks" --venv "$venv" "$@"
# W2's and W5's limit: the raw calls summed, beside the same request in process (the same images).
SERVE_IMAGES=.build-bench/serve-images/v2 "$bin/webimage-benchmarks" serve-limit

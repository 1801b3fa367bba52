#!/usr/bin/env bash
# Smart gravity (`g:sm`, issue 26) beside pyvips' smartcrop(interesting="attention"), on the corpus's photos.
#
#   bash Benchmarks/smart_crop.sh [--repeats 5]
#
# Makes the Python environment .build-bench/smartcrop-venv (pyvips + pyvips-binary 8.18.7, i.e. libvips 8.18),
# builds webimage-benchmarks in release and runs Benchmarks/SmartCrop/compare.py, which decodes the photos with
# pyvips, asks both sides for each box and prints the overlap of their crops and their times.
set -euo pipefail
cd "$(dirname "$0")/.."

venv=.build-bench/smartcrop-venv
if ! "$venv/bin/python" -c 'import pyvips, importlib.metadata as m; assert m.version("pyvips-binary") == "8.18.7"' 2>/dev/null; then
    echo "making $venv (pip install pyvips pyvips-binary==8.18.7)…"
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet pyvips "pyvips-binary==8.18.7"
fi

mkdir -p .build-bench
if ! swift build -c release --product webimage-benchmarks -Xswiftc -warnings-as-errors \
        > .build-bench/smartcrop-build.log 2>&1; then
    tail -40 .build-bench/smartcrop-build.log >&2
    exit 1
fi
binary="$(swift build -c release --show-bin-path)/webimage-benchmarks"
exec "$venv/bin/python" Benchmarks/SmartCrop/compare.py --binary "$binary" "$@"

#!/usr/bin/env bash
# Soak of `webimage serve` (issue 27): a release server under a mix of valid, hostile, fuzzed and misbehaving
# clients for a set time, with a SIGKILL + restart on the same cache and a SIGTERM drain; prints every figure
# beside its target and exits 1 when one is missed.
#
#   bash Benchmarks/soak.sh [--quick] [--duration 600] [--seed N] [--slowloris 100] [--fuzz-stills] [--keep]
#
# Builds `webimage` in release (log in .build-bench/soak-build.log), then runs Benchmarks/Soak/soak.py (Python 3
# standard library only), which makes its images with `webimage convert`, starts its loopback origin and the
# server on free loopback ports, and removes its temp dir on exit (--keep leaves the logs and the cache).
set -euo pipefail
cd "$(dirname "$0")/.."

mkdir -p .build-bench
if ! swift build -c release --product webimage -Xswiftc -warnings-as-errors > .build-bench/soak-build.log 2>&1; then
    tail -40 .build-bench/soak-build.log >&2
    exit 1
fi
binary="$(swift build -c release --show-bin-path)/webimage"
[[ -x "$binary" ]] || { echo "no release webimage at $binary" >&2; exit 1; }

exec python3 Benchmarks/Soak/soak.py --binary "$binary" "$@"

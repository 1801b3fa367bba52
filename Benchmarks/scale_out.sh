#!/usr/bin/env bash
# Scaling out under faults: three `webimage serve` instances behind nginx (least_conn, one retry on the next
# upstream), sharing a Redis Cluster (3 masters, 3 replicas) and an S3 result store (moto), under a mixed cold/warm
# load; one instance and one Redis master get SIGKILL during it. Prints requests answered, non-2xx by cause, origin
# fetches per distinct URL, p50/p99 before, during and after each fault, and bodies checked against a reference.
#
#   bash Benchmarks/scale_out.sh [--duration 60] [--clients 8] [--instances 3] [--cold-share 0.25] [--json F] [--keep]
#
# Installs nginx from Debian when missing and moto (.build-moto, as the tests do, Scripts/setup.sh), builds
# `webimage` in release (log in .build-bench/scale-out-build.log), then runs Benchmarks/ScaleOut/scale_out.py
# (Python 3 standard library), which starts everything on free loopback ports and stops it on exit.
set -euo pipefail
cd "$(dirname "$0")/.."

command -v nginx >/dev/null || {
    echo "installing nginx (apt)…"
    apt-get -o DPkg::Lock::Timeout=600 install -y --no-install-recommends nginx >/dev/null \
        || { apt-get update -qq && apt-get -o DPkg::Lock::Timeout=600 install -y --no-install-recommends nginx >/dev/null; }
}
[[ -x .build-moto/bin/moto_server ]] || bash Scripts/setup.sh

mkdir -p .build-bench
if ! swift build -c release --product webimage -Xswiftc -warnings-as-errors > .build-bench/scale-out-build.log 2>&1; then
    tail -40 .build-bench/scale-out-build.log >&2
    exit 1
fi
binary="$(swift build -c release --show-bin-path)/webimage"
exec python3 Benchmarks/ScaleOut/scale_out.py --binary "$binary" --moto .build-moto/bin/moto_server "$@"

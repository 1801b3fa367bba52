#!/usr/bin/env bash
# Proves a user's package can depend on SwiftWebImage by version: clones the committed checkout, tags the
# clone 0.1.0, and builds and runs Examples/Consumer, which depends on it with `.package(url:from:)`: `Consumer`
# (the WebImage library), `ServiceConsumer` (WebImageServer's routes in its own Hummingbird app, and
# WebImageRedis in a CachesManager when redis-server is on PATH) and `VideoConsumer` (WebImageVideo's coder, in-process
# and in a child of its own executable, on a video ffmpeg makes).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
consumer="$root/Examples/Consumer"
upstream="$consumer/.build-upstream/SwiftWebImage"

rm -rf "$consumer/.build-upstream"
git clone --quiet "$root" "$upstream"
git -C "$upstream" tag -f 0.1.0 >/dev/null
cd "$consumer"
rm -f Package.resolved
# SwiftPM keeps its own copy of the dependency's repository, and a tag moved since (0.1.0 is re-made on every run)
# is not fetched again, nor a version its workspace state has pinned: drop both, so the build uses the clone just made.
rm -rf .build/repositories/SwiftWebImage-* .build/checkouts/SwiftWebImage .build/workspace-state.json
swift build
swift run Consumer
swift run ServiceConsumer
swift run VideoConsumer

#!/usr/bin/env bash
# Builds the fuzz targets with libFuzzer and AddressSanitizer and runs each for FUZZ_SECONDS (default 60) on
# its corpus (seed.sh). A crash, leak or timeout is written to Fuzz/Crashes/<target>/ and fails the run once
# every target has had its turn. Targets: the arguments, else all of them.
set -euo pipefail
cd "$(dirname "$0")"

seconds="${FUZZ_SECONDS:-60}"
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
    targets=(FuzzProxyPath FuzzImageHeader FuzzImageDecode FuzzRESPParser FuzzSharedCacheEntry)
fi

# The flags stay on the command line, so Package.swift needs no unsafe flags; the build has its own scratch
# folder, so it never mixes with the main package's uninstrumented one. Product by product: a plain
# `swift build` would also link the main package's `webimage`, whose `main` collides with libFuzzer's.
flags=(--scratch-path .build -c debug -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library)
for target in "${targets[@]}"; do swift build "${flags[@]}" --product "$target"; done
bin="$(swift build "${flags[@]}" --show-bin-path)"
bash seed.sh "${targets[@]}"

# Font caches made once and kept for the process (lsan-suppressions.txt) are not leaks of the code under test.
export LSAN_OPTIONS="suppressions=$PWD/lsan-suppressions.txt${LSAN_OPTIONS:+:$LSAN_OPTIONS}"

failed=()
for target in "${targets[@]}"; do
    mkdir -p "Crashes/$target"
    echo "== $target: ${seconds} s"
    if ! "$bin/$target" -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=10 -max_len=131072 \
        -print_final_stats=1 -artifact_prefix="Crashes/$target/" "Corpus/$target"; then
        failed+=("$target")
    fi
done

if [ ${#failed[@]} -gt 0 ]; then
    echo "fuzzing found failures in: ${failed[*]} (inputs in Fuzz/Crashes/)" >&2
    exit 1
fi

#!/usr/bin/env bash
# Builds each fuzz target's seed corpus in Fuzz/Corpus/<target> (the folder its run grows): the checked-in
# seeds of Fuzz/Seeds/<target>, and for the image targets every image of Tests/Corpus and the tests' fixtures
# up to 128 KiB (larger ones slow every mutation and add little a smaller file of the format does not).
set -euo pipefail
cd "$(dirname "$0")"

# Copies a seed unless the corpus has it (`cp -n` exits with an error for that in some coreutils versions).
add() { [ -e "$2" ] || cp "$1" "$2"; }

for target in "$@"; do
    corpus="Corpus/$target"
    mkdir -p "$corpus"
    for seed in Seeds/"$target"/*; do
        if [ -f "$seed" ]; then add "$seed" "$corpus/$(basename "$seed")"; fi
    done
    case "$target" in
        FuzzImageHeader | FuzzImageDecode)
            # Named by content so files of the same name in different folders all arrive.
            find ../Tests/Corpus ../Tests/*/Fixtures -type f -size -129k \
                \( -iname '*.png' -o -iname '*.jpg' -o -iname '*.gif' -o -iname '*.webp' -o -iname '*.avif' \
                   -o -iname '*.heic' -o -iname '*.heif' -o -iname '*.jxl' -o -iname '*.bmp' -o -iname '*.tiff' \) \
                -print0 | while IFS= read -r -d '' file; do
                    add "$file" "$corpus/$(sha1sum "$file" | cut -c1-40)"
                done
            ;;
    esac
done

#!/usr/bin/env bash
# Prints, one a line and sorted, the Debian packages that hold the shared libraries an ELF binary needs: its
# NEEDED entries, each resolved as the dynamic linker would (ldconfig's cache) and looked up with dpkg -S.
# The image build installs exactly these, so its list follows the binary and cannot drift. A library no
# package holds (a toolchain's own runtime) fails the script: the image would lack it.
# Usage: runtime-packages.sh BINARY
set -euo pipefail
binary="$1"

needed="$(readelf --dynamic --wide "$binary" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')"
[ -n "$needed" ] || { echo "runtime-packages: $binary needs no shared library (static?)" >&2; exit 1; }

# The x86-64 entries of ldconfig's cache: "soname path".
cache="$(ldconfig -p | sed -n 's/^[[:space:]]*\([^ ]*\) (libc6,x86-64[^)]*) => \(.*\)$/\1 \2/p')"

# dpkg records a library under the path its package ships, /lib or /usr/lib: with merged /usr either may be
# the one ldconfig found, so both are tried, then the file the name links to.
owner() {
    local path="$1" candidate
    for candidate in "$path" "${path/#\/usr\/lib\//\/lib\/}" "${path/#\/lib\//\/usr\/lib\/}" "$(readlink -f "$path")"; do
        if dpkg-query --search "$candidate" 2>/dev/null | sed -n '1s/^\([^:]*\)\(:[a-z0-9]*\)\{0,1\}: .*/\1/p' | grep .; then
            return 0
        fi
    done
    return 1
}

packages=()
for soname in $needed; do
    path="$(awk -v name="$soname" '$1 == name { print $2; exit }' <<< "$cache")"
    [ -n "$path" ] || { echo "runtime-packages: $soname is not in ldconfig's cache" >&2; exit 1; }
    package="$(owner "$path")" || { echo "runtime-packages: no Debian package holds $path ($soname)" >&2; exit 1; }
    packages+=("$package")
done
printf '%s\n' "${packages[@]}" | sort -u

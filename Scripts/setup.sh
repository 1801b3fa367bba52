#!/usr/bin/env bash
# Installs the Debian packages the build needs, only when they are missing (so `make demo` and `make test`
# work on a fresh Debian machine and cost nothing once the libraries are there).
set -euo pipefail

# redis-server: the shared-tier tests and Examples/Consumer's ServiceConsumer start their own instance on a free
# loopback port.
# openssl: the https-source tests make a test CA and server certificate with it.
# libavif-bin, libheif-examples: avifdec and heif-convert, the reference decoders the AVIF/HEIF corpus tests compare with.
# libjxl-tools: the JPEG XL corpus tests compare lossy files with djxl run on the same machine.
# iproute2: `ip`, which brings loopback up in the network namespaces (unshare, util-linux) that the URL property and
# SSRF tests run their subjects in.
packages=(pkg-config zlib1g-dev libjpeg62-turbo-dev libturbojpeg0-dev libpng-dev libwebp-dev libgif-dev libdeflate-dev
          libavif-dev libheif-dev libjxl-dev liblcms2-dev libtiff-dev libavif-bin libheif-examples libjxl-tools redis-server openssl iproute2)

have_all() {
    command -v pkg-config >/dev/null 2>&1 \
        && pkg-config --exists zlib libturbojpeg libpng16 libwebp libwebpdemux libwebpmux libdeflate libavif libheif \
        && pkg-config --exists libjxl libjxl_threads lcms2 libtiff-4 \
        && [ -f /usr/include/jpeglib.h ] && [ -f /usr/include/gif_lib.h ] && [ -x /usr/bin/redis-server ] \
        && [ -x /usr/bin/openssl ] && [ -x /usr/bin/avifdec ] && [ -x /usr/bin/heif-convert ] && [ -x /usr/bin/djxl ] \
        && { [ -x /usr/sbin/ip ] || [ -x /usr/bin/ip ] || [ -x /sbin/ip ]; }
}

if have_all; then exit 0; fi

echo "Installing Debian packages: ${packages[*]}" >&2
sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update
$sudo apt-get install -y --no-install-recommends "${packages[@]}"

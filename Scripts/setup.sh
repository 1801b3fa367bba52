#!/usr/bin/env bash
# Installs the Debian packages the build needs, only when they are missing (so `make demo` and `make test`
# work on a fresh Debian machine and cost nothing once the libraries are there).
set -euo pipefail

# redis-server: the shared-tier tests and Examples/Consumer's ServiceConsumer start their own instance on a free
# loopback port.
# openssl: the https-source tests make a test CA and server certificate with it.
# libavif-bin, libheif-examples: avifdec and heif-convert, the reference decoders the AVIF/HEIF corpus tests compare with.
# libjxl-tools: the JPEG XL corpus tests compare lossy files with djxl run on the same machine.
# poppler-utils: the PDF conformance tests compare pages with pdftocairo run on the same machine (so both draw
# the fonts a file does not embed with whatever fontconfig substitutes here).
# librsvg2-dev: the SVG coder (librsvg, the library libvips and imgproxy use; it brings cairo and GLib).
# libxml2-dev: the service's SVG sanitiser reads documents with libxml2.
# libpoppler-glib-dev: the PDF coder renders pages with poppler's GLib interface onto cairo surfaces.
# libpango1.0-dev: the service's text watermarks (Pango markup laid out by pango, drawn by cairo).
# libexif-dev: the service's `/info` names EXIF tags and writes their values with libexif, as imgproxy answers.
# libavformat-dev, libavcodec-dev, libswscale-dev: video poster frames (FFmpeg 5.1), read from memory.
# ffmpeg: the video tests and benchmarks make their videos with it (and time it beside our frames).
# python3-venv: the virtual environment moto_server is installed in (below).
# chromium: the headless browser OperatorPageBrowserTests opens `webimage serve`'s operator page in (it fails
# without it). A large package: about 360 MB installed with chromium-common, plus the libraries it pulls in, so a
# fresh machine's first setup takes minutes longer; once installed it costs nothing.
# iproute2: `ip`, which brings loopback up in the network namespaces (unshare, util-linux) that the URL property and
# SSRF tests run their subjects in.
packages=(pkg-config zlib1g-dev libjpeg62-turbo-dev libturbojpeg0-dev libpng-dev libwebp-dev libgif-dev libdeflate-dev libimagequant-dev libpango1.0-dev libexif-dev
          libavformat-dev libavcodec-dev libswscale-dev ffmpeg
          libavif-dev libheif-dev libjxl-dev liblcms2-dev libtiff-dev librsvg2-dev libxml2-dev libpoppler-glib-dev libavif-bin libheif-examples libjxl-tools poppler-utils redis-server openssl iproute2 python3-venv chromium)

have_all() {
    command -v pkg-config >/dev/null 2>&1 \
        && pkg-config --exists zlib libturbojpeg libpng16 libwebp libwebpdemux libwebpmux libdeflate imagequant libavif libheif \
        && pkg-config --exists libjxl libjxl_threads lcms2 libtiff-4 librsvg-2.0 libxml-2.0 poppler-glib pangocairo libexif \
        && pkg-config --exists libavformat libavcodec libswscale libavutil && [ -x /usr/bin/ffmpeg ] \
        && [ -f /usr/include/jpeglib.h ] && [ -f /usr/include/gif_lib.h ] && [ -x /usr/bin/redis-server ] \
        && python3 -c "import ensurepip, venv" 2>/dev/null && [ -x /usr/bin/openssl ] && [ -x /usr/bin/avifdec ] && [ -x /usr/bin/heif-convert ] && [ -x /usr/bin/djxl ] \
        && [ -x /usr/bin/pdftocairo ] \
        && { [ -x /usr/sbin/ip ] || [ -x /usr/bin/ip ] || [ -x /sbin/ip ]; } && [ -x /usr/bin/chromium ]
}

# moto_server (PyPI's moto[server]): the S3-compatible server the S3 source tests start on loopback, in a
# virtual environment of its own inside the checkout (`.build-moto/`, ignored by git).
install_moto() {
    local root
    root="$(cd "$(dirname "$0")/.." && pwd)"
    if [ -x "$root/.build-moto/bin/moto_server" ]; then return 0; fi
    echo "Installing moto[server] into $root/.build-moto" >&2
    python3 -m venv "$root/.build-moto"
    "$root/.build-moto/bin/pip" install --quiet --disable-pip-version-check "moto[server]==5.2.5"
}

if have_all; then install_moto; exit 0; fi

source "$(dirname "$0")/apt-install.sh"
apt_install "${packages[@]}"
install_moto

#!/usr/bin/env bash
# Installs what `make image` and `make image-test` need on a Debian machine, only when it is missing (the
# Swift toolchain and the build's own packages come from Scripts/setup.sh).
#
# mmdebstrap: the image's root filesystem, from Debian's archive. umoci: the OCI image from its layers.
# skopeo: the oci-archive, and reading it back. podman with runc: the image test (runc, not crun, which refuses
# cgroups in hybrid mode); containernetworking-plugins, podman's network backend here (only a recommendation of
# podman's, and its containers run with --network host, but podman looks for a backend at start-up).
# binutils: readelf (the binary's NEEDED entries) and strip. zstd: the layer's compression.
set -euo pipefail

packages=(mmdebstrap umoci skopeo podman runc containernetworking-plugins binutils zstd python3)

have_all() {
    local tool
    for tool in mmdebstrap umoci skopeo podman runc readelf strip zstd python3; do
        command -v "$tool" >/dev/null 2>&1 || [ -x "/usr/sbin/$tool" ] || return 1
    done
    [ -d /usr/lib/cni ]
}

if have_all; then exit 0; fi

source "$(dirname "$0")/../apt-install.sh"
apt_install "${packages[@]}"

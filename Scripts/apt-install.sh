# Sourced by the set-up scripts: apt_install PACKAGE… installs Debian packages (through sudo when not root).
apt_install() {
    echo "Installing Debian packages: $*" >&2
    local sudo=""
    if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
    export DEBIAN_FRONTEND=noninteractive
    $sudo apt-get update
    $sudo apt-get install -y --no-install-recommends "$@"
}

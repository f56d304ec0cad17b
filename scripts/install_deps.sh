#!/usr/bin/env bash
# Installs the Debian packages the build, tests and demo need (idempotent; run as root or with sudo).
set -euo pipefail
pkgs=(cmake ninja-build g++ ccache pkg-config libgtest-dev libbenchmark-dev
      libxnnpack-dev libpthreadpool-dev libcpuinfo-dev nodejs npm python3 qemu-user
      libpng-dev libjpeg-dev  # images for nnapi run --image / nnapi demo
      dpkg-dev file  # dpkg-dev, file: cpack -G DEB computes Depends (dpkg-shlibdeps)
      lintian help2man)  # the install_deb test lints the .deb; man pages from the tools' --help
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
# npm may come with nodejs from elsewhere; only ask apt for it when no npm is on PATH.
if command -v npm >/dev/null 2>&1; then
  tmp=(); for p in "${missing[@]}"; do [[ $p == nodejs || $p == npm ]] || tmp+=("$p"); done
  missing=("${tmp[@]+"${tmp[@]}"}")
fi
if [ ${#missing[@]} -gt 0 ]; then
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO=sudo
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq "${missing[@]}"
fi
echo "dependencies ready"

#!/usr/bin/env bash
# Every test of the workspace. The browser test needs Debian's chromium and chromium-driver;
# they are installed here when missing (as root, or with sudo).
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v chromium >/dev/null || ! command -v chromedriver >/dev/null; then
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq chromium chromium-driver >/dev/null
fi
cargo test --workspace

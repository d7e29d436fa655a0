#!/usr/bin/env bash
# Every test of the workspace. The browser test needs Debian's chromium and chromium-driver;
# they are installed here when missing (as root, or with sudo), with a small Chinese font so
# that the tiles' and fans' Chinese characters show in the screenshots.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v chromium >/dev/null || ! command -v chromedriver >/dev/null \
    || ! [ -e /usr/share/fonts/truetype/wqy/wqy-microhei.ttc ]; then
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq chromium chromium-driver fonts-wqy-microhei >/dev/null
fi
cargo test --workspace

#!/usr/bin/env bash
# Every test of the workspace, then the Python package's. The browser tests need Debian's chromium, chromium-driver and
# firefox-esr; they are installed here when missing (as root, or with sudo), with a small
# Chinese font so that the tiles' and fans' Chinese characters show in the screenshots.
# Firefox's driver, geckodriver, is not packaged by Debian: it is built once from crates.io
# into target/tools, unoptimised (48 s against 95 s here; it only relays a test's requests).
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v chromium >/dev/null || ! command -v chromedriver >/dev/null \
    || ! command -v firefox-esr >/dev/null \
    || ! [ -e /usr/share/fonts/truetype/wqy/wqy-microhei.ttc ]; then
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq chromium chromium-driver firefox-esr fonts-wqy-microhei >/dev/null
fi
if ! [ -x target/tools/bin/geckodriver ]; then
    cargo install -q --locked --debug geckodriver --version 0.37.1 --root target/tools
fi
# The store's tests run on SQLite and on a throwaway PostgreSQL (tools/with-postgres.sh).
# With cargo-nextest, where installed (it is on this project's machines): every test in a
# process of its own, as many at once as there are cores, where `cargo test` runs one test
# binary after another and the browser and server tests spend much of their time waiting;
# then the doc tests, which nextest does not run. Plain `cargo test` otherwise.
tests=(cargo test --workspace)
nextest=false
if cargo nextest --version >/dev/null 2>&1; then
    tests=(cargo nextest run --workspace --no-fail-fast)
    nextest=true
fi
DUPMJ_REQUIRE_PG=1 tools/with-postgres.sh "${tests[@]}"
if $nextest; then
    cargo test --workspace --doc
fi

# The Python package: built into a virtual environment with maturin (dev profile), then its
# pytest suite, which compares dupmj.mahjonggb with the reference binding from PyPI.
venv=target/py-venv
if ! [ -x "$venv/bin/maturin" ] || ! "$venv/bin/python" -c "import numpy, pytest, MahjongGB" 2>/dev/null; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install -q --disable-pip-version-check maturin numpy pytest pymahjonggb==1.4.0
fi
(cd crates/python && VIRTUAL_ENV="$PWD/../../$venv" PATH="$PWD/../../$venv/bin:$PATH" \
    maturin develop -q)
"$venv/bin/python" -m pytest -q crates/python/tests

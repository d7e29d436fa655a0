#!/usr/bin/env bash
# Plays the official Botzone sample bot (ailab-pku/Chinese-Standard-Mahjong,
# sample-bot-Botzone/sample.cpp), compiled as published, in both of its I/O modes, through
# `dupmj arena` under the judge's rules. The sample is not part of this repository: give
# the path of a checkout (git clone https://github.com/ailab-pku/Chinese-Standard-Mahjong).
#
#   tools/botzone_sample.sh ~/src/Chinese-Standard-Mahjong [DEALS]
#
# Needs g++ and jsoncpp (Debian: apt-get install g++ libjsoncpp-dev). The sample picks its
# switch of I/O mode with `#define SIMPLEIO 0`; the simple build sets it to 1, nothing else.
set -euo pipefail
repo=${1:?usage: tools/botzone_sample.sh PATH/TO/Chinese-Standard-Mahjong [DEALS]}
deals=${2:-20}
src="$repo/sample-bot-Botzone/sample.cpp"
[ -f "$src" ] || { echo "no $src" >&2; exit 2; }
here=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
inc=$(pkg-config --cflags jsoncpp 2>/dev/null || echo -I/usr/include/jsoncpp)
g++ -O2 -std=c++14 $inc -w "$src" -ljsoncpp -o "$work/sample-json"
sed 's/^#define SIMPLEIO 0/#define SIMPLEIO 1/' "$src" > "$work/sample-simple.cpp"
g++ -O2 -std=c++14 $inc -w "$work/sample-simple.cpp" -ljsoncpp -o "$work/sample-simple"
cargo build --release -q -p dupmj --manifest-path "$here/Cargo.toml"
dupmj="$here/target/release/dupmj"
for mode in json simple; do
  proto=botzone; [ $mode = simple ] && proto=botzone-simple
  echo "== sample bot, $mode interaction, $deals deals, --rules botzone"
  "$dupmj" arena --rules botzone --bots sample,greedy \
    --bot "sample=$proto:$work/sample-$mode" --deals "$deals" --seed 1 --quiet
done

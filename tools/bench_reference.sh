#!/usr/bin/env bash
# The fan calculator beside the reference one (ChineseOfficialMahjongHelper's C++, as shipped
# in the PyPI source package pymahjonggb 1.4.0) on the same corpus, in one run: each scores
# crates/mcr/benches/corpus.txt in turns, 21 times (ROUNDS=n for another number; these shared
# cores are noisy); the medians and their ratio are printed, and the best passes and theirs
# (a pass's rate scatters by half here; the fastest is the least disturbed), and the median
# of the ratios within each round; the points summed over the corpus must agree (the same
# hands scored alike).
# dupmj is timed twice: for the fans and their total (`mcr::fan_table`, what the reference's
# calculate_fan returns), and for the full scoring with the reading (`mcr::score`).
# Needs g++ and pip (to fetch the source package once, into target/reference).
set -euo pipefail
cd "$(dirname "$0")/.."
corpus=${1:-crates/mcr/benches/corpus.txt}
ref=target/reference
src=$ref/PyMahjongGB-1.4.0/MahjongGB/mahjong-algorithm
if ! [ -d "$src" ]; then
    mkdir -p "$ref"
    python3 -m pip download -q --no-binary :all: --no-deps -d "$ref" pymahjonggb==1.4.0
    tar xzf "$ref/pymahjonggb-1.4.0.tar.gz" -C "$ref"
fi
if ! [ -x "$ref/fan_bench" ] || [ tools/refbench/driver.cpp -nt "$ref/fan_bench" ]; then
    g++ -O2 -std=c++17 -I"$src" tools/refbench/driver.cpp "$src/fan_calculator.cpp" \
        "$src/shanten.cpp" "$src/stringify.cpp" -o "$ref/fan_bench"
fi
cargo build -q --release -p dupmj
ours=(); theirs=(); full=()
rounds=${ROUNDS:-21}
for _ in $(seq $rounds); do
    theirs+=("$("$ref/fan_bench" "$corpus" 5)")
    ours+=("$(target/release/dupmj bench fans "$corpus" --fans reference --runs 5)")
    full+=("$(target/release/dupmj bench fans "$corpus" --fans reference --runs 5 --reading)")
done
printf 'reference:       %s\n' "${theirs[@]}"
printf 'dupmj:           %s\n' "${ours[@]}"
printf 'dupmj --reading: %s\n' "${full[@]}"
python3 - "$rounds" "${theirs[@]}" "${ours[@]}" "${full[@]}" <<'PY'
import sys, statistics
n = int(sys.argv[1])
lines = sys.argv[2:]
theirs, ours, full = lines[:n], lines[n:2 * n], lines[2 * n:]
median = lambda ls: statistics.median(float(l.split()[0]) for l in ls)
best = lambda ls: max(float(l.split("(best ")[1].split(")")[0]) for l in ls)
points = {l.rsplit(" ", 1)[1] for l in lines}
if len(points) != 1:
    sys.exit(f"the points differ: {sorted(points)}")
r, rb = median(theirs), best(theirs)
o, ob = median(ours), best(ours)
f, fb = median(full), best(full)
print(f"fans and total: dupmj {o:.0f} hands/s, reference {r:.0f} hands/s: {o / r:.2f}x by medians; "
      f"best runs {ob:.0f} and {rb:.0f}: {ob / rb:.2f}x (same points, {points.pop()})")
print(f"with the reading: dupmj {f:.0f} hands/s: {f / r:.2f}x by medians; best run {fb:.0f}: {fb / rb:.2f}x")
# Each round times both back to back: the ratio within a round is spared the slow swings
# of these shared cores (a third of a run can go at two thirds of the speed).
rate = lambda l: float(l.split()[0])
paired = lambda ls: statistics.median(rate(a) / rate(b) for a, b in zip(ls, theirs))
print(f"ratio within a round, median of {n}: fans and total {paired(ours):.2f}x, with the reading {paired(full):.2f}x")
PY

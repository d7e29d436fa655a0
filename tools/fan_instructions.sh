#!/usr/bin/env bash
# The fan calculator's cost per hand in figures that the noise of shared cores does not
# move: instructions, and first-level and last-level data-cache misses as valgrind's
# cache simulator counts them, per hand of the corpus (crates/mcr/benches/corpus.txt).
# `dupmj bench fans` is run under cachegrind with 1 and with 6 timed passes; the
# difference, over 5 passes and the corpus's hands, is one scoring's share, without the
# start-up (reading the corpus, building the tables).
# A guide, not the verdict: fewer instructions are not always less time (a cache miss
# costs dozens of instructions' worth, and the simulated caches are not these cores'),
# so a change is still timed with tools/bench_reference.sh. Needs valgrind.
# `--reading` as a first argument counts `mcr::score` instead of `mcr::fan_table`.
set -euo pipefail
cd "$(dirname "$0")/.."
corpus=crates/mcr/benches/corpus.txt
reading=()
if [ "${1:-}" = "--reading" ]; then reading=(--reading); fi
command -v valgrind >/dev/null || { echo "needs valgrind (apt-get install valgrind)" >&2; exit 1; }
cargo build -q --release -p dupmj
hands=$(grep -c . "$corpus")
count() {
    local out
    out=$(mktemp)
    valgrind --tool=cachegrind --cache-sim=yes --cachegrind-out-file=/dev/null \
        target/release/dupmj bench fans "$corpus" --fans reference --runs "$1" "${reading[@]}" \
        2>"$out" >/dev/null
    # The summary's lines: "I refs:", "D1  misses:", "LLd misses:".
    python3 - "$out" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
def field(name):
    m = re.search(name + r"\s*:\s*([\d,]+)", text)
    if not m:
        sys.exit("cachegrind printed no " + name)
    return m.group(1).replace(",", "")
print(field("I\\s+refs"), field("D1\\s+misses"), field("LLd misses"))
PY
    rm -f "$out"
}
read -r i1 d1 l1 <<<"$(count 1)"
read -r i6 d6 l6 <<<"$(count 6)"
python3 - "$hands" "$i1" "$d1" "$l1" "$i6" "$d6" "$l6" <<'PY'
import sys
hands, i1, d1, l1, i6, d6, l6 = map(int, sys.argv[1:])
per = lambda a, b: (b - a) / 5 / hands
print(f"per hand, {hands} hands: {per(i1, i6):.1f} instructions, "
      f"{per(d1, d6):.2f} first-level data misses, {per(l1, l6):.3f} last-level data misses")
PY

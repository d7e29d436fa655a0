#!/usr/bin/env bash
# Compares `dupmj fan --batch --fans reference` with the reference calculator (pymahjonggb
# from PyPI, installed into target/oracle-venv on first use) on generated hands:
#   tools/oracle_check.sh [HANDS_PER_SEED] [SEED...]
# Defaults: 20000 hands for each of the seeds 1-6 (120,000 hands, a few minutes).
# SHOW=N prints N examples of each kind of difference (default 5).
set -euo pipefail
cd "$(dirname "$0")/.."
count=${1:-20000}
shift || true
seeds=("$@")
[ ${#seeds[@]} -gt 0 ] || seeds=(1 2 3 4 5 6)
venv=target/oracle-venv
if ! "$venv/bin/python" -c "import MahjongGB" 2>/dev/null; then
  echo "installing the reference calculator (pymahjonggb 1.4.0, builds a C++ extension) into $venv"
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q pymahjonggb==1.4.0
fi
cargo build -q --release -p dupmj
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for s in "${seeds[@]}"; do
  python3 tools/oracle/hands.py --seed "$s" --count "$count" > "$work/h$s.jsonl"
  "$venv/bin/python" tools/oracle/reference.py < "$work/h$s.jsonl" >> "$work/ref.jsonl"
  target/release/dupmj fan --batch --fans reference < "$work/h$s.jsonl" >> "$work/ours.jsonl"
done
python3 tools/oracle_compare.py "$work/ref.jsonl" "$work/ours.jsonl" --show "${SHOW:-5}"

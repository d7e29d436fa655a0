#!/usr/bin/env bash
# Compares `dupmj fan --batch --rules reference` with the reference calculator on
# generated hands: tools/oracle_check.sh [HANDS_PER_SEED] [SEED...]
# Defaults: 20000 hands for each of the seeds 1-6 (120,000 hands, a few minutes).
set -euo pipefail
cd "$(dirname "$0")/.."
oracle=${ORACLE_DIR:-../shared/oracle}
count=${1:-20000}
shift || true
seeds=("$@")
[ ${#seeds[@]} -gt 0 ] || seeds=(1 2 3 4 5 6)
python3 -c "import MahjongGB" 2>/dev/null || pip install -q pymahjonggb==1.4.0
cargo build -q --release -p dupmj
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for s in "${seeds[@]}"; do
  python3 "$oracle/gen_hands.py" --seed "$s" --count "$count" > "$work/h$s.jsonl"
  python3 "$oracle/oracle.py" < "$work/h$s.jsonl" >> "$work/ref.jsonl"
  target/release/dupmj fan --batch --rules reference < "$work/h$s.jsonl" >> "$work/ours.jsonl"
done
python3 tools/oracle_compare.py "$work/ref.jsonl" "$work/ours.jsonl" --show "${SHOW:-5}"

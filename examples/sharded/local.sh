#!/usr/bin/env bash
# A sharded evaluation on one machine: N shards as separate processes, then the merge.
# The same three steps run as a Kubernetes Indexed Job or a Slurm array (see docs/arena.md).
#   examples/sharded/local.sh [N] [DEALS]
set -euo pipefail
N=${1:-4}
DEALS=${2:-400}
DUPMJ=${DUPMJ:-dupmj}
OUT=$(mktemp -d)
for i in $(seq 1 "$N"); do
    "$DUPMJ" arena --bots strong,greedy --deals "$DEALS" --seed 1 --threads 1 --quiet \
        --shard "$i/$N" > "$OUT/part-$i.json" &
done
wait
"$DUPMJ" arena merge "$OUT"/part-*.json
rm -r "$OUT"

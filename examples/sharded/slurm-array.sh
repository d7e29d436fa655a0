#!/usr/bin/env bash
# A sharded arena run as a Slurm job array: each array task plays one shard and writes
# its partial result; a job that depends on the whole array merges them.
#
#   sbatch examples/sharded/slurm-array.sh
#
# `dupmj` must be on the PATH of the compute nodes (cargo install --path crates/cli) and
# RESULTS a directory every node can write to.
#SBATCH --job-name=dupmj-arena
#SBATCH --array=1-16
#SBATCH --cpus-per-task=4
#SBATCH --time=01:00:00
#SBATCH --output=dupmj-arena-%A_%a.log
set -euo pipefail
SHARDS=16
RESULTS=${RESULTS:-$HOME/dupmj-results/$SLURM_ARRAY_JOB_ID}
mkdir -p "$RESULTS"
dupmj arena --bots strong,greedy --deals 100000 --seed 1 \
    --threads "$SLURM_CPUS_PER_TASK" --quiet \
    --shard "$SLURM_ARRAY_TASK_ID/$SHARDS" > "$RESULTS/part-$SLURM_ARRAY_TASK_ID.json"

# The last task to finish submits nothing; merge with a dependent job instead:
#   jid=$(sbatch --parsable examples/sharded/slurm-array.sh)
#   sbatch --dependency=afterok:$jid --wrap \
#       "dupmj arena merge $HOME/dupmj-results/$jid/part-*.json > $HOME/dupmj-results/$jid/report.txt"

#!/usr/bin/env bash
# Tuning on a Slurm cluster: one generation per call. `tune --ask` writes the candidates'
# commands, a job array runs line $SLURM_ARRAY_TASK_ID of commands.txt, and a job that
# depends on the whole array runs `tune --tell`. Call it again for the next generation (or
# chain calls with --dependency). Needs this checkout with `beamtris` built on a shared
# file system.
#
# usage: scripts/tune_slurm.sh [--test-only] -- TUNE-ARGS...
#   e.g. scripts/tune_slurm.sh -- --beam 3000 --moves reach --pieces 3000 --population 16 \
#          --start results/weights/tuned.json --out results/tune/b3000
# The array is the exact command
#   sbatch --array=1-N --cpus-per-task=1 --wrap 'sed -n "${SLURM_ARRAY_TASK_ID}p" COMMANDS | sh'
# with N the number of lines of COMMANDS (OUT/gen-K/commands.txt). Checked here on a one-node
# cluster (Debian's slurm-wlm, slurmctld and slurmd on this machine): --test-only and a
# real generation both ran.
set -euo pipefail
cd "$(dirname "$0")/.."
test_only=()
if [ "${1:-}" = "--test-only" ]; then test_only=(--test-only); shift; fi
[ "${1:-}" = "--" ] && shift
cargo build --release -q
export PATH="$PWD/target/release:$PATH"
commands=$(beamtris tune "$@" --ask)
n=$(wc -l < "$commands")
array=$(sbatch "${test_only[@]}" --parsable --job-name beamtris-tune --array="1-$n" \
  --cpus-per-task=1 --export=ALL --chdir="$PWD" --output="$(dirname "$commands")/slurm-%A_%a.out" \
  --wrap "sed -n \"\${SLURM_ARRAY_TASK_ID}p\" $commands | sh" 2>&1) || { echo "$array" >&2; exit 1; }
echo "array: $array"
if [ ${#test_only[@]} -eq 0 ]; then
  printf -v tell_args '%q ' "$@"
  sbatch --parsable --job-name beamtris-tell --dependency="afterany:${array%%;*}" \
    --export=ALL --chdir="$PWD" --output="$(dirname "$commands")/slurm-tell-%j.out" \
    --wrap "beamtris tune $tell_args --tell"
fi

# Shared by the sweep scripts (sourced, not run).

# done_run FILE: true when FILE is a solve results file of a run that finished. A run stopped by
# Ctrl-C or SIGTERM (`"complete": false`, exit code 130 or 143) or one whose beam emptied is
# not done, so the script runs it again instead of keeping its partial score for good.
done_run() {
  [ -f "$1" ] && grep -q '"complete": true' "$1"
}

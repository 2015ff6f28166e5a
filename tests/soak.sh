#!/usr/bin/env bash
# make soak: `make test` SOAK_RUNS times in a row (default 5) while SOAK_BURNERS busy
# loops (default 2, one per core here) compete for the CPU, so timing assumptions that
# hold only on an idle machine show up. Stops at the first failing run and says which;
# the burners (started here, ended here by PID) never outlive the script.
set -u
runs=${SOAK_RUNS:-5}
burners=${SOAK_BURNERS:-2}
make_cmd=${MAKE:-make}
pids=()

stop_burners() {
    for pid in "${pids[@]}"; do
        kill "$pid" 2>/dev/null
    done
    for pid in "${pids[@]}"; do
        wait "$pid" 2>/dev/null
    done
    pids=()
}
trap stop_burners EXIT
trap 'exit 130' INT TERM

for _ in $(seq "$burners"); do
    ( while :; do :; done ) &
    pids+=("$!")
done
echo "soak: $runs runs of '$make_cmd test' beside $burners CPU burners (PIDs ${pids[*]})"
started=$SECONDS
for run in $(seq "$runs"); do
    echo "== soak run $run/$runs"
    if ! "$make_cmd" --no-print-directory test; then
        echo "soak: run $run of $runs FAILED after $((SECONDS - started)) s" >&2
        exit 1
    fi
done
echo "soak: $runs of $runs runs passed in $((SECONDS - started)) s"

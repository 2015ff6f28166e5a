#!/bin/bash
# Runs the fabric PTF tests against one switch ($SWITCH, default p4sim-switch) in a
# private network namespace, and removes the namespace whatever happens.
# Ports 1..4 are veth pairs (switch side swpN, test side hN); the CPU port (255) is
# reached through P4Runtime. Needs root. Extra arguments go to ptf (e.g. a test name).
# Exits non-zero when the switch does not come up or any test fails.
set -euo pipefail

if [ "$(id -u)" -ne 0 ]; then
    echo "run.sh needs root (network namespaces, raw sockets)" >&2
    exit 1
fi

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
SWITCH=${SWITCH:-$root/.venv/bin/p4sim-switch}
P4C=${P4C:-$root/.venv/bin/p4sim-compile}
PTF=${PTF:-$root/.venv/bin/ptf}
PY=${PY:-$root/.venv/bin/python}
GRPC_ADDR=127.0.0.1:9559
JSON=$root/build/fabric.json
P4INFO=$root/build/fabric.p4info.txtpb
ns=fb-ptf-$$
logs=$(mktemp -d /tmp/fb-ptf-logs.XXXXXX)
switch_pid=

cleanup() {
    if [ -n "$switch_pid" ] && kill -0 "$switch_pid" 2>/dev/null; then
        kill "$switch_pid" 2>/dev/null || true
        wait "$switch_pid" 2>/dev/null || true
    fi
    ip netns del "$ns" 2>/dev/null || true
}
trap cleanup EXIT
trap 'exit 130' INT TERM

if [ ! -s "$JSON" ] || [ ! -s "$P4INFO" ] || [ -n "$(find "$root/p4src" -newer "$JSON" -print -quit)" ]; then
    mkdir -p "$root/build"
    "$P4C" --arch v1model -o "$JSON" --p4runtime-files "$P4INFO" "$root/p4src/fabric.p4"
fi

ip netns add "$ns"
# No IPv6 autoconfiguration traffic on the test ports.
ip netns exec "$ns" sysctl -qw net.ipv6.conf.all.disable_ipv6=1
ip netns exec "$ns" sysctl -qw net.ipv6.conf.default.disable_ipv6=1
ip -n "$ns" link set lo up
ifaces=()
ptf_ports=()
for p in 1 2 3 4; do
    ip -n "$ns" link add "swp$p" type veth peer name "h$p"
    ip -n "$ns" link set "swp$p" up
    ip -n "$ns" link set "h$p" up
    ifaces+=(-i "$p@swp$p")
    ptf_ports+=(-i "$p@h$p")
done

ip netns exec "$ns" "$SWITCH" --no-p4 "${ifaces[@]}" \
    -- --grpc-server-addr "$GRPC_ADDR" --cpu-port 255 --priority-queues 8 \
    >"$logs/switch.log" 2>&1 &
switch_pid=$!

# Wait until the P4Runtime port accepts connections (or the switch dies).
if ! ip netns exec "$ns" "$PY" - "$GRPC_ADDR" "$switch_pid" <<'PYEOF'
import os, socket, sys, time
host, port = sys.argv[1].rsplit(":", 1)
pid = int(sys.argv[2])
deadline = time.monotonic() + 60
while time.monotonic() < deadline:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        sys.exit("switch exited before its gRPC server came up")
    try:
        socket.create_connection((host, int(port)), timeout=1).close()
        sys.exit(0)
    except OSError:
        time.sleep(0.1)  # poll a condition with a deadline
sys.exit("switch gRPC server not reachable within 60 s")
PYEOF
then
    echo "switch did not come up; its log:" >&2
    cat "$logs/switch.log" >&2
    exit 1
fi

cd "$logs"   # ptf writes ptf.log / ptf.pcap where it runs
set +e
ip netns exec "$ns" "$PTF" --test-dir "$here" "${ptf_ports[@]}" \
    --default-timeout 3 --default-negative-timeout 0.3 \
    --test-params "grpcaddr='$GRPC_ADDR';p4info='$P4INFO';config='$JSON'" "$@"
rc=$?
set -e
if [ "$rc" -ne 0 ]; then
    echo "PTF failed (rc=$rc); logs in $logs" >&2
fi
exit "$rc"

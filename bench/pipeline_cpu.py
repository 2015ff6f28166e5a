"""CPU time per packet of fabric.p4 in an in-process p4sim switch (no socket I/O).

Frames go through the switch's own batch path (ingress, traffic manager, egress,
deparse, transmit bookkeeping) exactly as frames read from a port socket do; only the
socket calls are missing. Two cases: a routed UEC flow over a two-member selector group
with INT off, and the same flow carrying an INT-MD header through an INT transit node.
Prints the median, best and worst of several rounds in microseconds of process CPU time
per packet (the machine's load shows in the spread).

  python bench/pipeline_cpu.py [--packets N] [--rounds R] [--json build/fabric.json]
"""
from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path

from scapy.layers.inet import IP, UDP
from scapy.layers.l2 import Ether

from p4sim.switch.runtime_api import ExactParam, LpmParam
from p4sim.switch.switch import Switch
from wire_formats.layers import (DSCP_INT, INT_ALL_SUPPORTED, UDP_PORT_UEC, IntMD, IntShim,
                                 UecRequest)

DEFAULT_JSON = Path(__file__).resolve().parent.parent / "build" / "fabric.json"
ROUTER_MAC = "00:aa:00:00:00:01"
FLOWS = 64
BATCH = 64     # frames per socket read in the switch (batch_receive)
IN_PORT = 1


def configured_switch(json_path: Path, int_transit: bool) -> Switch:
    """fabric.p4 routing 10.0.9.0/24 over members on ports 2 and 3 (and, with
    `int_transit`, acting as an INT node)."""
    switch = Switch(device_id=0, ports=None, cpu_port=255)
    switch.load_program(json.loads(json_path.read_text()))
    rt = switch.runtime
    selector = rt.action_profiles["FabricIngress.routing.multipath_selector"]
    group = selector.create_group()
    for port in (2, 3):
        member = selector.add_member("FabricIngress.routing.forward",
                                     [port, 0x00AA00000001, port, port])
        selector.add_member_to_group(group, member)
    rt.tables["FabricIngress.routing.routes"].add_entry(
        [ExactParam(0), LpmParam(0x0A000900, 24)], "FabricIngress.routing.set_group", [1])
    rt.tables["FabricIngress.routing.next_hops"].add_indirect_entry([ExactParam(1)], group=group)
    if int_transit:
        rt.tables["FabricEgress.int_egress.int_node"].set_default_action(
            "FabricEgress.int_egress.set_int_node", [0x11, DSCP_INT])
    return switch


def frames(int_transit: bool) -> list[bytes]:
    """One frame per flow (UDP source port = UEC entropy), 200 bytes of payload."""
    out = []
    for i in range(FLOWS):
        udp = UDP(sport=30000 + i, dport=UDP_PORT_UEC, chksum=0)
        ip = IP(src="10.0.1.1", dst="10.0.9.1")
        if int_transit:
            ip.tos = DSCP_INT << 2
            l4 = (udp / IntShim(dscp=0x0A) / IntMD(remaining_hop_cnt=4,
                                                     instruction_mask=INT_ALL_SUPPORTED)
                  / UecRequest(psn=i) / ("u" * 200))
        else:
            l4 = udp / UecRequest(psn=i) / ("u" * 200)
        out.append(bytes(Ether(src="00:00:00:00:00:01", dst=ROUTER_MAC) / ip / l4))
    return out


def measure(switch: Switch, batch: list[bytes], packets: int) -> float:
    """Process CPU seconds for `packets` frames through the switch's batch path."""
    sent = switch.stats.tx[2] + switch.stats.tx[3]
    start = time.process_time()
    for _ in range(packets // len(batch)):
        switch._ingress_frames(IN_PORT, batch)
    spent = time.process_time() - start
    forwarded = switch.stats.tx[2] + switch.stats.tx[3] - sent
    expected = packets // len(batch) * len(batch)
    if forwarded != expected:
        raise SystemExit(f"forwarding broken: {forwarded} of {expected} frames left")
    return spent / expected


def check_int_pushed(switch: Switch, frame: bytes) -> None:
    """The INT case must really push a hop: the frame out is longer than the one in."""
    out: list[bytes] = []
    switch.add_output_listener(lambda port, data: out.append(data))
    switch._ingress_frames(IN_PORT, [frame])
    switch._output_listeners.clear()
    if len(out) != 1 or len(out[0]) <= len(frame):
        raise SystemExit("INT transit did not push a hop")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--packets", type=int, default=20000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--json", type=Path, default=DEFAULT_JSON)
    args = parser.parse_args()
    with open("/proc/loadavg") as fh:
        load = fh.read().split()[0]
    print(f"fabric.p4 pipeline CPU per packet, {args.packets} packets x {args.rounds} rounds, "
          f"load average {load}")
    for name, int_transit in (("routed UEC, INT off", False), ("routed UEC, INT transit", True)):
        switch = configured_switch(args.json, int_transit)
        batch = frames(int_transit)
        if int_transit:
            check_int_pushed(switch, batch[0])
        measure(switch, batch, 2000)        # warm up
        rounds = sorted(measure(switch, batch, args.packets) * 1e6 for _ in range(args.rounds))
        print(f"  {name:26s} median {statistics.median(rounds):5.1f} us/packet "
              f"(best {rounds[0]:.1f}, worst {rounds[-1]:.1f})")


if __name__ == "__main__":
    main()

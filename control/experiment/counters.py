"""Read many counters of many switches in one process, inside the switch namespace.

``python -m control.experiment.counters P4INFO GRPC:DEVICE:COUNTER ...`` prints one JSON
object {"GRPC:DEVICE:COUNTER": {index: packets}}: one interpreter start per snapshot
instead of one per counter (control.probe reads one), which on two loaded cores is
the difference between a second and ten.
"""
from __future__ import annotations

import json
import sys

from control.p4rt.client import SwitchConnection
from control.p4rt.entities import P4Names, load_p4info
from control.probe import counter


def main(argv: list[str]) -> int:
    names = P4Names(load_p4info(argv[0]))
    connections: dict[tuple[str, int], SwitchConnection] = {}
    out: dict[str, dict[int, int]] = {}
    for spec in argv[1:]:
        host, port, device, name = spec.split(":", 3)
        key = (f"{host}:{port}", int(device))
        if key not in connections:
            connections[key] = SwitchConnection(*key)  # reads only: no arbitration
        out[spec] = counter(connections[key], names, name)
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

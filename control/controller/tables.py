"""Readable tables of what the fabric holds, for `fabricctl show`.

Routes are computed from the files (what the controller installs with every link up);
groups and counters are read back from the switches, INT summaries from the
collector's SQLite store.
"""
from __future__ import annotations

import sqlite3
from typing import Sequence

from p4.v1 import p4runtime_pb2

from control import probe
from control.controller.program import FabricPlan, partitions_reaching
from control.p4rt.client import SwitchConnection
from control.p4rt.entities import P4Names, load_p4info
from control.p4rt.errors import P4RuntimeError
from control.policy import Policy
from control.routing import compute_routes
from control.topology import Topology

PORT_COUNTERS = (("rx", "FabricIngress.port_rx"), ("tx", "FabricEgress.port_tx"),
                 ("multipath", "FabricIngress.routing.member_packets"),
                 ("trimmed", "FabricIngress.trimming.trimmed_packets"),
                 ("ecn", "FabricEgress.ecn.ecn_marked"),
                 ("credits marked", "FabricIngress.credit_marking.credits_marked"),
                 ("credits dropped", "FabricIngress.credit_marking.credits_dropped"))


def format_table(headers: list[str], rows: Sequence[Sequence[object]]) -> str:
    """Left-aligned text columns with a rule under the header."""
    cells = [[str(c) for c in row] for row in rows]
    widths = [max([len(h)] + [len(r[i]) for r in cells]) for i, h in enumerate(headers)]
    line = lambda row: "  ".join(c.ljust(w) for c, w in zip(row, widths)).rstrip()
    return "\n".join([line(headers), line(["-" * w for w in widths])] + [line(r) for r in cells])


def show_routes(topo: Topology, policy: Policy) -> str:
    plan = FabricPlan(topo, policy)
    rows = []
    for route in compute_routes(topo, destinations=plan.destinations):
        dest = route.host
        hops = ", ".join(f"{h.port}->{h.neighbor}" for h in route.next_hops)
        rows.append([route.switch, dest.name, f"{dest.ip}/32",
                     ",".join(str(p) for p in partitions_reaching(plan, dest)),
                     "direct" if route.direct else f"group {plan.group_id(dest.name)}",
                     "-" if route.direct else policy.spray_mode(dest.name), hops])
    return format_table(["switch", "destination", "prefix", "partitions", "via", "mode", "next hops"], rows)


def _reader(topo: Topology, switch: str) -> SwitchConnection:
    """Reads need no arbitration: a reader never competes with the running controller."""
    sw = topo.switch(switch)
    return SwitchConnection(sw.grpc, device_id=sw.device_id)


def show_groups(topo: Topology, policy: Policy, p4info_path: str) -> str:
    names = P4Names(load_p4info(p4info_path))
    plan = FabricPlan(topo, policy)
    by_gid = {plan.group_id(d.name): d.name for d in plan.destinations}
    rows = []
    for sw in topo.switches:
        conn = _reader(topo, sw.name)
        try:
            member_port = probe.member_ports(conn, names)
            groups = probe.groups(conn, names)
        except P4RuntimeError as exc:
            rows.append([sw.name, "-", "-", "-", f"unreadable: {exc.code.name}"])
            continue
        finally:
            conn.close()
        for g in groups:
            dest = by_gid.get(g.group_id, "?")
            weights: dict[int, int] = {}
            for m in g.members:   # a weight is repeated members: sum them per port
                port = member_port.get(m.member_id, -1)
                weights[port] = weights.get(port, 0) + m.weight
            text = ", ".join(f"port {port if port >= 0 else '?'} w{weight}"
                             for port, weight in sorted(weights.items()))
            rows.append([sw.name, g.group_id, dest, policy.spray_mode(dest), text or "(empty)"])
    return format_table(["switch", "group", "destination", "mode", "members (port, weight)"], rows)


def show_counters(topo: Topology, p4info_path: str) -> str:
    names = P4Names(load_p4info(p4info_path))
    rows: list[Sequence[object]] = []
    for sw in topo.switches:
        ports = sorted(topo.all_ports(sw.name))
        values: dict[str, dict[int, tuple[int, int]]] = {}
        conn = _reader(topo, sw.name)
        try:
            for label, counter in PORT_COUNTERS:
                read = conn.read([p4runtime_pb2.Entity(counter_entry=names.counter(counter))])
                values[label] = {e.counter_entry.index.index: (e.counter_entry.data.packet_count,
                                                               e.counter_entry.data.byte_count)
                                 for e in read}
        except P4RuntimeError as exc:
            rows.append([sw.name, "-", f"unreadable: {exc.code.name}"] + [""] * (len(PORT_COUNTERS) - 1))
            continue
        finally:
            conn.close()
        for port in ports:
            row: list[object] = [sw.name, port]
            for label, _ in PORT_COUNTERS:
                packets, nbytes = values[label].get(port, (0, 0))
                row.append(f"{packets} ({nbytes} B)" if label in ("rx", "tx") else packets)
            rows.append(row)
    return format_table(["switch", "port"] + [label for label, _ in PORT_COUNTERS], rows)


def show_int(topo: Topology, db_path: str) -> str:
    node_names = {sw.node_id: sw.name for sw in topo.switches}
    db = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True)
    try:
        reports = db.execute("SELECT COUNT(*) FROM reports").fetchone()[0]
        ports = db.execute(
            "SELECT node_id, egress_port, COUNT(*), AVG(hop_latency), MAX(hop_latency), "
            "AVG(queue_occupancy), MAX(queue_occupancy) FROM hops WHERE node_id IS NOT NULL "
            "GROUP BY node_id, egress_port ORDER BY node_id, egress_port").fetchall()
        flows = db.execute("SELECT flow, path, COUNT(*) FROM reports GROUP BY flow, path "
                           "ORDER BY flow, path").fetchall()
    except sqlite3.OperationalError as exc:
        return f"{db_path}: not a collector store ({exc})"
    finally:
        db.close()
    hop_rows = [[f"{node_names.get(n, '?')} ({n})", port, count, f"{al or 0:.1f}", ml or 0,
                 f"{aq or 0:.1f}", mq or 0] for n, port, count, al, ml, aq, mq in ports]
    flow_rows = [[flow or "(unknown)", " -> ".join(node_names.get(int(x), x) if x.isdigit() else x
                                                    for x in path.split(",") if x), count]
                 for flow, path, count in flows]
    return "\n".join([
        f"{reports} telemetry reports",
        "",
        format_table(["node", "egress port", "samples", "mean latency us", "max latency us",
                      "mean queue", "max queue"], hop_rows),
        "",
        format_table(["flow", "path", "reports"], flow_rows)])

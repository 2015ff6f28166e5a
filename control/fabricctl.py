"""fabricctl: run the fabric controller, and show what the fabric holds.

    fabricctl run --topology T.toml --policy P.toml --p4info F --json F [--once] [--domain D]
    fabricctl show routes|groups|counters|int --topology T.toml [--policy P] [--db F]
    fabricctl export --format containerlab T.toml -o T.clab.yml [--target p4sim|bmv2]
    fabricctl import --format containerlab T.clab.yml -o T.toml

`run` programs every switch, prints "fabricctl ready" once all hold their state, then
keeps them that way (link watch, restart restore, adaptive spraying) until SIGTERM or
Ctrl-C; with --once it exits 0 after programming. Every link change is printed as one
line "fabricctl link SWITCH:PORT down|up repaired in N ms" (when routing changed), and
every switch restored after a restart as "fabricctl restored SWITCH in N ms". With
--domain and --peering-port it also peers with the other domains' controllers
(docs/federation-api.md): "fabricctl peering DOMAIN URL" once, then each change of the
border toward a foreign host as "fabricctl border HOST via SWITCH:PORT programmed in N ms".
"""
from __future__ import annotations

import argparse
import json
import logging
import signal
import sys
import threading
from pathlib import Path

from control.controller.domain_peering import DomainPeering
from control.controller.fabric import FabricController, RepairEvent
from control.controller.int_dscp import IntDscpError, check_int_dscp
from control.controller.link_watch import OperstateWatcher, read_operstate
from control.controller.weights import WeightPolicy
from control.errors import ConfigError
from control.federation.domain_view import domain_view
from control.launch_check import file_problems
from control.controller.tables import show_counters, show_groups, show_int, show_routes
from control.policy import Policy, empty_policy, load_policy
from control.topology import Topology, load_topology

ROOT = Path(__file__).resolve().parents[1]
READY_LINE = "fabricctl ready"


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    if args.command in ("export", "import"):
        return _convert(args)
    logging.basicConfig(level=getattr(logging, args.log_level.upper()),
                        format="%(asctime)s %(name)s %(levelname)s %(message)s", stream=sys.stderr)
    try:
        topo = load_topology(args.topology)
        domain = getattr(args, "domain", None)
        if domain is not None and domain not in {d.name for d in topo.effective_domains()}:
            raise ConfigError(args.topology, [("domains", f"no domain named {domain!r} (--domain); "
                                               "the file has: " + ", ".join(
                                                   d.name for d in topo.effective_domains()))])
        # A domain's policy is read against what its controller sees (its own collector).
        seen = topo if domain is None else domain_view(topo, domain)
        policy = load_policy(args.policy, seen) if args.policy else empty_policy()
    except ConfigError as exc:
        print(exc.render(), file=sys.stderr)
        return 2
    if args.command == "run":
        return _run(args, topo, policy)
    return _show(args, topo, policy)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="fabricctl", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    run = sub.add_parser("run", help="program every switch and keep it programmed")
    show = sub.add_parser("show", help="print routes, groups, counters or INT summaries")
    show.add_argument("what", choices=("routes", "groups", "counters", "int"))
    for p in (run, show):
        p.add_argument("--topology", required=True)
        p.add_argument("--policy")
        p.add_argument("--p4info", default=str(ROOT / "build/fabric.p4info.txtpb"))
        p.add_argument("--db", help="the collector's SQLite store (adaptive spraying, show int)")
        p.add_argument("--log-level", default="info", choices=("debug", "info", "warning", "error"))
    _add_conversions(sub)
    run.add_argument("--json", default=str(ROOT / "build/fabric.json"), help="BMv2 JSON device config")
    run.add_argument("--once", action="store_true", help="program and exit")
    run.add_argument("--ready-timeout", type=float, default=120.0)
    run.add_argument("--election-id", type=int, default=1,
                     help="ignored with --domain (the domain's controller has its own)")
    run.add_argument("--domain", help="be this domain's controller: program only its switches, "
                                      "with its P4Runtime role, INT domain and collector")
    run.add_argument("--peering-port", type=int,
                     help="with --domain: serve the peering API on 127.0.0.1:PORT (0: any), push "
                          "summaries to the peers and route to them by border choice")
    run.add_argument("--peers", metavar="FILE",
                     help='JSON {"DOMAIN": "http://127.0.0.1:PORT", ...}: the peers\' APIs')
    run.add_argument("--border-by", choices=("latency", "capacity"), default="latency",
                     help="border choice metric toward other domains")
    run.add_argument("--border-percentile", choices=("p50", "p99"), default="p50")
    run.add_argument("--peering-ttl", type=float, default=10.0,
                     help="a peer's summary expires this many seconds after it arrived")
    run.add_argument("--iface-format", default="{switch}-{port}",
                     help="switch port -> interface name, watched for link state ('' = off)")
    run.add_argument("--watch-interval", type=float, default=0.02)
    run.add_argument("--health-interval", type=float, default=0.2)
    run.add_argument("--adaptive-interval", type=float, default=WeightPolicy.poll_s,
                     help="seconds between adaptive-weight steps (at most %.0f)" % WeightPolicy.max_poll_s)
    run.add_argument("--wait-ratio", type=float, default=WeightPolicy.ratio,
                     help="adaptive: a member waiting this many times its group's shortest wait "
                          "gives one unit of weight to it (control/controller/balance.py)")
    run.add_argument("--queued-from", type=float, default=WeightPolicy.low,
                     help="adaptive: packets from which a hop counts as queued; a group with "
                          "none steps back toward equal weights")
    return parser


def _add_conversions(sub: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    """export / import: the topology in another tool's format (control/export/)."""
    export = sub.add_parser("export", help="write the topology as a Containerlab lab")
    export.add_argument("source", metavar="TOPOLOGY.toml")
    export.add_argument("--name", help="the lab's name (default: the topology file's stem)")
    export.add_argument("--target", choices=("p4sim", "bmv2"), default="p4sim",
                        help="switch program in the containers (default p4sim)")
    export.add_argument("--switch-image", help="switch image (default p4sim-switch:latest, "
                                               "bmv2-switch:latest for --target bmv2)")
    export.add_argument("--host-image", help="host and collector image (default p4sim-switch:latest)")
    imported = sub.add_parser("import", help="read a Containerlab lab written by export back "
                                             "as a topology file")
    imported.add_argument("source", metavar="LAB.clab.yml")
    for p in (export, imported):
        p.add_argument("--format", required=True, choices=("containerlab",))
        p.add_argument("-o", "--output", required=True)


def _convert(args: argparse.Namespace) -> int:
    # Here, not at the top: PyYAML and the exporter are needed by these two commands only.
    from control.export.clab_import import import_containerlab
    from control.export.containerlab import HOST_IMAGE, write_containerlab
    try:
        if args.command == "export":
            topo = load_topology(args.source)
            name = args.name or Path(args.source).name.split(".")[0]
            write_containerlab(topo, args.output, name, source=args.source, target=args.target,
                               switch_image=args.switch_image, host_image=args.host_image or HOST_IMAGE)
        else:
            topo = import_containerlab(args.source, args.output)
    except ConfigError as exc:
        print(exc.render(), file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"fabricctl: {args.output}: {exc.strerror}", file=sys.stderr)
        return 2
    print(f"fabricctl: wrote {args.output} ({len(topo.switches)} switches, {len(topo.hosts)} hosts, "
          f"{len(topo.links)} links)")
    return 0


def _run(args: argparse.Namespace, topo: Topology, policy: Policy) -> int:
    # Worded as python -m control.launch words them (it makes the same checks first).
    problems = [file_problems(path, "run `make build`") for path in (args.p4info, args.json)]
    missing = [problem.render() for problem in problems if problem is not None]
    if missing:
        print("\n".join(missing), file=sys.stderr)
        return 2
    if policy.int.enabled:
        try:
            check_int_dscp(Path(args.json).read_bytes(), policy.int.dscp, where=args.json)
        except IntDscpError as exc:
            print(ConfigError(args.policy, [("int.dscp", str(exc))]).render(), file=sys.stderr)
            return 2
    if args.peering_port is not None and args.domain is None:
        print("fabricctl: --peering-port needs --domain (peering is between domains' "
              "controllers)", file=sys.stderr)
        return 2
    stop = threading.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: stop.set())
    if args.wait_ratio <= 1.0 or args.queued_from < 0:
        print(f"fabricctl: --wait-ratio must be above 1 (got {args.wait_ratio:g}) and "
              f"--queued-from at least 0 (got {args.queued_from:g})", file=sys.stderr)
        return 2
    weights = WeightPolicy(ratio=args.wait_ratio, low=args.queued_from,
                           back_ratio=min(WeightPolicy.back_ratio, args.wait_ratio))
    controller = FabricController(topo, policy, args.p4info, args.json, election_id=args.election_id,
                                  health_interval=args.health_interval, weight_policy=weights,
                                  on_restore=_print_restore, domain=args.domain)
    watcher = None
    peering: DomainPeering | None = None
    try:
        controller.start()
        if not controller.wait_ready(args.ready_timeout):
            missing = [n for n, a in controller.agents.items() if not a.connected]
            print(f"fabricctl: not every switch was programmed within {args.ready_timeout:.0f} s"
                  f" (not connected: {', '.join(missing) or 'none'})", file=sys.stderr)
            return 1
        print(READY_LINE, flush=True)
        if args.once:
            return 0
        if args.iface_format:
            watcher = _start_watcher(controller, topo, args)
        if args.db:
            controller.start_adaptive(args.db, args.adaptive_interval)
        if args.peering_port is not None:
            peering = _start_peering(controller, topo, policy, args)
        stop.wait()
        return 0
    finally:
        if peering is not None:
            peering.stop()
        if watcher is not None:
            watcher.stop()
        controller.stop()


def _start_watcher(controller: FabricController, topo: Topology,
                   args: argparse.Namespace) -> OperstateWatcher | None:
    """Watch every used switch port whose interface exists here (the switches'
    namespace); ports without an interface (in-process switches) are not watched."""
    ports = {}
    for sw in topo.switches:
        if sw.name not in controller.agents:  # another domain's switch: its controller's
            continue
        for port in sorted(topo.all_ports(sw.name)):
            iface = args.iface_format.format(switch=sw.name, port=port, node_id=sw.node_id,
                                             device_id=sw.device_id)
            if read_operstate(iface) is not None:
                ports[(sw.name, port)] = iface
    if not ports:
        logging.getLogger(__name__).info("no switch interface visible: link watch off")
        return None

    def on_change(switch: str, port: int, up: bool, detected_at: float) -> None:
        change = controller.port_up if up else controller.port_down
        event = change(switch, port, detected_at=detected_at)
        if event is not None and event.changed:
            _print_event(event)
    watcher = OperstateWatcher(ports, on_change, interval=args.watch_interval)
    watcher.poll_once()  # ports already down at start are routed around before we go on
    watcher.start()
    return watcher


def _start_peering(controller: FabricController, topo: Topology, policy: Policy,
                   args: argparse.Namespace) -> DomainPeering:
    """The domain's peering (control/controller/domain_peering.py); prints the API's
    url as "fabricctl peering DOMAIN URL" and each border change as one line."""
    urls: dict[str, str] = {}
    if args.peers:
        try:
            urls = json.loads(Path(args.peers).read_text())
        except (OSError, ValueError) as exc:
            raise SystemExit(f"fabricctl: --peers {args.peers}: {exc}") from None
        if not isinstance(urls, dict) or not all(isinstance(v, str) for v in urls.values()):
            raise SystemExit(f'fabricctl: --peers {args.peers}: not {{"DOMAIN": "URL", ...}}')
    peering = DomainPeering(controller, topo, policy, args.domain, port=args.peering_port,
                            peer_urls=urls, by=args.border_by, percentile=args.border_percentile,
                            ttl_s=args.peering_ttl, db=args.db, on_choice=_print_choice)
    peering.start()
    print(f"fabricctl peering {args.domain} {peering.url}", flush=True)
    return peering


def _print_choice(dest: str, ends: tuple[str, ...], event: RepairEvent) -> None:
    via = ends[0] if ends else "any border (none chosen)"
    result = "programmed" if event.complete else "NOT programmed"
    print(f"fabricctl border {dest} via {via} {result} in {event.seconds * 1e3:.1f} ms", flush=True)


def _print_event(event: RepairEvent) -> None:
    state = "up" if event.up else "down"
    result = "repaired" if event.complete else "NOT repaired"
    print(f"fabricctl link {event.switch}:{event.port} {state} {result} in {event.seconds * 1e3:.1f} ms",
          flush=True)


def _print_restore(switch: str, seconds: float) -> None:
    print(f"fabricctl restored {switch} in {seconds * 1e3:.1f} ms", flush=True)


def _show(args: argparse.Namespace, topo: Topology, policy: Policy) -> int:
    if args.what == "routes":
        print(show_routes(topo, policy))
    elif args.what == "groups":
        print(show_groups(topo, policy, args.p4info))
    elif args.what == "counters":
        print(show_counters(topo, args.p4info))
    else:
        if not args.db:
            print("fabricctl: show int needs --db (the collector's SQLite store)", file=sys.stderr)
            return 2
        if not Path(args.db).is_file():
            print(f"fabricctl: {args.db}: no such file", file=sys.stderr)
            return 2
        print(show_int(topo, args.db))
    return 0


if __name__ == "__main__":
    sys.exit(main())

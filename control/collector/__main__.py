"""The collector process:

  python -m control.collector --bind IP [--port 32766] --db FILE [--metrics-port N]
                              [--plots DIR [--plot-interval S] [--plot-window S]]
                              [--topology T.toml] [--int-dscp D ...]

Receives Telemetry Report v2.0 datagrams on IP:port, stores them in FILE (SQLite),
serves Prometheus metrics on http://127.0.0.1:N/metrics, and writes PNG plots to DIR
every S seconds and on exit (the last ten minutes of reports by default). Prints "collector ready" once it listens; SIGINT or
SIGTERM stop it cleanly (exit status 0). Reports that break Telemetry Report v2.0 are
counted as malformed, per reason, and logged; gaps in sequence numbers count as lost.
"""
from __future__ import annotations

import argparse
import logging
import signal
import sqlite3
import sys
import threading
from pathlib import Path
from typing import Mapping, Sequence

from control.collector.metrics import MetricsServer
from control.collector.plots import WINDOW_S, write_plots
from control.collector.receiver import ReportReceiver
from control.collector.store import Store
from control.errors import ConfigError
from wire_formats.layers import DSCP_INT, REPORT_UDP_PORT
from control.topology import load_topology

READY_LINE = "collector ready"
log = logging.getLogger("control.collector")


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m control.collector",
                                     description="Telemetry Report v2.0 collector")
    parser.add_argument("--bind", required=True, help="IPv4 address to receive reports on")
    parser.add_argument("--port", type=int, default=REPORT_UDP_PORT, help="UDP port (32766)")
    parser.add_argument("--db", required=True, help="SQLite file to store reports in")
    parser.add_argument("--metrics-port", type=int, default=None,
                        help="serve Prometheus metrics on 127.0.0.1:N/metrics (0 = any port)")
    parser.add_argument("--plots", type=Path, default=None, help="directory for PNG plots")
    parser.add_argument("--plot-interval", type=float, default=10.0,
                        help="seconds between plot refreshes; 0 = only on exit")
    parser.add_argument("--plot-window", type=float, default=WINDOW_S,
                        help="seconds of the most recent reports each plot shows; 0 = all")
    parser.add_argument("--topology", default=None, help="topology file, to name nodes in plots")
    parser.add_argument("--int-dscp", type=lambda text: int(text, 0), action="append",
                        default=None, help="DSCP marking INT-MD in inner packets (repeatable; "
                        f"default {DSCP_INT:#04x})")
    parser.add_argument("-v", "--verbose", action="store_true", help="log every report")
    return parser.parse_args(argv)


def node_names(topology_path: str | None) -> Mapping[int, str]:
    if topology_path is None:
        return {}
    return {sw.node_id: sw.name for sw in load_topology(topology_path).switches}


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    logging.basicConfig(level=logging.DEBUG if args.verbose else logging.INFO,
                        format="%(asctime)s %(name)s %(levelname)s: %(message)s")
    try:
        names = node_names(args.topology)
        store = Store(args.db)
    except (ConfigError, OSError, sqlite3.Error) as exc:
        print(f"collector: {exc}", file=sys.stderr)
        return 2
    window = args.plot_window if args.plot_window > 0 else None
    stop = threading.Event()
    for signum in (signal.SIGINT, signal.SIGTERM):
        signal.signal(signum, lambda *_: stop.set())
    receiver: ReportReceiver | None = None
    metrics: MetricsServer | None = None
    try:
        try:
            receiver = ReportReceiver(store, host=args.bind, port=args.port,
                                      int_dscps=args.int_dscp or (DSCP_INT,))
        except OSError as exc:
            print(f"collector: cannot receive reports on udp {args.bind}:{args.port}: "
                  f"{exc.strerror or exc}", file=sys.stderr)
            return 2
        if args.metrics_port is not None:
            try:
                metrics = MetricsServer(store, receiver.stats, port=args.metrics_port)
            except OSError as exc:
                print(f"collector: cannot serve metrics on 127.0.0.1:{args.metrics_port}: "
                      f"{exc.strerror or exc}", file=sys.stderr)
                return 2
        if args.verbose:
            receiver.listeners.append(lambda r: log.debug("report %s", r))
        receiver.start()
        host, port = receiver.address
        print(f"collector: reports on udp {host}:{port}, store {args.db}", flush=True)
        if metrics is not None:
            print(f"collector: metrics on {metrics.url}", flush=True)
        print(READY_LINE, flush=True)
        interval = args.plot_interval if args.plots and args.plot_interval > 0 else None
        while not stop.wait(interval):
            write_plots(store, args.plots, names, window)
    finally:
        if receiver is not None:
            receiver.stop()
        if metrics is not None:
            metrics.stop()
        if receiver is None or (args.metrics_port is not None and metrics is None):
            store.close()  # refused to start: nothing more to write
    if args.plots:
        written = write_plots(store, args.plots, names, window)
        print(f"collector: {len(written)} plots in {args.plots}", flush=True)
    stats = receiver.stats
    reasons = ", ".join(f"{reason} {count}" for reason, count
                        in sorted(stats.malformed_by_reason.items()))
    print(f"collector: {stats.received} received, {stats.decoded} decoded, "
          f"{stats.malformed} malformed{f' ({reasons})' if reasons else ''}, "
          f"{stats.lost} lost", flush=True)
    store.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

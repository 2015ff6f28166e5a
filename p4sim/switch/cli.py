"""p4sim-switch: the command line of BMv2's simple_switch_grpc, on the p4sim switch.

  p4sim-switch [--device-id N] -i PORT@IFACE [-i ...] [--no-p4 | PROG.json]
               [--log-console] [--log-level LEVEL] [--pcap [DIR]]
               [--priority-queues N] [--queue-depth PKTS] [--queue-rate PPS]
               [--thrift-port N] [-- --grpc-server-addr HOST:PORT --cpu-port N]

Target options (after `--`) are also accepted before it.  Runs until SIGINT/SIGTERM,
then closes its sockets and exits 0.  Prints "p4sim-switch ready ..." on stdout once
every port is open and the servers listen.
"""

from __future__ import annotations

import argparse
import gc
import json
import logging
import signal
import sys
import threading
from pathlib import Path
from typing import Any, Sequence

from p4sim.switch.control_channel import DEFAULT_PORT, ControlError, ControlServer
from p4sim.switch.errors import LoadError
from p4sim.switch.packet_io import PacketIOError
from p4sim.switch.switch import Switch
from p4sim.switch.traffic_manager import TrafficManagerError

DEFAULT_GRPC_ADDR = "0.0.0.0:9559"
LOG_LEVELS = {"trace": logging.DEBUG, "debug": logging.DEBUG, "info": logging.INFO,
              "warn": logging.WARNING, "warning": logging.WARNING,
              "error": logging.ERROR, "critical": logging.CRITICAL, "off": logging.CRITICAL + 10}


class UsageError(Exception):
    """Bad command line; reported like argparse errors."""


def parse_port_spec(text: str) -> tuple[int, str]:
    """'1@veth1' -> (1, 'veth1')."""
    port_text, sep, iface = text.partition("@")
    if not sep or not iface:
        raise argparse.ArgumentTypeError(f"expected PORT@IFACE, got {text!r}")
    try:
        port = int(port_text, 0)
    except ValueError:
        raise argparse.ArgumentTypeError(f"port number {port_text!r} in {text!r} is not an integer") from None
    if port < 0:
        raise argparse.ArgumentTypeError(f"port number in {text!r} is negative")
    return port, iface


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="p4sim-switch",
                                     description="BMv2 simple_switch_grpc-compatible switch")
    parser.add_argument("program", nargs="?", metavar="PROG.json",
                        help="BMv2 JSON to load at start")
    parser.add_argument("--no-p4", action="store_true",
                        help="start without a program (push one with P4Runtime)")
    parser.add_argument("--device-id", type=int, default=0)
    parser.add_argument("-i", "--interface", action="append", default=[], type=parse_port_spec,
                        metavar="PORT@IFACE", help="bind a switch port to an interface")
    parser.add_argument("--log-console", action="store_true", help="log to stderr")
    parser.add_argument("-L", "--log-level", default="info", choices=sorted(LOG_LEVELS))
    parser.add_argument("--pcap", nargs="?", const=".", default=None, metavar="DIR",
                        help="write <iface>_in.pcap / <iface>_out.pcap per port")
    parser.add_argument("--priority-queues", type=int, default=1)
    parser.add_argument("--queue-depth", type=int, default=64, metavar="PKTS")
    parser.add_argument("--queue-rate", type=float, default=None, metavar="PPS")
    parser.add_argument("--thrift-port", type=int, default=DEFAULT_PORT,
                        help="control channel port (p4sim-cli) on 127.0.0.1")
    parser.add_argument("--grpc-server-addr", default=DEFAULT_GRPC_ADDR, metavar="HOST:PORT")
    parser.add_argument("--cpu-port", type=int, default=None)
    parser.add_argument("--no-grpc", action="store_true",
                        help="p4sim extension: do not start the P4Runtime server")
    return parser


def parse_args(argv: Sequence[str]) -> argparse.Namespace:
    """Target options may come after a `--`, as simple_switch_grpc expects."""
    args = list(argv)
    if "--" in args:
        cut = args.index("--")
        args = args[:cut] + args[cut + 1:]
    parser = build_parser()
    options = parser.parse_args(args)
    if options.no_p4 and options.program:
        parser.error("give either --no-p4 or PROG.json, not both")
    ports = [port for port, _iface in options.interface]
    duplicates = sorted({p for p in ports if ports.count(p) > 1})
    if duplicates:
        parser.error(f"port(s) {duplicates} bound twice with -i")
    if options.cpu_port is not None and options.cpu_port in ports:
        parser.error(f"--cpu-port {options.cpu_port} is also bound to an interface")
    return options


def load_json(path: str) -> dict:
    try:
        text = Path(path).read_text()
    except OSError as exc:
        raise UsageError(f"cannot read {path}: {exc.strerror}") from exc
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise UsageError(f"{path}:{exc.lineno}:{exc.colno}: invalid JSON: {exc.msg}") from exc


def configure_logging(options: argparse.Namespace) -> None:
    level = LOG_LEVELS[options.log_level] if options.log_console else logging.WARNING
    logging.basicConfig(level=level, stream=sys.stderr,
                        format="[%(asctime)s] %(levelname)s %(name)s: %(message)s")


def _start_p4runtime(switch: Switch, address: str, device_id: int) -> Any:
    try:
        from p4sim.p4runtime.server import P4RuntimeServer
    except ImportError as exc:
        raise UsageError(f"the P4Runtime server is not available ({exc}); "
                         f"use --no-grpc to run without it") from exc
    server = P4RuntimeServer(switch, address, device_id)
    server.start()
    return server


def run(options: argparse.Namespace) -> int:
    """Start everything, print readiness, wait for a signal, shut down in reverse."""
    configure_logging(options)
    program = load_json(options.program) if options.program else None
    switch = Switch(device_id=options.device_id, ports=dict(options.interface),
                    cpu_port=options.cpu_port, priority_queues=options.priority_queues,
                    queue_depth=options.queue_depth, queue_rate=options.queue_rate,
                    pcap_dir=options.pcap)
    if program is not None:
        switch.load_program(program)
    # The program's closures and tables are long-lived: keep the cyclic garbage
    # collector from rescanning them on every full collection (pauses of many ms).
    gc.freeze()
    stop = threading.Event()
    for signum in (signal.SIGINT, signal.SIGTERM):
        signal.signal(signum, lambda *_: stop.set())
    control = grpc_server = None
    switch.start()
    try:
        control = ControlServer(switch, options.thrift_port)
        control.start()
        if not options.no_grpc:
            grpc_server = _start_p4runtime(switch, options.grpc_server_addr, options.device_id)
        ports = ",".join(f"{p}@{i}" for p, i in sorted(switch.ports.items())) or "none"
        grpc = "off" if options.no_grpc else options.grpc_server_addr
        print(f"p4sim-switch ready: device {options.device_id}, ports {ports}, "
              f"grpc {grpc}, thrift {control.port}", flush=True)
        while not stop.wait(0.5):
            pass
    finally:
        if grpc_server is not None:
            grpc_server.stop()
        if control is not None:
            control.stop()
        switch.stop()
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    options = parse_args(sys.argv[1:] if argv is None else argv)
    try:
        return run(options)
    except LoadError as exc:
        print(f"p4sim-switch: error: {options.program}: {exc}", file=sys.stderr)
        return 1
    except (UsageError, ControlError, PacketIOError, TrafficManagerError, OSError) as exc:
        print(f"p4sim-switch: error: {exc}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())

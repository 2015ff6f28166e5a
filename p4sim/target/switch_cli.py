"""p4sim-switch: the command line of BMv2's simple_switch_grpc, on the p4sim switch.

  p4sim-switch [--device-id N] -i PORT@IFACE [-i ...] [--no-p4 | PROG.json]
               [--log-console] [--log-file FILE [--log-flush]] [--log-level LEVEL]
               [--pcap [DIR]] [--dump-packet-data N] [--thrift-port N]
               [--queue-depth PKTS] [--queue-rate PPS] [--no-grpc]
               [-- --grpc-server-addr HOST:PORT --cpu-port N --priority-queues N
                   --p4rt-allowed-roles NAME[,NAME]]

Every option of simple_switch_grpc's --help is accepted with its syntax; those p4sim
cannot act on (nanomsg, TLS, modules, ...) are ignored with one note each on stderr.
Like simple_switch_grpc it opens the gRPC server and its ports only: the control
channel (p4sim-cli's, where simple_switch has Thrift) opens only with --thrift-port.
--queue-depth, --queue-rate, --no-grpc, --common-clock and --p4rt-allowed-roles (binds
the P4Runtime server to its domain's role names; a target option, so given before or
after `--`) are p4sim extensions.

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

from p4sim.switch.control_channel import ControlError, ControlServer
from p4sim.switch.errors import LoadError
from p4sim.switch.log_file import LogFile
from p4sim.switch.packet_io import PacketIOError
from p4sim.switch.pcap_files import PcapFilePorts
from p4sim.switch.switch import Switch
from p4sim.switch.traffic_manager import TrafficManagerError
from p4sim.version import package_version

DEFAULT_GRPC_ADDR = "0.0.0.0:9559"
JSON_MINOR = 23   # p4sim-compile writes BMv2 JSON 2.23; the loader reads any 2.x
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


# Flags of simple_switch_grpc that p4sim accepts but cannot act on: dest -> why.
NO_EFFECT = {
    "packet_in": "p4sim has no nanomsg packet socket (its ports are -i interfaces)",
    "nanolog": "p4sim has no nanomsg log publisher",
    "notifications_addr": "p4sim has no nanomsg notifications socket (digests go to "
                          "P4Runtime)",
    "restore_state": "p4sim has no serialized switch state to restore",
    "load_modules": "p4sim loads no extern modules",
    "disable_swap": "p4sim swaps the pipeline of SetForwardingPipelineConfig atomically",
    "grpc_server_ssl": "p4sim serves P4Runtime without TLS",
    "grpc_server_cacert": "p4sim serves P4Runtime without TLS",
    "grpc_server_cert": "p4sim serves P4Runtime without TLS",
    "grpc_server_key": "p4sim serves P4Runtime without TLS",
    "grpc_server_with_client_auth": "p4sim serves P4Runtime without TLS",
    "dp_grpc_server_addr": "p4sim has no dataplane gRPC service (its ports are -i interfaces)",
    "max_mc_groups": "p4sim's multicast tables have no fixed size",
    "max_l1_entries": "p4sim's multicast tables have no fixed size",
    "max_l2_entries": "p4sim's multicast tables have no fixed size",
}
DEFAULT_DROP_PORT = 511
DEFAULT_MAX_PORT_COUNT = 512
BMV2_LOG_LEVELS = ("trace", "debug", "info", "warn", "error", "off")


def parse_role_names(text: str) -> frozenset[str]:
    """'domain-a,domain-a-backup' -> the role names (no empty or blank name)."""
    names = [name.strip() for name in text.split(",")]
    if not names or any(not name for name in names):
        raise argparse.ArgumentTypeError(
            f"expected NAME[,NAME...] with non-empty role names, got {text!r}")
    return frozenset(names)


def build_parser() -> argparse.ArgumentParser:
    """Every option of simple_switch_grpc's --help (general and target), plus p4sim's own."""
    parser = argparse.ArgumentParser(
        prog="p4sim-switch", usage="p4sim-switch [options] [PROG.json] [-- target options]",
        description="BMv2 simple_switch_grpc-compatible switch. Options marked "
                    "'no effect' are accepted for compatibility and ignored, with a note.")
    parser.add_argument("program", nargs="?", metavar="PROG.json",
                        help="BMv2 JSON to load at start")
    g = parser.add_argument_group("general options (simple_switch_grpc)")
    g.add_argument("-i", "--interface", action="append", default=[], type=parse_port_spec,
                   metavar="PORT@IFACE", help="bind a switch port to an interface "
                   "(repeatable)")
    g.add_argument("--pcap", nargs="?", const=".", default=None, metavar="DIR",
                   help="write <iface>_in.pcap / <iface>_out.pcap per port (in DIR, "
                        "default the current directory)")
    g.add_argument("--use-files", metavar="SECONDS", type=float, default=None,
                   help="ports are pcap files: -i N@PREFIX reads PREFIX_in.pcap (after "
                        "SECONDS) and writes PREFIX_out.pcap")
    g.add_argument("--packet-in", metavar="ADDR", help="no effect on p4sim")
    g.add_argument("--thrift-port", type=int, default=None, metavar="N",
                   help="open p4sim's control channel (for p4sim-cli; JSON lines, not "
                        "Thrift) on 127.0.0.1:N; without it none is opened")
    g.add_argument("--device-id", type=int, default=0)
    g.add_argument("--nanolog", metavar="ADDR", help="no effect on p4sim")
    g.add_argument("--log-console", action="store_true", help="log to stderr")
    g.add_argument("--log-file", metavar="FILE", help="log to FILE")
    g.add_argument("-L", "--log-level", default="info", choices=sorted(LOG_LEVELS),
                   metavar="LEVEL", help=f"one of {', '.join(BMV2_LOG_LEVELS)} "
                                         f"(default info)")
    g.add_argument("--log-flush", action="store_true",
                   help="with --log-file, flush the file after every message")
    g.add_argument("--log-file-max-size", type=int, default=5 * 1024 * 1024, metavar="BYTES",
                   help="rotate the --log-file at this size (default 5 MB)")
    g.add_argument("--log-file-max-files", type=int, default=3, metavar="N",
                   help="rotated log files kept (default 3)")
    g.add_argument("--notifications-addr", metavar="ADDR", help="no effect on p4sim")
    g.add_argument("--restore-state", metavar="FILE", help="no effect on p4sim")
    g.add_argument("--dump-packet-data", type=int, default=0, metavar="N",
                   help="log (level info) the first N bytes of every packet received "
                        "or sent on a port")
    g.add_argument("-v", "--version", action="store_true", help="print the version")
    g.add_argument("--json-version", action="store_true",
                   help="print the BMv2 JSON version supported, <major>.<minor>")
    g.add_argument("--no-p4", action="store_true",
                   help="start without a program (push one with P4Runtime)")
    g.add_argument("--max-port-count", type=int, default=DEFAULT_MAX_PORT_COUNT, metavar="N",
                   help="most interfaces that may be bound (default %(default)s)")
    t = parser.add_argument_group("target options (simple_switch_grpc, after '--'; "
                                  "accepted before it too)")
    t.add_argument("--load-modules", metavar="SO[,SO...]", help="no effect on p4sim")
    t.add_argument("--disable-swap", action="store_true", default=None,
                   help="no effect on p4sim")
    t.add_argument("--grpc-server-addr", default=DEFAULT_GRPC_ADDR, metavar="HOST:PORT")
    t.add_argument("--grpc-server-ssl", action="store_true", default=None,
                   help="no effect on p4sim")
    t.add_argument("--grpc-server-cacert", metavar="PEM", help="no effect on p4sim")
    t.add_argument("--grpc-server-cert", metavar="PEM", help="no effect on p4sim")
    t.add_argument("--grpc-server-key", metavar="PEM", help="no effect on p4sim")
    t.add_argument("--grpc-server-with-client-auth", action="store_true", default=None,
                   help="no effect on p4sim")
    t.add_argument("--cpu-port", type=int, default=None)
    t.add_argument("--drop-port", type=int, default=DEFAULT_DROP_PORT, metavar="N",
                   help="egress_spec value that drops a packet (mark_to_drop writes it; "
                        "default %(default)s)")
    t.add_argument("--dp-grpc-server-addr", metavar="HOST:PORT", help="no effect on p4sim")
    t.add_argument("--priority-queues", type=int, default=1)
    t.add_argument("--max-mc-groups", metavar="N", help="no effect on p4sim")
    t.add_argument("--max-l1-entries", metavar="N", help="no effect on p4sim")
    t.add_argument("--max-l2-entries", metavar="N", help="no effect on p4sim")
    x = parser.add_argument_group("p4sim extensions (not in simple_switch_grpc)")
    x.add_argument("--queue-depth", type=int, default=64, metavar="PKTS",
                   help="p4sim extension: egress queue depth (default %(default)s)")
    x.add_argument("--queue-rate", type=float, default=None, metavar="PPS",
                   help="p4sim extension: egress queue rate (default unlimited)")
    x.add_argument("--no-grpc", action="store_true",
                   help="p4sim extension: do not start the P4Runtime server")
    x.add_argument("--common-clock", action="store_true",
                   help="p4sim extension: ingress/egress global timestamps are microseconds "
                        "of the host's CLOCK_MONOTONIC (since boot), shared by every switch "
                        "on the host, so hop timestamps compare across switches (default: "
                        "since this switch started, as BMv2)")
    x.add_argument("--p4rt-allowed-roles", type=parse_role_names, default=None,
                   metavar="NAME[,NAME]",
                   help="p4sim extension: accept P4Runtime controllers of these roles only "
                        "(MasterArbitrationUpdate role.name); any other role, and the "
                        "default role, are refused with PERMISSION_DENIED at arbitration "
                        "and on Write / SetForwardingPipelineConfig. Reads stay open. "
                        "Not authentication: see "
                        "docs/sovereignty.md (default: every role)")
    return parser


def version_line() -> str:
    """What --version prints."""
    return f"{package_version()}-p4sim"


def json_version_line() -> str:
    """What --json-version prints: the newest BMv2 JSON version p4sim was written for."""
    from p4sim.switch.loader import SUPPORTED_MAJOR
    return f"{SUPPORTED_MAJOR}.{JSON_MINOR}"


def parse_args(argv: Sequence[str]) -> argparse.Namespace:
    """Target options may come after a `--`, as simple_switch_grpc expects."""
    args = list(argv)
    if "--" in args:
        cut = args.index("--")
        args = args[:cut] + args[cut + 1:]
    parser = build_parser()
    options = parser.parse_args(args)
    if options.version or options.json_version:
        return options
    if options.no_p4 and options.program:
        parser.error("give either --no-p4 or PROG.json, not both")
    ports = [port for port, _iface in options.interface]
    duplicates = sorted({p for p in ports if ports.count(p) > 1})
    if duplicates:
        parser.error(f"port(s) {duplicates} bound twice with -i")
    if len(ports) > options.max_port_count:
        parser.error(f"{len(ports)} interfaces bound with -i, more than "
                     f"--max-port-count {options.max_port_count}")
    if options.cpu_port is not None and options.cpu_port in ports:
        parser.error(f"--cpu-port {options.cpu_port} is also bound to an interface")
    if options.cpu_port == 0:
        parser.error("--cpu-port 0 is not a valid value")
    if not 0 <= options.drop_port < 512:
        parser.error(f"--drop-port {options.drop_port} does not fit in v1model's 9-bit "
                     f"egress_spec")
    if options.drop_port in ports or options.cpu_port == options.drop_port:
        parser.error(f"port {options.drop_port} is the drop port (--drop-port)")
    if options.dump_packet_data < 0:
        parser.error("--dump-packet-data must not be negative")
    if options.no_grpc and options.p4rt_allowed_roles is not None:
        parser.error("--p4rt-allowed-roles binds the P4Runtime server, which --no-grpc "
                     "turns off")
    return options


def notices(options: argparse.Namespace) -> list[str]:
    """One line per given option that has no effect on p4sim."""
    lines = []
    for dest, why in NO_EFFECT.items():
        if getattr(options, dest) not in (None, False):
            flag = "--" + dest.replace("_", "-")
            lines.append(f"p4sim-switch: note: {flag} has no effect on p4sim ({why})")
    return lines


def load_json(path: str) -> dict:
    try:
        text = Path(path).read_text()
    except OSError as exc:
        raise UsageError(f"cannot read {path}: {exc.strerror}") from exc
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise UsageError(f"{path}:{exc.lineno}:{exc.colno}: invalid JSON: {exc.msg}") from exc


LOG_FORMAT = "[%(asctime)s] %(levelname)s %(name)s: %(message)s"


def configure_logging(options: argparse.Namespace) -> list[logging.Handler]:
    """Console (stderr) and --log-file handlers at --log-level; warnings always reach
    stderr when the console log is off.  Returns the handlers installed on the root
    logger (removed and closed by `run` when the switch stops)."""
    level = LOG_LEVELS[options.log_level]
    formatter = logging.Formatter(LOG_FORMAT)
    console = logging.StreamHandler(sys.stderr)
    console.setLevel(level if options.log_console else logging.WARNING)
    handlers: list[logging.Handler] = [console]
    if options.log_file:
        handlers.append(LogFile(options.log_file, options.log_file_max_size,
                                options.log_file_max_files, options.log_flush))
        handlers[-1].setLevel(level)
    root = logging.getLogger()
    for handler in handlers:
        handler.setFormatter(formatter)
        root.addHandler(handler)
    root.setLevel(min(h.level for h in handlers))
    return handlers


def _start_p4runtime(switch: Switch, address: str, device_id: int,
                     allowed_roles: frozenset[str] | None = None) -> Any:
    try:
        from p4sim.p4runtime.server import P4RuntimeServer
    except ImportError as exc:
        raise UsageError(f"the P4Runtime server is not available ({exc}); "
                         f"use --no-grpc to run without it") from exc
    server = P4RuntimeServer(switch, address, device_id, allowed_roles=allowed_roles)
    server.start()
    if allowed_roles is not None:
        logging.getLogger("p4sim.switch").info(
            "P4Runtime bound to role(s) %s", ", ".join(sorted(allowed_roles)))
    return server


def run(options: argparse.Namespace) -> int:
    """Start everything, print readiness, wait for a signal, shut down in reverse."""
    handlers = configure_logging(options)
    try:
        return _serve(options)
    finally:
        root = logging.getLogger()
        for handler in handlers:
            root.removeHandler(handler)
            handler.close()


def _serve(options: argparse.Namespace) -> int:
    for line in notices(options):
        print(line, file=sys.stderr, flush=True)
    program = load_json(options.program) if options.program else None
    file_ports = dict(options.interface) if options.use_files is not None else {}
    switch = Switch(device_id=options.device_id,
                    ports={} if file_ports else dict(options.interface),
                    cpu_port=options.cpu_port, priority_queues=options.priority_queues,
                    queue_depth=options.queue_depth, queue_rate=options.queue_rate,
                    pcap_dir=options.pcap, dump_packet_data=options.dump_packet_data,
                    drop_port=options.drop_port, common_clock=options.common_clock)
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
    files = PcapFilePorts(switch, file_ports, options.use_files) if file_ports else None
    try:
        if files is not None:
            files.start()
        # simple_switch_grpc opens no Thrift port: the control channel only on request.
        if options.thrift_port is not None:
            control = ControlServer(switch, options.thrift_port)
            control.start()
        if not options.no_grpc:
            grpc_server = _start_p4runtime(switch, options.grpc_server_addr, options.device_id,
                                           options.p4rt_allowed_roles)
        ports = ",".join(f"{p}@{i}" for p, i in sorted((file_ports or switch.ports).items())) or "none"
        grpc = "off" if options.no_grpc else options.grpc_server_addr
        ready = (f"ready: device {options.device_id}, ports {ports}, grpc {grpc}, "
                 f"thrift {control.port if control else 'off'}")
        logging.getLogger("p4sim.switch").info("%s", ready)
        print(f"p4sim-switch {ready}", flush=True)
        while not stop.wait(0.5):
            pass
    finally:
        if grpc_server is not None:
            grpc_server.stop()
        if control is not None:
            control.stop()
        switch.stop()
        if files is not None:
            files.close()
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    options = parse_args(sys.argv[1:] if argv is None else argv)
    if options.version or options.json_version:
        print(version_line() if options.version else json_version_line())
        return 0
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

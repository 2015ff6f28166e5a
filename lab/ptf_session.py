"""``python -m lab.ptf_session --test-dir DIR [PTF ARGS...]``: the fabric PTF suite
against one switch in a private namespace, torn down whatever happens.

Builds build/fabric.json (and its P4Info) with the target's compiler if missing or
older than p4src/; creates namespace ``fb-ptf-<pid>`` with veth pairs ``swpN`` (switch
side) / ``hN`` (test side) for ports 1-4; starts the target's switch on the ``swpN``
side (gRPC on 127.0.0.1:9559 inside, CPU port 255, 8 priority queues); waits until
its gRPC port accepts; runs ptf inside the namespace on the ``hN`` side (extra
arguments go to ptf, e.g. a test name); stops the switch and deletes the namespace.
The programs come from TARGET / SWITCH / P4C (lab/target.py), ptf from $PTF (default:
beside this Python). Logs (switch.log, ptf.log, ptf.pcap) are written to
/tmp/fb-ptf-logs.*: kept, and named, when the session fails or with ``--keep-logs``;
removed after a passing session, so repeated runs leave nothing behind.

Exit status: ptf's own; 1 without root, when the program does not build or the switch
does not come up; 130 on SIGINT / SIGTERM.
"""
from __future__ import annotations

import argparse
import os
import shutil
import signal
import subprocess
import sys
import tempfile
from pathlib import Path
from types import FrameType

from lab.errors import LabError
from lab.namespace import Netns
from lab.process import ManagedProcess
from lab.switch import switch_command
from lab.target import Target

ROOT = Path(__file__).resolve().parents[1]
PORTS = (1, 2, 3, 4)
GRPC_PORT = 9559
CPU_PORT = 255
PRIORITY_QUEUES = 8
READY_TIMEOUT = 60.0
EXIT_INTERRUPTED = 130
PTF_OPTIONS = ("--default-timeout", "3", "--default-negative-timeout", "0.3")


class Interrupted(Exception):
    """SIGINT or SIGTERM arrived: tear down, then exit 130."""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m lab.ptf_session",
                                     description="Run a PTF suite against one switch in a private namespace.")
    parser.add_argument("--test-dir", required=True, help="the PTF test directory (ptf --test-dir)")
    parser.add_argument("--keep-logs", action="store_true",
                        help="keep switch.log, ptf.log and ptf.pcap after a passing session too")
    parser.add_argument("ptf_args", nargs=argparse.REMAINDER, help="passed on to ptf")
    args = parser.parse_args(argv)
    extra = args.ptf_args[1:] if args.ptf_args[:1] == ["--"] else args.ptf_args
    if os.geteuid() != 0:
        print("run.sh needs root (network namespaces, raw sockets)", file=sys.stderr)
        return 1
    for signum in (signal.SIGINT, signal.SIGTERM):
        signal.signal(signum, _interrupt)
    try:
        target = Target.from_environment()
        json_path, p4info_path = ensure_built(target)
        return run_session(target, Path(args.test_dir).resolve(), json_path, p4info_path, extra,
                           keep_logs=args.keep_logs)
    except Interrupted:
        return EXIT_INTERRUPTED
    except LabError as exc:
        print(f"ptf session: {exc}", file=sys.stderr)
        return 1


def _interrupt(signum: int, _frame: FrameType | None) -> None:
    raise Interrupted(signal.Signals(signum).name)


def ensure_built(target: Target) -> tuple[Path, Path]:
    """build/fabric.json and its P4Info, compiled again when missing, empty or older
    than anything under p4src/."""
    json_path, p4info_path = ROOT / "build/fabric.json", ROOT / "build/fabric.p4info.txtpb"
    if _stale(json_path, p4info_path):
        json_path.parent.mkdir(parents=True, exist_ok=True)
        command = [target.require_compiler(), "--arch", "v1model", "-o", str(json_path),
                   "--p4runtime-files", str(p4info_path), str(ROOT / "p4src/fabric.p4")]
        if subprocess.run(command, check=False).returncode != 0:
            raise LabError(f"{' '.join(command)} failed")
    return json_path, p4info_path


def _stale(json_path: Path, p4info_path: Path) -> bool:
    if not all(p.is_file() and p.stat().st_size > 0 for p in (json_path, p4info_path)):
        return True
    built = json_path.stat().st_mtime
    sources = ROOT / "p4src"
    return any(p.stat().st_mtime > built for p in [sources, *sources.rglob("*")])


def run_session(target: Target, test_dir: Path, json_path: Path, p4info_path: Path,
                extra: list[str], keep_logs: bool = False) -> int:
    """Namespace, switch, ptf; the status ptf exits with."""
    switch_binary = target.require_switch()
    ptf = os.environ.get("PTF") or str(Path(sys.executable).with_name("ptf"))
    logs = Path(tempfile.mkdtemp(prefix="fb-ptf-logs."))
    grpc_address = f"127.0.0.1:{GRPC_PORT}"
    with Netns(f"fb-ptf-{os.getpid()}", list(PORTS), switch_prefix="swp", mtu=None) as ns:
        command = switch_command(switch_binary, {p: ns.switch_interface(p) for p in PORTS},
                                 grpc_address=grpc_address, cpu_port=CPU_PORT,
                                 target_options=("--priority-queues", str(PRIORITY_QUEUES)))
        switch = ns.start("switch", command, logs / "switch.log")
        try:
            switch.wait_until(lambda: ns.accepts_tcp(GRPC_PORT, 1.0),
                              f"its gRPC server {grpc_address} accepted", READY_TIMEOUT)
        except LabError as exc:
            print(f"ptf session: {str(exc).splitlines()[0]}", file=sys.stderr)
            print(f"switch did not come up; its log ({logs / 'switch.log'}):", file=sys.stderr)
            print((logs / "switch.log").read_text(errors="replace"), file=sys.stderr)
            return 1
        status = _run_ptf(ns, switch, ptf, test_dir, logs, grpc_address, json_path, p4info_path, extra)
    if status != 0:
        print(f"PTF failed (rc={status}); logs in {logs}", file=sys.stderr)
    elif keep_logs:
        print(f"logs in {logs}", file=sys.stderr)
    else:
        shutil.rmtree(logs, ignore_errors=True)
    return status


def _run_ptf(ns: Netns, switch: ManagedProcess, ptf: str, test_dir: Path, logs: Path,
             grpc_address: str, json_path: Path, p4info_path: Path, extra: list[str]) -> int:
    """ptf in the namespace, where it runs (it writes ptf.log / ptf.pcap there)."""
    ports = [arg for p in PORTS for arg in ("-i", f"{p}@{ns.host_interface(p)}")]
    params = f"grpcaddr='{grpc_address}';p4info='{p4info_path}';config='{json_path}'"
    command = ns.command(ptf, "--test-dir", str(test_dir), *ports, *PTF_OPTIONS,
                         "--test-params", params, *extra)
    process = subprocess.Popen(command, cwd=logs)
    try:
        return process.wait()
    finally:
        if process.poll() is None:  # interrupted: stop ptf before the namespace goes
            process.terminate()
            try:
                process.wait(10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


if __name__ == "__main__":
    sys.exit(main())

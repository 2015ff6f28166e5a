"""Front-end TCP for the mixed case: a bulk sender and receiver on the kernel's own TCP,
run in host namespaces (``python -m control.experiment.tcp_bulk recv|send ...``).

The receiver accepts one connection, reads until the sender shuts its side, then answers
with what it got (8-byte count + SHA-256) and closes. The sender connects, says "sender
ready" (control/experiment/flows.py's go() waits for that line, as for the UEC senders),
sends ``--bytes`` of seeded random data once a line arrives on stdin, and prints one
JSON summary: elapsed from go to the receiver's answer (every byte arrived, not only
queued in the socket), whether count and hash match, and the kernel's retransmission
count (TCP_INFO). Both set TCP_MAXSEG so a segment carries 1200 bytes, as a UEC data
packet does: the links are shaped in packets per second, so equal payloads make the
two transports' packet rates comparable.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import random
import socket
import struct
import sys
import time

MSS = 1200
READY = "tcp receiver ready"
SENDER_READY = "sender ready"
ANSWER = struct.Struct("!Q32s")     # bytes received, their SHA-256
TCP_INFO_TOTAL_RETRANS = 100        # offset of tcpi_total_retrans in Linux struct tcp_info
TCP_INFO_BYTES = 104
CHUNK = 1 << 16


def payload(nbytes: int, seed: int) -> bytes:
    """The bytes a sender with ``seed`` sends (the receiver need not know them)."""
    return random.Random(seed).randbytes(nbytes)


def total_retransmissions(sock: socket.socket) -> int:
    """Segments the kernel retransmitted on ``sock`` (tcpi_total_retrans)."""
    info = sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_INFO, TCP_INFO_BYTES)
    if len(info) < TCP_INFO_BYTES:
        return 0
    return int(struct.unpack_from("I", info, TCP_INFO_TOTAL_RETRANS)[0])


def receive(bind: str, port: int, timeout: float) -> dict[str, object]:
    """Serve one connection; returns its summary."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as server:
        server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        server.setsockopt(socket.IPPROTO_TCP, socket.TCP_MAXSEG, MSS)
        server.bind((bind, port))
        server.listen(1)
        server.settimeout(timeout)
        print(READY, flush=True)
        connection, peer = server.accept()
    digest = hashlib.sha256()
    count = 0
    with connection:
        connection.settimeout(timeout)
        first: float | None = None
        while chunk := connection.recv(CHUNK):
            first = first if first is not None else time.monotonic()
            digest.update(chunk)
            count += len(chunk)
        last = time.monotonic()
        connection.sendall(ANSWER.pack(count, digest.digest()))
    return {"peer": peer[0], "bytes": count, "sha256": digest.hexdigest(),
            "receive_s": (last - first) if first is not None else 0.0}


def send(src: str, dst: str, port: int, nbytes: int, seed: int, timeout: float,
         wait_for_go: bool) -> dict[str, object]:
    """Connect, (wait for go), send, wait for the receiver's answer; returns the summary."""
    data = payload(nbytes, seed)
    expected = hashlib.sha256(data).digest()
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_MAXSEG, MSS)
        sock.bind((src, 0))
        sock.settimeout(timeout)
        sock.connect((dst, port))
        if wait_for_go:
            print(SENDER_READY, flush=True)
            sys.stdin.readline()
        started = time.monotonic()
        sock.sendall(data)
        sock.shutdown(socket.SHUT_WR)
        answer = b""
        while len(answer) < ANSWER.size and (chunk := sock.recv(ANSWER.size - len(answer))):
            answer += chunk
        elapsed = time.monotonic() - started
        retrans = total_retransmissions(sock)
    count, digest = ANSWER.unpack(answer) if len(answer) == ANSWER.size else (0, b"")
    return {"bytes": nbytes, "delivered": count, "complete": count == nbytes and digest == expected,
            "elapsed_s": elapsed, "retransmissions": retrans, "sha256": expected.hex()}


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m control.experiment.tcp_bulk",
                                     description="bulk TCP transfer with a delivery check")
    sub = parser.add_subparsers(dest="role", required=True)
    recv = sub.add_parser("recv", help="accept one connection, answer with count and hash")
    recv.add_argument("--bind", required=True)
    recv.add_argument("--port", type=int, required=True)
    recv.add_argument("--timeout", type=float, default=60.0)
    snd = sub.add_parser("send", help="send --bytes to --dst:--port")
    snd.add_argument("--src", required=True)
    snd.add_argument("--dst", required=True)
    snd.add_argument("--port", type=int, required=True)
    snd.add_argument("--bytes", type=int, required=True)
    snd.add_argument("--seed", type=int, default=1)
    snd.add_argument("--timeout", type=float, default=60.0)
    snd.add_argument("--wait-for-go", action="store_true",
                     help="print 'sender ready' once connected, start on a line on stdin")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        if args.role == "recv":
            summary = receive(args.bind, args.port, args.timeout)
        else:
            if args.bytes < 0:
                print(f"tcp_bulk: --bytes must be >= 0, got {args.bytes}", file=sys.stderr)
                return 2
            summary = send(args.src, args.dst, args.port, args.bytes, args.seed, args.timeout,
                           args.wait_for_go)
    except OSError as exc:   # timeout, refused, reset: said, not a traceback
        print(f"tcp_bulk {args.role}: {exc}", file=sys.stderr, flush=True)
        return 1
    print(json.dumps(summary), flush=True)
    return 0 if args.role == "recv" or summary["complete"] else 1


if __name__ == "__main__":
    sys.exit(main())

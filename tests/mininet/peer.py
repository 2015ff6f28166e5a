"""One end of a UDP or TCP exchange, run inside a Mininet host's namespace.

  peer.py udp-server IP PORT [TIMEOUT]   answer one datagram with its SHA-256
  peer.py udp-client IP PORT [TIMEOUT]   send one datagram, print the reply's check
  peer.py tcp-server IP PORT [TIMEOUT]   read a stream to EOF, answer with its SHA-256
  peer.py tcp-client IP PORT [TIMEOUT]   send PAYLOAD_BYTES, print whether the digest matches
Servers print "listening" once bound, so the test starts the client only then.
Every wait has a deadline; a peer that times out exits non-zero saying so.
"""
import hashlib
import socket
import sys

PAYLOAD_BYTES = 200_000
DATAGRAM = bytes(range(256)) * 4
TIMEOUT = 20.0


def udp_server(ip: str, port: int, timeout: float) -> None:
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        sock.bind((ip, port))
        sock.settimeout(timeout)
        print("listening", flush=True)
        data, peer = sock.recvfrom(65535)
        sock.sendto(hashlib.sha256(data).digest(), peer)
        print(f"served {len(data)} bytes", flush=True)


def udp_client(ip: str, port: int, timeout: float) -> None:
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        sock.settimeout(timeout)
        sock.sendto(DATAGRAM, (ip, port))
        reply, _ = sock.recvfrom(65535)
    print("udp ok" if reply == hashlib.sha256(DATAGRAM).digest() else "udp MISMATCH",
          flush=True)


def tcp_server(ip: str, port: int, timeout: float) -> None:
    with socket.create_server((ip, port)) as listener:
        listener.settimeout(timeout)
        print("listening", flush=True)
        conn, _ = listener.accept()
        with conn:
            conn.settimeout(timeout)
            digest = hashlib.sha256()
            while chunk := conn.recv(65536):
                digest.update(chunk)
            conn.sendall(digest.digest())
    print("served", flush=True)


def tcp_client(ip: str, port: int, timeout: float) -> None:
    payload = bytes(i * 7 % 251 for i in range(PAYLOAD_BYTES))
    with socket.create_connection((ip, port), timeout=timeout) as conn:
        conn.sendall(payload)
        conn.shutdown(socket.SHUT_WR)
        reply = b""
        while chunk := conn.recv(64):
            reply += chunk
    print("tcp ok" if reply == hashlib.sha256(payload).digest() else "tcp MISMATCH",
          flush=True)


MODES = {"udp-server": udp_server, "udp-client": udp_client,
         "tcp-server": tcp_server, "tcp-client": tcp_client}

if __name__ == "__main__":
    try:
        timeout = float(sys.argv[4]) if len(sys.argv) > 4 else TIMEOUT
        MODES[sys.argv[1]](sys.argv[2], int(sys.argv[3]), timeout)
    except OSError as exc:           # timeouts included: say which end, and why
        print(f"{sys.argv[1]} failed: {exc!r}", flush=True)
        sys.exit(1)

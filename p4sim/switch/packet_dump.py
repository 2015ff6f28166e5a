"""--dump-packet-data N: log the first N bytes of every frame a port receives or sends.

BMv2 logs these at level info ("Received packet of length L on port P: <hex>" and
"Sending packet of length L on port P: <hex>").  A PacketDump stands where a port's
pcap writer stands in the switch (and forwards to it when --pcap is given too).
"""

from __future__ import annotations

import logging

from p4sim.switch.pcap import PcapWriter

log = logging.getLogger("p4sim.switch.packets")


class PacketDump:
    """Logs one port's frames of one direction; optionally also writes them to a pcap."""

    def __init__(self, port: int, received: bool, nbytes: int,
                 pcap: PcapWriter | None = None) -> None:
        self.port = port
        self.verb = "Received" if received else "Sending"
        self.nbytes = nbytes
        self.pcap = pcap

    def write(self, frame: bytes, timestamp: float | None = None) -> None:
        if self.pcap is not None:
            self.pcap.write(frame, timestamp)
        log.info("%s packet of length %d on port %d: %s", self.verb, len(frame), self.port,
                 bytes(frame[:self.nbytes]).hex())

    def close(self) -> None:
        if self.pcap is not None:
            self.pcap.close()

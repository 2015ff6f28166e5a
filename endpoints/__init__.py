"""UEC-style endpoints over raw sockets, run inside host network namespaces (root).

- ``python -m endpoints.receiver --bind IP [--port 4793] [--flows N] [--out FILE |
  --out-dir DIR] [--summary JSON] [--timeout S] [--credit-rate B/s]
  [--credit-window B] [--credit-chunk B] [--credit-carrier ack|control]
  [--ack-every N]``: prints ``receiver ready`` once listening; serves any number of
  concurrent flows (PDCs, keyed by sender IP + sender PDC id) with ONE credit budget
  shared by all of them; delivers each flow's bytes in order (``--out``: the one flow;
  ``--out-dir``: ``<sender IP>-<sender PDC id>.bin`` per flow); exits 0 once N flows
  (default 1) were closed, 1 on timeout, 2 on bad arguments or an unusable address.
- ``python -m endpoints.sender --src IP --dst IP (--bytes N [--seed S] | --file F)
  [--ev-mode spray|pin] [--credit on|off] [--wait-for-go] [--summary JSON]
  [--timeout S]``: exits 0 once every byte is acknowledged.

Under congestion (UEC 1.0, NDP/EQDS): the receiver pulls, pacing its senders together
at the rate data arrives (grants are released by arrivals, within a shared window
that halves on trims and shrinks on CE: ``credit_budget``); a NACKed packet is resent
only with credit, like any other, and one trimmed again waits longer each time;
without credit the sender's own congestion window is cut on trims and ECN echoes
(``congestion``). Control traffic is coalesced: one ACK_CC carries the cumulative PSN,
the SACK bitmap and the credit, every ``--ack-every`` packets (16), with each
quarter-window grant, on a timer that waits out a slow flow's pace, or when the sender
asks; control packets are sprayed like the data (on links shaped in packets/s an ACK
costs a data packet's slot). Loss detection waits out spraying's reordering
(``reordering``) and a resend on a guess never makes earlier packets look lost; the
retransmission timer restarts on every ACK of new data, so a deep queue that keeps
delivering is no timeout (RFC 6298 5.3).

Both print their summary (``summary.TransferSummary``) as one JSON line at the end:
bytes, goodput_bps, retransmissions, nacks, fct_s, sha256, complete, and counts
(packets, timeouts, losses, late_arrivals, trimmed, duplicates, control_packets,
ecn_marked, credits, credit_bytes, srtt_s, ...); a receiver's has ``flows``, one
summary per flow.

Packets are built and read by ``wire_formats.uec_datagram`` (PDS fields learnt from
``wire_formats.layers``). Modules: ``protocol`` (SACK bitmap, reorder buffer, send window, credit
balance, RTT: no sockets), ``credit_budget`` (the receiver's shared credit),
``congestion`` and ``reordering`` (the sender's rate and loss allowance),
``rx_flow`` (one PDC at the receiver), ``rawsock`` (the socket), ``sender`` /
``receiver`` (the engines and command lines), ``summary``.
"""

"""UEC-style endpoints over raw sockets, run inside host network namespaces (root).

- ``python -m endpoints.receiver --bind IP [--port 4793] [--out FILE] [--summary JSON]
  [--timeout S] [--credit-rate B/s] [--credit-window B]``: prints ``receiver ready``
  once listening; delivers one flow's bytes in order to ``--out``; exits 0 after the
  sender closed the flow, 1 on timeout, 2 on bad arguments or an unusable address.
- ``python -m endpoints.sender --src IP --dst IP (--bytes N [--seed S] | --file F)
  [--ev-mode spray|pin] [--summary JSON] [--timeout S]``: exits 0 once every byte is
  acknowledged.

Both print their summary (``summary.TransferSummary``) as one JSON line at the end:
bytes, goodput_bps, retransmissions, nacks, fct_s, sha256, complete, and counts
(packets, timeouts, losses, trimmed, ecn_marked, credits, credit_bytes, srtt_s).

Modules: ``wire`` (packets; PDS fields via ``pds_codec``, learnt from
``control.layers``), ``protocol`` (SACK bitmap, reorder buffer, send window, loss
detection, credit pacing and balance, RTO: no sockets), ``rawsock`` (the socket),
``sender`` / ``receiver`` (the engines and command lines), ``summary``.
"""

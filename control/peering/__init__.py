"""Peering between domain controllers: summaries, never switch access (issue 15, item 2).

Each domain's controller publishes a summary of its domain to the controllers of its
peer domains and holds theirs; no controller ever gets another domain's switch
addresses or P4Runtime access. The API is documented in docs/federation-api.md.

- summary.py: ``Summary`` and its parts; ``to_json`` / ``from_json`` (strict: every bad
  field refused with its path and reason, ``SummaryError``)
- int_latency.py: a border's in-domain path latency (p50/p99 hop-latency sums) from the
  domain collector's SQLite store
- build.py: ``build_summary``, a domain's summary from the topology, the policy and
  measured figures
- peers.py: ``PeerTable``, the peers' summaries held with their age and TTL (injectable
  clock)
- server.py: ``PeeringServer``, the HTTP/JSON API on 127.0.0.1
- client.py: ``PeeringClient``, the same API from the other side
- border_choice.py: ``choose_border``, the border for a destination in a partition, by
  latency or by capacity, skipping unhealthy borders
"""

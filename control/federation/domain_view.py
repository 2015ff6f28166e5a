"""What one domain's controller sees of a federated topology.

A domain's controller programs only its own switches, but routes over the whole
topology (its hosts reach the other domains' prefixes through the border the peers'
summaries choose: control/controller/border_routes.py). Its telemetry goes to its own
collector: the view is the topology with that domain's collector in the place of the
top-level one, so the controller's plan (control/controller/program.py) routes to it and
aims reports at it.
"""
from __future__ import annotations

import dataclasses

from control.topology import Topology


def domain_view(topo: Topology, domain: str) -> Topology:
    """``topo`` with ``domain``'s collector as its collector; KeyError for an unknown
    domain (a file without [[domains]] has one, named control.topology.DEFAULT_DOMAIN)."""
    return dataclasses.replace(topo, collector=topo.domain(domain).collector)


__all__ = ["domain_view"]

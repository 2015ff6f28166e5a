"""Federated fabrics: several administrative domains joined at border switches.

What lives here: the units inter-domain links are written in (units.py), the tc
commands that emulate a border link's distance (netem.py), applying them on a launched
border with a rate-only fallback where the kernel lacks netem (border_shaping.py), and
what one domain's controller sees of the topology (domain_view.py), and border failover
measured on a launched fabric (failover.py). The domains themselves are
part of the topology file (control/topology.py: [[domains]], [[interdomain_links]]).
"""

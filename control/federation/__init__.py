"""Federated fabrics: several administrative domains joined at border switches.

What lives here: the units inter-domain links are written in (units.py) and the tc
commands that emulate a border link's distance (netem.py). The domains themselves are
part of the topology file (control/topology.py: [[domains]], [[interdomain_links]]).
"""

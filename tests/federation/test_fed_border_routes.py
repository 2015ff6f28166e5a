"""Routes toward another domain over the chosen border (control/controller/border_routes.py),
on topologies/two_domains.toml: pure functions, no switch."""
from __future__ import annotations

from pathlib import Path

import pytest

from control.controller.border_routes import effective_border, interdomain_ends, parse_end, routes_with_borders
from control.routing import Route, compute_routes
from control.topology import load_topology

ROOT = Path(__file__).resolve().parents[2]
TOPO = load_topology(str(ROOT / "topologies/two_domains.toml"))
# w-leaf1 ports 3, 4 lead to w-bd1, w-bd2; border ports 1: the leaf, 2: the other domain.


def route(routes: list[Route], switch: str, host: str) -> Route:
    (found,) = [r for r in routes if r.switch == switch and r.host.name == host]
    return found


def ports(r: Route) -> list[int]:
    return [hop.port for hop in r.next_hops]


def test_without_a_choice_routes_are_plain_shortest_paths():
    plain = compute_routes(TOPO, frozenset(), TOPO.hosts)
    assert routes_with_borders(TOPO, frozenset(), TOPO.hosts, {}) == plain
    assert ports(route(plain, "w-leaf1", "h3")) == [3, 4]  # both borders: what choice fixes


def test_a_chosen_border_carries_all_of_the_domain_traffic_to_that_destination():
    routes = routes_with_borders(TOPO, frozenset(), TOPO.hosts, {"h3": ["w-bd1:2", "w-bd2:2"]})
    assert ports(route(routes, "w-leaf1", "h3")) == [3]
    assert ports(route(routes, "w-bd2", "h3")) == [1]      # back to the leaf, not across
    assert ports(route(routes, "w-bd1", "h3")) == [2]
    assert ports(route(routes, "w-leaf1", "h4")) == [3, 4]  # h4 has no choice: untouched
    assert ports(route(routes, "w-leaf1", "h1")) == [1]


def test_a_chosen_border_down_here_falls_to_the_next_ranked_one_at_once():
    down = frozenset({("w-bd1", 2)})
    routes = routes_with_borders(TOPO, down, TOPO.hosts, {"h3": ["w-bd1:2", "w-bd2:2"]})
    assert ports(route(routes, "w-leaf1", "h3")) == [4]
    assert ports(route(routes, "w-bd1", "h3")) == [1]
    # The far end down counts too (the link is down).
    assert effective_border(["w-bd1:2", "w-bd2:2"], frozenset({("e-bd1", 2)}),
                            interdomain_ends(TOPO)) == ("w-bd2", 2)


def test_no_ranked_border_up_routes_over_whatever_is_up():
    down = frozenset({("w-bd1", 2)})
    routes = routes_with_borders(TOPO, down, TOPO.hosts, {"h3": ["w-bd1:2"]})
    assert routes == compute_routes(TOPO, down, TOPO.hosts)
    assert ports(route(routes, "w-leaf1", "h3")) == [4]
    assert effective_border([], frozenset(), interdomain_ends(TOPO)) is None


def test_a_link_end_that_is_not_switch_port_is_refused():
    with pytest.raises(ValueError, match="'w-bd1' is not SWITCH:PORT"):
        parse_end("w-bd1")
    assert parse_end("w-bd1:2") == ("w-bd1", 2)

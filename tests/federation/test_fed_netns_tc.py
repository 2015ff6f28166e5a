"""The border link's rate half (tbf) as the real kernel takes it, on a veth in a
namespace. Its delay half needs netem, which a kernel built without
CONFIG_NET_SCH_NETEM refuses; shape_border() then says so with tc's own words."""
from __future__ import annotations

import json
import os
import subprocess

import pytest

from control.federation.netem import border_link_commands, shape_border, tbf_rate_arguments
from control.link_shaping import ShapingError
from lab.namespace import Netns

pytestmark = pytest.mark.netns


def _qdiscs(namespace: str, interface: str) -> list[dict]:
    done = subprocess.run(["tc", "-j", "-n", namespace, "qdisc", "show", "dev", interface],
                          capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


def _has_netem(namespace: str, interface: str) -> bool:
    done = subprocess.run(["tc", "-n", namespace, "qdisc", "replace", "dev", interface, "root",
                           "netem", "delay", "1ms"], capture_output=True, text=True, check=False)
    return done.returncode == 0


def test_the_rate_half_is_what_the_kernel_shapes_with():
    with Netns(f"fd{os.getpid()}-tbf", [1]) as ns:
        argv = ["tc", "-n", ns.name, "qdisc", "replace", "dev", "s1", "root",
                *tbf_rate_arguments(100_000_000, 9216)]
        subprocess.run(argv, capture_output=True, text=True, check=True)
        (tbf,) = [q for q in _qdiscs(ns.name, "s1") if q["kind"] == "tbf"]
        assert tbf["options"]["rate"] == 100_000_000 // 8  # bytes per second
        assert tbf["options"]["burst"] == 50_000


def test_shape_border_applies_both_halves_or_says_which_the_kernel_refused():
    with Netns(f"fd{os.getpid()}-nem", [1]) as ns:
        if _has_netem(ns.name, "s1"):
            shape_border(ns.name, "s1", 5000, 100_000_000, 9216)
            kinds = {q["kind"]: q for q in _qdiscs(ns.name, "s1")}
            assert kinds["netem"]["root"] and kinds["tbf"]["parent"] == "1:1"
            assert kinds["tbf"]["options"]["rate"] == 100_000_000 // 8
        else:
            netem_command = " ".join(border_link_commands("s1", 5000, 100_000_000, 9216, ns.name)[0])
            with pytest.raises(ShapingError) as info:
                shape_border(ns.name, "s1", 5000, 100_000_000, 9216)
            assert netem_command in str(info.value) and "unknown" in str(info.value)

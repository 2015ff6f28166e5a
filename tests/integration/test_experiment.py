"""The leaf-spine experiment end to end (root): a minimal plan, the permutation of long
flows under ECMP and round-robin spraying, on real switches with shaped links."""
from __future__ import annotations

import io
import re

import pytest
from PIL import Image

from control.experiment import minimal_plan, run_experiment

pytestmark = pytest.mark.netns

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def test_minimal_experiment_runs_measures_and_reports(tmp_path, capsys):
    plan = minimal_plan()
    outcome = run_experiment(plan, tmp_path, stream=io.StringIO())

    table = capsys.readouterr().out
    assert "FCT p50" in table and "permutation  round_robin" in table, table
    rows = {row.mode: row for row in outcome.rows}
    assert set(rows) == {"ecmp", "round_robin"}, rows
    for row in rows.values():
        assert row.workload == "permutation"
        assert row.error == "" and row.completed == row.flows == 4, row
        assert row.fct_p50_s is not None and row.fct_p99_s is not None
        assert 0 < row.fct_p50_s <= row.fct_p99_s
        assert row.goodput_mbps > 0 and row.load_mean_pps > 0
        assert len(row.link_packets) == 8      # every directed leaf-spine link carries data
    # Round robin alternates every group's members packet by packet: the leaf-spine links
    # carry the same load to within a few packets, whatever the flows' hashes.
    sprayed = rows["round_robin"]
    assert sprayed.imbalance is not None and sprayed.imbalance <= 1.1, sprayed.link_packets
    for leaf in ("leaf1", "leaf2"):   # a leaf's two uplinks: the members of its groups
        up = [n for link, n in sprayed.link_packets.items() if link.startswith(f"{leaf}:")]
        assert len(up) == 2 and abs(up[0] - up[1]) <= max(4, 0.05 * sum(up)), sprayed.link_packets

    html = outcome.report.read_text()
    assert outcome.report == tmp_path / "report.html"
    images = re.findall(r'<img src="([^"]+)"', html)
    assert {"link-load.png", "fct-cdf.png", "incast.png"} <= set(images), images
    assert any(name.startswith("int-") for name in images), images   # INT from the collector
    for name in images:
        data = (tmp_path / name).read_bytes()
        assert data.startswith(PNG_MAGIC), name
        with Image.open(tmp_path / name) as image:
            image.verify()
            assert image.size[0] > 100 and image.size[1] > 100
    assert "permutation" in html and "round_robin" in html

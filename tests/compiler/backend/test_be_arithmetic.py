"""Arithmetic on the target: widths wrap as P4 says although BMv2 is unbounded."""
from __future__ import annotations

import pytest

from be_programs import compile_body, packet, run


def _assigns(doc: dict) -> list:
    return [p for a in doc["actions"] for p in a["primitives"] if p["op"] == "assign"]


def test_constants_fold_with_wraparound(tmp_path):
    doc = compile_body(tmp_path, "        hdr.h.a = 8w200 + 8w100;\n"
                                 "        hdr.h.c = 3 * 5 + 1;\n"
                                 "        hdr.h.d = (bit<16>) 8w255 << 4;\n")
    values = [p["parameters"][1] for p in _assigns(doc) if p["parameters"][0]["value"][0] == "h"]
    assert values == [{"type": "hexstr", "value": "0x2c"}, {"type": "hexstr", "value": "0x0010"},
                      {"type": "hexstr", "value": "0x0ff0"}]


def test_increment_is_masked_to_the_field_width(tmp_path):
    doc = compile_body(tmp_path, "        hdr.h.a = hdr.h.a + 1;\n")
    (assign,) = [p for p in _assigns(doc) if p["parameters"][0]["value"] == ["h", "a"]]
    expr = assign["parameters"][1]["value"]["value"]
    assert expr["op"] == "&" and expr["right"] == {"type": "hexstr", "value": "0xff"}


@pytest.mark.parametrize("body,before,after", [
    ("hdr.h.a = hdr.h.a + 1;", (0xff, 0, 0, 0), (0x00, 0, 0, 0)),
    ("hdr.h.a = hdr.h.a - hdr.h.b;", (1, 2, 0, 0), (0xff, 2, 0, 0)),
    ("hdr.h.c = hdr.h.c * 3;", (0, 0, 0x8000, 0), (0, 0, 0x8000, 0)),
    ("hdr.h.a = ~hdr.h.a;", (0x0f, 0, 0, 0), (0xf0, 0, 0, 0)),
    ("hdr.h.a = -hdr.h.a;", (1, 0, 0, 0), (0xff, 0, 0, 0)),
    ("hdr.h.c = hdr.h.c << 4;", (0, 0, 0xabcd, 0), (0, 0, 0xbcd0, 0)),
    ("hdr.h.c = hdr.h.c >> hdr.h.a;", (4, 0, 0xabcd, 0), (4, 0, 0x0abc, 0)),
    ("hdr.h.a = hdr.h.a |+| hdr.h.b;", (200, 100, 0, 0), (255, 100, 0, 0)),
    ("hdr.h.a = hdr.h.a |-| hdr.h.b;", (100, 200, 0, 0), (0, 200, 0, 0)),
    ("hdr.h.c = hdr.h.a ++ hdr.h.b;", (0x12, 0x34, 0, 0), (0x12, 0x34, 0x1234, 0)),
    ("hdr.h.a = hdr.h.c[11:4];", (0, 0, 0xabcd, 0), (0xbc, 0, 0xabcd, 0)),
    ("hdr.h.c[7:4] = 4w0x5;", (0, 0, 0xffff, 0), (0, 0, 0xff5f, 0)),
    ("hdr.h.a = (bit<8>) hdr.h.c;", (0, 0, 0x1234, 0), (0x34, 0, 0x1234, 0)),
    ("hdr.h.d = (bit<16>) ((int<16>) hdr.h.c >> 4);", (0, 0, 0x8000, 0), (0, 0, 0x8000, 0xf800)),
    ("hdr.h.c = hdr.h.c / 16; hdr.h.d = hdr.h.d % 16;", (0, 0, 0x1234, 0x1234),
     (0, 0, 0x0123, 0x0004)),
    ("hdr.h.a = hdr.h.a > hdr.h.b ? hdr.h.a : hdr.h.b;", (3, 9, 0, 0), (9, 9, 0, 0)),
    ("bool t = hdr.h.a == 1; hdr.h.b = (bit<8>) (bit<1>) t;", (1, 0, 0, 0), (1, 1, 0, 0)),
])
def test_operator_results_on_the_switch(tmp_path, body, before, after):
    result = run(tmp_path, "        " + body + "\n",
                 f"packet 1 {packet(*before)}\nexpect 2 {packet(*after)}\n")
    assert result.passed, result.report

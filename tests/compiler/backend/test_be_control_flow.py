"""Control flow on the switch: branches in actions, switch statements, hit/miss,
exit/return, inlined functions and controls."""
from __future__ import annotations

from be_programs import packet, run

TABLE = """
    action set_b(bit<8> v) { hdr.h.b = v; }
    action clamp(bit<8> limit) {
        if (hdr.h.a > limit) {
            hdr.h.a = limit;
        } else {
            hdr.h.b = 0x11;
        }
    }
    action bump() { hdr.h.d = hdr.h.d + 1; }
    table t {
        key = { hdr.h.a: exact; }
        actions = { set_b; clamp; bump; }
        default_action = bump();
    }
"""


def test_if_inside_an_action(tmp_path):
    stf = ("add IngressImpl.t hdr.h.a:0x50 IngressImpl.clamp(limit:0x10)\n"
           "add IngressImpl.t hdr.h.a:0x05 IngressImpl.clamp(limit:0x10)\n"
           f"packet 1 {packet(0x50, 0, 0, 0)}\nexpect 2 {packet(0x10, 0, 0, 0)}\n"
           f"packet 1 {packet(0x05, 0, 0, 0)}\nexpect 2 {packet(0x05, 0x11, 0, 0)}\n")
    result = run(tmp_path, "        t.apply();\n", stf, TABLE)
    assert result.passed, result.report


def test_switch_on_action_run_and_hit_miss(tmp_path):
    body = """
        switch (t.apply().action_run) {
            set_b:
            clamp: { hdr.h.c = 1; }
            default: { hdr.h.c = 2; }
        }
        if (u.apply().hit) { hdr.h.d = 0xaaaa; } else { hdr.h.d = 0xbbbb; }
"""
    locals_ = TABLE + """
    table u {
        key = { hdr.h.b: exact; }
        actions = { NoAction; }
    }
"""
    stf = ("add IngressImpl.t hdr.h.a:1 IngressImpl.set_b(v:7)\n"
           "add IngressImpl.u hdr.h.b:7 NoAction()\n"
           f"packet 1 {packet(1, 0, 0, 0)}\nexpect 2 {packet(1, 7, 1, 0xaaaa)}\n"
           f"packet 1 {packet(2, 0, 0, 0)}\nexpect 2 {packet(2, 0, 2, 0xbbbb)}\n")
    result = run(tmp_path, body, stf, locals_)
    assert result.passed, result.report


def test_switch_on_values_and_exit(tmp_path):
    body = """
        switch (hdr.h.a) {
            1: { hdr.h.c = 0x0101; }
            2:
            3: { hdr.h.c = 0x0203; }
            4: { exit; }
            default: { hdr.h.c = 0xffff; }
        }
        hdr.h.d = 0x00dd;
"""
    stf = "".join(f"packet 1 {packet(a, 0, 0, 0)}\nexpect 2 {packet(a, 0, c, d)}\n"
                  for a, c, d in ((1, 0x0101, 0xdd), (3, 0x0203, 0xdd), (4, 0, 0),
                                  (9, 0xffff, 0xdd)))
    result = run(tmp_path, body, stf)
    assert result.passed, result.report


def test_functions_and_nested_control_with_return(tmp_path):
    globals_ = """
bit<8> max8(in bit<8> x, in bit<8> y) {
    if (x > y) { return x; }
    return y;
}

control Tagger(inout h_t h, in bit<16> tag) {
    apply {
        if (h.a == 0) {
            return;
        }
        h.d = tag;
    }
}
"""
    body = """
        if (max8(hdr.h.a, hdr.h.b) == 8w9) {
            hdr.h.c = 0x0909;
        }
        tagger.apply(hdr.h, 16w0x7777);
"""
    stf = (f"packet 1 {packet(9, 3, 0, 0)}\nexpect 2 {packet(9, 3, 0x0909, 0x7777)}\n"
           f"packet 1 {packet(0, 9, 0, 0)}\nexpect 2 {packet(0, 9, 0x0909, 0)}\n"
           f"packet 1 {packet(1, 2, 0, 0)}\nexpect 2 {packet(1, 2, 0, 0x7777)}\n")
    result = run(tmp_path, body, stf, "    Tagger() tagger;\n", globals_)
    assert result.passed, result.report


def test_const_entries_with_priorities_and_ranges(tmp_path):
    locals_ = """
    action set_c(bit<16> v) { hdr.h.c = v; }
    table classify {
        key = { hdr.h.a: ternary; hdr.h.d: range; }
        actions = { set_c; NoAction; }
        const entries = {
            (0x10 &&& 0xf0, 0 .. 99): set_c(1);
            (_, 100 .. 199): set_c(2);
            (_, _): set_c(3);
        }
    }
"""
    stf = "".join(f"packet 1 {packet(a, 0, 0, d)}\nexpect 2 {packet(a, 0, c, d)}\n"
                  for a, d, c in ((0x15, 50, 1), (0x15, 150, 2), (0x25, 50, 3),
                                  (0x25, 150, 2)))
    result = run(tmp_path, "        classify.apply();\n", stf, locals_)
    assert result.passed, result.report


def test_complex_keys_are_computed_into_temporaries(tmp_path):
    locals_ = """
    action mark() { hdr.h.d = 0x1111; }
    table by_sum {
        key = { hdr.h.a + hdr.h.b: exact @name("sum"); hdr.h.c[15:8]: exact @name("hi"); }
        actions = { mark; NoAction; }
        default_action = NoAction();
    }
"""
    stf = ("add IngressImpl.by_sum sum:0x10 hi:0xab IngressImpl.mark()\n"
           f"packet 1 {packet(0x08, 0x08, 0xab00, 0)}\nexpect 2 {packet(8, 8, 0xab00, 0x1111)}\n"
           f"packet 1 {packet(0x08, 0x09, 0xab00, 0)}\nexpect 2 {packet(8, 9, 0xab00, 0)}\n")
    result = run(tmp_path, "        by_sum.apply();\n", stf, locals_)
    assert result.passed, result.report


def test_switch_on_values_inside_an_action(tmp_path):
    locals_ = """
    action pick() {
        switch (hdr.h.a) {
            1: { hdr.h.c = 0x0101; }
            2:
            3: { hdr.h.c = 0x0203; }
            default: { hdr.h.c = 0xffff; }
        }
    }
"""
    stf = "".join(f"packet 1 {packet(a, 0, 0, 0)}\nexpect 2 {packet(a, 0, c, 0)}\n"
                  for a, c in ((1, 0x0101), (2, 0x0203), (7, 0xffff)))
    result = run(tmp_path, "        pick();\n", stf, locals_)
    assert result.passed, result.report

"""bench/adaptive_reaction.py's pure parts: reading fabricctl's weight log and judging
when a member was moved off, how often it flapped and when it came back."""
from datetime import datetime

from bench.adaptive_reaction import (PortReaction, format_mode, HEADER, RunResult,
                                     parse_weight_sets, react, shifted_ports, shifts_of,
                                     transitions, WeightSet)

EQUAL = {("leaf1", "h3", 3): 4, ("leaf1", "h3", 4): 4, ("leaf2", "h5", 3): 4, ("leaf2", "h5", 4): 4}
OFF3 = {**EQUAL, ("leaf1", "h3", 3): 1}


def line(stamp: str, weights: dict) -> str:
    text = ", ".join(f"{sw}->{dest}:{port}={w}" for (sw, dest, port), w in weights.items())
    return f"{stamp} control.controller.fabric INFO adaptive spraying: new weights {text}"


def test_parses_the_weight_lines_and_skips_the_rest():
    lines = ["2026-12-07 22:12:33,119 control.fabricctl INFO fabricctl ready",
             line("2026-12-07 22:12:33,119", EQUAL), line("2026-12-07 22:12:38,675", OFF3)]
    sets = parse_weight_sets(lines)
    assert [s.weights for s in sets] == [EQUAL, OFF3]
    start = datetime(2026, 12, 7, 22, 12, 33).timestamp()
    assert abs(sets[0].at - (start + 0.119)) < 1e-6
    assert abs(sets[1].at - sets[0].at - 5.556) < 1e-6


def test_a_member_is_shifted_when_weighted_below_another_of_its_group():
    assert shifted_ports(EQUAL) == set()
    assert shifted_ports(OFF3) == {("leaf1", 3)}
    # a group of one destination shifted is enough; other switches are independent
    assert shifted_ports({**OFF3, ("leaf1", "h4", 3): 4, ("leaf1", "h4", 4): 4}) == {("leaf1", 3)}


def sets_at(*pairs) -> list[WeightSet]:
    return [WeightSet(t, w) for t, w in pairs]


def test_reaction_flaps_and_return():
    sets = sets_at((0, EQUAL), (12.0, OFF3), (13.0, EQUAL), (14.0, OFF3), (25.0, EQUAL))
    assert transitions(sets, ("leaf1", 3)) == [(12.0, True), (13.0, False), (14.0, True), (25.0, False)]
    r = react(sets, ("leaf1", 3), slow_at=10.0, recover_at=22.0)
    assert r == PortReaction(("leaf1", 3), 2.0, 2, 3.0)


def test_never_moved_and_still_shifted_are_none():
    never = react(sets_at((0, EQUAL)), ("leaf1", 3), 10.0, 22.0)
    assert never.reaction_s is None and never.flaps == 0 and never.return_s is None
    stuck = react(sets_at((0, EQUAL), (11.0, OFF3)), ("leaf1", 3), 10.0, 22.0)
    assert stuck.reaction_s == 1.0 and stuck.return_s is None
    already = react(sets_at((0, EQUAL), (9.0, OFF3), (12.0, EQUAL)), ("leaf1", 3), 10.0, 22.0)
    assert already.reaction_s == 0.0 and already.flaps == 1 and already.return_s == 0.0
    back_before = react(sets_at((0, EQUAL), (11.0, OFF3), (15.0, EQUAL)), ("leaf1", 3), 10.0, 22.0)
    assert back_before.return_s == 0.0 and back_before.flaps == 1
    early = sets_at((0, EQUAL), (5.0, OFF3), (6.0, EQUAL))
    assert shifts_of(early, [("leaf1", 3), ("leaf1", 4)], 0.0, 10.0) == 1
    assert shifts_of(early, [("leaf1", 3)], 10.0, 22.0) == 0


def test_the_table_line_counts_every_slowed_port():
    runs = [RunResult("adaptive", 8, 8, [PortReaction(("leaf1", 3), 1.0, 0, 2.0),
                                         PortReaction(("leaf2", 3), None, 0, None)],
                      wrong=1, early=0, rtts_s=[0.5], fcts_s=[30.0, 40.0], load=3.0)]
    text = format_mode("adaptive", runs)
    assert len(text) <= len(HEADER) + 2
    fields = text.split()
    assert fields[:4] == ["adaptive", "1", "8/8", "1.00s"]
    assert fields[5] == "1"            # never
    assert fields[7] == "2.0"          # 1 s reaction / 0.5 s RTT
    baseline = format_mode("entropy", [RunResult("entropy", 8, 7, fcts_s=[50.0])])
    assert baseline.split()[2] == "7/8" and baseline.split()[3] == "-"

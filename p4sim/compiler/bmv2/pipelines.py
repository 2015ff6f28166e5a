"""pipelines: tables, action profiles and conditionals of ingress and egress."""
from __future__ import annotations

from p4sim.compiler.bmv2.entry import named_entry
from p4sim.compiler.lower import ir


def pipelines(program: ir.ProgramIR) -> list[dict]:
    out = []
    for p in program.pipelines:
        entry = named_entry(p)
        entry.update(init_table=p.init_table,
                     tables=[_table(t) for t in p.tables],
                     action_profiles=[_profile(a) for a in p.action_profiles],
                     conditionals=[_conditional(c) for c in p.conditionals])
        out.append(entry)
    return out


def _table(t: ir.TableIR) -> dict:
    entry = named_entry(t)
    entry.update(key=t.key, match_type=t.match_type, type=t.table_type)
    if t.action_profile:
        entry["action_profile"] = t.action_profile
    entry.update(max_size=t.max_size, with_counters=t.with_counters,
                 support_timeout=t.support_timeout, direct_meters=t.direct_meters,
                 action_ids=[i for _, i in t.actions], actions=[n for n, _ in t.actions],
                 base_default_next=t.base_default_next, next_tables=dict(t.next_tables))
    if t.default_entry is not None:
        entry["default_entry"] = t.default_entry
    if t.entries is not None:
        entry["entries"] = t.entries
    return entry


def _profile(a: ir.ActionProfileIR) -> dict:
    entry: dict = {"name": a.name, "id": a.id, "max_size": a.max_size}
    if a.selector_algo is not None:
        entry["selector"] = {"algo": a.selector_algo, "input": a.selector_input}
    return entry


def _conditional(c: ir.ConditionalIR) -> dict:
    entry = named_entry(c)
    entry.update(expression=c.expression, true_next=c.true_next, false_next=c.false_next)
    return entry

"""Table declarations: keys, action copies, default action, entries, attached
resources (action profiles/selectors, direct counters and meters)."""
from __future__ import annotations

from typing import Any

from p4sim.compiler import ast
from p4sim.compiler.control_plane import (
    ActionProfileInfo, ActionRefInfo, CounterInfo, MatchFieldInfo, MeterInfo, TableInfo)
from p4sim.compiler.errors import CompileError
from p4sim.compiler.lower import ir
from p4sim.compiler.lower import jsonexpr as J
from p4sim.compiler.lower.arguments import bind_arguments
from p4sim.compiler.lower.action_declarations import (
    action_name, action_param_infos, declare_action)
from p4sim.compiler.lower.calls import bind_parameters, call_expression
from p4sim.compiler.lower.context import ExternObj, Lowering, TableObj
from p4sim.compiler.lower.expressions import ExprLowerer
from p4sim.compiler.lower.instances import instantiate
from p4sim.compiler.lower.key_names import key_name as control_plane_key_name
from p4sim.compiler.lower.p4rt_types import p4rt_view
from p4sim.compiler.lower.naming import (
    annotation, cp_annotations, cp_extras, int_arg, string_arg)
from p4sim.compiler.lower.statements import StatementLowerer
from p4sim.compiler.lower.storage import FieldRef, ParamRef
from p4sim.compiler.lower.text import expr_text, source_info
from p4sim.compiler.semantic.scope import DeclBinding, Scope
from p4sim.compiler.semantic.types import BitsT, BoolT, EnumT, ErrorT, P4Type, bit_width
from p4sim.compiler.unparse import unparse

MATCH_KINDS = ("exact", "lpm", "ternary", "range", "optional", "selector")
# the keyset operators an entry may use for each match kind (a mask, a range)
_ENTRY_OPERATORS = {"exact": (), "lpm": ("&&&",), "ternary": ("&&&",), "range": ("..",),
                    "optional": ()}


def lower_action(lw: Lowering, decl: ast.ActionDecl, decl_scope: Scope,
                 bound: tuple[ast.Argument, ...] = (), caller_scope: Scope | None = None,
                 direct_call: bool = False) -> ir.ActionIR:
    """One BMv2 copy of a P4 action: parameters become runtime data, except the
    leading ones ``bound`` to arguments (evaluated in ``caller_scope``). With
    ``direct_call`` the copy runs a direct call from an apply block whose constant
    arguments the synthetic table's default entry supplies: the control plane sees no
    parameters then (see declare_called_action)."""
    scope = decl_scope.child()
    runtime: list[tuple[str, int]] = []
    body = StatementLowerer(lw, scope)
    if bound:
        if len(bound) > len(decl.params):
            raise CompileError(bound[0].span, f"too many arguments for action '{decl.name}'")
        for p, arg in zip(decl.params, bound):
            if not p.direction:
                raise CompileError(arg.span, f"parameter '{p.name}' of action '{decl.name}' "
                                   "cannot be bound in the actions list: it is set by the "
                                   "control plane")
        caller = StatementLowerer(lw, caller_scope or decl_scope)
        caller.out = body.out
        bind_parameters(decl.params[:len(bound)], [a.value for a in bound], caller, scope,
                        f"action '{decl.name}'")
    for p in decl.params[len(bound):]:
        t = body.expr.resolve(p.type)
        if p.direction:
            raise CompileError(p.span, f"parameter '{p.name}' of action '{decl.name}' has a "
                               "direction; actions called from tables take only "
                               "directionless parameters")
        if not isinstance(t, (BitsT, BoolT, EnumT)):
            raise CompileError(p.span, f"action parameter '{p.name}' cannot have type "
                               f"{t.describe()}")
        scope.declare(p.name, ParamRef(len(runtime), t))
        runtime.append((p.name, bit_width(t)))
    lw.action_depth += 1
    try:
        body.callable_body(decl.body.statements)
    finally:
        lw.action_depth -= 1
    name = action_name(decl, decl_scope)
    action = lw.new_action(name, runtime, body.out)
    lw.remember_order("action", name, decl)
    if direct_call:
        declare_action(lw, name, decl, [], from_table=False)
    else:
        declare_action(lw, name, decl,
                       action_param_infos(decl.params[len(bound):], body.expr, lw.cp),
                       from_table=True)
    return action


def _check_same_bound_arguments(default: ast.ActionRef, listed: ast.ActionRef) -> None:
    """The default action repeats the arguments its entry in the actions list binds."""
    for k, bound in enumerate(listed.args):
        given = default.args[k] if k < len(default.args) else None
        if given is None or unparse(given.value) != unparse(bound.value):
            where = given.span if given is not None else default.span
            shown = unparse(given.value) if given is not None else "(missing)"
            raise CompileError(where, f"{shown}: argument of the default action does not "
                               f"match the one the actions list binds: "
                               f"{unparse(bound.value)}")


def find_action(scope: Scope, ref: ast.ActionRef, table: str) -> tuple[ast.ActionDecl, Scope]:
    name = ref.name
    binding = scope.root().lookup(name[1:]) if name.startswith(".") else scope.lookup(name)
    if not isinstance(binding, DeclBinding) or not isinstance(binding.decl, ast.ActionDecl):
        raise CompileError(ref.span, f"unknown action '{name}' in table '{table}'")
    return binding.decl, binding.scope


class TableLowering:
    def __init__(self, lw: Lowering, table: TableObj, pipeline: ir.PipelineIR):
        self.lw = lw
        self.table = table
        self.decl = table.decl
        self.scope: Scope = table.scope
        self.pipeline = pipeline
        self.ex = ExprLowerer(self.scope, call_expression)
        self.props: dict[str, ast.TableProperty] = {}
        for p in self.decl.properties:
            if p.name in self.props:
                raise CompileError(p.span, f"table property '{p.name}' is given twice")
            self.props[p.name] = p
        self.key_prelude: list[ast.Statement] = []
        self.implicit_default: ast.ActionRef | None = None
        self._no_action: ast.ActionDecl | None = None
        # each (non-selector) key's match kind as written and its type, for entries
        self.key_kinds: list[tuple[str, P4Type]] = []

    def build(self) -> tuple[ir.TableIR, list[tuple[ast.Expression, Any]]]:
        """The TableIR and the key expressions that need computing into temporaries
        before the table is applied."""
        name = self.table.name
        keys, match_fields, selector_inputs, temps = self._keys()
        actions, refs, action_ids = self._actions()
        kinds = {k["match_type"] for k in keys}
        match_type = "range" if "range" in kinds else "ternary" if "ternary" in kinds else \
            "lpm" if "lpm" in kinds else "exact"
        t = ir.TableIR(name, self.lw.table_ids.next(), keys, match_type,
                       [(a.name, a.id) for a in actions],
                       source_info=source_info(self.decl, self.decl.name))
        size_prop = self.props.get("size")
        size = self._const(size_prop, "size") if size_prop else None
        entries_prop = self.props.get("entries")
        t.max_size = size if size is not None else (
            len(entries_prop.entries or ()) if entries_prop and entries_prop.is_const else 1024)
        implementation = self._implementation(t, selector_inputs)
        direct = self._direct_resources(t, size or 1024)
        timeout = self.props.get("support_timeout")
        if timeout is not None:
            t.support_timeout = bool(self._const(timeout, "support_timeout", boolean=True))
        const_default = self._default_entry(t, actions, action_ids, implementation)
        if entries_prop is not None:
            t.entries = self._entries(entries_prop, keys, match_fields, action_ids)
            self._check_priorities(entries_prop)
        for a in self.decl.properties:
            if a.name not in ("key", "actions", "default_action", "size", "entries",
                              "implementation", "counters", "meters", "support_timeout",
                              "largest_priority_wins", "priority_delta"):
                self.lw.warn(a.span, f"unknown table property '{a.name}' ignored")
        info = TableInfo(
            name, tuple(match_fields), tuple(refs), size or 1024,
            const_default_action=const_default, implementation=implementation,
            direct_resources=tuple(direct), idle_timeout=t.support_timeout,
            is_const_table=bool(entries_prop and entries_prop.is_const),
            has_initial_entries=entries_prop is not None, **cp_extras(self.decl.annotations))
        self.lw.remember_order("table", name, self.decl)
        self.lw.cp.tables.append(info)
        self.pipeline.tables.append(t)
        return t, temps

    # ------------------------------------------------------------------ keys
    def _keys(self):
        keys, fields, selector, temps = [], [], [], []
        prop = self.props.get("key")
        for i, k in enumerate(prop.key or () if prop else ()):
            kind = k.match_kind
            if kind not in MATCH_KINDS:
                raise CompileError(k.span, f"unknown match kind '{kind}'")
            val = self.ex.lower(k.expr)
            if not isinstance(val.type, (BitsT, BoolT, EnumT, ErrorT)):
                raise CompileError(k.expr.span, "a table key must be a bit<W>, bool, enum or "
                                   "error value")
            if isinstance(val.type, BoolT) and kind in ("lpm", "range"):
                raise CompileError(k.span, f"a bool key cannot be matched by {kind}")
            width = bit_width(val.type)
            cp_width, type_name = p4rt_view(self.lw.cp, val.type)
            name_ann = annotation(k.annotations, "name")
            key_name = string_arg(name_ann) or control_plane_key_name(
                k.expr, lambda e: self.ex.lower(e).type)
            target = self._key_target(k, val)
            if target is None:
                temp = self.lw.layout.scalar("key", val.type)
                temps.append((k.expr, temp))
                target = [temp.header, temp.field]
            if kind == "selector":
                selector.append(J.field(*target))
                continue
            keys.append({"match_type": "ternary" if kind == "optional" else kind,
                         "name": key_name, "target": target, "mask": None})
            self.key_kinds.append((kind, val.type))
            fields.append(MatchFieldInfo(key_name, cp_width, kind, type_name, **cp_extras(
                tuple(a for a in k.annotations if a.name != "name"))))
        return keys, fields, selector, temps

    @staticmethod
    def _key_target(k: ast.KeyElement, val) -> list[str] | None:
        if isinstance(val.ref, FieldRef):
            return [val.ref.header, val.ref.field]
        e = k.expr
        if isinstance(e, ast.MethodCall) and isinstance(e.target, ast.Member) and \
                e.target.member == "isValid" and not e.args:
            j = val.json
            if j and j["value"]["op"] == "d2b" and j["value"]["right"]["type"] == "field":
                return list(j["value"]["right"]["value"])
        return None

    # ------------------------------------------------------------------ actions
    def _actions(self):
        prop = self.props.get("actions")
        if prop is None or prop.actions is None:
            raise CompileError(self.decl.span, f"table '{self.decl.name}' has no actions "
                               "property")
        actions, refs, ids = [], [], {}
        listed = list(prop.actions)
        self.implicit_default = self._implicit_default(listed)
        if self.implicit_default is not None and not any(
                find_action(self.scope, r, self.decl.name)[0] is self._no_action
                for r in listed):
            listed.append(ast.ActionRef(
                ".NoAction", annotations=(ast.Annotation("defaultonly", span=self.decl.span),),
                span=self.decl.span))
        for ref in listed:
            decl, decl_scope = find_action(self.scope, ref, self.decl.name)
            if not decl_scope.prefix:
                self.lw.remember_order("action", action_name(decl, decl_scope), decl,
                                       self.lw.localized_position(self.decl, decl))
            action = lower_action(self.lw, decl, decl_scope, ref.args, self.scope)
            if action.name in ids:
                raise CompileError(ref.span, f"action '{ref.name}' is listed twice")
            ids[action.name] = (action, decl)
            actions.append(action)
            scope = "TABLE_AND_DEFAULT"
            if annotation(ref.annotations, "defaultonly"):
                scope = "DEFAULT_ONLY"
            elif annotation(ref.annotations, "tableonly"):
                scope = "TABLE_ONLY"
            refs.append(ActionRefInfo(action.name, scope, cp_annotations(ref.annotations)))
        return actions, refs, ids

    def _implicit_default(self, listed: list[ast.ActionRef]) -> ast.ActionRef | None:
        """``NoAction()``, the default action of a table that declares none (P4_16 spec,
        "default_action"), as p4c's front end adds it: not const, and NoAction joins the
        table's actions as ``@defaultonly`` when they do not already include it. None
        when the table has a default_action, when the program declares no NoAction, or
        when the table lists NoAction as ``@tableonly`` (it cannot be the default)."""
        self._no_action = None
        if "default_action" in self.props:
            return None
        binding = self.scope.root().lookup("NoAction")
        if not isinstance(binding, DeclBinding) or not isinstance(binding.decl,
                                                                   ast.ActionDecl):
            return None
        self._no_action = binding.decl
        for r in listed:
            if find_action(self.scope, r, self.decl.name)[0] is binding.decl and \
                    annotation(r.annotations, "tableonly"):
                return None
        return ast.ActionRef(".NoAction", has_args=True, span=self.decl.span)

    def _action_data(self, ref: ast.ActionRef, decl: ast.ActionDecl) -> list[str]:
        params = tuple(p for p in decl.params if not p.direction)
        if not ref.has_args and params:
            raise CompileError(ref.span, f"action '{ref.name}' needs arguments here")
        args = ref.args[len(decl.params) - len(params):] if len(ref.args) > len(params) \
            else ref.args
        bound = bind_arguments(params, args, f"action '{ref.name}'", ref.span)
        data = []
        for p, arg in zip(params, bound):
            if arg is None:  # an omitted @optional parameter: the entry needs every value
                raise CompileError(ref.span, f"action '{ref.name}': missing argument "
                                   f"'{p.name}'")
            t = self.ex.resolve(p.type)
            val = self.ex.lower_typed(arg, t)
            if not val.is_const:
                raise CompileError(arg.span, "action arguments here must be constants")
            data.append(J.hex_text(int(val.const), bit_width(t)))
        return data

    def _default_entry(self, t: ir.TableIR, actions, ids, implementation) -> str | None:
        prop = self.props.get("default_action")
        if prop is None:
            ref, is_const = self.implicit_default, False
            if ref is None:
                return None
        elif prop.action is None:
            return None
        else:
            ref, is_const = prop.action, prop.is_const
        decl, decl_scope = find_action(self.scope, ref, self.decl.name)
        name = action_name(decl, decl_scope)
        if name not in ids:
            raise CompileError(ref.span, f"default action '{ref.name}' is not in the actions "
                               f"of table '{self.decl.name}'")
        action, _ = ids[name]
        listed = [r for r in (self.props["actions"].actions or ())
                  if r.name.lstrip(".") == ref.name.lstrip(".")]
        if listed:
            _check_same_bound_arguments(ref, listed[0])
        data = self._action_data(ref, decl)
        if any(annotation(r.annotations, "tableonly") for r in listed):
            raise CompileError(ref.span, f"action '{ref.name}' is @tableonly and cannot be "
                               "the default action")
        if implementation is None:
            t.default_entry = {"action_id": action.id, "action_const": is_const,
                               "action_data": data, "action_entry_const": is_const}
        else:
            # BMv2 JSON has no default entry for a table with an action profile or
            # selector; p4c warns for every such table, as every table has a default
            # action (the implicit NoAction() when none is written). p4c's words:
            self.lw.warn(self.decl.span, f"Target does not support default_action for "
                         f"{self.table.name} (due to action profiles)")
        return name if is_const else None

    # ------------------------------------------------------------------ properties
    def _const(self, prop: ast.TableProperty, what: str, boolean: bool = False):
        if prop.value is None:
            raise CompileError(prop.span, f"table property '{what}' needs a value")
        val = self.ex.lower(prop.value)
        if not val.is_const or isinstance(val.const, bool) != boolean:
            raise CompileError(prop.value.span, f"table property '{what}' must be "
                               f"{'a bool' if boolean else 'an integer'} constant")
        return val.const

    def _instance(self, prop: ast.TableProperty) -> ExternObj:
        if prop.value is None:
            raise CompileError(prop.span, f"table property '{prop.name}' needs a value")
        if isinstance(prop.value, ast.ConstructorCall):
            # An instance constructed in a table property is named by the property's
            # @name, as written, with no control prefix (p4c takes the property's own
            # control-plane name for P4Info and JSON alike: ``@name("ap")
            # implementation = action_profile(...)`` is "ap"; up4's committed P4Info
            # has its in-place direct counter ``acls`` so). Without one P4Runtime has
            # no name for it: p4c refuses the program if asked for P4Info (see
            # ControlPlaneModel.refusals); the JSON names it after table and property.
            named = string_arg(annotation(prop.annotations, "name")) is not None
            if not named:
                self.lw.cp.refusals.append(CompileError(
                    prop.span, f"Table '{self.table.name}' has an anonymous table property "
                    f"'{prop.name}' with no name annotation, which is not supported by "
                    "P4Runtime"))
            decl = ast.Instantiation(f"{self.decl.name}_{prop.name}", prop.value.type,
                                     prop.value.args, annotations=prop.annotations,
                                     span=prop.value.span)
            obj = instantiate(self.lw, decl, self.scope, "" if named else self.scope.prefix)
        else:
            obj = self.ex.lower(prop.value).ref
        if not isinstance(obj, ExternObj):
            raise CompileError(prop.value.span, f"'{expr_text(prop.value)}' is not an extern "
                               "instance")
        return obj

    def _implementation(self, t: ir.TableIR, selector_inputs: list) -> str | None:
        prop = self.props.get("implementation")
        if prop is None:
            if selector_inputs:
                raise CompileError(self.decl.span, "selector keys need an action_selector "
                                   "implementation")
            return None
        obj = self._instance(prop)
        if obj.kind not in ("action_profile", "action_selector"):
            raise CompileError(prop.span, "implementation must be an action_profile or "
                               "action_selector")
        with_selector = obj.kind == "action_selector"
        if with_selector and not selector_inputs:
            raise CompileError(prop.span, "an action_selector needs selector keys")
        if not with_selector and selector_inputs:
            raise CompileError(prop.span, "selector keys need an action_selector")
        profile = obj.info.get("ir")
        if profile is None:
            profile = ir.ActionProfileIR(obj.name, self.lw.profile_ids.next(), obj.info["size"],
                                         obj.info.get("algo"), selector_inputs)
            obj.info["ir"] = profile
            obj.info["tables"] = []
            self.pipeline.action_profiles.append(profile)
        obj.info["tables"].append(t.name)
        t.table_type = "indirect_ws" if with_selector else "indirect"
        t.action_profile = obj.name
        existing = [p for p in self.lw.cp.action_profiles if p.name == obj.name]
        for p in existing:
            self.lw.cp.action_profiles.remove(p)
        self.lw.cp.action_profiles.append(ActionProfileInfo(
            obj.name, tuple(obj.info["tables"]), with_selector, obj.info["size"],
            obj.info.get("max_group_size", 0), **obj.info["extras"]))
        return obj.name

    def _direct_resources(self, t: ir.TableIR, size: int) -> list[str]:
        names = []
        prop = self.props.get("counters")
        if prop is not None:
            obj = self._instance(prop)
            if obj.kind != "direct_counter":
                raise CompileError(prop.span, "counters must be a direct_counter")
            if obj.ir.binding is not None:
                raise CompileError(prop.span, f"direct counter '{obj.name}' is already "
                                   f"attached to table '{obj.ir.binding}'")
            obj.ir.binding = t.name
            obj.ir.id = len(self.lw.program.counters)
            self.lw.program.counters.append(obj.ir)
            t.with_counters = True
            self.lw.cp.counters.append(CounterInfo(obj.name, obj.info["unit"], size,
                                                   direct_table=t.name, **obj.info["extras"]))
            names.append(obj.name)
        prop = self.props.get("meters")
        if prop is not None:
            obj = self._instance(prop)
            if obj.kind != "direct_meter":
                raise CompileError(prop.span, "meters must be a direct_meter")
            obj.ir.binding = t.name
            obj.ir.size = size
            obj.ir.id = len(self.lw.program.meters)
            obj.ir.result_target = obj.info.get("result_target")
            self.lw.program.meters.append(obj.ir)
            t.direct_meters = obj.name
            self.lw.cp.meters.append(MeterInfo(obj.name, obj.info["unit"], size,
                                               direct_table=t.name, **obj.info["extras"]))
            names.append(obj.name)
        return names

    # ------------------------------------------------------------------ entries
    def _entries(self, prop, keys, fields, ids) -> list[dict]:
        out = []
        entries = prop.entries or ()
        for index, entry in enumerate(entries):
            entry_keys = entry.keyset
            if len(entry_keys) == 1 and isinstance(entry_keys[0], ast.ListExpression) \
                    and len(entry_keys[0].elements) == 1:
                entry_keys = entry_keys[0].elements  # { k }: p4c's sample action-two-params
            if len(entry_keys) != len(keys) and not (
                    len(entry_keys) == 1 and isinstance(entry_keys[0], ast.DefaultExpression)):
                raise CompileError(entry.span, f"entry has {len(entry_keys)} key values but "
                                   f"the table has {len(keys)} key(s)")
            keyset = entry_keys if len(entry_keys) == len(keys) else \
                tuple(ast.DontCare(span=entry.span) for _ in keys)
            match_key = [self._match(k, f, e, kind)
                         for k, f, e, kind in zip(keys, fields, keyset, self.key_kinds)]
            decl, decl_scope = find_action(self.scope, entry.action, self.decl.name)
            name = action_name(decl, decl_scope)
            if name not in ids:
                raise CompileError(entry.action.span, f"action '{entry.action.name}' is not "
                                   f"in the actions of table '{self.decl.name}'")
            action, _ = ids[name]
            priority = self._json_priority(entry, index)
            out.append({"source_info": source_info(entry), "match_key": match_key,
                        "action_entry": {"action_id": action.id,
                                         "action_data": self._action_data(entry.action, decl)},
                        "priority": priority})
        return out

    def _check_priorities(self, prop: ast.TableProperty) -> None:
        """Warn as p4c's front end does about written ``priority = N:`` values (P4_16
        spec, "Entries"): an entry without one takes the previous entry's priority less
        ``priority_delta`` (default 1; plus when ``largest_priority_wins = false``), and
        the list should run from the winning priority down; two entries with one
        priority are ambiguous. Only for non-const lists whose first entry has a
        priority: p4c rejects the others (priorities in ``const entries``, a first entry
        without one), and a list with no written priority is ordered by place."""
        entries = prop.entries or ()
        if prop.is_const or not entries or entries[0].priority is None:
            return
        largest_wins = True
        wins_prop = self.props.get("largest_priority_wins")
        if wins_prop is not None:
            largest_wins = bool(self._const(wins_prop, "largest_priority_wins", boolean=True))
        delta_prop = self.props.get("priority_delta")
        delta = self._const(delta_prop, "priority_delta") if delta_prop else 1
        step = -delta if largest_wins else delta
        seen: dict[int, ast.TableEntry] = {}
        previous: tuple[int, ast.TableEntry] | None = None
        current = 0
        for entry in entries:
            if entry.priority is not None:
                current = self.ex.const_int(entry.priority)
            if current in seen:
                self.lw.warn(entry.span, f"entries of table '{self.table.name}' at lines "
                             f"{seen[current].span.line} and {entry.span.line} have the "
                             f"same priority {current}")
            seen.setdefault(current, entry)
            if previous is not None and (current > previous[0] if largest_wins
                                         else current < previous[0]):
                order = "largest" if largest_wins else "smallest"
                self.lw.warn(previous[1].span, f"entries of table '{self.table.name}' are "
                             f"out of priority order: priority {previous[0]} (line "
                             f"{previous[1].span.line}) is listed before priority {current} "
                             f"(line {entry.span.line}), but the {order} priority wins")
            previous = (current, entry)
            current += step

    def _json_priority(self, entry: ast.TableEntry, index: int) -> int:
        """The entry's BMv2 priority (smaller wins), as p4c's BMv2 back end computes it:
        ``@priority(N)`` verbatim, otherwise the entry's 1-based place in the list.
        ``priority = N:`` only checks (p4c's front end) and never reaches the JSON, so on
        BMv2 the listed order decides whatever the written priorities say."""
        if entry.priority is not None:
            self.ex.const_int(entry.priority)
        pinned = annotation(entry.annotations, "priority")
        if pinned is None:
            return index + 1
        value = int_arg(pinned)
        if value is None:
            raise CompileError(pinned.span, "@priority needs one integer constant")
        return value

    def _match(self, key: dict, info: MatchFieldInfo, e: ast.Expression,
               declared: tuple[str, P4Type]) -> dict:
        kind = key["match_type"]
        width = info.bitwidth
        full = (1 << width) - 1
        wildcard = isinstance(e, (ast.DontCare, ast.DefaultExpression))
        written, key_type = declared
        if isinstance(e, ast.Binary) and e.op in ("&&&", "..") and \
                e.op not in _ENTRY_OPERATORS[written]:
            takes = " or ".join(f"'{op}'" for op in _ENTRY_OPERATORS[written])
            article = "a" if written in ("ternary", "range") else "an"
            raise CompileError(e.span, f"an entry for {article} {written} key takes a value"
                               + (f", {takes}" if takes else "") + f" or '_', not '{e.op}'")
        if not wildcard:
            parts = (e.left, e.right) if isinstance(e, ast.Binary) and \
                e.op in ("&&&", "..") else (e,)
            for part in parts:
                self._check_value_type(part, key_type)
        if kind == "exact":
            if wildcard:
                raise CompileError(e.span, "an exact key needs a value")
            return {"match_type": "exact", "key": J.hex_text(self._value(e, width), width)}
        if kind == "lpm":
            if wildcard:
                return {"match_type": "lpm", "key": J.hex_text(0, width), "prefix_length": 0}
            if isinstance(e, ast.Binary) and e.op == "&&&":
                value, mask = self._value(e.left, width), self._value(e.right, width)
                prefix = bin(mask).count("1")
                if mask != (full >> (width - prefix)) << (width - prefix):
                    raise CompileError(e.span, "an lpm mask must be a prefix")
                return {"match_type": "lpm", "key": J.hex_text(value & mask, width),
                        "prefix_length": prefix}
            return {"match_type": "lpm", "key": J.hex_text(self._value(e, width), width),
                    "prefix_length": width}
        if kind == "ternary":
            if wildcard:
                return {"match_type": "ternary", "key": J.hex_text(0, width),
                        "mask": J.hex_text(0, width)}
            if isinstance(e, ast.Binary) and e.op == "&&&":
                value, mask = self._value(e.left, width), self._value(e.right, width)
                return {"match_type": "ternary", "key": J.hex_text(value & mask, width),
                        "mask": J.hex_text(mask, width)}
            return {"match_type": "ternary", "key": J.hex_text(self._value(e, width), width),
                    "mask": J.hex_text(full, width)}
        if kind == "range":
            if wildcard:
                lo, hi = 0, full
            elif isinstance(e, ast.Binary) and e.op == "..":
                lo, hi = self._value(e.left, width), self._value(e.right, width)
            else:
                lo = hi = self._value(e, width)
            return {"match_type": "range", "start": J.hex_text(lo, width),
                    "end": J.hex_text(hi, width)}
        raise CompileError(e.span, f"entries for '{kind}' keys are not supported")

    def _check_value_type(self, e: ast.Expression, key_type: P4Type) -> None:
        """A bool key takes true or false; any other key takes no bool."""
        found = self.ex.lower(e).type
        if isinstance(key_type, BoolT) != isinstance(found, BoolT):
            raise CompileError(e.span, f"entry value of type "
                               f"{found.describe() if found else '?'} for a key of type "
                               f"{key_type.describe()}")

    def _value(self, e: ast.Expression, width: int) -> int:
        return self.ex.key_constant(e, width, "entry key")

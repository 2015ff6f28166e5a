"""The control-plane side of actions: each action listed once in P4Info, with the
parameters a table's entries supply, whether a table uses it or something calls it
directly. Apart from tables and calls so that both can declare actions."""
from __future__ import annotations

from dataclasses import dataclass

from p4sim.compiler import ast
from p4sim.compiler.control_plane import ActionInfo, ActionParamInfo, ControlPlaneModel
from p4sim.compiler.lower.context import Lowering
from p4sim.compiler.lower.expressions import ExprLowerer
from p4sim.compiler.lower.naming import cp_extras, qualified
from p4sim.compiler.lower.p4rt_types import p4rt_view
from p4sim.compiler.semantic.scope import Scope
from p4sim.compiler.semantic.types import BitsT, BoolT, EnumT


def action_name(decl: ast.ActionDecl, decl_scope: Scope) -> str:
    return qualified(decl_scope.prefix, decl.name, decl.annotations)


def action_param_infos(params: tuple[ast.Parameter, ...], expr: ExprLowerer,
                       cp: ControlPlaneModel) -> list[ActionParamInfo]:
    """The P4Info parameters among ``params``; those of types with no P4Runtime
    encoding (p4c rejects them) are left out."""
    out = []
    for p in params:
        t = expr.resolve(p.type)
        if isinstance(t, (BitsT, BoolT, EnumT)):
            width, type_name = p4rt_view(cp, t)
            out.append(ActionParamInfo(p.name, width, type_name,
                                       **cp_extras(p.annotations)))
    return out


def declare_action(lw: Lowering, name: str, decl: ast.ActionDecl,
                   params: list[ActionParamInfo], from_table: bool) -> None:
    """List an action in the control-plane model once, whether a table uses it or it is
    called directly (from an apply block or another action): p4c writes P4Info after
    its front end, which drops only unused actions. When a table uses the action, its
    parameters are the ones the table's entries supply (the table's view wins over a
    direct call's, whichever the lowering meets first)."""
    known = lw.cp_actions.get(name)
    if known is not None and (known.from_table or not from_table):
        return
    info = ActionInfo(name, tuple(params), **cp_extras(decl.annotations))
    if known is not None:
        lw.cp.actions[lw.cp.actions.index(known.info)] = info
    else:
        lw.cp.actions.append(info)
    lw.cp_actions[name] = _DeclaredAction(info, from_table)


@dataclass(frozen=True)
class _DeclaredAction:
    info: ActionInfo
    from_table: bool


def declare_called_action(lw: Lowering, decl: ast.ActionDecl, decl_scope: Scope) -> None:
    """The control-plane side of a direct call of an action. A call from an apply block
    binds every parameter, directional or not, so none is action data and p4c lists
    the action with no parameters (recorded: corpus 025's top-level ``set_port(sm,
    port)``, and the JSON copy p4c makes of ``IngressImpl.add_to`` for its direct call,
    which keeps no runtime data; a table using the action still lists the parameters
    its entries supply, see declare_action). A call from another action lists nothing:
    p4c's front end inlines it and then removes the callee as unused, unless a table or
    an apply block names it too (ONOS int.p4's committed P4Info has no
    ``int_source``, which only ``int_source_dscp`` calls)."""
    if lw.action_depth:
        return
    name = action_name(decl, decl_scope)
    lw.remember_order("action", name, decl)
    declare_action(lw, name, decl, [], from_table=False)

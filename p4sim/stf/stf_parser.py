"""A hand-written parser for STF files (p4c's backends/bmv2 test format).

One line is one statement; ``#`` starts a comment anywhere. Each statement keyword has
its own ``_parse_<keyword>`` method with the accepted form in a ``# BNF:`` comment.
Errors carry file, line and column.
"""
from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from p4sim.stf import commands as c
from p4sim.stf.errors import StfError, StfLocation
from p4sim.stf.values import parse_int

_NAME = r"[A-Za-z_$][\w$.\[\]]*"
_ACTION_TAIL = re.compile(
    r"(?P<action>" + _NAME + r")\s*\((?P<args>[^()]*)\)\s*(?:=\s*(?P<id>\w+))?\s*\Z")
_CHECK_COUNTER = re.compile(
    r"(?P<name>" + _NAME + r")\s*\(\s*(?P<index>[$\w]+)\s*\)\s*"
    r"(?:(?P<type>packets|bytes)\s*(?P<op>==|!=|<=|>=|<|>)\s*(?P<value>\w+))?\s*\Z",
    re.IGNORECASE)
_HEX_DATA = re.compile(r"[0-9a-fA-F]*\Z")
_EXPECT_DATA = re.compile(r"[0-9a-fA-F*]*\$?\Z")


@dataclass(frozen=True)
class _Word:
    text: str
    column: int  # 1-based


class _Line:
    """The words of one statement, with columns, for located errors."""

    def __init__(self, path: str, number: int, text: str) -> None:
        self.path = path
        self.number = number
        self.text = text
        self.words = [_Word(m.group(), m.start() + 1) for m in re.finditer(r"\S+", text)]

    def location(self, column: int = 1) -> StfLocation:
        return StfLocation(self.path, self.number, column)

    def error(self, column: int, message: str) -> StfError:
        return StfError(self.location(column), message)

    def rest_after(self, word_index: int) -> tuple[str, int]:
        """The raw text after word ``word_index`` and the column where it starts."""
        if word_index + 1 >= len(self.words):
            return "", len(self.text) + 1
        start = self.words[word_index + 1].column
        return self.text[start - 1:], start


def parse_stf(text: str, path: str = "<stf>") -> list[c.Command]:
    """Parse a whole STF file; raises StfError at the first bad statement."""
    parser = _StfParser()
    statements: list[c.Command] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = _Line(path, number, raw.split("#", 1)[0].rstrip())
        if line.words:
            statements.append(parser.parse_line(line))
    return statements


def parse_stf_file(path: str) -> list[c.Command]:
    """Read and parse an STF file."""
    with open(path, encoding="utf-8") as handle:
        return parse_stf(handle.read(), path)


class _StfParser:
    def __init__(self) -> None:
        self._handlers: dict[str, Callable[[_Line], c.Command]] = {
            "add": self._parse_add,
            "setdefault": self._parse_setdefault,
            "remove": self._parse_remove,
            "packet": self._parse_packet,
            "expect": self._parse_expect,
            "wait": self._parse_wait,
            "mirroring_add": self._parse_mirroring_add,
            "mirroring_add_mc": self._parse_mirroring_add_mc,
            "mirroring_delete": self._parse_mirroring_delete,
            "mirroring_get": self._parse_mirroring_get,
            "mc_mgrp_create": self._parse_mc_mgrp_create,
            "mc_node_create": self._parse_mc_node_create,
            "mc_node_update": self._parse_mc_node_update,
            "mc_node_associate": self._parse_mc_node_associate,
            "counter_read": self._parse_counter_read,
            "counter_write": self._parse_counter_write,
            "check_counter": self._parse_check_counter,
            "register_read": self._parse_register_read,
            "register_write": self._parse_register_write,
            "register_reset": self._parse_register_reset,
            "meter_set_rates": self._parse_meter_set_rates,
            "meter_array_set_rates": self._parse_meter_array_set_rates,
            "meter_get_rates": self._parse_meter_get_rates,
        }

    def parse_line(self, line: _Line) -> c.Command:
        keyword = line.words[0].text.lower()
        handler = self._handlers.get(keyword)
        if handler is None:
            known = ", ".join(sorted(self._handlers))
            raise line.error(1, f"unknown STF command '{line.words[0].text}' (known: {known})")
        return handler(line)

    # --- helpers -------------------------------------------------------------------

    def _int_word(self, line: _Line, index: int, what: str) -> int:
        if index >= len(line.words):
            raise line.error(len(line.text) + 1, f"missing {what}")
        word = line.words[index]
        try:
            return parse_int(word.text)
        except ValueError as exc:
            raise line.error(word.column, f"bad {what}: {exc}") from None

    def _name_word(self, line: _Line, index: int, what: str) -> str:
        if index >= len(line.words):
            raise line.error(len(line.text) + 1, f"missing {what}")
        word = line.words[index]
        if not re.fullmatch(_NAME, word.text):
            raise line.error(word.column, f"bad {what} '{word.text}'")
        return word.text

    def _exact_arity(self, line: _Line, count: int, usage: str) -> None:
        if len(line.words) < count:
            raise line.error(len(line.text) + 1, f"missing operands: expected '{usage}'")
        if len(line.words) > count:
            raise line.error(line.words[count].column, f"extra operand: expected '{usage}'")

    def _parse_action_args(self, line: _Line, text: str, column: int) -> tuple[tuple[str, int], ...]:
        args: list[tuple[str, int]] = []
        if not text.strip():
            return ()
        offset = 0
        for part in text.split(","):
            part_column = column + offset + (len(part) - len(part.lstrip()))
            offset += len(part) + 1
            name, colon, value = part.strip().partition(":")
            if not colon or not re.fullmatch(r"[A-Za-z_$][\w$]*", name.strip()):
                raise line.error(part_column, f"action argument '{part.strip()}' is not NAME:VALUE")
            try:
                args.append((name.strip(), parse_int(value.strip())))
            except ValueError as exc:
                raise line.error(part_column, f"bad value of argument '{name.strip()}': {exc}") from None
        return tuple(args)

    def _split_action(self, line: _Line, text: str, column: int) -> tuple[str, c.ActionCall, str | None]:
        """Split ``HEAD ACTION(ARGS) [= ID]`` into head text, the action and the ID."""
        match = _ACTION_TAIL.search(text)
        if not match or "(" in text[:match.start()]:
            raise line.error(column, "expected an action call 'ACTION(PARAM:VALUE, ...)' at the end")
        action_column = column + match.start("action")
        args = self._parse_action_args(line, match.group("args"), column + match.start("args"))
        action = c.ActionCall(match.group("action"), args, line.location(action_column))
        return text[:match.start()], action, match.group("id")

    # --- statements ----------------------------------------------------------------

    def _parse_add(self, line: _Line) -> c.Command:
        # BNF: add TABLE [PRIORITY] KEY:VALUE ... ACTION(PARAM:VALUE, ...) [= ID]
        table = self._name_word(line, 1, "table name")
        rest, column = line.rest_after(1)
        head, action, entry_id = self._split_action(line, rest, column)
        head_words = [_Word(m.group(), column + m.start()) for m in re.finditer(r"\S+", head)]
        priority = None
        if head_words and re.fullmatch(r"[0-9]+", head_words[0].text):
            priority = int(head_words[0].text)
            head_words = head_words[1:]
        keys = []
        for word in head_words:
            name, colon, value = word.text.partition(":")
            if not colon or not name or not value:
                raise line.error(word.column, f"table key '{word.text}' is not NAME:VALUE")
            keys.append(c.KeyMatch(name, value, line.location(word.column)))
        return c.AddEntry(table, priority, tuple(keys), action, entry_id, line.location())

    def _parse_setdefault(self, line: _Line) -> c.Command:
        # BNF: setdefault TABLE ACTION(PARAM:VALUE, ...)
        table = self._name_word(line, 1, "table name")
        rest, column = line.rest_after(1)
        head, action, entry_id = self._split_action(line, rest, column)
        if head.strip() or entry_id is not None:
            raise line.error(column, "expected 'setdefault TABLE ACTION(PARAM:VALUE, ...)'")
        return c.SetDefault(table, action, line.location())

    def _parse_remove(self, line: _Line) -> c.Command:
        # BNF: remove all
        if len(line.words) != 2 or line.words[1].text.lower() != "all":
            raise line.error(line.words[0].column, "only 'remove all' is supported")
        return c.RemoveAll(line.location())

    def _parse_packet(self, line: _Line) -> c.Command:
        # BNF: packet PORT HEXDIGITS...
        port = self._int_word(line, 1, "port")
        rest, column = line.rest_after(1)
        data = "".join(rest.split())
        if data and not _HEX_DATA.match(data):
            raise line.error(column, "packet data must be hex digits")
        # As p4c's runner does: no data sends an empty packet, and the digits are
        # taken two at a time, so a trailing lone digit N is the byte 0x0N.
        payload = bytes(int(data[i:i + 2], 16) for i in range(0, len(data), 2))
        return c.SendPacket(port, payload, line.location())

    def _parse_expect(self, line: _Line) -> c.Command:
        # BNF: expect PORT [HEXDIGITS_OR_STARS...] [$]
        port = self._int_word(line, 1, "port")
        rest, column = line.rest_after(1)
        data = "".join(rest.split())
        if not data:
            return c.Expect(port, None, False, line.location())
        if not _EXPECT_DATA.match(data):
            raise line.error(column, "expected packet data must be hex digits or '*', optionally ending in '$'")
        exact = data.endswith("$")
        return c.Expect(port, data.rstrip("$").upper(), exact, line.location())

    def _parse_wait(self, line: _Line) -> c.Command:
        # BNF: wait
        self._exact_arity(line, 1, "wait")
        return c.Wait(line.location())

    def _parse_mirroring_add(self, line: _Line) -> c.Command:
        # BNF: mirroring_add SESSION PORT
        self._exact_arity(line, 3, "mirroring_add SESSION PORT")
        return c.MirroringAdd(self._int_word(line, 1, "session"), self._int_word(line, 2, "port"),
                              None, line.location())

    def _parse_mirroring_add_mc(self, line: _Line) -> c.Command:
        # BNF: mirroring_add_mc SESSION GROUP
        self._exact_arity(line, 3, "mirroring_add_mc SESSION GROUP")
        return c.MirroringAdd(self._int_word(line, 1, "session"), None,
                              self._int_word(line, 2, "multicast group"), line.location())

    def _parse_mirroring_delete(self, line: _Line) -> c.Command:
        # BNF: mirroring_delete SESSION
        self._exact_arity(line, 2, "mirroring_delete SESSION")
        return c.MirroringDelete(self._int_word(line, 1, "session"), line.location())

    def _parse_mirroring_get(self, line: _Line) -> c.Command:
        # BNF: mirroring_get SESSION
        self._exact_arity(line, 2, "mirroring_get SESSION")
        return c.MirroringGet(self._int_word(line, 1, "session"), line.location())

    def _parse_mc_mgrp_create(self, line: _Line) -> c.Command:
        # BNF: mc_mgrp_create GROUP
        self._exact_arity(line, 2, "mc_mgrp_create GROUP")
        return c.McGroupCreate(self._int_word(line, 1, "multicast group"), line.location())

    def _parse_mc_node_create(self, line: _Line) -> c.Command:
        # BNF: mc_node_create RID PORT...
        rid = self._int_word(line, 1, "replication id")
        ports = tuple(self._int_word(line, i, "port") for i in range(2, len(line.words)))
        if not ports:
            raise line.error(len(line.text) + 1, "mc_node_create needs at least one port")
        return c.McNodeCreate(rid, ports, line.location())

    def _parse_mc_node_update(self, line: _Line) -> c.Command:
        # BNF: mc_node_update NODE_HANDLE PORT...
        node = self._int_word(line, 1, "node handle")
        ports = tuple(self._int_word(line, i, "port") for i in range(2, len(line.words)))
        if not ports:
            raise line.error(len(line.text) + 1, "mc_node_update needs at least one port")
        return c.McNodeUpdate(node, ports, line.location())

    def _parse_mc_node_associate(self, line: _Line) -> c.Command:
        # BNF: mc_node_associate GROUP NODE_HANDLE
        self._exact_arity(line, 3, "mc_node_associate GROUP NODE_HANDLE")
        return c.McNodeAssociate(self._int_word(line, 1, "multicast group"),
                                 self._int_word(line, 2, "node handle"), line.location())

    def _parse_counter_read(self, line: _Line) -> c.Command:
        # BNF: counter_read COUNTER INDEX
        self._exact_arity(line, 3, "counter_read COUNTER INDEX")
        return c.CounterRead(self._name_word(line, 1, "counter name"),
                             self._int_word(line, 2, "index"), line.location())

    def _parse_counter_write(self, line: _Line) -> c.Command:
        # BNF: counter_write COUNTER INDEX PACKETS BYTES
        self._exact_arity(line, 5, "counter_write COUNTER INDEX PACKETS BYTES")
        return c.CounterWrite(self._name_word(line, 1, "counter name"),
                              self._int_word(line, 2, "index"), self._int_word(line, 3, "packets"),
                              self._int_word(line, 4, "bytes"), line.location())

    def _parse_check_counter(self, line: _Line) -> c.Command:
        # BNF: check_counter COUNTER(INDEX|ID) [packets|bytes (==|!=|<|<=|>|>=) VALUE]
        rest, column = line.rest_after(0)
        match = _CHECK_COUNTER.match(rest)
        if not match:
            raise line.error(column, "expected 'check_counter COUNTER(INDEX) [packets|bytes OP VALUE]'")
        index_text = match.group("index")
        index: int | str = index_text.lstrip("$")
        if re.fullmatch(r"[0-9]+|0[xX][0-9a-fA-F]+", index_text):
            index = parse_int(index_text)
        count_type, operator, value = "packets", "==", 0
        if match.group("type"):
            count_type, operator = match.group("type").lower(), match.group("op")
            try:
                value = parse_int(match.group("value"))
            except ValueError as exc:
                raise line.error(column + match.start("value"), f"bad counter value: {exc}") from None
        return c.CheckCounter(match.group("name"), index, count_type, operator, value, line.location())

    def _parse_register_read(self, line: _Line) -> c.Command:
        # BNF: register_read REGISTER INDEX
        self._exact_arity(line, 3, "register_read REGISTER INDEX")
        return c.RegisterRead(self._name_word(line, 1, "register name"),
                              self._int_word(line, 2, "index"), line.location())

    def _parse_register_write(self, line: _Line) -> c.Command:
        # BNF: register_write REGISTER INDEX VALUE
        self._exact_arity(line, 4, "register_write REGISTER INDEX VALUE")
        return c.RegisterWrite(self._name_word(line, 1, "register name"),
                               self._int_word(line, 2, "index"), self._int_word(line, 3, "value"),
                               line.location())

    def _parse_register_reset(self, line: _Line) -> c.Command:
        # BNF: register_reset REGISTER
        self._exact_arity(line, 2, "register_reset REGISTER")
        return c.RegisterReset(self._name_word(line, 1, "register name"), line.location())

    def _rates(self, line: _Line, first: int) -> tuple[tuple[float, int], ...]:
        rates: list[tuple[float, int]] = []
        for word in line.words[first:]:
            rate, colon, burst = word.text.partition(":")
            try:
                value = float(rate)
                size = parse_int(burst)
            except ValueError:
                value, size = -1.0, -1
            if not colon or value < 0 or size < 0:
                raise line.error(word.column, f"meter rate '{word.text}' is not RATE:BURST "
                                              "(units per microsecond : units)")
            rates.append((value, size))
        if not rates:
            raise line.error(len(line.text) + 1, "missing RATE:BURST")
        return tuple(rates)

    def _parse_meter_set_rates(self, line: _Line) -> c.Command:
        # BNF: meter_set_rates METER INDEX RATE:BURST...
        return c.MeterSetRates(self._name_word(line, 1, "meter name"),
                               self._int_word(line, 2, "index"), self._rates(line, 3),
                               line.location())

    def _parse_meter_array_set_rates(self, line: _Line) -> c.Command:
        # BNF: meter_array_set_rates METER RATE:BURST...
        return c.MeterSetRates(self._name_word(line, 1, "meter name"), None,
                               self._rates(line, 2), line.location())

    def _parse_meter_get_rates(self, line: _Line) -> c.Command:
        # BNF: meter_get_rates METER INDEX
        self._exact_arity(line, 3, "meter_get_rates METER INDEX")
        return c.MeterGetRates(self._name_word(line, 1, "meter name"),
                               self._int_word(line, 2, "index"), line.location())

"""Register, counter and meter commands: register_read/write/reset,
counter_read/write/reset, meter_set_rates, meter_get_rates.
Meter rates are in units (packets or bytes) per microsecond, as in simple_switch_CLI."""
from __future__ import annotations

from p4sim.switch.cli_commands.errors import CliError
from p4sim.switch.cli_commands.session import Command, Session, at_least, exactly, integer

REGISTER_READ = "register_read <name> [index]"
REGISTER_WRITE = "register_write <name> <index> <value>"
COUNTER_READ = "counter_read <name> <index>"
COUNTER_WRITE = "counter_write <name> <index> <packets> <bytes>"
METER_SET = ("meter_set_rates <name> <index> <rate_1>:<burst_1> <rate_2>:<burst_2> "
             "(rate in units per microsecond)")


def _index(text: str, size: int, kind: str, name: str, usage: str) -> int:
    index = integer(text, "index", usage)
    if not 0 <= index < size:
        raise CliError(f"Invalid {kind} operation (INVALID_INDEX)",
                       f"{kind} {name}: index {index} not in [0, {size})")
    return index


def register_read(s: Session, args: list[str]) -> None:
    at_least(args, 1, REGISTER_READ)
    name = s.info.lookup("register", args[0])
    if len(args) == 1:
        s.note("register index omitted, reading entire array")
        values = s.call("register_read", name=name)
        s.print(f"{args[0]}=", ", ".join(str(v) for v in values))
        return
    exactly(args, 2, REGISTER_READ)
    index = _index(args[1], s.info.registers[name]["size"], "register", name, REGISTER_READ)
    s.print(f"{args[0]}[{index}]=", s.call("register_read", name=name, index=index))


def register_write(s: Session, args: list[str]) -> None:
    exactly(args, 3, REGISTER_WRITE)
    name = s.info.lookup("register", args[0])
    index = _index(args[1], s.info.registers[name]["size"], "register", name, REGISTER_WRITE)
    value = integer(args[2], "value", REGISTER_WRITE)
    s.call("register_write", name=name, index=index, value=value)


def register_reset(s: Session, args: list[str]) -> None:
    exactly(args, 1, "register_reset <name>")
    s.call("register_reset", name=s.info.lookup("register", args[0]))


def counter_read(s: Session, args: list[str]) -> None:
    exactly(args, 2, COUNTER_READ)
    name = s.info.lookup("counter", args[0])
    index = _index(args[1], s.info.counters[name]["size"], "counter", name, COUNTER_READ)
    nbytes, packets = s.call("counter_read", name=name, index=index)
    s.print(f"{args[0]}[{index}]= ({nbytes} bytes, {packets} packets)")


def counter_write(s: Session, args: list[str]) -> None:
    exactly(args, 4, COUNTER_WRITE)
    name = s.info.lookup("counter", args[0])
    index = _index(args[1], s.info.counters[name]["size"], "counter", name, COUNTER_WRITE)
    packets = integer(args[2], "packets", COUNTER_WRITE)
    nbytes = integer(args[3], "bytes", COUNTER_WRITE)
    s.call("counter_write", name=name, index=index, nbytes=nbytes, packets=packets)
    s.print(f"{args[0]}[{index}] has been updated")


def counter_reset(s: Session, args: list[str]) -> None:
    exactly(args, 1, "counter_reset <name>")
    s.call("counter_reset", name=s.info.lookup("counter", args[0]))


def meter_set_rates(s: Session, args: list[str]) -> None:
    at_least(args, 2, METER_SET)
    name = s.info.lookup("meter", args[0])
    meter = s.info.meters[name]
    index = _index(args[1], meter["size"], "meter", name, METER_SET)
    if len(args) - 2 != meter["rate_count"]:
        raise CliError(f"Error: Invalid number of rates, expected {meter['rate_count']} but "
                       f"got {len(args) - 2}", f"usage: {METER_SET}")
    rates = []
    for text in args[2:]:
        rate, sep, burst = text.partition(":")
        try:
            rates.append([float(rate), int(burst)])
        except ValueError:
            raise CliError("Error: Error while parsing rates",
                           f"{text!r} is not RATE:BURST; usage: {METER_SET}") from None
        if not sep:
            raise CliError("Error: Error while parsing rates", f"{text!r} has no ':'")
    s.call("meter_set_rates", name=name, index=index, rates=rates)


def meter_get_rates(s: Session, args: list[str]) -> None:
    usage = "meter_get_rates <name> <index>"
    exactly(args, 2, usage)
    name = s.info.lookup("meter", args[0])
    index = _index(args[1], s.info.meters[name]["size"], "meter", name, usage)
    for number, (rate, burst) in enumerate(s.call("meter_get_rates", name=name, index=index)
                                           or []):
        s.print(f"{number}: info rate = {rate}, burst size = {burst}")


COMMANDS = {
    "register_read": Command(register_read, REGISTER_READ),
    "register_write": Command(register_write, REGISTER_WRITE),
    "register_reset": Command(register_reset, "register_reset <name>"),
    "counter_read": Command(counter_read, COUNTER_READ),
    "counter_write": Command(counter_write, COUNTER_WRITE),
    "counter_reset": Command(counter_reset, "counter_reset <name>"),
    "meter_set_rates": Command(meter_set_rates, METER_SET),
    "meter_get_rates": Command(meter_get_rates, "meter_get_rates <name> <index>"),
}

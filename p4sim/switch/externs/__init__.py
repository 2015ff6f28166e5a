"""Stateful externs of a loaded program: counters, meters, registers, value sets."""

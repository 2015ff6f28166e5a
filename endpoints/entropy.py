"""Which entropy value (EV, the UDP source port switches hash on) each sprayed packet of
a flow carries: a low-discrepancy walk over the EV space instead of independent draws.

Independent uniform draws split N packets over n paths with binomial noise, about
sqrt(N / n) packets per path: on the fabric's crc16 over two uplinks, a median
max/mean of 1.05 for a 219-packet flow and 1.08 for an 80-packet one, 1.12 and 1.18
for one flow in ten (this walk: 1.005 and 1.00, 1.02 and 1.00; 400 flows). A flow's
EVs here are ``EV_LOW | (offset ^ A . gray(i))`` for its i-th packet: ``A`` an
invertible GF(2) matrix and ``offset`` drawn per flow (and again every time the walk
wraps), ``gray`` the reflected Gray code, so that each packet's EV differs from the
one before in one column of ``A``. Every aligned run of
2^j packets is then an affine subspace of the EV space (a coset of the span of A's
first j columns) and every prefix of the walk a union of such runs, one per bit of
its length.

The sender knows neither the switches' hash nor the number of paths. What it relies
on is that a switch's path choice is affine over GF(2) in the EV bits: CRCs, XOR folds
and Toeplitz hashes over a fixed-length key are (the other fields of a 5-tuple add a
constant), and a modulo by a power of two (2, 4 or 8 members) keeps low bits. For
such a hash a coset of a j-dimensional subspace reaches every path equally often once
the hash is onto on it, which a random subspace is with probability at least
1 - (n - 1) / 2^j: an aligned run of 16 packets over two paths is split 8:8 with
probability 15/16, and from the first balanced run's length on a prefix of the flow
deviates by less than that length, however long the flow runs. A full walk (2^14
EVs) is exactly even. Against a hash that is not affine (a modulo by 3, say) the walk
does as well as independent draws.

What it cannot do: for a hash the sender does not know, no sequence of distinct EVs
has a smaller mean square deviation than independent draws. The walk concentrates it:
most flows are split evenly, and the rare flow whose hash is not onto on A's first j
columns (chance about 2^-j) puts its first 2^j-packet runs on one path. Independent
per-flow ``A`` and ``offset`` keep flows from moving in step: two flows on the same
paths are on the same member as often as random choices would be.

UEC leaves the choice of EVs to the sender; REPS (recycling the EVs of packets that
came back unmarked) steers around congestion instead, which this does not attempt.
"""
from __future__ import annotations

import random

EV_LOW = 49152
"""EVs are drawn from the dynamic port range, 0xC000-0xFFFF: the 14 free bits."""
EV_BITS = 14


def random_basis(rng: random.Random, bits: int = EV_BITS) -> list[int]:
    """``bits`` linearly independent vectors of GF(2)^bits in random order (the
    columns of a uniformly random invertible matrix)."""
    columns: list[int] = []
    reduced: dict[int, int] = {}      # leading bit -> basis vector with that leading bit
    while len(columns) < bits:
        candidate = rng.getrandbits(bits)
        residue = candidate
        while residue and (lead := residue.bit_length() - 1) in reduced:
            residue ^= reduced[lead]
        if residue:                   # independent of the columns so far
            reduced[residue.bit_length() - 1] = residue
            columns.append(candidate)
    return columns


class EntropyWalk:
    """EVs, one per ``next()``, for every packet that leaves by the same uplinks: a
    sender's flow (data, retransmissions, its control packets) or a receiver's control
    packets of all its flows, so that they are spread together."""

    def __init__(self, rng: random.Random, low: int = EV_LOW, bits: int = EV_BITS) -> None:
        if bits < 1 or low % (1 << bits) or low + (1 << bits) > 1 << 16:
            raise ValueError(f"EVs {low}.. with {bits} free bits do not fit a 16-bit port "
                             "on an aligned block")
        self._rng = rng
        self._low = low
        self._bits = bits
        self._step = 0
        self._columns: list[int] = []
        self._value = 0
        self._restart()

    def _restart(self) -> None:
        self._columns = random_basis(self._rng, self._bits)
        self._value = self._rng.getrandbits(self._bits)
        self._step = 0

    def next(self) -> int:
        """The next EV: the previous one with the column of the step's lowest set bit
        flipped (Gray code); a fresh walk after 2^bits values."""
        if self._step == 1 << self._bits:
            self._restart()
        if self._step:
            lowest = (self._step & -self._step).bit_length() - 1
            self._value ^= self._columns[lowest]
        self._step += 1
        return self._low | self._value

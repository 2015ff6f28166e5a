"""Transport fuzzer: the endpoints' protocol objects (SendWindow, ReorderBuffer,
CreditBudget, CongestionWindow) driven through a simulated lossy fabric, no sockets.

Each trial: 1-4 flows to one receiver sharing one credit budget, through a queue that
trims data when it is deep, drops some data and some control packets, and delays every
packet randomly (reordering). The senders follow the real sender's rules (credit,
congestion window, NACK hold-off, RACK-style loss detection, timeout, credit request
when stalled). Every flow must finish within a bound (no livelock), deliver exactly
its bytes in order, and the budget must never have more outstanding than its window.

Seeded and bounded, the same trials every run: P4SIM_FUZZ_SEED picks the seed (default
1313, printed), P4SIM_FUZZ_TRIALS how many (default 150, ~2 s). A failure names the seed
and the trial's parameters. (A random seed each run once hid a livelock-looking failure
in ~5% of trials: the simulated receiver never freed a finished flow's unused credit.)
"""
from __future__ import annotations

import heapq
import os
import random
from dataclasses import dataclass, field

from endpoints.congestion import TRIM_DECREASE, CongestionWindow
from endpoints.credit_budget import CreditBudget
from endpoints.protocol import CreditBalance, ReorderBuffer, SendWindow, sacked_indexes

PKT = 100
MAX_TICKS = 60_000


@dataclass
class SimFlow:
    key: int
    packets: int
    window: SendWindow
    credit: CreditBalance
    cwnd: CongestionWindow
    buffer: ReorderBuffer = field(default_factory=ReorderBuffer)
    delivered: list[int] = field(default_factory=list)
    last_credit: int = 0


def run_trial(rng: random.Random) -> str:
    """One trial; returns its description, raises AssertionError on a violation."""
    flows_n = rng.randint(1, 4)
    window = rng.randint(4, 32) * PKT
    trim_at = rng.randint(2, 12)
    data_loss = rng.choice((0.0, 0.01, 0.05))
    control_loss = rng.choice((0.0, 0.01, 0.05))
    max_delay = rng.randint(1, 12)
    service = rng.randint(1, 3)                      # ticks per data packet at the queue
    about = (f"flows={flows_n} window={window} trim_at={trim_at} data_loss={data_loss} "
             f"control_loss={control_loss} max_delay={max_delay} service={service}")
    budget = CreditBudget(rate=1e9, chunk=4 * PKT, window=window, packet=PKT)
    flows = []
    for key in range(flows_n):
        packets = rng.randint(1, 150)
        flows.append(SimFlow(key, packets, SendWindow(packets), CreditBalance(2 * PKT),
                             CongestionWindow(PKT, 8)))
        budget.add(key)
    events: list[tuple[int, int, str, int, int, bool]] = []   # (tick, seq, kind, key, n, flag)
    seq = 0
    acks: dict[int, list[int]] = {}                  # event seq -> its SACKed indexes
    queue_free = 0                                   # tick the queue is next idle

    def push(tick: int, kind: str, key: int, n: int, flag: bool = False) -> None:
        nonlocal seq
        heapq.heappush(events, (tick, seq, kind, key, n, flag))
        seq += 1

    for tick in range(MAX_TICKS):
        for flow in flows:                           # senders
            win = flow.window
            if win.done:
                continue
            win.detect_overtaken(tick, 40)   # the sender's rule (RACK on send times)
            win.expire(tick, 200)
            while (tx := win.peek(tick)) is not None:
                if not flow.cwnd.allows(win.in_flight_packets * PKT, PKT) or \
                        not flow.credit.try_consume(PKT):
                    break
                win.on_sent(tx, tick)
                pending = win.pending_packets * PKT
                if rng.random() < data_loss:
                    continue
                depth = max(queue_free - tick, 0) // service
                if depth >= trim_at:                 # trimmed: the header goes ahead
                    arrival, trimmed = tick + rng.randint(1, max_delay), True
                else:
                    queue_free = max(queue_free, tick) + service
                    arrival, trimmed = queue_free + rng.randint(0, max_delay), False
                push(arrival, "pending", flow.key, pending)     # in the data's header
                push(arrival, "data", flow.key, tx.index, trimmed)
            blocked = win.peek(tick) is not None and flow.credit.available < PKT
            if blocked and tick - flow.last_credit > 300:
                need = win.pending_packets * PKT - flow.credit.available
                push(tick + rng.randint(1, max_delay), "request", flow.key, need)
                flow.last_credit = tick
        while events and events[0][0] <= tick:       # arrivals
            _t, _s, kind, key, n, flag = heapq.heappop(events)
            flow = flows[key]
            if kind == "pending":
                budget.report_pending(key, n)
            elif kind == "request":
                budget.request(key, n)
            elif kind == "data":
                budget.on_arrival(key, PKT, trimmed=flag)
                if flag:
                    if not flow.buffer.has(n) and rng.random() >= control_loss:
                        push(tick + rng.randint(1, max_delay), "nack", key, n)
                    continue
                if flow.buffer.offer(n, b"") == "new":
                    start = flow.buffer.next_expected
                    flow.buffer.pop_in_order()
                    flow.delivered += range(start, flow.buffer.next_expected)
                if rng.random() >= control_loss:
                    base = flow.buffer.next_expected
                    acks[seq] = sacked_indexes(base, flow.buffer.sack())
                    push(tick + rng.randint(1, max_delay), "ack", key, base)
            elif kind == "ack":
                flow.window.on_ack(n, acks.pop(_s, []), tick)
                if flow.window.done:       # its close: the receiver frees what it
                    budget.remove(key)     # granted and the flow never used
            elif kind == "nack":
                if flow.window.on_nack(n, tick, 20):
                    flow.cwnd.on_congestion(tick, 20, TRIM_DECREASE)
            elif kind == "credit":
                flow.credit.grant(n, flow.window.pending_packets * PKT)
                flow.last_credit = tick
        for key, amount in budget.take_grants(float(tick)):
            assert budget.outstanding <= budget.window, about
            if rng.random() >= control_loss:
                push(tick + rng.randint(1, max_delay), "credit", key, amount)
        assert budget.min_window <= budget.window <= budget.max_window, about
        if all(flow.window.done for flow in flows):
            for flow in flows:
                assert flow.delivered == list(range(flow.packets)), about
            return about
    raise AssertionError(f"livelock or stall: not done after {MAX_TICKS} ticks; {about}; "
                         + ", ".join(f"flow {f.key}: {f.window.cumulative}/{f.packets}"
                                     for f in flows))


def test_fuzz_flows_always_finish_in_order_within_the_shared_window():
    seed = int(os.environ.get("P4SIM_FUZZ_SEED", "1313"))
    trials = int(os.environ.get("P4SIM_FUZZ_TRIALS", "150"))
    print(f"P4SIM_FUZZ_SEED={seed} P4SIM_FUZZ_TRIALS={trials}")
    rng = random.Random(seed)
    for trial in range(trials):
        trial_seed = rng.randrange(2**32)
        try:
            run_trial(random.Random(trial_seed))
        except AssertionError as exc:
            raise AssertionError(f"seed {seed}, trial {trial} (trial seed {trial_seed}): "
                                 f"{exc}") from None


def test_a_finished_flows_unused_credit_is_freed_for_the_others():
    # The trial that stalled: four flows, a 16-packet window cut to its floor by trims,
    # and one flow ending with 100 bytes granted that it never used.
    run_trial(random.Random(232071170))

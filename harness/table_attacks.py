"""Attacks on the Tables stream (docs/grpc.md "Table streams"), run by
scripts/slow_peers.py beside the HTTP/2 attacks of harness/attacks.py: many tables held
open, huge records started back to back, and answers never read. Each is
``def attack(target, stop)``, bounded by ``stop`` and by counts; loopback only."""

from __future__ import annotations

import random
import threading
from typing import Callable, Dict, List

import grpc

from handeval.v2 import common_pb2, handeval_pb2_grpc, tables_pb2 as tb, tienlen_pb2 as tl
from harness.attacks import _connections
from harness.deck import DECK
from harness.h2raw import DATA, call_headers, frame, grpc_message

TABLES = "/handeval.v2.Handeval/Tables"

PLAY = common_pb2.ACTION_KIND_PLAY


def start_request(rng: random.Random, name: str, players: int = 4) -> tb.TablesRequest:
    """A start of a random 越式13张 deal (no action yet)."""
    deck = rng.sample(DECK, 52)
    hands = [common_pb2.Cards(cards=deck[13 * i : 13 * i + 13]) for i in range(players)]
    record = tl.TienlenGameRecord(hands=hands)
    return tb.TablesRequest(table=name, start=tb.TableStart(tienlen=tb.TienlenTable(record=record)))


def huge_start(rng: random.Random, name: str, actions: int) -> tb.TablesRequest:
    """A start whose record holds ``actions`` passes of seat 0: past 208 it is refused
    (TOO_LARGE) before any work; below, it is replayed until its first wrong turn."""
    req = start_request(rng, name)
    pass_ = common_pb2.PlayAction(seat=0, kind=common_pb2.ACTION_KIND_PASS)
    req.start.tienlen.record.actions.extend([pass_] * actions)
    return req


def _streams(target: str, channels: int, per_channel: int, feed: Callable[[int], object], stop: threading.Event):
    """``channels`` × ``per_channel`` Tables streams, each sending ``feed(k)``'s requests
    and reading its answers until ``stop``; a stream the server ends is opened again."""

    def run(k: int, ch) -> None:
        stub = handeval_pb2_grpc.HandevalStub(ch)
        for _ in range(1000):  # reopenings of this stream
            if stop.is_set():
                return
            try:
                for _answer in stub.Tables(feed(k), timeout=600):
                    if stop.is_set():
                        return
            except grpc.RpcError:
                stop.wait(0.2)

    chans = [grpc.insecure_channel(target, options=[("grpc.use_local_subchannel_pool", 1)]) for _ in range(channels)]
    threads = [
        threading.Thread(target=run, args=(i * per_channel + j, ch), daemon=True)
        for i, ch in enumerate(chans)
        for j in range(per_channel)
    ]
    for t in threads:
        t.start()
    stop.wait()
    for t in threads:
        t.join(5)
    for ch in chans:
        ch.close()


def attack_table_flood(target: str, stop: threading.Event) -> None:
    """4 connections × 16 streams that start tables (distinct deals) until refused
    (--max-stream-tables, --max-tables, --max-table-streams), then keep them alive with a
    look every second: the most tables the server holds, and their memory."""

    def feed(k: int):
        rng = random.Random(k)
        for i in range(5000):
            if stop.is_set():
                return
            yield start_request(rng, f"s{k}t{i}")
        while not stop.wait(1.0):
            yield tb.TablesRequest(table=f"s{k}t0", look=tb.TableLook())

    _streams(target, 4, 16, feed, stop)


def attack_table_huge_records(target: str, stop: threading.Event) -> None:
    """2 connections × 4 streams starting records of 10,000 actions (refused before any
    work) and of 200 (replayed to their first wrong turn), back to back."""

    def feed(k: int):
        rng = random.Random(k)
        for i in range(100_000):
            if stop.is_set():
                return
            yield huge_start(rng, f"h{k}", 10_000 if i % 2 else 200)

    _streams(target, 2, 4, feed, stop)


def attack_table_unread_answers(target: str, stop: threading.Event) -> None:
    """8 connections from the attacker's address announcing a window of 0 (no answer byte
    may be sent to them), each opening 16 Tables streams that start tables and never read
    an answer; closed connections are opened again."""
    rng = random.Random(7)
    starts = [grpc_message(start_request(rng, f"u{i}").SerializeToString()) for i in range(64)]
    conns: List = []
    opened = 0
    while not stop.is_set() and opened < 10_000:
        conns = [c for c in conns if not c.closed.is_set() or c.close()]
        for c in _connections(target, 8 - len(conns), window=0):
            out = bytearray()
            for _ in range(16):
                s = c.next_stream
                c.next_stream += 2
                out += call_headers(s, TABLES, c.authority)
                for m in starts[:8]:
                    out += frame(DATA, 0, s, m)
            c.send(bytes(out))
            conns.append(c)
            opened += 1
        stop.wait(1.0)
    for c in conns:
        c.close()


#: The table-stream attacks, by name (scripts/slow_peers.py runs them after its own).
TABLE_ATTACKS: Dict[str, Callable[[str, threading.Event], None]] = {
    "table_flood": attack_table_flood,
    "table_huge_records": attack_table_huge_records,
    "table_unread_answers": attack_table_unread_answers,
}

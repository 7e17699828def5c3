"""The bytes of a played table's steps (``handeval.load.play``), both ways: as unary
Evaluate record items and Settle (``*.record``), or as messages of one Tables stream
(``*.stream``); and every answer checked: a state to play on, a settlement, or
``Unplayable`` with the reason (an item error with its reason and field, a closed table,
an answer for another table). ``None`` is the floor server's answer (empty, or the
request echoed): the table then plays blind."""

from __future__ import annotations

from typing import Tuple

from handeval.load.play import BASE, Step, Table, Unplayable

#: The method of the stream.
TABLES = "Tables"


def _pb():
    from handeval.v2 import common_pb2, dachu_pb2, handeval_pb2, tables_pb2, tienlen_pb2

    return common_pb2, handeval_pb2, tienlen_pb2, dachu_pb2, tables_pb2


def _item_error(e, where: str) -> Unplayable:
    common = _pb()[0]
    return Unplayable(f"ITEM_ERROR {common.ErrorReason.Name(e.reason)}", f"{where}{e.field}: {e.message}")


class RecordWire:
    """One table's steps as unary calls: the whole record in an Evaluate ``game`` item with
    the step's ``viewer`` and ``suggest``; at the end Settle with the record. The request
    message is kept and the table's record lives inside it, so a step serialises it once
    and copies nothing."""

    def __init__(self, table: Table):
        _, pb, tl, dc, _ = _pb()
        self.table, self.game = table, table.game
        if table.game == "tienlen":
            self.request = pb.EvaluateRequest(
                tienlen=tl.TienlenEvaluateRequest(items=[tl.TienlenEvaluateItem(game=table.record)])
            )
        else:
            self.request = pb.EvaluateRequest(
                dachu=dc.DachuEvaluateRequest(items=[dc.DachuEvaluateItem(game=table.record)])
            )
        table.record = self.record = getattr(self.request, self.game).items[0].game

    def encode(self, step: Step) -> Tuple[str, bytes]:
        """The step's method and request."""
        _, pb, tl, dc, _ = _pb()
        rec = self.record
        if step.kind == "settle":
            rec.ClearField("viewer")
            rec.ClearField("suggest")
            deal = (tl.TienlenDeal if self.game == "tienlen" else dc.DachuDeal)(record=rec, base=BASE)
            req = (
                pb.SettleRequest(tienlen=tl.TienlenSettleRequest(deals=[deal]))
                if self.game == "tienlen"
                else pb.SettleRequest(dachu=dc.DachuSettleRequest(deals=[deal]))
            )
            return "Settle", req.SerializeToString()
        rec.viewer = step.viewer
        q = self.table.suggest(step.viewer)
        if q is None:
            rec.ClearField("suggest")
        else:
            rec.suggest.CopyFrom(q)
        return "Evaluate", self.request.SerializeToString()

    def decode(self, rpc: str, raw: bytes):
        """The answer's state (Evaluate) or settlement (Settle); None from the floor."""
        pb = _pb()[1]
        msg = getattr(pb, f"{rpc}Response").FromString(raw)
        if msg.WhichOneof("game") is None:
            return None
        results = getattr(msg, self.game).results
        if len(results) != 1:
            raise Unplayable("BAD_ANSWER", f"{len(results)} results for one item")
        r = results[0]
        kind = r.WhichOneof("result")
        if kind == "error":
            raise _item_error(r.error, "")
        want = "game" if rpc == "Evaluate" else "settlement"
        if kind != want:
            raise Unplayable("BAD_ANSWER", f"{rpc} answered {kind}, not {want}")
        return getattr(r, kind)


class StreamWire:
    """The steps of the tables of one Tables stream, each named ``name``: a start (the
    record as it is), one action (with ``at``: the actions before it), a look, a
    TableSettle; ``viewer`` and ``suggest`` on each state step."""

    def encode(self, name: str, table: Table, step: Step) -> bytes:
        _, _, tl, dc, tb = _pb()
        req = tb.TablesRequest(table=name)
        if step.kind == "settle":
            req.settle.base = BASE
            return req.SerializeToString()
        if step.kind == "start":
            if table.game == "tienlen":
                req.start.tienlen.CopyFrom(tb.TienlenTable(record=table.record))
            else:
                req.start.dachu.CopyFrom(tb.DachuTable(record=table.record))
        elif step.kind == "action":
            req.action.at = step.at
            getattr(req.action, step.field).CopyFrom(step.action)
        else:
            req.look.SetInParent()
        req.viewer = step.viewer
        q = table.suggest(step.viewer)
        if q is not None:
            req.suggest.CopyFrom(q)
        return req.SerializeToString()

    def decode(self, name: str, table: Table, raw: bytes, sent: bytes):
        """The state or settlement the stream answered for table ``name``; None when the
        answer is the request echoed (the floor server)."""
        if raw == sent:
            return None
        tb = _pb()[4]
        msg = tb.TablesResponse.FromString(raw)
        if msg.table != name:
            raise Unplayable("OTHER_TABLE", f"answer for {msg.table!r}, not {name!r}")
        kind = msg.WhichOneof("answer")
        if kind == "error":
            raise _item_error(msg.error, f"table {name}: ")
        if kind == "closed":
            raise Unplayable(f"TABLE_CLOSED {tb.TableClosedReason.Name(msg.closed.reason)}", msg.closed.message)
        if kind in (table.game, f"{table.game}_settlement"):
            return getattr(msg, kind)
        raise Unplayable("BAD_ANSWER", f"table {name}: answered {kind}")

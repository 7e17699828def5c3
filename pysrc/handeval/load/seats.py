"""Who decides next at a played table (``handeval.load.play``): the guess a game server
makes of the seat whose view to ask with the action it appends.

A step sends one action and asks one seat's view (``viewer``) of the state it leads to,
so the game server names that seat before the answer comes: it guesses from the public
facts of the answer before (the seats that passed, the cards each holds, the seats out)
by the turn order of the rule book. The answer's public ``to_move`` (打儲: the calling's
``turn``) says whether the guess was right; when not, the table asks the right seat's
view (a look) before it acts, so a wrong guess costs a request and never a wrong move.
The rules stay the service's: these functions only save requests.
"""

from __future__ import annotations

from typing import Iterable, Optional, Sequence


def after(seat: int, seats: Iterable[int], n: int) -> Optional[int]:
    """The first of ``seats`` clockwise after ``seat`` (``seat`` itself last), or None."""
    pool = set(seats)
    for k in range(1, n + 1):
        s = (seat + k) % n
        if s in pool:
            return s
    return None


def tienlen_next(seat: int, played: int, passed: Sequence[int], counts: Sequence[int]) -> Optional[int]:
    """越式13张: the seat to move after ``seat`` played ``played`` cards (0: passed), from
    the state the action was chosen in (``passed``: the seats out of the trick,
    ``counts``: the cards each held). None when the play ends the game (a seat out)."""
    n = len(counts)
    if played and counts[seat] - played <= 0:
        return None
    out = set(passed) | ({seat} if not played else set())
    still = [s for s in range(n) if s not in out]
    if len(still) == 1:  # every other seat passed: the trick's winner leads again
        return still[0]
    return after(seat, still, n)


def dachu_play_next(
    seat: int, played: int, passed: Sequence[int], counts: Sequence[int], playing: Sequence[int], table_seat
) -> Optional[int]:
    """打儲's play: the seat to move after ``seat`` played ``played`` cards (0: passed).
    A play reopens the trick to every seat still in (``passed`` holds the passes since
    the last play); when every other seat in has passed, the last player leads (or the
    next seat in when it went out)."""
    n = len(counts)
    left = [counts[s] - (played if s == seat else 0) for s in range(n)]
    inside = [s for s in playing if left[s] > 0]
    if len(inside) <= 1:
        return None
    if played:
        return after(seat, inside, n)
    out = set(passed) | {seat}
    waiting = [s for s in inside if s not in out and s != table_seat]
    if not waiting:
        return table_seat if table_seat in inside else after(table_seat, inside, n)
    return after(seat, [s for s in inside if s not in out], n)


def dachu_call_next(seat: int, chu_side: Sequence[int], surrendered: Sequence[int] = ()) -> int:
    """打儲's calling: the seat to call after ``seat``. A side calls in turn between its
    seats (those that did not surrender), so the guess is ``seat``'s partner; a seat
    alone on its side hands the turn to the other side."""
    mine = set(chu_side) if seat in chu_side else set(range(4)) - set(chu_side)
    mates = [s for s in mine if s != seat and s not in surrendered]
    if mates:
        return after(seat, mates, 4) or mates[0]
    return after(seat, set(range(4)) - mine - set(surrendered), 4) or (seat + 1) % 4

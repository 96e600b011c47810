"""The largest table a replay works out: a bound on its work, checked before any of it.

A replay values every hand on tens of thousands of deals per street, and a hand of h hole
cards and a river has ``fives_valued(h)`` fives (3,003 for ten cards, 6,188 for twelve): past a
bound the time and memory run away (twelve cards each took minutes and gigabytes). The work
of one deal is the variant's own measure (``Variant.work``); wild cards, which make each five
try its values, count it twice. A table past the bound is refused in words; ``showdown`` still
orders it.

>>> from companion.engine.cards import parse_cards
>>> from companion.engine.gang.table import Player, Table
>>> deck = parse_cards("As Ks Qs Js Ts 9s 8s 7s 6s 5s 4s 3s 2s Ah Kh Qh Jh Th 9h 8h 7h 6h 5h 4h")
>>> board = parse_cards("2c 3c 4c 5c 6c")
>>> check_replayable(Table((Player("Ana", deck[:10]), Player("Bob", deck[10:20])), board))
>>> try:
...     check_replayable(Table((Player("Ana", deck[:12]), Player("Bob", deck[12:24])), board))
... except TableError as error:
...     print(error.message("en")[:60])
this table is too large to replay: Ana holds 12 cards, and i
"""

from __future__ import annotations

from companion.engine.gang.replay.deals import table_groups
from companion.engine.gang.table import Table
from companion.engine.gang.variants import variant_of
from companion.errors import TableError

__all__ = ["MAX_REPLAY_WORK", "replay_work", "check_replayable"]

MAX_REPLAY_WORK = 6_500  # fives per deal: two hands of ten cards, or five of eight


def replay_work(table: Table) -> int:
    """The fives one deal of ``table`` values (``Variant.work``), twice that with wild cards."""
    wild = any(card.is_wild for cards in table_groups(table).values() for card in cards)
    return variant_of(table).work(table) * (2 if wild else 1)


def check_replayable(table: Table) -> None:
    """Refuse, in words, a table whose replay would pass ``MAX_REPLAY_WORK``."""
    work = replay_work(table)
    if work > MAX_REPLAY_WORK:
        largest = max(table.players, key=lambda p: len(p.cards))
        raise TableError(
            "replay.too_large",
            name=largest.name,
            n=len(largest.cards),
            times=round(work / MAX_REPLAY_WORK, 1),
        )

"""The replay's bound (#44): tables past it are refused before any work, in words naming the
largest hand; tables within it are replayed (their time and memory: benchmarks/adversarial.py)."""

from __future__ import annotations

import pytest

from companion.engine.cards import DECK, parse_cards
from companion.engine.gang.replay.limits import MAX_REPLAY_WORK, check_replayable, replay_work
from companion.engine.gang.replay.odds import Settings, replay_table, street_odds
from companion.engine.gang.replay.records import Street
from companion.engine.gang.table import Player, Table
from companion.errors import TableError

BOARD = parse_cards("2c 3c 4c 5c 6c")
FREE = [card for card in DECK if card not in BOARD]


def _dealt(*sizes: int) -> Table:
    players, at = [], 0
    for i, size in enumerate(sizes):
        players.append(Player(f"P{i}", tuple(FREE[at : at + size])))
        at += size
    return Table(tuple(players), BOARD)


def _wild(players: int, each: int, variant: str = "classic") -> Table:
    hands = tuple(Player(f"P{i}", parse_cards(" ".join(["*"] * each))) for i in range(players))
    return Table(hands, BOARD, variant=variant)


@pytest.mark.parametrize(
    ("table", "accepted"),
    [
        (_dealt(2, 2, 2, 2), True),
        (_dealt(10, 10), True),
        (_dealt(10, 11), False),
        (_dealt(8, 8, 8, 8, 8), True),
        (_dealt(8, 8, 8, 8, 8, 5), False),
        (_dealt(22, 22), False),
        (_wild(5, 6), True),
        (_wild(10, 3), True),
        (_wild(2, 8), True),
        (_wild(2, 10), False),
        (_wild(10, 4, "high-low"), True),
    ],
)
def test_the_bound_takes_the_hands_sizes_and_wild_cards(table: Table, accepted: bool) -> None:
    assert (replay_work(table) <= MAX_REPLAY_WORK) is accepted
    if accepted:
        check_replayable(table)
    else:
        with pytest.raises(TableError, match="too large to replay: P[01] holds"):
            check_replayable(table)


def test_a_table_past_the_bound_is_refused_before_any_replay() -> None:
    with pytest.raises(TableError, match="P0 holds 22 cards") as refused:
        replay_table(_dealt(22, 22), settings=Settings(samples=100))
    assert "showdown" in refused.value.message("en")
    assert "showdown" in refused.value.message("fr")
    # The app's replay screen asks street by street: each street refuses it too.
    with pytest.raises(TableError, match="too large to replay"):
        street_odds(_dealt(22, 22), Street.RIVER, Settings(samples=100))

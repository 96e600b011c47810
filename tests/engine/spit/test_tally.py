"""Speed's match (Spit, "Vitesse", issue #43): a point per card the loser still holds, to a
target score; and Speed's two deals, against the engine's own deal."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.engine.cards import DECK
from companion.engine.spit.state import VARIANTS, start_state
from companion.engine.spit.tally import MAX_TARGET, SpeedTally, speed_deal
from companion.errors import TableError

SPEED = VARIANTS["speed"]


@pytest.mark.parametrize(("name", "cards", "side"), [("speed", 15, 10), ("speed-20", 20, 5)])
def test_the_deal_is_the_one_start_state_lays_out(name: str, cards: int, side: int) -> None:
    rules = VARIANTS[name]
    deal = speed_deal(rules)
    assert (deal.cards, deal.side) == (cards, side)
    state = start_state(rules, DECK)
    for player in state.players:
        assert sum(len(s.cards) for s in player.stocks) == deal.hand
        assert len(player.spit) == deal.draw
    # Each side pile: the side cards and the centre card the first spit turns up.
    assert [len(pile) for pile in state.side_piles] == [deal.side + 1] * 2


@given(
    st.integers(1, 60),
    st.lists(st.tuples(st.integers(0, 1), st.integers(1, 15)), max_size=12),
)
def test_totals_and_champion_follow_the_games_one_by_one(
    target: int, games: list[tuple[int, int]]
) -> None:
    tally = SpeedTally(target)
    scores = [0, 0]
    for winner, points in games:
        if max(scores) >= target:  # plain: the match ended at the first score past the target
            with pytest.raises(TableError):
                tally.scored(winner, points, SPEED)
            break
        tally = tally.scored(winner, points, SPEED)
        scores[winner] += points
        assert tally.totals == (scores[0], scores[1])
        reached = [p for p in (0, 1) if scores[p] >= target]
        assert tally.champion == (reached[0] if reached else None)
    assert tally.undone().games == tally.games[:-1]
    assert tally.restarted() == SpeedTally(target)


@pytest.mark.parametrize(
    ("winner", "points", "rules", "code"),
    [
        (0, 0, SPEED, "spit.tally_points"),  # the loser holds at least one card
        (0, 16, SPEED, "spit.tally_points"),  # and at most the 15 dealt
        (1, 21, VARIANTS["speed-20"], "spit.tally_points"),
        (2, 5, SPEED, "spit.no_such_player"),
        (0, 5, VARIANTS["classic"], "spit.tally_not_speed"),
    ],
)
def test_impossible_games_are_refused(winner: int, points: int, rules: object, code: str) -> None:
    with pytest.raises(TableError) as caught:
        SpeedTally().scored(winner, points, rules)  # type: ignore[arg-type]
    assert caught.value.code == code
    assert caught.value.message("en") and caught.value.message("fr")


def test_twenty_cards_each_score_up_to_twenty() -> None:
    assert SpeedTally().scored(1, 20, VARIANTS["speed-20"]).totals == (0, 20)


def test_the_target_is_a_whole_number_in_range() -> None:
    assert SpeedTally().with_target(25).target == 25
    for bad in (0, MAX_TARGET + 1):
        with pytest.raises(TableError):
            SpeedTally().with_target(bad)
    over = SpeedTally(10).scored(0, 10, SPEED)
    with pytest.raises(TableError) as caught:
        over.scored(1, 3, SPEED)
    assert "player 1" in caught.value.message("en")

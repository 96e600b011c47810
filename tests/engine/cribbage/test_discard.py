from __future__ import annotations

from fractions import Fraction
from itertools import combinations

import pytest

from companion.engine.cards import DECK, Card
from companion.engine.cribbage.discard import advise_discard
from companion.engine.cribbage.score import score_show
from companion.errors import DuplicateCardError, TableError
from tests.helpers import cards

DEAL = "5c 5d Jh Qs 4c 9h"


def brute_hand(keep: tuple[Card, ...], dealt: tuple[Card, ...]) -> Fraction:
    unseen = [card for card in DECK if card not in dealt]
    return Fraction(sum(score_show(keep, starter).total for starter in unseen), len(unseen))


def brute_crib(discard: tuple[Card, ...], dealt: tuple[Card, ...]) -> Fraction:
    unseen = [card for card in DECK if card not in dealt]
    total = count = 0
    for theirs in combinations(unseen, 2):
        for starter in unseen:
            if starter not in theirs:
                total += score_show((*discard, *theirs), starter, crib=True).total
                count += 1
    assert count == 1035 * 44
    return Fraction(total, count)


@pytest.mark.parametrize("dealer", [True, False])
def test_fifteen_options_with_exact_hand_expectations(dealer: bool) -> None:
    dealt = cards(DEAL)
    advice = advise_discard(dealt, dealer=dealer)
    assert len(advice.by_hand) == len(advice.by_net) == 15
    assert {frozenset(o.discard) for o in advice.by_net} == {
        frozenset(pair) for pair in combinations(dealt, 2)
    }
    for option in advice.by_net:
        assert sorted(option.keep + option.discard, key=dealt.index) == list(dealt)
        assert option.hand == brute_hand(option.keep, dealt)
        assert option.net == option.hand + (option.crib if dealer else -option.crib)
    assert [o.hand for o in advice.by_hand] == sorted(
        (o.hand for o in advice.by_hand), reverse=True
    )
    assert [o.net for o in advice.by_net] == sorted((o.net for o in advice.by_net), reverse=True)


# The second discard is a jack with a card of its suit: it reaches crib flushes and nobs.
@pytest.mark.slow
@pytest.mark.parametrize(("deal", "discard"), [(DEAL, "5c 5d"), ("Ah 2h 3h Jh Kd 7s", "Jh 3h")])
def test_expected_crib_matches_every_opponent_discard_and_starter(deal: str, discard: str) -> None:
    dealt = cards(deal)
    option = next(
        o
        for o in advise_discard(dealt, dealer=True).by_net
        if set(o.discard) == set(cards(discard))
    )
    assert option.crib == brute_crib(option.discard, dealt)


def test_dealer_and_pone_see_the_same_expectations() -> None:
    dealt = cards(DEAL)
    mine = {frozenset(o.discard): o for o in advise_discard(dealt, dealer=True).by_net}
    theirs = {frozenset(o.discard): o for o in advise_discard(dealt, dealer=False).by_net}
    for key, option in mine.items():
        assert (option.hand, option.crib) == (theirs[key].hand, theirs[key].crib)


@pytest.mark.parametrize(
    ("deal", "error", "named"),
    [
        ("5c 5d Jh Qs 4c", TableError, "not 5"),
        ("5c 5d Jh Qs 4c 9h 2s", TableError, "not 7"),
        ("5c 5d Jh Qs 4c 5c", DuplicateCardError, "5♣"),
        ("5c 5d Jh Qs 4c *", TableError, "*"),
    ],
)
def test_bad_deals(deal: str, error: type[Exception], named: str) -> None:
    with pytest.raises(error) as info:
        advise_discard(cards(deal), dealer=True)
    assert named in str(info.value)

"""The judge the game log is given: token fits from a saved deal, held to the showdown.

The showdown's verdict is the independent reference: the vault opens exactly when every token
lies inside its hand's fits (ties either way round), so on any table and any tokens the two
must agree, and a failure's hand must be one whose token missed.
"""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.engine.cards import DECK
from companion.engine.gang.showdown import run_showdown
from companion.formats.judging import judge_deal
from companion.formats.table import table_from_json
from companion.storage.figures import miss

NAMES = ("Ana", "Bob", "Cy", "Dee", "Eve", "Fay")
# Few ranks make ties and repeated pairs common, the corner the fits must get right.
LOW_DECK = tuple(str(card) for card in DECK if card.rank.value in (0, 1, 2, 12))


@st.composite
def deals(draw: st.DrawFn) -> tuple[dict[str, Any], dict[str, int]]:
    variant = draw(st.sampled_from(["classic", "four-two-hands", "two-of-four"]))
    held = 2 if variant == "classic" else 4
    deck = draw(st.sampled_from([tuple(str(c) for c in DECK), LOW_DECK]))
    n = draw(st.integers(2, min(6, (len(deck) - 5) // held)))
    cards = draw(st.permutations(deck))[: 5 + n * held]
    players = [
        {"name": NAMES[i], "cards": list(cards[5 + i * held : 5 + (i + 1) * held])}
        for i in range(n)
    ]
    deal = {"variant": variant, "board": list(cards[:5]), "players": players}
    ids = [h.id for h in run_showdown(table_from_json(deal)).hands]
    order = draw(st.permutations(range(1, len(ids) + 1)))
    return deal, dict(zip(ids, order, strict=True))


@settings(max_examples=300, deadline=None)
@given(deals())
def test_the_vault_opens_exactly_when_every_token_fits(
    case: tuple[dict[str, Any], dict[str, int]],
) -> None:
    deal, tokens = case
    result = run_showdown(table_from_json(deal), tokens)
    assert result.verdict is not None
    fits = judge_deal(deal, tokens)
    assert sorted(f.hand_id for f in fits) == sorted(tokens)
    misses = {f.hand_id: miss(f.token, f.lowest, f.highest) for f in fits}
    assert result.verdict.opens == all(m == 0 for m in misses.values())
    # Each hand's fits are as wide as the hands it ties with, placed after every weaker one.
    for f in fits:
        value = next(h.value for h in result.hands if h.id == f.hand_id)
        assert f.lowest == 1 + sum(h.value < value for h in result.hands)
        assert f.highest == sum(h.value <= value for h in result.hands)
    for failure in result.verdict.failures:
        assert misses[failure.hand.id] != 0 or misses[failure.beaten_by.id] != 0


def test_a_deal_that_cannot_be_judged_gives_no_fits() -> None:
    tokens = {"Ana": 1, "Bob": 2}
    assert judge_deal(None, tokens) == ()
    assert judge_deal({"board": "Zz 2s 3s 4s 5s", "players": []}, tokens) == ()
    two = {"board": "2h 3d 9s Jc 4h", "players": [{"name": "Ana", "cards": "As Ad"}]}
    assert judge_deal(two, tokens) == ()  # a token for a hand the deal has not


def test_unreadable_street_tokens_leave_the_showdown_judged() -> None:
    deal = {
        "board": "2h 3d 9s Jc 4h",
        "players": [{"name": "Ana", "cards": "As Ad"}, {"name": "Bob", "cards": "Ks Kd"}],
        "tokens_by_street": {"flop": {"Ana": 7}},
    }
    fits = judge_deal(deal, {"Ana": 1, "Bob": 2})
    assert [(f.hand_id, f.street, f.lowest) for f in fits] == [
        ("Bob", "showdown", 1),
        ("Ana", "showdown", 2),
    ]

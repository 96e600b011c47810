"""Spit's lone spit pile (issue #54; spit_rules.txt, "FIN"): with a single spit pile, the player
who emptied their stock takes none of the centre and the other takes the pile, under the slap
and under the emptier's choice alike; the slap decides only when nobody emptied a stock."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.engine.cards import DECK, Card
from companion.engine.spit import (
    VARIANTS,
    Phase,
    PlayerSide,
    SpitRules,
    SpitState,
    Stock,
    Take,
    apply_move,
    check_move,
    is_legal,
    legal_moves,
)
from companion.engine.spit.referee import PileView, referee, typed_position
from companion.engine.spit.words import explain
from companion.errors import IllegalMoveError
from tests.helpers import cards

CLASSIC, CHOOSER = VARIANTS["classic"], VARIANTS["chooser"]


def taking(piles: tuple[str, str], emptied: int | None, rules: SpitRules = CLASSIC) -> SpitState:
    """A round over: ``emptied`` has no stock left (None: both stuck, no spit cards)."""
    sides = []
    for player, (held, spit) in enumerate((("9d", "2c"), ("9s", "3c"))):
        stock = Stock() if player == emptied else Stock(cards(held), True)
        sides.append(
            PlayerSide((stock,) + (Stock(),) * 4, cards(spit if emptied is not None else ""))
        )
    centre = (cards(piles[0]), cards(piles[1]))
    return SpitState(rules, (sides[0], sides[1]), centre, Phase.TAKE, emptied=emptied)


@pytest.mark.parametrize("rules", [CLASSIC, CHOOSER])
@pytest.mark.parametrize("emptier", [0, 1])
def test_the_lone_pile_goes_to_the_player_who_did_not_empty_their_stock(
    rules: SpitRules, emptier: int
) -> None:
    state = taking(("5h 6h 7h", ""), emptier, rules)
    other = 1 - emptier
    assert legal_moves(state) == (Take(other, 0),)
    after = apply_move(state, Take(other, 0))
    assert Counter(after.gathered[other]) >= Counter(cards("5h 6h 7h"))
    assert not set(after.gathered[emptier]) & set(cards("5h 6h 7h"))
    for move in (Take(emptier, 0), Take(emptier, 1), Take(other, 1)):
        with pytest.raises(IllegalMoveError) as info:
            check_move(state, move)
        assert info.value.rule == "lone_pile"
        assert info.value.reason.text("en") == (
            f"player {emptier + 1} emptied their stock and there is a single spit pile: they "
            f"take none of the centre, and player {other + 1} takes pile 1"
        )
        assert info.value.reason.text("fr") == (
            f"le joueur {emptier + 1} a vidé sa réserve et il n'y a qu'un tas central : il ne "
            f"prend rien au centre, et le joueur {other + 1} prend le tas 1"
        )


def test_without_an_emptier_the_slap_decides_the_lone_pile() -> None:
    state = taking(("", "5h 6h 7h"), None, CHOOSER)
    assert set(legal_moves(state)) == {Take(0, 0), Take(1, 0)}


def test_two_piles_and_an_emptier_still_slap_or_choose() -> None:
    slap = taking(("5h 6h", "Kc"), 0)
    assert len(legal_moves(slap)) == 4
    assert set(legal_moves(taking(("5h 6h", "Kc"), 0, CHOOSER))) == {Take(0, 0), Take(0, 1)}


def test_the_referee_gives_the_lone_pile_and_the_issue_move_is_illegal() -> None:
    """The command of issue #54: player 1 has no stock, pile 1 alone holds cards."""
    state = typed_position(
        CLASSIC,
        (PileView(cards("7h")[0], 3), PileView(None, 0)),
        ((), (PileView(cards("Qh")[0]), PileView(cards("5c")[0]))),
        (2, 0),
        live=0,
    )
    ruling = referee(state, Take(1, 1))
    assert ruling.verdict is not None and not ruling.verdict.legal
    lines = explain(ruling, "en")
    assert not any("slap either pile" in line for line in lines)
    assert lines[1] == (
        "a single spit pile: player 1 emptied their stock and takes none of the centre; "
        "player 2 takes pile 1"
    )
    assert lines[2] == "player 2 takes pile 1"
    assert explain(ruling, "fr")[1] == (
        "un seul tas central : le joueur 1 a vidé sa réserve et ne prend rien au centre ; "
        "le joueur 2 prend le tas 1"
    )


def test_the_referee_names_the_slap_on_a_lone_pile_when_nobody_emptied() -> None:
    state = typed_position(
        CLASSIC,
        (PileView(cards("7h")[0], 3), PileView(None, 0)),
        ((PileView(cards("2s")[0]),), (PileView(cards("5c")[0]),)),
        (0, 0),
        live=0,
    )
    lines = explain(referee(state), "en")
    assert lines[1] == (
        "a single spit pile: slap the empty place; the faster hand (on a tie the lower hand) "
        "takes nothing, and the other player takes pile 1"
    )


# -- the property: every take, against the rules read literally ------------------------------


def reference_outcomes(
    sizes: tuple[int, int], emptied: int | None, chooser: bool
) -> set[tuple[int, int]]:
    """Which centre pile each player may end with, as (player 1's, player 2's) pile; -1: none.

    Spit's "FIN": with one spit pile, the first player out takes nothing, the other the pile.
    "Variations": the emptier chooses. "Nouvelle présentation": otherwise the slap, either
    pile to either player (with one pile, the slap's winner takes the empty place: nothing).
    """
    holding = [pile for pile in (0, 1) if sizes[pile]]
    if len(holding) == 1:
        lone = holding[0]
        if emptied is not None:
            return {(-1, lone) if emptied == 0 else (lone, -1)}
        return {(-1, lone), (lone, -1)}
    both = {(0, 1), (1, 0)}
    return both  # chooser or slap, every split is someone's choice or someone's slap


@st.composite
def a_round_over(draw: st.DrawFn) -> tuple[SpitState, tuple[int, int]]:
    # Biased to the corners: empty piles, one-card piles, the chooser, either emptier or none.
    sizes = (draw(st.sampled_from((0, 0, 1, 2, 7))), draw(st.sampled_from((0, 0, 1, 3))))
    emptied = draw(st.sampled_from((None, 0, 1)))
    rules = draw(st.sampled_from((CLASSIC, CHOOSER, VARIANTS["four-stocks"])))
    deck = tuple(draw(st.permutations(DECK)))
    pile0, pile1 = deck[: sizes[0]], deck[sizes[0] : sum(sizes)]
    rest = list(deck[sum(sizes) :])
    sides = []
    for player in (0, 1):
        stock: tuple[Card, ...] = () if player == emptied else (rest.pop(),)
        spit = (rest.pop(),) if emptied is not None else ()
        spaces = (Stock(stock, bool(stock)),) + (Stock(),) * (rules.stock_piles - 1)
        sides.append(PlayerSide(spaces, spit))
    state = SpitState(rules, (sides[0], sides[1]), (pile0, pile1), Phase.TAKE, emptied=emptied)
    return state, sizes


@settings(max_examples=300)
@given(a_round_over())
def test_every_take_agrees_with_the_reference(drawn: tuple[SpitState, tuple[int, int]]) -> None:
    state, sizes = drawn
    chooser = state.rules.name == "chooser"
    wanted = reference_outcomes(sizes, state.emptied, chooser)
    outcomes = set()
    for player in (0, 1, 2):
        for pile in (0, 1, 2):
            move = Take(player, pile)
            legal = is_legal(state, move)
            assert legal is (move in legal_moves(state))
            if not legal:
                continue
            after = apply_move(state, move)
            got = []
            for p in (0, 1):
                centre = [i for i in (0, 1) if sizes[i] and state.piles[i][0] in after.gathered[p]]
                got.append(centre[0] if centre else -1)
            if chooser and state.emptied is not None and len([s for s in sizes if s]) != 1:
                assert player == state.emptied  # only the emptier chooses
            outcomes.add((got[0], got[1]))
            # Every card of the centre goes to exactly one player.
            assert Counter(after.gathered[0]) + Counter(after.gathered[1]) >= Counter(
                state.piles[0] + state.piles[1]
            )
    if sizes == (0, 0):
        assert outcomes == {(-1, -1)}
    else:
        # A pile that is empty is "none" for whoever gets it.
        assert outcomes == {
            tuple(p if p >= 0 and sizes[p] else -1 for p in pair) for pair in wanted
        }

"""The hands as they stood (Crack: "on ne joue pas au potentiel", issue #43): every variant's
hands at every street against the plain reference, and the tokens' judgement against a brute
force over every right token order."""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.engine.cards import Card
from companion.engine.gang.ranking import (
    Category,
    HandValue,
    Ranking,
    TableRules,
    partial_value,
    stood_hand,
)
from companion.engine.gang.replay.odds import replay_table
from companion.engine.gang.replay.records import Street
from companion.engine.gang.replay.stood import judge_stood, stood_hands, stood_street
from companion.engine.gang.showdown import form_hands
from companion.engine.gang.table import Hand, Player, Table
from tests.engine.gang import reference as ref
from tests.engine.gang.test_reference import (
    COMMON,
    VARIANT_SHAPES,
    _both,
    _ref_rules,
    _same_order,
    _variant_table,
)
from tests.helpers import cards

HIGH = TableRules()


def _pair(text: str, board: str = "", rules: TableRules = HIGH) -> HandValue:
    return stood_hand(cards(text), cards(board), rules)


def test_preflop_pairs_beat_high_cards_then_ranks_decide() -> None:
    order = ["3c 2d", "7h 2c", "7h 3c", "Ah Kd", "2h 2d", "Kh Kd", "As As"]
    values = [_pair(hand, rules=TableRules(decks=2)) for hand in order]
    assert values == sorted(values) and len(set(values)) == len(values)
    assert _pair("2h *") == _pair("2h 2d")  # a joker pairs the two: any pair beats ace high


def test_a_joker_takes_its_best_rank_and_two_decks_pair_one_card() -> None:
    assert _pair("Kh *").deciding[0].name == "KING"
    assert _pair("* *").category is Category.PAIR
    assert _pair("As As", rules=TableRules(decks=2)).category is Category.PAIR
    assert _pair("As Ks") == _pair("Ad Kc")  # suits never break ties


def test_at_the_flop_a_two_card_hand_makes_five_and_straights_count() -> None:
    assert _pair("9h 8c", "7d 6s 5h").category is Category.STRAIGHT
    assert _pair("Ah Kh", "2h 7h 9h").category is Category.FLUSH


def test_the_potential_does_not_count() -> None:
    """Four to a straight flush loses to a pair at the flop: the convention's own example."""
    draw = _pair("9h 8h", "7h 6h 2c")
    pair = _pair("2d 3c", "7h 6h 2c")
    assert draw < pair


def test_lowball_partial_hands_keep_the_low_order() -> None:
    low = TableRules(Ranking.LOW_A5)
    assert _pair("5h 4d", rules=low) > _pair("Kh 2d", rules=low) > _pair("2h 2d", rules=low)
    assert _pair("Ah 2d", rules=low) > _pair("5h 4d", rules=low)  # the ace is low


def test_six_three_preflop_is_five_cards_one_card_and_nothing() -> None:
    """Crack: "au préflop, la meilleure sous-main fait nécessairement 5 cartes, et la deuxième
    meilleure en fait donc une seule. La troisième sous-main au préflop est toujours vide"."""
    players = (Player("Ana", cards("As Ad Kd Kh 3c 3d")), Player("Bob", cards("Kc Qc Jd Js 8h 7h")))
    table = Table(players, cards("2h 9s Jc 4h Td"), "six-three-hands")
    hands = {h.id: h.value for h in stood_hands(table, Street.PREFLOP)}
    assert [len(hands[f"Ana/{i}"].best) for i in (1, 2, 3)] == [5, 1, 0]
    assert hands["Ana/3"] == hands["Bob/3"] == partial_value(())
    four = stood_street(table, Street.PREFLOP, {"Ana/1": 4, "Ana/2": 1, "Bob/1": 3, "Bob/2": 2})
    assert {h.hand.id for h in four.hands} == {"Ana/1", "Ana/2", "Bob/1", "Bob/2"}


def test_at_the_river_the_hands_as_they_stood_are_the_final_hands() -> None:
    players = (Player("Ana", cards("7s 7d")), Player("Bob", cards("As Kc")))
    table = Table(players, cards("Ah 2d 9s Jc 4h"))
    final = {h.id: h.value for h in form_hands(table)}
    assert {h.id: h.value for h in stood_hands(table, Street.RIVER)} == final


def test_the_replay_carries_both_views() -> None:
    players = (Player("Ana", cards("7s 7d")), Player("Bob", cards("As Kc")))
    table = Table(players, cards("Ah 2d 9s Jc 4h"))
    tokens = {"preflop": {"Ana": 1, "Bob": 2}, "river": {"Ana": 1, "Bob": 2}}
    replay = replay_table(table, tokens)
    assert [s.street for s in replay.stood] == list(Street)
    pre, flop = replay.stood[0], replay.stood[1]
    assert [h.hand.id for h in pre.disagreements] == ["Bob", "Ana"]
    assert pre.taker(2) is not None and pre.taker(2).hand.id == "Ana"
    assert flop.tokens is None and all(h.agrees for h in flop.hands)
    assert not replay.stood[3].disagreements  # Bob's pair of aces beats Ana's sevens


# -- Every variant at every street against the reference -----------------------------------------


def _reference_stood(table: Table, street: Street) -> dict[str, ref.Value]:
    ranking, wrap = _ref_rules(table.rules)
    return ref.variant_hands(
        table.variant,
        [(p.name, ref.plain(p.cards)) for p in table.players],
        [ref.plain(r[: street.known]) for r in table.rivers],
        ranking,
        wrap,
        francois=ref.plain(p.francois_card for p in table.players if p.francois_card is not None),
        shared=[(s.id, ref.plain(s.cards)) for s in table.shared],
        stood=True,
    )


def _variants_stood(data: st.DataObject) -> None:
    variant = data.draw(st.sampled_from(sorted(VARIANT_SHAPES)))
    table = _variant_table(data, variant)
    if table is None:
        return
    street = data.draw(st.sampled_from(list(Street)))
    expected = _reference_stood(table, street)
    hands = {h.id: h.value for h in stood_hands(table, street)}
    assert sorted(hands) == sorted(expected), table
    ids = sorted(expected)
    assert [hands[i].category.label for i in ids] == [expected[i][0] for i in ids], table
    _same_order([hands[i] for i in ids], [expected[i] for i in ids], (street, table))


test_variants_stood, test_variants_stood_slow = _both(_variants_stood, st.data(), 150)


# -- The tokens' judgement against every right order ---------------------------------------------


def _right_orders(strengths: Sequence[int]) -> list[tuple[int, ...]]:
    """Every token assignment (tokens[i] for hand i) that never puts a stronger hand below a
    weaker one: ties in any order."""
    n = len(strengths)
    return [
        perm
        for perm in itertools.permutations(range(1, n + 1))
        if all(
            strengths[i] <= strengths[j] for i in range(n) for j in range(n) if perm[i] < perm[j]
        )
    ]


def _hands(strengths: Sequence[int]) -> tuple[Hand, ...]:
    value = partial_value(())
    return tuple(
        Hand(f"P{i}", f"P{i}", HandValue((s,), value.category, (), (), ()))
        for i, s in enumerate(strengths)
    )


@settings(max_examples=300, **COMMON)  # type: ignore[arg-type]
@given(st.data())
def test_tokens_are_judged_as_every_right_order_says(data: st.DataObject) -> None:
    n = data.draw(st.integers(1, 6))
    strengths = data.draw(st.lists(st.integers(0, 3), min_size=n, max_size=n))  # many ties
    tokens_list = data.draw(st.permutations(range(1, n + 1)))
    hands = _hands(strengths)
    tokens: Mapping[str, int] = {h.id: t for h, t in zip(hands, tokens_list, strict=True)}
    right = _right_orders(strengths)
    judged = {j.hand.id: j for j in judge_stood(hands, tokens)}
    for i, hand in enumerate(hands):
        fits = {order[i] for order in right}
        assert (judged[hand.id].lowest, judged[hand.id].highest) == (min(fits), max(fits))
        assert judged[hand.id].agrees == (tokens[hand.id] in fits)
    corrected = tuple(tokens[h.id] if judged[h.id].agrees else judged[h.id].should for h in hands)
    assert corrected in right  # a right order, keeping every token that fits
    assert all((judged[h.id].should is None) == judged[h.id].agrees for h in hands)
    weakest_first = [j.hand.value.strength for j in judge_stood(hands, tokens)]
    assert weakest_first == sorted(weakest_first)
    assert judge_stood(hands, None) and all(j.should is None for j in judge_stood(hands, None))


def test_a_hand_with_no_card_stands_below_any_card() -> None:
    value: list[Card] = []
    assert partial_value(tuple(value)) < partial_value(cards("2c"))

"""Token rules (issue #43): how a street's tokens move under the base rule, LSD and Kcarc."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.engine.gang.ranking import TableRules
from companion.engine.gang.tokens import (
    MoveKind,
    StreetTokens,
    TokenMove,
    TokenRule,
    check_moves,
)
from companion.errors import InputError
from companion.formats.table import rules_from_json, rules_to_json

TAKE, TAKE_FROM, PUT_BACK, GIVE = (
    MoveKind.TAKE,
    MoveKind.TAKE_FROM,
    MoveKind.PUT_BACK,
    MoveKind.GIVE,
)
HANDS = ("Ana", "Bob", "Cy")


def moves(*spec: tuple[str, MoveKind, int] | tuple[str, MoveKind, int, str]) -> list[TokenMove]:
    return [TokenMove(*item) for item in spec]


def why(result: StreetTokens, lang: str = "en") -> str:
    assert result.problem is not None
    return result.problem.phrase.text(lang)


def test_base_takes_from_the_centre_and_from_players_and_puts_back() -> None:
    street = moves(
        ("Ana", TAKE, 1),
        ("Bob", TAKE, 2),
        ("Cy", TAKE_FROM, 1, "Ana"),
        ("Ana", TAKE, 3),
        ("Bob", PUT_BACK, 2),
        ("Bob", TAKE, 2),
    )
    result = check_moves(TokenRule.BASE, HANDS, street)
    assert result.problem is None
    assert result.holdings == {"Cy": 1, "Bob": 2, "Ana": 3}
    assert result.finished


@pytest.mark.parametrize(
    ("street", "index", "en"),
    [
        ([("Ana", TAKE, 1), ("Ana", TAKE, 2)], 1, "Ana already holds token 1 of this colour"),
        ([("Ana", TAKE, 1), ("Bob", TAKE, 1)], 1, "token 1 is not in the centre, Ana holds it"),
        ([("Ana", TAKE, 4)], 0, "there is no token 4: this street has tokens 1 to 3"),
        ([("Zed", TAKE, 1)], 0, "'Zed' is not a hand at this table (hands: Ana, Bob and Cy)"),
        ([("Ana", PUT_BACK, 1)], 0, "Ana does not hold token 1"),
        ([("Ana", TAKE, 1), ("Bob", TAKE_FROM, 1, "Cy")], 1, "Cy does not hold token 1"),
        ([("Ana", TAKE, 1), ("Ana", TAKE_FROM, 1, "Ana")], 1, "Ana cannot take a token from"),
        ([("Ana", GIVE, 1, "Bob")], 0, "only Kcarc gives tokens"),
    ],
)
def test_base_refuses_naming_the_move_the_player_and_the_token(
    street: list[tuple[str, MoveKind, int] | tuple[str, MoveKind, int, str]], index: int, en: str
) -> None:
    result = check_moves(TokenRule.BASE, HANDS, moves(*street))
    assert result.problem is not None and result.problem.index == index
    assert en in why(result)
    assert f"move {index + 1} (" in why(result) and "base token rule" in why(result)
    assert why(result, "fr").startswith(f"le coup {index + 1} (")


def test_a_refused_move_leaves_the_holdings_of_the_moves_before_it() -> None:
    street = moves(("Ana", TAKE, 1), ("Bob", TAKE_FROM, 1, "Ana"), ("Cy", TAKE, 2))
    result = check_moves(TokenRule.LSD, HANDS, street)
    assert result.holdings == {"Ana": 1}
    assert result.centre == (2, 3) and not result.finished


@pytest.mark.parametrize(
    ("move", "en"),
    [
        (("Bob", TAKE_FROM, 1, "Ana"), "under LSD a token once taken stays with its holder"),
        (("Ana", PUT_BACK, 1), "under LSD a token once taken cannot be put back"),
        (("Bob", GIVE, 2, "Cy"), "under LSD each player takes their own token"),
    ],
)
def test_lsd_lets_a_taken_token_neither_go_back_nor_be_taken(
    move: tuple[str, MoveKind, int] | tuple[str, MoveKind, int, str], en: str
) -> None:
    result = check_moves(TokenRule.LSD, HANDS, moves(("Ana", TAKE, 1), move))
    assert result.problem is not None and result.problem.index == 1
    assert en in why(result) and "LSD token rule" in why(result)
    assert "LSD" in why(result, "fr")


def test_lsd_street_is_each_player_taking_once_from_the_centre() -> None:
    street = moves(("Cy", TAKE, 2), ("Ana", TAKE, 3), ("Bob", TAKE, 1))
    result = check_moves(TokenRule.LSD, HANDS, street)
    assert result.problem is None and result.holdings == {"Bob": 1, "Cy": 2, "Ana": 3}


def test_kcarc_gives_from_the_centre_and_puts_back_only_ones_own() -> None:
    street = moves(
        ("Ana", GIVE, 1, "Bob"),
        ("Bob", GIVE, 3, "Ana"),
        ("Bob", GIVE, 2, "Cy"),
        ("Bob", PUT_BACK, 1),
        ("Cy", GIVE, 1, "Bob"),
    )
    result = check_moves(TokenRule.KCARC, HANDS, street)
    assert result.problem is None and result.holdings == {"Bob": 1, "Cy": 2, "Ana": 3}


@pytest.mark.parametrize(
    ("street", "en"),
    [
        ([("Ana", TAKE, 1)], "under Kcarc no one takes a token for themselves"),
        ([("Ana", GIVE, 1, "Bob"), ("Cy", TAKE_FROM, 1, "Bob")], "they put it back themselves"),
        ([("Ana", GIVE, 1, "Ana")], "not to Ana's own hand"),
        ([("Ana", GIVE, 1, "Bob"), ("Ana", PUT_BACK, 1)], "Ana does not hold token 1"),
        ([("Ana", GIVE, 1, "Bob"), ("Cy", GIVE, 2, "Bob")], "Bob already holds token 1"),
        ([("Ana", GIVE, 1, "Bob"), ("Cy", GIVE, 1, "Ana")], "token 1 is not in the centre"),
    ],
)
def test_kcarc_refuses_taking_for_oneself_and_giving_to_oneself(
    street: list[tuple[str, MoveKind, int] | tuple[str, MoveKind, int, str]], en: str
) -> None:
    result = check_moves(TokenRule.KCARC, HANDS, moves(*street))
    assert result.problem is not None and result.problem.index == len(street) - 1
    assert en in why(result) and "Kcarc token rule" in why(result)


def test_kcarc_another_player_is_not_one_of_ones_own_hands() -> None:
    owners = {"Ana/1": "Ana", "Ana/2": "Ana", "Bob/1": "Bob", "Bob/2": "Bob"}
    to_own = check_moves(TokenRule.KCARC, tuple(owners), moves(("Ana/1", GIVE, 1, "Ana/2")), owners)
    assert to_own.problem is not None and "own hand" in why(to_own)
    fine = check_moves(TokenRule.KCARC, tuple(owners), moves(("Ana/1", GIVE, 1, "Bob/2")), owners)
    assert fine.problem is None and fine.holdings == {"Bob/2": 1}


def test_crack_puts_anyones_token_in_the_centre_and_takes_one_for_oneself() -> None:
    """Crack (issue #54): "prendre un jeton (de n'importe qui) et le mettre au centre; prendre
    un jeton au centre pour soi si on en a pas déjà un"."""
    street = moves(
        ("Ana", TAKE, 2),
        ("Bob", TAKE, 1),
        ("Ana", PUT_BACK, 1),  # Bob's token, put in the centre by Ana
        ("Cy", TAKE, 1),
        ("Bob", TAKE, 3),
        ("Cy", PUT_BACK, 1),  # one's own token, too
        ("Cy", TAKE, 1),
    )
    result = check_moves(TokenRule.CRACK, HANDS, street)
    assert result.problem is None and result.holdings == {"Cy": 1, "Ana": 2, "Bob": 3}
    base = check_moves(TokenRule.BASE, HANDS, street)
    assert base.problem is not None and base.problem.index == 2  # base: only one's own


@pytest.mark.parametrize(
    ("street", "en"),
    [
        ([("Ana", TAKE, 1), ("Bob", TAKE_FROM, 1, "Ana")], "under Crack a token is taken from"),
        ([("Ana", GIVE, 1, "Bob")], "under Crack each player takes their own token"),
        ([("Ana", PUT_BACK, 1)], "token 1 is already in the centre"),
        ([("Ana", TAKE, 1), ("Ana", TAKE, 2)], "Ana already holds token 1 of this colour"),
        ([("Ana", TAKE, 1), ("Bob", TAKE, 1)], "token 1 is not in the centre, Ana holds it"),
        ([("Ana", TAKE, 1), ("Zed", PUT_BACK, 1)], "'Zed' is not a hand at this table"),
    ],
)
def test_crack_refuses_the_other_moves_naming_why(
    street: list[tuple[str, MoveKind, int] | tuple[str, MoveKind, int, str]], en: str
) -> None:
    result = check_moves(TokenRule.CRACK, HANDS, moves(*street))
    assert result.problem is not None and result.problem.index == len(street) - 1
    assert en in why(result) and "Crack token rule" in why(result)
    assert "Crack" in why(result, "fr")


def test_a_street_may_have_fewer_tokens_than_hands() -> None:
    result = check_moves(TokenRule.BASE, HANDS, moves(("Ana", TAKE, 3)), tokens=2)
    assert result.problem is not None and "tokens 1 to 2" in why(result)


def test_every_explanation_and_name_exists_in_both_languages() -> None:
    for rule in TokenRule:
        for lang in ("en", "fr"):
            assert rule.name_phrase.text(lang)
            assert len(rule.explanation.text(lang)) > 30


# -- the table's rule in the JSON ----------------------------------------------------------


def test_the_token_rule_reads_and_writes_with_the_table_rules() -> None:
    assert rules_from_json({"tokens": "lsd"}).tokens is TokenRule.LSD
    assert rules_from_json({"tokens": "crack"}).tokens is TokenRule.CRACK
    assert rules_from_json({"ranking": "high"}).tokens is TokenRule.BASE  # saved before
    assert rules_from_json(None).tokens is TokenRule.BASE
    for rule in TokenRule:
        rules = TableRules(decks=2, tokens=rule)
        assert rules_from_json(rules_to_json(rules)) == rules
    assert "tokens" not in rules_to_json(TableRules())  # as rules saved before token rules


def test_a_bad_token_rule_is_named_with_the_choices() -> None:
    with pytest.raises(InputError) as caught:
        rules_from_json({"tokens": "acid"})
    assert caught.value.message("en") == (
        "rules.tokens is 'acid'; expected one of 'base', 'lsd', 'kcarc' and 'crack'"
    )


def test_the_token_rule_changes_no_hand_value() -> None:
    assert TableRules(tokens=TokenRule.KCARC).for_hands == TableRules()


# -- properties, against a plain restatement of each rule ------------------------------------


def reference_legal(
    rule: TokenRule, where: dict[int, str | None], move: TokenMove, hands: tuple[str, ...]
) -> bool:
    """Each rule read literally, apart from the engine: one hand, one token of the colour."""
    if move.by not in hands or move.token not in where:
        return False
    if move.other is not None and move.other not in hands:
        return False
    holding = set(where.values())
    if rule is TokenRule.BASE:
        if move.kind is MoveKind.TAKE:
            return where[move.token] is None and move.by not in holding
        if move.kind is MoveKind.TAKE_FROM:
            return (
                move.other != move.by and where[move.token] == move.other and move.by not in holding
            )
        if move.kind is MoveKind.PUT_BACK:
            return where[move.token] == move.by
        return False
    if rule is TokenRule.LSD:
        return move.kind is MoveKind.TAKE and where[move.token] is None and move.by not in holding
    if rule is TokenRule.CRACK:
        # Anyone's token into the centre; one from the centre for oneself, holding none.
        if move.kind is MoveKind.PUT_BACK:
            return where[move.token] is not None
        return move.kind is MoveKind.TAKE and where[move.token] is None and move.by not in holding
    if move.kind is MoveKind.PUT_BACK:
        return where[move.token] == move.by
    if move.kind is MoveKind.GIVE:
        return where[move.token] is None and move.other != move.by and move.other not in holding
    return False


NAMES = ("Ana", "Bob", "Cy", "Zed")  # Zed is not at the table


@st.composite
def a_move(draw: st.DrawFn, hands: int, kinds: tuple[MoveKind, ...] = tuple(MoveKind)) -> TokenMove:
    # Biased to the corners: few hands, tokens just past the last, a hand acting on itself.
    by = draw(st.sampled_from(NAMES[: hands + 1]))
    kind = draw(st.sampled_from(kinds))
    token = draw(st.integers(0, hands + 1))
    other = None
    if kind in (MoveKind.TAKE_FROM, MoveKind.GIVE):
        other = draw(st.sampled_from(NAMES[: hands + 1]))
    return TokenMove(by, kind, token, other)


@st.composite
def a_street(
    draw: st.DrawFn,
    rules: tuple[TokenRule, ...] = tuple(TokenRule),
    kinds: tuple[MoveKind, ...] = tuple(MoveKind),
) -> tuple[TokenRule, tuple[str, ...], list[TokenMove]]:
    hands = draw(st.integers(1, 3))
    rule = draw(st.sampled_from(rules))
    played = draw(st.lists(a_move(hands, kinds), max_size=25))
    return rule, NAMES[:hands], played


# Crack's own moves most of the time, so that its streets run long: a hand putting back
# another's token, the centre emptied and filled again.
CRACK_KINDS = (TAKE, TAKE, PUT_BACK, PUT_BACK, TAKE_FROM, GIVE)


@settings(max_examples=400)
@given(st.one_of(a_street(), a_street((TokenRule.CRACK,), CRACK_KINDS)))
def test_the_checker_agrees_with_the_reference_and_keeps_tokens_whole(
    street: tuple[TokenRule, tuple[str, ...], list[TokenMove]],
) -> None:
    rule, hands, played = street
    result = check_moves(rule, hands, played)
    where: dict[int, str | None] = {token: None for token in range(1, len(hands) + 1)}
    taken: dict[int, str] = {}
    for index, move in enumerate(played):
        if not reference_legal(rule, where, move, hands):
            assert result.problem is not None and result.problem.index == index
            break
        before = dict(where)
        where[move.token] = (
            None
            if move.kind is MoveKind.PUT_BACK
            else move.other
            if move.kind is MoveKind.GIVE
            else move.by
        )
        # Every token is somewhere exactly once; no hand holds two of the colour.
        assert sorted(where) == list(range(1, len(hands) + 1))
        held = [hand for hand in where.values() if hand is not None]
        assert len(held) == len(set(held))
        if rule is TokenRule.LSD:
            for token, hand in taken.items():
                assert where[token] == hand  # a token taken under LSD never moves again
            taken.update({t: h for t, h in where.items() if h is not None and before[t] is None})
        gained = [t for t in where if where[t] is not None and before[t] != where[t]]
        if rule is TokenRule.KCARC:
            assert all(where[t] != move.by for t in gained)  # never taken for oneself
        if rule is TokenRule.CRACK:
            # A token reaches a hand only from the centre, and only for the hand that acts.
            assert all(before[t] is None and where[t] == move.by for t in gained)
    else:
        assert result.problem is None
    assert dict(result.where) == where


def test_a_pasted_name_is_repeated_only_by_its_start() -> None:
    result = check_moves(TokenRule.BASE, HANDS, moves(("x" * 5000, TAKE, 1)))
    assert "is not a hand at this table" in why(result) and len(why(result)) < 200

"""Tokens tapped or typed (``showdown/tokens.py``), against the order they stand for."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from companion.ui.showdown.tokens import numbered, tapped, typed_order

hands = st.lists(st.text("ABCDEFGH", min_size=1, max_size=3), unique=True, max_size=8)


@given(hands.flatmap(lambda ids: st.tuples(st.just(ids), st.permutations(range(1, len(ids) + 1)))))
def test_typed_numbers_give_each_hand_its_token(case: tuple[list[str], list[int]]) -> None:
    ids, numbers = case
    tokens = typed_order(" ".join(map(str, numbers)), ids)
    assert numbered(tokens) == dict(zip(ids, numbers, strict=True))


@given(hands, st.lists(st.integers(0, 12), max_size=9), st.sampled_from([" ", ",", " x "]))
def test_numbers_that_are_no_order_of_the_hands_give_no_tokens(
    ids: list[str], numbers: list[int], sep: str
) -> None:
    tokens = typed_order(sep.join(map(str, numbers)), ids)
    is_order = sorted(numbers) == list(range(1, len(ids) + 1))
    assert (tokens != () or not ids) if is_order else tokens == ()


@given(hands, st.text("ABCDEFGHZ", min_size=1, max_size=3))
def test_a_tapped_hand_takes_the_next_token_or_gives_its_own_back(
    ids: list[str], hand: str
) -> None:
    tokens = tuple(ids)
    after = tapped(tokens, hand)
    if hand in tokens:
        assert after == tuple(h for h in tokens if h != hand)
    else:
        assert after == (*tokens, hand)
        assert tapped(after, hand) == tokens

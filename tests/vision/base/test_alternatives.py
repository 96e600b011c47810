"""A read's next likely codes (``base.alternatives``): ranked, capped and kept to the decks."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from companion.engine.cards import parse_card
from companion.vision.base.alternatives import Alternative, capped, likeliest, plausible
from tests.helpers import cards


def _probabilities(n: int, width: int) -> st.SearchStrategy[np.ndarray]:
    """Rows of ``width`` probabilities (some zero, ties likely), each summing to 1."""
    cell = st.sampled_from([0.0, 0.0, 0.1, 0.25, 0.5, 1.0]) | st.floats(0.0, 1.0)
    return arrays(np.float64, (n, width), elements=cell).map(
        lambda a: (a + 1e-12) / (a + 1e-12).sum(axis=1, keepdims=True)
    )


@given(st.data())
def test_the_likeliest_codes_are_those_of_a_sort_of_every_code(data: st.DataObject) -> None:
    n = data.draw(st.integers(0, 4))
    rank_p = data.draw(_probabilities(n, 14))[:, :13]  # the last column: "no index"
    suit_p = data.draw(_probabilities(n, 4))
    count = data.draw(st.integers(1, 52))
    ranks, suits, p = likeliest(rank_p, suit_p, count)
    assert ranks.shape == suits.shape == p.shape == (n, count)
    for i in range(n):
        # The reference: every (rank, suit) pair by probability, ties in class order.
        every = sorted(
            ((float(rank_p[i, r] * suit_p[i, s]), r, s) for r in range(13) for s in range(4)),
            key=lambda t: (-t[0], t[1] * 4 + t[2]),
        )[:count]
        assert [(r, s) for _, r, s in every] == list(zip(ranks[i], suits[i], strict=True))
        assert p[i].tolist() == pytest.approx([q for q, _, _ in every])
        assert p[i].sum() <= 1.0 + 1e-9


@given(
    st.lists(st.floats(0.0, 1.0), max_size=6),
    st.floats(0.0, 1.0),
)
def test_capped_alternatives_sum_with_the_read_to_at_most_one_in_the_same_order(
    probabilities: list[float], confidence: float
) -> None:
    codes = cards("As Kd Qh Jc Ts 9d")
    ranked = sorted(probabilities, reverse=True)
    given_ = [Alternative(c, p) for c, p in zip(codes[: len(ranked)], ranked, strict=True)]
    out = capped(given_, confidence)
    assert [a.card for a in out] == [a.card for a in given_]
    assert confidence + sum(a.probability for a in out) <= 1.0 + 1e-9
    if confidence + sum(probabilities) <= 1.0:
        assert out == tuple(given_)  # room enough: unchanged


def test_a_code_read_surely_elsewhere_is_no_alternative_in_a_one_deck_game() -> None:
    read = cards("Js Jc 9h")
    offered = (
        (Alternative(parse_card("Jc"), 0.2), Alternative(parse_card("Jh"), 0.1)),
        (Alternative(parse_card("Js"), 0.01),),
        (Alternative(parse_card("9d"), 0.3), Alternative(parse_card("Js"), 0.1)),
    )
    # Jc is read surely: Js's alternative Jc is dropped with one deck, kept with two.
    one = plausible(read, [False, True, True], offered, decks=1)
    assert [[str(a.card) for a in row] for row in one] == [["Jh"], ["Js"], ["9d", "Js"]]
    two = plausible(read, [False, True, True], offered, decks=2)
    assert two == offered
    # A doubtful read elsewhere may be the wrong one: its code stays an alternative.
    assert plausible(read, [False, False, False], offered, decks=1) == offered


def test_at_most_keep_alternatives_are_kept() -> None:
    offered = (tuple(Alternative(c, 0.01) for c in cards("2s 3s 4s 5s 6s 7s")),)
    assert len(plausible(cards("As"), [True], offered, decks=1, keep=4)[0]) == 4

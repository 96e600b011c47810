"""The showdown table as plain state: cards typed, fixed, moved; problems; tokens; verdicts."""

from __future__ import annotations

from typing import Any

import pytest

from companion.engine.gang.ranking import TableRules
from companion.ui.shell.state import AppState
from companion.ui.showdown.state import RIVER, RIVER2, ShowdownState
from tests.helpers import cards


def table(
    river: str = "As Kd Qh 7c 2s",
    hands: tuple[str, ...] = ("Ah Ad", "Th 9h", "3c 2c"),
    players: tuple[str, ...] = ("Ana", "Bob", "Cy"),
    **kw: object,
) -> ShowdownState:
    state = ShowdownState(players, **kw)  # type: ignore[arg-type]
    state = state.with_cards_text(RIVER, river)
    for i, text in enumerate(hands):
        state = state.with_cards_text(i, text)
    return state


def keys(state: ShowdownState) -> list[str]:
    return [p.code for p in state.problems()]


def codes(entries: tuple[object, ...]) -> tuple[str, ...]:
    """Cards and typed text as a field shows them."""
    return tuple(str(e) for e in entries)


def test_a_new_table_has_no_player_until_they_are_typed() -> None:
    state = AppState().table
    assert state == ShowdownState.new() and state.players == ()
    assert keys(state) == ["table.river_size", "table.players_count"]
    typed = state.with_players_text("Ana, Bob")
    assert keys(typed) == ["table.river_size", "table.no_cards", "table.no_cards"]


@pytest.mark.parametrize(
    "river, hands, decks, expected",
    [
        ("As Kd Qh 7c 2s", ("Ah Ad", "Th 9h", "3c 2c"), 1, []),
        ("As Kd Qh 7c", ("Ah Ad", "Th 9h", "3c 2c"), 1, ["table.river_size"]),
        ("As Kd Qh 7c 2s", ("Ah As", "Th 9h", "3c 2c"), 1, ["card.duplicate"]),
        ("As Kd Qh 7c 2s", ("Ah As", "Th 9h", "3c 2c"), 2, []),
        ("As Kd Qh 7c 2s", ("Ah Zz", "Th 9h", "3c 2c"), 1, ["card.unreadable"]),
        ("As Kd Qh 7c 2s", ("Ah Ad", "", "3c 2c"), 1, ["table.no_cards"]),
    ],
)
def test_problems_flag_duplicates_and_missing_cards(
    river: str, hands: tuple[str, ...], decks: int, expected: list[str]
) -> None:
    state = table(river, hands, rules=TableRules(decks=decks))
    assert keys(state) == expected
    assert (state.showdown() is None) == bool(expected)


def test_duplicate_names_both_places() -> None:
    state = table(hands=("Ah As", "Th 9h", "3c 2c"))
    (problem,) = state.problems()
    assert (
        problem.message("en") == "A♠ appears twice (the river and Ana) but the game uses one deck"
    )
    assert problem.message("fr") == (
        "A♠ apparaît deux fois (la rivière et Ana) alors que la partie se joue avec un seul jeu"
    )


def test_variant_with_fixed_hole_cards_counts_them() -> None:
    state = table(hands=("Ah Ad 3h 4h", "Th 9h", "3c 2c 5c 6c")).with_variant("two-of-four")
    assert [p.params["name"] for p in state.problems()] == ["Bob"]
    assert state.problems()[0].message("fr") == "Bob a 2 cartes ; deux sur quatre en distribue 4"


def test_fix_move_and_remove_cards() -> None:
    state = table(hands=("Ah Ad", "Th 9h 8h", "3c"))
    state = state.select(1, 2)
    assert state.selected_card() == cards("8h")[0]
    state = state.move_selected(2)
    assert state.hands == (cards("Ah Ad"), cards("Th 9h"), cards("3c 8h"))
    state = state.select(2, 1).replace_selected("2c")
    assert state.hands[2] == cards("3c 2c") and state.selected is None
    state = state.select(RIVER, 4).remove_selected()
    assert state.river == cards("As Kd Qh 7c")
    assert state.select(0, 0).select(0, 0).selected is None


def test_tokens_by_tapping_give_the_verdict() -> None:
    state = table()
    assert state.hand_ids() == (("Ana", "Ana"), ("Bob", "Bob"), ("Cy", "Cy"))
    for hand in ("Bob", "Cy", "Ana"):
        state = state.tap_hand(hand)
    result = state.showdown()
    assert result is not None and result.verdict is not None and result.verdict.opens
    wrong = state.clear_tokens().tap_hand("Cy").tap_hand("Bob").tap_hand("Ana")
    verdict = wrong.showdown().verdict  # type: ignore[union-attr]
    assert verdict is not None and not verdict.opens
    assert [f.hand.id for f in verdict.failures] == ["Bob"]


def test_tapping_a_hand_again_takes_its_token_back() -> None:
    state = table().tap_hand("Bob").tap_hand("Cy").tap_hand("Bob")
    assert state.token_map() == {"Cy": 1}
    assert state.showdown().verdict is None  # type: ignore[union-attr]


@pytest.mark.parametrize(
    "typed, expected",
    [
        ("3 1 2", {"Bob": 1, "Cy": 2, "Ana": 3}),
        ("3,1,2", {"Bob": 1, "Cy": 2, "Ana": 3}),
        ("3 1", {}),
        ("3 3 1", {}),
        ("4 1 2", {}),
    ],
)
def test_typed_tokens_in_seating_order(typed: str, expected: dict[str, int]) -> None:
    assert table().with_tokens_text(typed).token_map() == expected


def test_a_card_fixed_keeps_the_tokens_and_the_verdict_is_judged_again() -> None:
    opened = table().tap_hand("Bob").tap_hand("Cy").tap_hand("Ana")
    assert opened.showdown().verdict.opens  # type: ignore[union-attr]
    # Bob's nine was a seven: his pair of sevens now beats Cy's twos, under the same chips.
    for fixed in (
        opened.with_cards_text(1, "Th 7h"),
        opened.select(1, 1).retouch_selected(rank="7"),
        opened.select(1, 1).replace_selected("7h"),
        opened.select(1, 1).remove_selected().add_cards(1, "7h"),
    ):
        assert fixed.tokens == ("Bob", "Cy", "Ana")
        verdict = fixed.showdown().verdict  # type: ignore[union-attr]
        assert verdict is not None and not verdict.opens
        assert [f.hand.id for f in verdict.failures] == ["Cy"]
    # A fix that leaves a hand short holds the verdict, the tokens still kept for after it.
    short = opened.with_cards_text(1, "Th")
    assert short.tokens == opened.tokens and short.showdown() is None
    assert short.with_cards_text(1, "Th 9h").showdown().verdict.opens  # type: ignore[union-attr]


def test_the_tokens_go_when_the_hands_that_take_them_change() -> None:
    state = table().tap_hand("Bob")
    assert state.with_players_text("Ana, Bob, Cy, Dan").tokens == ()
    assert state.with_variant("two-of-four").tokens == ()
    assert state.with_two_rivers(True).tokens == ()
    assert state.sit_out("Cy").tokens == ()
    assert state.with_players_text("Ana, Bob, Cy").tokens == ("Bob",)


def test_reading_gives_hands_to_players_and_adds_missing_players() -> None:
    state = ShowdownState.new("en").with_read(
        cards("As Kd Qh 7c 2s"),
        [cards("Ah Ad"), cards("Th 9h"), cards("3c 2c"), cards("4d 5d")],
        "a" * 64,
        "en",
    )
    assert state.players[-1] == "Player 4"
    assert state.hands[3] == cards("4d 5d") and state.photo == "a" * 64


def test_players_text_resizes_hands() -> None:
    state = table().with_players_text("Ana, Bob, Cy, Dan")
    assert state.hands[3] == () and state.hands[0] == cards("Ah Ad")
    assert len(ShowdownState.new().with_players_text(",".join("abcdefghijkl")).players) == 10


def test_app_state_navigation_and_language() -> None:
    state = AppState().go("history").toggle_lang()
    assert (state.screen, state.lang) == ("history", "en")
    assert AppState().go("nowhere").screen == "showdown"


def two_river_table(variant: str = "classic") -> ShowdownState:
    state = table(hands=("Ah Ad", "Th 9h", "3c 2c")).with_variant(variant).with_two_rivers(True)
    return state.with_cards_text(RIVER2, "Jd Jc 8s 4h 5d")


def test_two_rivers_give_each_player_a_hand_per_river() -> None:
    state = two_river_table()
    assert state.problems() == ()
    ids = [hid for hid, _ in state.hand_ids()]
    assert sorted(ids) == ["Ana/1", "Ana/2", "Bob/1", "Bob/2", "Cy/1", "Cy/2"]
    assert state.check.table.board2 == cards("Jd Jc 8s 4h 5d")
    assert state.cleared().two_rivers and state.cleared().river2 == ()


@pytest.mark.parametrize(
    "change, expected",
    [
        (lambda s: s.with_cards_text(RIVER2, "Jd Jc 8s"), ["table.river2_size"]),
        (lambda s: s.with_cards_text(RIVER2, "Jd Jc 8s 4h As"), ["card.duplicate"]),
        (
            lambda s: s.with_variant("two-of-four"),
            [
                "table.two_rivers_refused",
                "table.hole_count",
                "table.hole_count",
                "table.hole_count",
            ],
        ),
        (lambda s: s.with_two_rivers(False), []),
    ],
)
def test_two_river_problems(change: Any, expected: list[str]) -> None:
    assert keys(change(two_river_table())) == expected


def test_second_river_is_named_in_both_languages() -> None:
    state = two_river_table().with_cards_text(RIVER2, "Jd Jc 8s 4h As")
    (problem,) = state.problems()
    assert problem.message("en") == (
        "A♠ appears twice (the river and the second river) but the game uses one deck"
    )
    assert "la deuxième rivière" in problem.message("fr")


def francois_table() -> ShowdownState:
    state = table(hands=("Ah Ad 4s", "Th 9h 8h", "3c 2c 6d")).with_variant("francois")
    for i, card in enumerate(("Jc", "Js", "5h")):
        state = state.with_francois_text(i, card)
    return state


def test_francois_gets_a_hand_from_the_cards_given_to_him() -> None:
    state = francois_table()
    assert state.problems() == ()
    assert [hid for hid, _ in state.hand_ids()] == ["Ana", "Bob", "Cy", "francois"]
    assert state.check.table.players[0].francois_card == cards("Jc")[0]


@pytest.mark.parametrize(
    "change, expected",
    [
        (lambda s: s.with_francois_text(1, ""), ["table.no_francois_card"]),
        (lambda s: s.with_francois_text(1, "As"), ["card.duplicate"]),
        (lambda s: s.with_francois_text(1, "Zz"), ["card.unreadable"]),
        (lambda s: s.with_cards_text(0, "Ah Ad"), ["table.hole_count"]),
    ],
)
def test_francois_problems(change: Any, expected: list[str]) -> None:
    assert keys(change(francois_table())) == expected


def circular_table() -> ShowdownState:
    state = table().with_variant("circular").with_shared_text(0, "Jc Js")
    return state.with_shared_text(1, "9s 8h").with_shared_text(2, "5h 6h")


def test_circular_shared_hands_lie_between_neighbours() -> None:
    state = circular_table()
    assert state.neighbours() == (("Ana", "Bob"), ("Bob", "Cy"), ("Cy", "Ana"))
    assert state.problems() == ()
    ids = [hid for hid, _ in state.hand_ids()]
    assert ids == ["Ana", "Bob", "Cy", "Ana+Bob", "Bob+Cy", "Cy+Ana"]


def test_a_circle_with_an_empty_shared_hand_names_the_pair() -> None:
    """Issue #54: n players make 2n hands; the app says which pair's hand is missing."""
    state = circular_table().with_shared_text(1, "")
    assert [p.message("fr") for p in state.problems()] == [
        "la main partagée Bob+Cy manque : en circulaire chaque paire de voisins partage une "
        "main, donc 3 joueurs font 6 mains"
    ]
    assert (
        circular_table().with_shared_text(1, "4d").problems()[0].message("en")
        == "shared hand Bob+Cy has 1 card, not 2"
    )
    assert keys(circular_table().with_shared_text(1, "Ah 4d")) == ["card.duplicate"]


def test_retouching_the_picked_card_by_rank_then_suit() -> None:
    state = table().select(RIVER, 0).retouch_selected(rank="K")
    assert state.river[0] == cards("Ks")[0] and state.selected == (RIVER, 0)
    state = state.retouch_selected(suit="h")
    assert state.river[0] == cards("Kh")[0]
    typo = table(river="Zz Kd Qh 7c 2s").select(RIVER, 0).retouch_selected(suit="d")
    assert typo.river[0] == cards("Ad")[0]
    assert table().retouch_selected(rank="K") == table()


def test_a_player_back_in_takes_their_seat_again_with_the_others_cards_kept() -> None:
    four = table(hands=("Ah Ad", "Th 9h", "3c 2c", "5d 5h"), players=("Ana", "Bob", "Cy", "Di"))
    out = four.sit_out("Bob").sit_out("Ana")
    assert out.players == ("Cy", "Di") and out.everyone() == ("Ana", "Bob", "Cy", "Di")
    back = out.back_in("Bob")
    assert back.players == ("Bob", "Cy", "Di") and back.out == ("Ana",)
    assert back.hands == ((), cards("3c 2c"), cards("5d 5h"))
    assert back.back_in("Ana").players == ("Ana", "Bob", "Cy", "Di")
    assert out.cleared().players == ("Ana", "Bob", "Cy", "Di")
    # Renamed meanwhile: the order kept no longer fits, the names as they are.
    renamed = out.with_players_text("Cy, Dee")
    assert renamed.everyone() == ("Cy", "Dee", "Bob", "Ana")


def test_more_jokers_than_the_tarot_trumps_are_a_problem_named() -> None:
    """Issue #54: 22 trumps a tarot deck; the app says so as the CLI does."""
    # Hands of ten where the setup deals ten (classic lets hand sizes differ).
    many = table(hands=("* " * 10, "* " * 10, "* " * 3)).with_dealt_text("2, Ana 10, Bob 10, Cy 3")
    assert [p.message("fr") for p in many.problems()] == [
        "23 jokers, dans Ana (10 fois), Bob (10 fois) et Cy (3 fois), alors qu'un seul jeu n'a "
        "que les 22 atouts du tarot (excuse comprise) : vérifiez les cartes, ou passez decks à 2"
    ]
    fewer = table(hands=("* " * 10, "* " * 10, "* *")).with_dealt_text("2, Ana 10, Bob 10")
    assert fewer.problems() == ()

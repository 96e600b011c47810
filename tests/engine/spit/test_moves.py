from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import replace

import pytest

from companion.engine.cards import DECK, Card, parse_card
from companion.engine.spit import (
    VARIANTS,
    Deal,
    Move,
    Phase,
    Play,
    PlayerSide,
    Recycle,
    Shift,
    Spit,
    SpitRules,
    SpitState,
    Stock,
    Take,
    Turn,
    all_cards,
    apply_move,
    can_stack,
    chance_move,
    check_move,
    is_legal,
    is_stuck,
    is_terminal,
    lay_out,
    legal_moves,
    new_game,
    returns,
    start_state,
)
from companion.errors import IllegalMoveError
from tests.helpers import cards

CLASSIC = VARIANTS["classic"]
ALTERNATE = VARIANTS["alternate"]
CHOOSER = VARIANTS["chooser"]
SPEED = VARIANTS["speed"]
FOUR = VARIANTS["four-stocks"]


def ids(cards: Iterable[Card]) -> list[int]:
    return sorted(card.id for card in cards)


def stock(text: str, up: bool = True) -> Stock:
    """Cards bottom to top; the top face up unless ``up`` is False."""
    return Stock(cards(text), up and bool(text))


def side(*stocks: Stock, spit: str = "", spaces: int = 5) -> PlayerSide:
    return PlayerSide(tuple(stocks) + (Stock(),) * (spaces - len(stocks)), cards(spit))


def position(
    piles: tuple[str, str] = ("7h", "Kc"),
    p1: PlayerSide | None = None,
    p2: PlayerSide | None = None,
    rules: SpitRules = CLASSIC,
    live: int | None = None,
) -> SpitState:
    """A middle-game position; by default:

    player 1: 8d | 4c 2s | (6h face down) | empty | Jc 9c, spit 3d 3h
    player 2: Qh | 5c, spit 4d 4h
    """
    if p1 is None:
        p1 = side(
            stock("8d"),
            stock("4c 2s"),
            stock("6h", up=False),
            Stock(),
            stock("Jc 9c"),
            spit="3d 3h",
        )
    if p2 is None:
        p2 = side(stock("Qh"), stock("5c"), spit="4d 4h")
    return SpitState(rules, (p1, p2), (cards(piles[0]), cards(piles[1])), live=live)


# --- stacking ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("card", "on", "rules", "expected"),
    [
        ("8d", "7h", CLASSIC, True),
        ("6d", "7h", CLASSIC, True),
        ("9d", "7h", CLASSIC, False),
        ("7d", "7h", CLASSIC, False),
        ("Ks", "Ah", CLASSIC, True),  # turning the corner, both ways
        ("2s", "Ah", CLASSIC, True),
        ("As", "Kh", CLASSIC, True),
        ("As", "2h", CLASSIC, True),
        ("2s", "Kh", CLASSIC, False),
        ("8s", "7h", ALTERNATE, True),
        ("8d", "7h", ALTERNATE, False),
        ("8c", "7s", ALTERNATE, False),
        ("Kd", "Ac", ALTERNATE, True),
    ],
)
def test_can_stack(card: str, on: str, rules: SpitRules, expected: bool) -> None:
    assert can_stack(parse_card(card), parse_card(on), rules) is expected


# --- layouts -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rules", "count", "sizes", "spit"),
    [
        (CLASSIC, 26, [1, 2, 3, 4, 5], 11),
        (CLASSIC, 15, [1, 2, 3, 4, 5], 0),
        (CLASSIC, 14, [1, 2, 3, 4, 4], 0),
        (CLASSIC, 11, [1, 2, 3, 3, 2], 0),
        (CLASSIC, 3, [1, 1, 1, 0, 0], 0),
        (FOUR, 26, [1, 2, 3, 4], 16),
        (FOUR, 10, [1, 2, 3, 4], 0),
        (FOUR, 9, [1, 2, 3, 3], 0),
        (SPEED, 20, [1, 1, 1, 1, 1], 15),
        (SPEED, 3, [1, 1, 1, 0, 0], 0),
    ],
)
def test_lay_out_deals_row_by_row(
    rules: SpitRules, count: int, sizes: list[int], spit: int
) -> None:
    dealt = DECK[:count]
    side = lay_out(dealt, rules)
    assert [len(s.cards) for s in side.stocks] == sizes
    assert len(side.spit) == spit
    assert all(s.face_up == bool(s.cards) for s in side.stocks)
    assert sorted(c.id for s in side.stocks for c in s.cards) == list(range(count - spit))
    assert side.spit == dealt[count - spit :]


def test_lay_out_top_is_last_card_dealt_to_the_space() -> None:
    side = lay_out(DECK[:26], CLASSIC)
    # Row 0 deals cards 0..4, row 1 cards 5..8 on spaces 2..5: space 2 gets 1 then 5.
    assert side.stocks[1].cards == (DECK[1], DECK[5])
    assert side.spit == DECK[15:26]


def test_start_state_deals_each_player_26() -> None:
    state = start_state(CLASSIC, DECK)
    assert [side.stock_count + len(side.spit) for side in state.players] == [26, 26]
    assert legal_moves(state) == (Spit(),)
    assert is_stuck(state)


@pytest.mark.parametrize(
    ("name", "draw", "side"),
    [
        # Spit, "Vitesse": 15 cards each, 10 at each end and two in the middle (issue #43)...
        ("speed", 10, 11),
        # ... or 20 each and side piles of 5; each side pile's top is a centre card.
        ("speed-20", 15, 6),
    ],
)
def test_start_state_speed_deals_as_the_rules_say(name: str, draw: int, side: int) -> None:
    state = start_state(VARIANTS[name], DECK)
    assert [len(p.spit) for p in state.players] == [draw, draw]
    assert [sum(len(s.cards) for s in p.stocks) for p in state.players] == [5, 5]
    assert [len(pile) for pile in state.side_piles] == [side, side]
    assert len(all_cards(state)) == 52
    started = apply_move(state, Spit())  # the two centre cards turned up
    assert [len(pile) for pile in started.side_piles] == [side - 1, side - 1]
    assert all(len(pile) == 1 for pile in started.piles)


@pytest.mark.parametrize("deck", [DECK[:51], DECK[:51] + DECK[:1], DECK[1:] + (parse_card("*"),)])
def test_start_state_needs_one_whole_deck(deck: tuple) -> None:
    with pytest.raises(IllegalMoveError) as info:
        start_state(CLASSIC, deck)
    assert info.value.rule == "deal_cards"


# --- checking moves ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("move", "rule"),
    [
        (Play(0, 0, 0), None),  # 8d on 7h
        (Play(1, 0, 1), None),  # Qh on Kc
        (Play(0, 0, 1), "rank_not_adjacent"),
        (Play(1, 1, 0), "rank_not_adjacent"),
        (Play(0, 2, 0), "card_face_down"),
        (Play(0, 3, 0), "stock_empty"),
        (Play(0, 5, 0), "no_such_stock"),
        (Play(0, 0, 2), "no_such_pile"),
        (Play(2, 0, 0), "no_such_player"),
        (Turn(0, 2), None),
        (Turn(0, 0), "already_face_up"),
        (Turn(0, 3), "stock_empty"),
        (Shift(0, 4, 3), None),  # 9c off Jc to the empty space
        (Shift(0, 1, 3), None),
        (Shift(0, 0, 3), "shift_uncovers_nothing"),
        (Shift(0, 4, 0), "space_taken"),
        (Shift(0, 2, 3), "card_face_down"),
        (Shift(1, 0, 4), "shift_uncovers_nothing"),
        (Spit(), "not_stuck"),
        (Take(0, 0), "still_playing"),
        (Deal(((), ())), "still_playing"),
        (Recycle(()), "still_playing"),
    ],
)
def test_check_move_names_the_rule(move: Move, rule: str | None) -> None:
    state = position()
    if rule is None:
        check_move(state, move)
        assert move in legal_moves(state)
        assert is_legal(state, move)
    else:
        with pytest.raises(IllegalMoveError) as info:
            apply_move(state, move)
        assert info.value.rule == rule
        assert move not in legal_moves(state)
        assert info.value.message("fr") != info.value.message("en")


def test_legal_moves_per_player() -> None:
    state = position()
    assert set(legal_moves(state, 0)) == {Play(0, 0, 0), Turn(0, 2), Shift(0, 1, 3), Shift(0, 4, 3)}
    assert legal_moves(state, 1) == (Play(1, 0, 1),)
    assert set(legal_moves(state)) == set(legal_moves(state, 0)) | set(legal_moves(state, 1))


@pytest.mark.parametrize(
    ("rules", "live", "piles", "move", "rule"),
    [
        (ALTERNATE, None, ("7h", "Kc"), Play(0, 0, 0), "same_colour"),
        (ALTERNATE, None, ("7s", "Kc"), Play(0, 0, 0), None),
        (ALTERNATE, None, ("7h", "Kc"), Play(1, 0, 1), None),
        (CLASSIC, 1, ("7h", "Kc"), Play(0, 0, 0), "pile_closed"),
        (CLASSIC, 0, ("7h", "Kc"), Play(0, 0, 0), None),
        (CLASSIC, None, ("", "Kc"), Play(0, 0, 0), "pile_empty"),
    ],
)
def test_check_move_variants_and_piles(
    rules: SpitRules, live: int | None, piles: tuple[str, str], move: Move, rule: str | None
) -> None:
    state = position(piles, rules=rules, live=live)
    assert is_legal(state, move) is (rule is None)
    if rule is not None:
        with pytest.raises(IllegalMoveError) as info:
            check_move(state, move)
        assert info.value.rule == rule


def test_messages_name_the_cards() -> None:
    with pytest.raises(IllegalMoveError) as info:
        check_move(position(), Play(0, 0, 1))
    assert "8♦" in info.value.message("en") and "K♣" in info.value.message("en")
    assert info.value.message("fr").startswith("coup interdit")


# --- applying moves ------------------------------------------------------------------------------


def test_apply_play_turn_shift() -> None:
    state = position(piles=("3h", "Kc"))
    after = apply_move(state, Play(0, 1, 0))  # 2s on 3h
    assert after.piles[0] == cards("3h 2s")
    assert after.players[0].stocks[1] == Stock(cards("4c"), False)
    assert state.piles[0] == cards("3h")  # the old state is untouched
    after = apply_move(after, Turn(0, 1))
    assert after.players[0].stocks[1] == Stock(cards("4c"), True)
    after = apply_move(after, Shift(0, 4, 3))
    assert after.players[0].stocks[3] == Stock(cards("9c"), True)
    assert after.players[0].stocks[4] == Stock(cards("Jc"), False)


def stuck_position(spit1: str, spit2: str, live: int | None = None) -> SpitState:
    p1 = side(stock("2c"), stock("2d"), stock("2h"), stock("2s"), stock("3c"), spit=spit1)
    p2 = side(stock("3d"), stock("3h"), stock("3s"), stock("4c"), stock("4d"), spit=spit2)
    return SpitState(CLASSIC, (p1, p2), (cards("8s"), cards("9s")), live=live)


def test_both_spit_each_on_their_own_pile() -> None:
    state = stuck_position("Jd Qd", "Jh Qh")
    assert is_stuck(state)
    assert legal_moves(state) == (Spit(),)
    after = apply_move(state, Spit())
    assert after.piles == (cards("8s Qd"), cards("9s Qh"))
    assert after.live is None
    with pytest.raises(IllegalMoveError) as info:
        check_move(state, Spit(0))
    assert info.value.rule == "spit_own_pile"


def test_lone_spitter_chooses_a_pile_that_becomes_the_only_one() -> None:
    state = stuck_position("", "Jh Qh")
    assert set(legal_moves(state)) == {Spit(0), Spit(1)}
    with pytest.raises(IllegalMoveError) as info:
        check_move(state, Spit())
    assert info.value.rule == "spit_alone_pile"
    after = apply_move(state, Spit(1))
    assert after.live == 1 and after.piles[1] == cards("9s Qh")
    # Qh on the only pile is still no use to anyone: stuck again, and only pile 2 is open.
    assert legal_moves(after) == (Spit(1),)
    with pytest.raises(IllegalMoveError) as info:
        check_move(after, Spit(0))
    assert info.value.rule == "pile_closed"
    after = apply_move(after, Spit(1))
    assert after.piles[1][-1] == parse_card("Jh")


def test_stuck_without_spit_cards_ends_the_round() -> None:
    state = apply_move(stuck_position("", "Qh"), Spit(0))
    assert state.phase is Phase.TAKE and state.emptied is None
    # Pile 1 holds 8s Qh, pile 2 only 9s: either may be slapped (pile 2 is the better slap).
    assert set(legal_moves(state)) == {Take(p, pile) for p in (0, 1) for pile in (0, 1)}


def test_emptying_the_stock_ends_the_round() -> None:
    p1 = side(stock("8d"), spit="3d 3h")
    state = position(p1=p1)
    after = apply_move(state, Play(0, 0, 0))
    assert after.phase is Phase.TAKE and after.emptied == 0
    assert not is_terminal(after) and returns(after) == (0.0, 0.0)


def test_emptying_stock_and_spit_wins() -> None:
    state = position(p1=side(stock("8d")))
    after = apply_move(state, Play(0, 0, 0))
    assert is_terminal(after) and after.winner == 0
    assert returns(after) == (1.0, -1.0)
    assert legal_moves(after) == ()
    with pytest.raises(IllegalMoveError) as info:
        check_move(after, Play(1, 0, 1))
    assert info.value.rule == "game_over"


def round_over(rules: SpitRules) -> SpitState:
    p1 = side(stock("8d"), spit="3d 3h")
    state = position(piles=("5h 6h 7h", "Kc"), p1=p1, rules=rules)
    return apply_move(state, Play(0, 0, 0))  # player 1 emptied; piles: 4 cards vs 1


@pytest.mark.parametrize(
    ("rules", "move", "rule"),
    [
        (CLASSIC, Take(0, 1), None),
        (CLASSIC, Take(1, 1), None),  # either hand may be the faster slap
        (CLASSIC, Take(0, 0), None),  # the larger pile: legal, only not strategic
        (CHOOSER, Take(0, 0), None),
        (CHOOSER, Take(0, 1), None),
        (CHOOSER, Take(1, 1), "chooser"),
        (CLASSIC, Take(0, 2), "no_such_pile"),
        (CLASSIC, Play(1, 0, 1), "round_over"),
        (CLASSIC, Spit(), "round_over"),
    ],
)
def test_taking_piles(rules: SpitRules, move: Move, rule: str | None) -> None:
    state = round_over(rules)
    assert is_legal(state, move) is (rule is None)
    assert (move in legal_moves(state)) is (rule is None)
    if rule is not None:
        with pytest.raises(IllegalMoveError) as info:
            check_move(state, move)
        assert info.value.rule == rule


def test_take_gathers_pile_stock_and_spit_then_deal_lays_out() -> None:
    state = round_over(CLASSIC)
    after = apply_move(state, Take(1, 1))  # player 2 slaps Kc; player 1 gets the 4 cards
    assert after.phase is Phase.DEAL
    assert ids(after.gathered[0]) == ids(cards("5h 6h 7h 8d 3d 3h"))
    assert ids(after.gathered[1]) == ids(cards("Kc Qh 5c 4d 4h"))
    with pytest.raises(IllegalMoveError) as info:
        check_move(after, Deal((after.gathered[0][1:], after.gathered[1])))
    assert info.value.rule == "deal_cards"
    with pytest.raises(IllegalMoveError) as info:
        check_move(after, Take(0, 0))
    assert info.value.rule == "shuffle_first"
    dealt = apply_move(after, chance_move(after, random.Random(3)))
    assert dealt.round == 2
    for player in (0, 1):
        laid = dealt.players[player]
        assert ids(c for s in laid.stocks for c in s.cards) == ids(after.gathered[player])


def test_short_player_leaves_a_single_spit_pile() -> None:
    state = SpitState(CLASSIC, (side(), side()), phase=Phase.DEAL, gathered=(DECK[:40], DECK[40:]))
    dealt = apply_move(state, Deal((DECK[:40], DECK[40:])))
    assert [len(side.spit) for side in dealt.players] == [25, 0]
    assert set(legal_moves(dealt)) == {Spit(0), Spit(1)}
    after = apply_move(dealt, Spit(1))
    assert after.live == 1 and after.piles == ((), (DECK[39],))


def test_chooser_falls_back_to_the_slap_when_the_round_ends_stuck() -> None:
    state = replace(stuck_position("", "Qh"), rules=CHOOSER)
    state = apply_move(state, Spit(0))
    assert state.phase is Phase.TAKE and state.emptied is None
    assert set(legal_moves(state)) == {Take(p, pile) for p in (0, 1) for pile in (0, 1)}


# --- Speed ---------------------------------------------------------------------------------------


def speed_position(draw1: str = "2c 3c", side_piles: tuple[str, str] = ("Js", "Qs")) -> SpitState:
    p1 = side(stock("8d"), stock("Ac"), spit=draw1)
    p2 = side(stock("Qh"), stock("5c"), spit="4d")
    return SpitState(
        SPEED,
        (p1, p2),
        (cards("Ts 7h"), cards("8s Kc")),
        side_piles=(cards(side_piles[0]), cards(side_piles[1])),
    )


def test_speed_draws_back_up_to_five() -> None:
    after = apply_move(speed_position(), Play(0, 0, 0))
    assert after.players[0].stocks[0] == Stock(cards("3c"), True)
    assert after.players[0].spit == cards("2c")


def test_speed_stuck_flips_the_side_piles_then_recycles() -> None:
    state = apply_move(apply_move(speed_position(), Play(0, 0, 0)), Play(1, 0, 1))
    # piles 7h 8d | Kc Qh; hands 3c Ac | 4d 5c: nobody can play.
    assert is_stuck(state) and legal_moves(state) == (Spit(),)
    state = apply_move(state, Spit())
    assert [pile[-1] for pile in state.piles] == list(cards("Js Qs"))
    assert state.phase is Phase.RECYCLE  # still stuck, side piles empty
    with pytest.raises(IllegalMoveError) as info:
        check_move(state, Recycle(()))
    assert info.value.rule == "deal_cards"
    under = state.piles[0][:-1] + state.piles[1][:-1]
    after = apply_move(state, Recycle(under))
    assert after.phase is Phase.PLAY
    assert after.piles == (cards("Js"), cards("Qs"))
    assert after.side_piles == (under[:3], under[3:])


def test_speed_win_with_empty_hand_and_draw() -> None:
    p1 = side(stock("8d"))
    state = replace(speed_position(), players=(p1, speed_position().players[1]))
    after = apply_move(state, Play(0, 0, 0))
    assert after.winner == 0 and is_terminal(after)


@pytest.mark.parametrize("name", list(VARIANTS))
def test_new_game_is_reproducible(name: str) -> None:
    assert new_game(VARIANTS[name], random.Random(5)) == new_game(VARIANTS[name], random.Random(5))
    assert new_game(VARIANTS[name], random.Random(5)) != new_game(VARIANTS[name], random.Random(6))


@pytest.mark.parametrize("rules", [CLASSIC, SPEED])
def test_nothing_to_spit_in_an_unsettled_position(rules: SpitRules) -> None:
    # Built by hand, without ``settle``: stuck, and no spit cards or side cards anywhere.
    state = replace(stuck_position("", ""), rules=rules)
    assert is_stuck(state) and legal_moves(state) == ()
    with pytest.raises(IllegalMoveError) as info:
        check_move(state, Spit())
    assert info.value.rule == "nothing_to_spit"


def test_with_a_single_spit_pile_the_slap_takes_nothing() -> None:
    """The rules' "FIN": with one spit pile, its cards go to the player who did not empty their
    stock (issue #54: no slap then); when nobody emptied one, the slap takes the empty place."""
    state = replace(round_over(CLASSIC), piles=((), tuple(cards("5h 6h 7h"))))
    assert legal_moves(state) == (Take(1, 1),)  # player 1 emptied: player 2 takes the pile
    stuck = replace(state, emptied=None)
    assert set(legal_moves(stuck)) == {Take(0, 0), Take(1, 0)}
    with pytest.raises(IllegalMoveError) as info:
        check_move(stuck, Take(0, 1))
    assert info.value.rule == "single_pile"
    assert "the other player takes pile 2" in str(info.value)
    assert "l'autre joueur prend le tas 2" in info.value.message("fr")

"""The cribbage screen in players' words: every text it shows, in French and English, for a
spread of states (refusals included), names rules in words, never by their ids."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import flet as ft
import pytest

from companion.engine.cribbage.score import Rule
from companion.messages import en, fr
from companion.ui.cribbage.actions import count_to, load_show_photo, peg_to, score, show_read
from companion.ui.cribbage.state import PEG_ENDS
from companion.ui.kit.services import Services
from companion.ui.shell.navigation import open_screen
from companion.ui.shell.state import AppState
from tests.ui.screens import Session, find, png, shown
from tests.vision.layouts.builders import ABOVE, ROW, reads

GAMES = ("crib_board", "crib_count", "cribbage")


def rule_ids() -> set[str]:
    """What programs call the rules whose words this screen shows (from their message keys),
    and the ends of a count; one-word names, like "wild", are words too and are left out."""
    ids = {end for end in PEG_ENDS if "_" in end} | {r.value for r in Rule if "_" in r.value}
    for key in en.MESSAGES:
        game, _, name = key.partition(".")
        if game in GAMES and "_" in name:
            ids.add(name)
    return ids


IDS = rule_ids()
# A snake_case token is a program's name wherever it stands, unless it is part of a file name
# (the model's path, in the note saying why photos cannot be read).
SNAKE = re.compile(r"(?<![\w./-])[a-z]+(?:_[a-z0-9]+)+(?![\w./-])")
CODES = re.compile(r"\b(?:crib_board|crib_count|cribbage|move)\.[a-z_]+")


def ids_in(text: str) -> list[str]:
    words = set(re.findall(r"[\w-]+", text))
    return sorted({*(i for i in IDS if i in words), *SNAKE.findall(text), *CODES.findall(text)})


def check_words(session: Session) -> list[str]:
    """The page's texts in both languages; fails on any id among them."""
    seen: list[str] = []
    for lang in ("fr", "en"):
        page = Session(replace(session.state, lang=lang), session.services).view()
        for text in shown(page):
            assert not ids_in(text), f"{lang}: {text!r} names {ids_in(text)}"
            seen.append(text)
    return seen


def counter(services: Services, lang: str) -> Session:
    """The cribbage screen as the navigation bar opens it, on a real game log."""
    session = Session(AppState(lang=lang), services)
    session.dispatch(open_screen("cribbage"))
    return session


def counted(session: Session, hand: str, starter: str) -> str:
    """What the counter says of a show typed: here, why it cannot be counted."""
    session.submit("crib-hand", hand)
    session.submit("crib-starter", starter)
    return str(find(session.view(), "crib-count-error").value)


def typed(key: str, value: str) -> Callable[[Session], None]:
    return lambda s: s.submit(key, value)


def tapped(key: str) -> Callable[[Session], None]:
    return lambda s: s.tap(key)


def dispatched(action: Any) -> Callable[[Session], None]:
    return lambda s: s.dispatch(action)


def peg_end(end: str) -> Callable[[Session], None]:
    def pick(s: Session) -> None:
        control = find(s.view(), "crib-peg-end")
        control.value = end
        control.on_select(ft.Event("select", control))

    return pick


def won(s: Session) -> None:
    for _ in range(5):
        s.submit("show-1", "24")
    s.submit("show-1", "1")  # 121: the game is over


STEPS: dict[str, list[Callable[[Session], None]]] = {
    "a show counted, then as a crib, then pegged": [
        typed("crib-hand", "4c 5d 6h Kc"),
        typed("crib-starter", "5s"),
        tapped("count-to-1"),
        typed("crib-hand", "2h 4h 6h 8h"),
        typed("crib-starter", "Jc"),
    ],
    "a nineteen hand": [typed("crib-hand", "2c 4d 6h 8s"), typed("crib-starter", "Tc")],
    "shows that cannot be counted": [
        typed("crib-hand", "4c 5d 6h"),
        typed("crib-starter", "5s"),
        typed("crib-hand", "4c 5d 6h Zz"),
        typed("crib-hand", "4c 5d 6h *"),
        typed("crib-hand", "4c 5d 6h Kc"),
        typed("crib-starter", "4c"),
        typed("crib-starter", ""),
    ],
    "the board's refusals": [
        typed("show-0", "19"),
        typed("crib-0", "27"),
        typed("show-1", "30"),
        typed("show-1", "douze"),
        dispatched(score(0, "peg", 0)),
        dispatched(score(0, "peg", 16)),
        dispatched(score(1, "heels", 1)),
        typed("crib-players", "Ana"),
        typed("crib-players", "Ana, ana"),
        typed("crib-players", " , "),
        dispatched(count_to(0)),
        tapped("crib-undo"),
        typed("show-0", "12"),
        tapped("peg-0-1"),
        tapped("crib-undo"),
    ],
    "a game won, then a score after it": [
        won,
        dispatched(score(0, "peg", 2)),
        tapped("crib-new"),
    ],
    "pegging counts": [
        typed("crib-peg-cards", "5h 5d 5s"),
        peg_end("last_card"),
        typed("crib-peg-cards", "Kc Qd Ts Ac"),
        peg_end("go"),
        typed("crib-peg-cards", "Kc Qd 9h"),
        typed("crib-peg-cards", "9c 2d"),
        dispatched(peg_to(0)),
        typed("crib-peg-cards", "Kc Qd Ts 5s"),
        typed("crib-peg-cards", "Kc zz"),
    ],
    "discard advice": [
        typed("crib-deal", "5c 5d Jh Qs 2c 9d"),
        typed("crib-deal", "5c 5d"),
        typed("crib-deal", "5c 5d Jh Qs 2c 5c"),
        typed("crib-deal", "5c 5d Jh Qs 2c *"),
        typed("crib-deal", "5c 5d Jh Qs 2c xx"),
    ],
    "photos": [
        dispatched(lambda state, _s: show_read(state, reads(*ROW, ABOVE, conf=0.6))),
        dispatched(lambda state, _s: show_read(state, reads(*ROW))),
        dispatched(lambda state, _s: show_read(state, reads(*ROW, ("5s", 580, 500)))),
        dispatched(load_show_photo(b"not an image", "show.jpg")),
        dispatched(load_show_photo(png(), "show.png")),
    ],
}


@pytest.mark.parametrize("steps", STEPS.values(), ids=STEPS.keys())
def test_no_text_names_a_rule_by_its_id(
    services: Services, steps: list[Callable[[Session], None]]
) -> None:
    session = counter(services, "en")
    check_words(session)
    for step in steps:
        step(session)
        check_words(session)


def test_the_ids_are_caught() -> None:
    # The check itself: the ids this screen's errors carry are among those looked for.
    assert {"points_range", "impossible_show", "heels_two", "game_over", "last_card"} <= IDS
    assert ids_in("a peg (points_range) scores 1 to 15") == ["points_range"]
    assert ids_in("crib_board.two_players") == ["crib_board.two_players", "two_players"]
    assert ids_in("models/card_corners.onnx: file not found") == []


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("en", "illegal move: no hand or crib scores 19: count it again"),
        ("fr", "coup interdit : aucune main ni crib ne vaut 19 : recomptez"),
    ],
)
def test_a_refused_score_says_the_rule_in_words(services: Services, lang: str, words: str) -> None:
    session = counter(services, lang)
    session.submit("show-0", "19")
    banner = find(session.view(), "banner")
    assert banner.content.value == words
    assert session.state.banner is not None and session.state.banner.error
    assert session.state.cribbage.board.entries == ()


@pytest.mark.parametrize(
    ("step", "en_text", "fr_text"),
    [
        (
            dispatched(score(0, "peg", 16)),
            "illegal move: a pegging play scores 1 to 15, not 16",
            "coup interdit : un pegging vaut de 1 à 15, pas 16",
        ),
        (
            dispatched(score(0, "show", 30)),
            "illegal move: a hand scores 0 to 29, not 30",
            "coup interdit : une main vaut de 0 à 29, pas 30",
        ),
        (
            dispatched(score(0, "heels", 3)),
            "illegal move: his heels scores 2, not 3",
            "coup interdit : le valet retourné vaut 2, pas 3",
        ),
        (
            typed("show-0", "douze"),
            "“douze” is not a number of points",
            "« douze » n'est pas un nombre de points",
        ),
        (
            typed("crib-players", "Ana, ana"),
            "cribbage here is for two players with two different names, not Ana and ana",
            "le cribbage se joue ici à deux joueurs de noms différents, pas Ana et ana",
        ),
        (
            typed("crib-players", " , "),
            "cribbage here is for two players with two different names, not none",
            "le cribbage se joue ici à deux joueurs de noms différents, pas aucun",
        ),
        (
            dispatched(count_to(0)),
            "type or photograph a show first",
            "tapez ou photographiez d'abord un compte",
        ),
    ],
)
def test_each_refusal_in_both_languages(
    services: Services, step: Callable[[Session], None], en_text: str, fr_text: str
) -> None:
    session = counter(services, "en")
    step(session)
    assert session.state.banner is not None and session.state.banner.error
    assert session.state.banner.text("en") == en_text
    assert session.state.banner.text("fr") == fr_text


def test_cards_on_the_counter_are_written_with_suit_glyphs(services: Services) -> None:
    # The app's font draws the suits (ui/kit/fonts.py): cards in sentences look as printed.
    session = counter(services, "en")
    error = counted(session, "4c 5d 6h 10h", "4c")
    assert error.startswith("4♣ appears twice (the hand and the starter)")
    session.submit("crib-deal", "5c 5d Jh")
    assert find(session.view(), "advice-error").value.endswith(": 5♣ 5♦ J♥")
    assert any("♣" in text for text in check_words(session))


def test_a_mistyped_card_is_said_in_cribbages_words(services: Services) -> None:
    # Not the cards' general words, which offer "*" for a wild card that cribbage refuses.
    session = counter(services, "fr")
    error = counted(session, "4c 5d 6h Zz", "5s")
    assert error == "« Zz » n'est pas une carte (la main) ; écrivez par ex. As, Td, 10h ou Q♥"
    session.tap("lang")
    error = find(session.view(), "crib-count-error").value
    assert error == "“Zz” is not a card (the hand); write cards like As, Td, 10h or Q♥"
    chip = find(session.view(), "crib-hand-card-3")
    assert chip.content.value == "Zz" and chip.bgcolor == ft.Colors.PINK_50  # flagged there


@pytest.mark.parametrize("prefix", ["crib_", "spit_"])
def test_punctuation_is_spaced_the_french_way_in_french_only(prefix: str) -> None:
    # French puts a space before : ; ! ? (and inside « »); English never does.
    keys = [key for key in en.MESSAGES if key.startswith(prefix)]
    assert keys and all(key in fr.MESSAGES for key in keys)
    for key in keys:
        english, french = en.MESSAGES[key], fr.MESSAGES[key]
        assert not re.search(r" [:;!]|[«»]", english), key
        assert not re.search(r"\S[:;!](?=\s|$)|«\S|\S»", french), key

"""The Spit screen in players' words: every text it shows, in French and English, for a spread
of positions, disputes and photos (refusals included), names rules and variants in words, never
by their ids."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace
from types import SimpleNamespace

import numpy as np
import pytest

from companion.engine.spit import VARIANTS
from companion.engine.spit.referee import Situation
from companion.messages import en
from companion.ui.kit.services import LazyDetector, Services
from companion.ui.kit.text import t
from companion.ui.shell.state import AppState
from companion.ui.spit.actions import load_spit_photo
from companion.vision import Detections
from tests.ui.conftest import no_model
from tests.ui.screens import Session, find, shown
from tests.ui.spit.test_screen import jpeg, reading, type_position
from tests.vision.layouts.builders import reads, spit_layout

Step = Callable[[Session], None]


def rule_ids() -> set[str]:
    """What programs call Spit's rules and situations (from the rules' message keys); one-word
    names, like "chooser", are left to the variants' check."""
    ids = {s.value for s in Situation if "_" in s.value}
    for key in en.MESSAGES:
        game, _, name = key.partition(".")
        if game in ("spit", "photo") and "_" in name:
            ids.add(name)
    return ids


IDS = rule_ids()
SNAKE = re.compile(r"(?<![\w./-])[a-z]+(?:_[a-z0-9]+)+(?![\w./-])")


def variant_ids(lang: str) -> set[str]:
    """The variants' ids that are not words of their own names in ``lang`` (in English,
    "classic" and "alternate colours" hold theirs; "four stocks" does not)."""
    return {v for v in VARIANTS if v not in t(f"spit_v_{v}", lang).split()}


def ids_in(text: str, lang: str) -> list[str]:
    words = set(re.findall(r"[\w-]+", text))
    return sorted(words & (IDS | variant_ids(lang)) | set(SNAKE.findall(text)))


def check_words(session: Session) -> list[str]:
    """The page's texts in both languages; fails on any id among them."""
    seen: list[str] = []
    for lang in ("fr", "en"):
        page = Session(replace(session.state, lang=lang), session.services).view()
        for text in shown(page):
            assert not ids_in(text, lang), f"{lang}: {text!r} names {ids_in(text, lang)}"
            seen.append(text)
    return seen


def position(piles: str, p1: str, p2: str, spit: str = "1 1") -> Step:
    return lambda s: type_position(s, piles, p1, p2, spit)


def picked(key: str, value: str) -> Step:
    return lambda s: find(s.view(), key).on_select(
        SimpleNamespace(control=SimpleNamespace(value=value))
    )


def disputed(move: str) -> Step:
    return lambda s: s.submit("spit-move", move)


def photo(detections: Detections, data: bytes | None = None) -> Step:
    def read(s: Session) -> None:
        s.services = replace(s.services, detector=reading(detections))
        s.dispatch(load_spit_photo(jpeg() if data is None else data, "table.jpg"))

    return read


def typed(key: str, value: str) -> Step:
    return lambda s: s.submit(key, value)


def unsure(detections: Detections) -> Detections:
    confidence = np.linspace(0.5, 0.95, len(detections))
    return Detections(detections.cards, confidence, detections.xyxy, detections.quads)


LAYOUT = reads(*spit_layout("Qh 5c Td 6s 3h", "7h Kc", "8d 2s - Ac 9c"))
STEPS: dict[str, list[Step]] = {
    "every variant with a position and disputes": [
        position("7h Kc", "8d 2s ? - 9c/3", "Qh 5c"),
        *[
            step
            for variant in VARIANTS
            for step in (
                picked("spit-variant", variant),
                disputed("p1 8d -> pile 1"),
                disputed("p2 5c -> pile 1"),
                disputed("p2 Qh -> pile 1"),
            )
        ],
    ],
    "refused moves": [
        position("7h Kc", "8d 2s ? - 9c/3", "Qh 5c"),
        disputed("p1 turn 1"),
        disputed("p1 turn 4"),
        disputed("p1 9c -> stock 1"),
        disputed("p1 2s -> stock 4"),
        disputed("spit"),
        disputed("p1 takes 1"),
        disputed("p1 Kd -> pile 1"),
        disputed("p1 8d -> pile 3"),
        disputed("p3 8d -> pile 1"),
        disputed("p1 plays whatever"),
        picked("spit-live", "2"),
        disputed("p1 8d -> pile 1"),
        picked("spit-variant", "alternate"),
        disputed("p1 8d -> pile 2"),
    ],
    "positions that cannot be ruled on": [
        position("7h Kc", "8x", ""),
        position("7h Kc", "8d", "8d"),
        position("7h Kc", "*h", ""),
        position("7h/0 Kc", "8d", ""),
        position("7h ?x", "8d", ""),
        picked("spit-variant", "four-stocks"),
        position("7h Kc", "8d 2s 3s 4s 5s", ""),
        picked("spit-variant", "speed"),
        position("7h Kc", "8d 2s 3s 4s 5s 6s", ""),
    ],
    "stuck tables and ends of rounds": [
        position("7d 9s", "Ad Jh", "Kh Jc"),
        disputed("spit"),
        position("7d 9s", "Ad Jh", "Kh Jc", "1 0"),
        disputed("spit on 2"),
        position("7d 9s", "Ad Jh", "Kh Jc", "0 0"),
        position("7h Kc", "", "Qh 5c"),
        disputed("p2 takes 1"),
        position("7h Kc", "", "", "0 3"),
        picked("spit-variant", "chooser"),
        position("7h Kc", "", "Qh 5c"),
        picked("spit-variant", "speed"),
        position("7d 9s", "Ad Jh", "Kh Jc", "5 5"),
        typed("spit-side-0", "3"),
        typed("spit-side-1", "3"),
        disputed("spit"),
        typed("spit-side-0", "0"),
        typed("spit-side-1", "0"),
    ],
    "photos": [
        photo(LAYOUT),
        photo(unsure(LAYOUT)),
        photo(reads(*spit_layout("3h", "2c 2d", "-"))),
        photo(reads(*spit_layout("3h", "2c 2d 5s", "4d"))),
        photo(reads()),
        photo(LAYOUT, b"not an image"),
        lambda s: setattr(s, "services", replace(s.services, detector=LazyDetector(no_model))),
        lambda s: s.dispatch(load_spit_photo(jpeg(), "table.jpg")),
        lambda s: s.tap("spit-new"),
    ],
}


@pytest.mark.parametrize("steps", STEPS.values(), ids=STEPS.keys())
def test_no_text_names_a_rule_or_variant_by_its_id(services: Services, steps: list[Step]) -> None:
    session = Session(AppState(screen="spit"), services)
    check_words(session)
    for step in steps:
        step(session)
        check_words(session)


def test_the_ids_are_caught() -> None:
    assert {"rank_not_adjacent", "same_colour", "stock_count", "both_spit"} <= IDS
    assert ids_in("five stocks: four-stocks allows 4", "en") == ["four-stocks"]
    assert ids_in("is illegal (rank_not_adjacent): 5c", "fr") == ["rank_not_adjacent"]
    assert ids_in("règles : classic", "fr") == ["classic"] and ids_in("classic", "en") == []


@pytest.mark.parametrize(
    ("variant", "stocks", "en_text", "fr_text"),
    [
        (
            "four-stocks",
            "8d 2s 3s 4s 5s",
            "player 1 has 5 stock piles; four stocks allows 4",
            "le joueur 1 a 5 piles de réserve ; quatre réserves en permet 4",
        ),
        (
            "classic",
            "8d 2s 3s 4s 5s 6s",
            "player 1 has 6 stock piles; classic allows 5",
            "le joueur 1 a 6 piles de réserve ; classique en permet 5",
        ),
    ],
)
def test_too_many_stocks_names_the_variant_in_words(
    services: Services, variant: str, stocks: str, en_text: str, fr_text: str
) -> None:
    session = Session(AppState(screen="spit"), services)
    picked("spit-variant", variant)(session)
    type_position(session, "7h Kc", stocks, "")
    assert find(session.view(), "problems").content.value == fr_text
    session.tap("lang")
    assert find(session.view(), "problems").content.value == en_text


@pytest.mark.parametrize(
    ("middle", "en_text", "fr_text"),
    [
        (
            "2c 2d",  # two rows only: the count of rows is what is wrong
            "table.jpg: read 3 cards in 2 rows (3♥ / 2♣ 2♦); a Spit photo needs three rows",
            "table.jpg : 3 cartes lues en 2 rangs (3♥ / 2♣ 2♦) ; une photo de Spit en demande "
            "trois",
        ),
        (
            "2c 2d 5s",  # three rows: the middle one is what is wrong, not the number of rows
            "table.jpg: read 5 cards in three rows (3♥ / 2♣ 2♦ 5♠ / 4♦), but the middle row "
            "holds 3",
            "table.jpg : 5 cartes lues en trois rangs (3♥ / 2♣ 2♦ 5♠ / 4♦), mais le rang du "
            "milieu en a 3",
        ),
    ],
)
def test_a_photo_refused_says_what_is_wrong_with_it(
    services: Services, middle: str, en_text: str, fr_text: str
) -> None:
    session = Session(AppState(screen="spit"), services)
    photo(reads(*spit_layout("3h", middle, "4d" if " 5s" in middle else "-")))(session)
    banner = find(session.view(), "banner").content.value
    assert banner.startswith(fr_text)
    session.tap("lang")
    banner = find(session.view(), "banner").content.value
    assert banner.startswith(en_text)
    # Each says one thing: three rows are never said to be too few.
    assert ("needs three rows" in banner) != ("middle row" in banner)


@pytest.mark.parametrize(
    ("p1", "move", "en_text", "fr_text"),
    [
        (
            "8x",
            "",
            "“8x” is not a pile (player 1's stock 1); write 7h, 10h, 7h/3 for a pile of 3, "
            "? face down or - empty",
            "« 8x » n'est pas une pile (la réserve 1 du joueur 1) ; écrivez 7h, 10h, 7h/3 pour "
            "une pile de 3, ? face cachée ou - vide",
        ),
        (
            "8d *h",
            "",
            "'*h' is not a card (player 1's stock 2; Spit has no wild cards)",
            "'*h' n'est pas une carte (la réserve 2 du joueur 1 ; le Spit n'a pas de joker)",
        ),
        (
            "8d",
            "p1 plays whatever",
            "cannot read the move “p1 plays whatever”; write it as in the examples, "
            "e.g. p1 8d -> pile 1",
            "coup illisible « p1 plays whatever » ; écrivez-le comme dans les exemples, "
            "par ex. p1 8d -> tas 1",
        ),
    ],
)
def test_typing_mistakes_are_said_in_the_screens_words(
    services: Services, p1: str, move: str, en_text: str, fr_text: str
) -> None:
    # Not the command line's: no "* for a wild" where Spit has none, no "--help" on a phone.
    session = Session(AppState(screen="spit"), services)
    type_position(session, "7h Kc", p1, "Qh")
    if move:
        session.submit("spit-move", move)
    assert find(session.view(), "problems").content.value == fr_text
    session.tap("lang")
    assert find(session.view(), "problems").content.value == en_text

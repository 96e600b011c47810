"""Every screen in players' words, in French and in English: a walk through the whole app on
a real game log (the showdown in every variant, a night, the history, a replay, cribbage,
Spit), failing on any internal id on screen (a variant's, a table rule's, a Spit or cribbage
rule's, a message key), on French punctuation spacing in English, on a French default name
on an English screen, on any character the app's font cannot draw, and on a menu, chip or
tappable box that a screen reader (or a browser test) could not name."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable, Iterator
from dataclasses import replace
from typing import Any

import flet as ft
import flet.canvas as cv
import pytest

from companion.engine.gang.ranking import Ranking, Straights, TableRules
from companion.engine.gang.variants import VARIANTS
from companion.engine.spit import VARIANTS as SPIT_VARIANTS
from companion.messages import en, fr
from companion.ui.kit.fonts import FAMILY, font_file
from companion.ui.kit.services import Action, LazyDetector, Services
from companion.ui.night.actions import close_night, start_night
from companion.ui.replay.actions import open_replay, run_replay
from companion.ui.shell.dispatch import run
from companion.ui.shell.navigation import initial_state, open_screen
from companion.ui.shell.state import AppState
from companion.ui.showdown.actions import load_photo, save_heist, save_seats
from companion.ui.showdown.state import RIVER, UI_VARIANTS, ShowdownState
from tests.ui.cribbage.test_words import STEPS as CRIBBAGE_STEPS
from tests.ui.glyphs import characters
from tests.ui.screens import Session, shown
from tests.ui.screens import walk as controls_under
from tests.ui.showdown import photos
from tests.ui.spit.test_words import STEPS as SPIT_STEPS

TEMPLATES = {"en": en.MESSAGES, "fr": fr.MESSAGES}
PLAYERS = ("Ana", "Bob", "Cy")
WORD = re.compile(r"[\w][\w-]*")
SNAKE = re.compile(r"(?<![\w./-])[a-z]+(?:_[a-z0-9]+)+(?![\w./-])")
KEY = re.compile(r"(?<![\w/])[a-z][a-z0-9_-]*\.[a-z][a-z0-9_.-]*(?![\w/])")
# A "?" stands alone in Spit's notation ("? face down"): only : ; ! are checked.
FRENCH_SPACING = re.compile(r"\s[:;!](?=\s|$)|[«»]")
ENGLISH_COLON = re.compile(r"[^\W\d_][:;] ")  # French spaces a colon: "classique : 1/2"
# The names programs give what players name in words, each with the keys of its words: the
# name is a word where it is one of its own words in that language (English's "classic").
NAMED = {
    **{v: [f"variant.{v}"] for v in VARIANTS},
    **{r.value: [f"ranking.{r.value}"] for r in Ranking},
    **{s.value: [f"straights.{s.value}"] for s in Straights},
}
for _v in SPIT_VARIANTS:
    NAMED.setdefault(_v, []).append(f"spit_v_{_v}")


def _own_words(name: str, lang: str) -> set[str]:
    return {w.lower() for key in NAMED[name] for w in WORD.findall(TEMPLATES[lang][key])}


def ids_in(text: str, lang: str) -> list[str]:
    """The internal names ``text`` shows in ``lang``: a variant's or table rule's id that is
    not a word of its name there, snake_case names (the rules': rank_not_adjacent...) and
    message keys."""
    found = {w for w in WORD.findall(text) if w in NAMED and w.lower() not in _own_words(w, lang)}
    found |= set(SNAKE.findall(text))
    found |= {k for k in KEY.findall(text) if k in en.MESSAGES}
    return sorted(found)


def troubles(state: AppState, services: Services) -> Iterator[str]:
    """What is wrong with the words of ``state``'s page in each language. (A French default
    name is looked for on English pages only when the app runs in English: a game begun in
    French keeps the names it was saved under.)"""
    drawn = characters(font_file())
    for lang in ("fr", "en"):
        page = Session(state.in_lang(lang), services).view()
        for label in painted(page):  # a canvas does not take the theme's font
            if label.style is None or label.style.font_family != FAMILY:
                yield f"{lang} {state.screen}: {label.value!r} is painted in another font"
        for text in [*shown(page), *(label.value for label in painted(page))]:
            where = f"{lang} {state.screen}: {text!r}"
            if ids_in(text, lang):
                yield f"{where} names {ids_in(text, lang)}"
            if lang == "en" and FRENCH_SPACING.search(text):
                yield f"{where} is spaced the French way"
            if lang == "fr" and ENGLISH_COLON.search(text):
                yield f"{where} is spaced the English way"
            if lang == "en" and state.lang == "en" and re.search(r"\bJoueur\b", text):
                yield f"{where} keeps a French default name"
            missing = {c for c in text if not c.isspace() and c not in drawn}
            if missing:
                yield f"{where} has characters the font lacks: {sorted(missing)}"
        for control in controls_under(page):
            if not accessible_name(control):
                yield f"{lang} {state.screen}: {type(control).__name__} {control.key!r} has no name"


def painted(page: Any) -> list[cv.Text]:
    """The words painted on canvases (the photo's card codes and owners)."""
    return [
        shape
        for control in controls_under(page)
        for shape in getattr(control, "shapes", None) or ()
        if isinstance(shape, cv.Text) and shape.value
    ]


def accessible_name(control: Any) -> str | None:
    """What a screen reader (and a browser test) calls ``control``; "-" for controls that need
    no name of their own. Menus, chips and icon buttons are named by their tooltip (the web
    client gives them none otherwise); a tappable box by its text."""
    if isinstance(control, ft.Dropdown | ft.Chip | ft.IconButton):
        return control.tooltip if isinstance(control.tooltip, str) else None
    if isinstance(control, ft.Container) and control.on_click is not None:
        content = control.content
        if isinstance(content, ft.Text):
            return content.semantics_label or content.value
        return None
    return "-"


class Tour(Session):
    """A session that checks the words of every state it passes through."""

    def __init__(self, state: AppState, services: Services) -> None:
        super().__init__(state, services)
        self.found: list[str] = []
        self.seen = 0
        self.look()

    def look(self) -> None:
        self.seen += 1
        self.found += [t for t in troubles(self.state, self.services) if t not in self.found]

    def dispatch(self, action: Action) -> None:
        super().dispatch(action)
        self.look()


def _table(variant: str, hands: tuple[str, ...], rules: TableRules | None = None) -> ShowdownState:
    table = ShowdownState(PLAYERS, variant=variant, rules=rules or TableRules())
    table = table.with_cards_text(RIVER, "As Kd Qh 7c 2s")
    for i, text in enumerate(hands):
        table = table.with_cards_text(i, text)
    return table


def _judged(table: ShowdownState, order: tuple[str, ...]) -> ShowdownState:
    for hand in order:
        table = table.tap_hand(hand)
    return table


def _change(table: ShowdownState) -> Action:
    return lambda state, _services: state.with_table(table)


def showdown_steps(tour: Tour) -> None:
    """Every variant and table rule in the setup, problems, a verdict of each kind."""
    tour.dispatch(open_screen("showdown"))
    for variant in UI_VARIANTS:
        tour.dispatch(_change(_table(variant, ("Ah", "Th 9h 8h 7h 6h 5h", ""))))
    for ranking in Ranking:
        for straights in Straights:
            rules = TableRules(ranking=ranking, straights=straights, decks=2)
            tour.dispatch(_change(_table("classic", ("Ah Ad", "Th 9h", "3c 2s"), rules)))
    classic = _table("classic", ("Ah Ad", "Th 9h", "3c 2c"))
    tour.dispatch(_change(_judged(classic, ("Ana", "Bob", "Cy"))))  # an alarm
    tour.dispatch(_change(classic.with_cards_text(1, "Th Th")))  # a card twice
    two = _table("two-of-four", ("Ah Ad 6c 5c", "Th 9h 8d 8c", "3c 2c Jh Js"))
    tour.dispatch(_change(two.with_two_rivers(True)))


def photo_steps(tour: Tour) -> None:
    """A night's first photo, read by the real reader with a hole card covered: the photo with
    its reads, the seats asked, the doubts listed; the seats kept, then a card picked on it."""
    tour.dispatch(_change(ShowdownState(("Ana", "Bob", "Chloé", "Dan"))))
    tour.dispatch(start_night)
    tour.services = replace(tour.services, detector=LazyDetector())
    tour.dispatch(load_photo(photos.jpeg(photos.covered(photos.scene(), "8s"))))
    assert tour.state.table.read is not None and tour.state.table.seating
    labels = [label.value for label in painted(tour.view())]
    assert any("♥" in code or "♠" in code for code in labels), labels  # codes as printed
    tour.dispatch(save_seats)
    tour.dispatch(_change(tour.state.table.select_spot(0)))


def night_steps(tour: Tour) -> None:
    """A night of three heists (alarms and a vault), its replay, the night closed, history."""
    tour.dispatch(open_screen("night"))
    tour.dispatch(_change(ShowdownState(PLAYERS)))
    tour.dispatch(start_night)
    classic = _table("classic", ("Ah Ad", "Th 9h", "3c 2c"))
    for order in (("Bob", "Cy", "Ana"), ("Ana", "Bob", "Cy"), ("Cy", "Bob", "Ana")):
        tour.dispatch(_change(_judged(classic, order)))
        tour.dispatch(save_heist)
    tour.dispatch(open_screen("night"))
    tour.dispatch(open_replay(tour.state.heists[-1].night_id, tour.state.heists[-1].id))
    assert tour.state.replay is not None
    asyncio.run(run_replay(tour.state.replay, tour.services, tour.dispatch))
    tour.dispatch(lambda state, _services: state.with_replay(None))
    tour.dispatch(close_night)
    tour.dispatch(open_screen("history"))


def game_steps(screen: str, steps: dict[str, list[Callable[[Session], None]]]) -> Callable:
    def walk(tour: Tour) -> None:
        for group in steps.values():
            tour.dispatch(open_screen(screen))
            for step in group:
                step(tour)

    return walk


WALKS = {
    "showdown": showdown_steps,
    "a photo with its reads, seats and doubts": photo_steps,
    "night, replay and history": night_steps,
    "cribbage": game_steps("cribbage", CRIBBAGE_STEPS),
    "spit": game_steps("spit", SPIT_STEPS),
}


@pytest.mark.parametrize("start", ["fr", "en"])
@pytest.mark.parametrize("walk", WALKS.values(), ids=WALKS.keys())
def test_every_screen_speaks_words_in_both_languages(
    services: Services, walk: Callable[[Tour], None], start: str
) -> None:
    tour = Tour(initial_state(services, start), services)
    walk(tour)
    assert tour.seen > 3
    assert not tour.found, "\n".join(tour.found)


@pytest.mark.parametrize(
    ("text", "lang", "found"),
    [
        ("Variante : four-two-hands", "fr", ["four-two-hands"]),
        ("Classement : high, suites normal", "fr", ["high", "normal"]),
        ("classic", "en", []),
        ("classique", "fr", []),
        ("joueur 2 : 5c -> tas 1 (rank_not_adjacent)", "fr", ["rank_not_adjacent"]),
        ("log.night_over", "en", ["log.night_over"]),
        ("règles : speed", "fr", []),
        ("straights: wrap", "en", ["wrap"]),
        ("models/card_corners.onnx: file not found", "en", []),
    ],
)
def test_the_ids_are_caught(text: str, lang: str, found: list[str]) -> None:
    assert ids_in(text, lang) == found


def test_the_checks_catch_what_the_issue_saw(services: Services) -> None:
    # A page with French spacing and a French default name on an English screen.
    state = AppState(lang="en", table=ShowdownState.new(("Joueur 1", "Joueur 2")))
    found = list(troubles(state, services))
    assert any("French default name" in line for line in found)
    assert FRENCH_SPACING.search("Correct order : Bob") and not FRENCH_SPACING.search("a: b")
    assert ENGLISH_COLON.search("classique: 1/2") and not ENGLISH_COLON.search("classique : 1/2")


def test_night_close_is_reached(services: Services) -> None:
    # The walk above ends on a closed night: its outcome and the stats are on screen.
    tour = Tour(AppState(), services)
    night_steps(tour)
    assert tour.state.history and tour.state.stats is not None
    assert run(open_screen("history"), tour.state, services).screen == "history"

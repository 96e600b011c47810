"""The Spit screen: its state without Flet, and its view built from state, used as taps would."""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from dataclasses import replace
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import cv2
import flet as ft
import numpy as np
import pytest

from companion.engine.cards import Card
from companion.engine.spit import Play
from companion.engine.spit.referee import PileView, Situation
from companion.errors import CompanionError, DuplicateCardError, InputError, TableError
from companion.ui.kit.cards import entry, entry_text
from companion.ui.kit.services import LazyDetector, Services
from companion.ui.shell.navigation import open_screen
from companion.ui.shell.state import AppState
from companion.ui.spit.actions import load_spit_photo
from companion.ui.spit.state import Pile, SpitScreen, pile_token
from companion.vision import DEFAULT_MODEL, CardDetector, Detections
from tests.helpers import FIXTURES, cards
from tests.ui.screens import Session, find, texts
from tests.vision.layouts.builders import reads, spit_layout

MODEL = Path(os.environ.get("COMPANION_MODEL", DEFAULT_MODEL))


def typed(piles: str, p1: str, p2: str, spit: tuple[int, int] = (1, 1), **kw: Any) -> SpitScreen:
    screen = SpitScreen(**kw)
    for i, token in enumerate(piles.split()):
        screen = screen.with_pile_text(i, token)
    screen = screen.with_stock_text(0, p1).with_stock_text(1, p2)
    return replace(screen, spit_left=spit)


@pytest.fixture
def session(services: Services) -> Session:
    return Session(AppState(screen="spit"), services)


def page_text(session: Session) -> str:
    return "\n".join(texts(session.view()))


def notation(codes: Iterable[str]) -> list[str]:
    """Card codes (``Td``) as the fields show them (``10d``)."""
    return [entry_text(entry(code)) for code in codes]


def tokens(piles: tuple[Pile, ...]) -> tuple[str, ...]:
    return tuple(pile_token(pile) for pile in piles)


def banner_shown(session: Session) -> str:
    """The banner as the page draws it (suit letters: the web font lacks the glyphs)."""
    return str(find(session.view(), "banner").content.value)


# -- state --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "shown", "unread"),
    [
        ("8d 2s ? - 9c/3", ("8d", "2s", "?", "-", "9c/3"), ()),
        ("Th/3, 10c ;as", ("10h/3", "10c", "As"), ()),  # the app's notation: 10 for the ten
        ("8x ?/2 *h", ("8x", "?/2", "*h"), ("8x", "*h")),  # kept where typed, to be named
        ("?/1 7h/1 ?/0", ("?", "7h", "-"), ()),
        ("", (), ()),
    ],
)
def test_stock_tokens_are_read_once_and_bad_ones_kept_as_typed(
    text: str, shown: tuple[str, ...], unread: tuple[str, ...]
) -> None:
    stocks = SpitScreen().with_stock_text(1, text).stocks
    assert stocks[0] == () and tokens(stocks[1]) == shown
    assert tuple(pile for pile in stocks[1] if isinstance(pile, str)) == unread
    assert all(isinstance(pile, PileView | str) for pile in stocks[1])


def test_a_typed_pile_is_the_engines_view() -> None:
    screen = SpitScreen().with_pile_text(0, "10h/3").with_pile_text(1, "-")
    assert screen.piles == (PileView(cards("Th")[0], 3), PileView(None, 0))
    assert screen.with_pile_text(0, " ").piles == (None, PileView(None, 0))


@pytest.mark.parametrize(
    ("text", "left"), [("4", 4), (" 0 ", 0), ("lots", 1), ("-2", 1), ("99", 52)]
)
def test_card_counts_keep_the_old_count_unless_a_count_is_typed(text: str, left: int) -> None:
    assert SpitScreen().with_spit_text(0, text).spit_left == (left, 1)


def test_no_ruling_until_both_piles_are_typed() -> None:
    screen = SpitScreen().with_pile_text(0, "7h").with_stock_text(0, "8d")
    assert screen.ruling() is None
    assert screen.with_pile_text(1, "Kc").ruling() is not None


@pytest.mark.parametrize(
    ("variant", "piles", "p1", "p2", "plays1", "plays2"),
    [
        ("classic", "7h Kc", "8d 2s", "Qh 5c", {("8d", 0)}, {("Qh", 1)}),
        # Ranks turn the corner: a king or a two goes on an ace.
        ("classic", "Ad 9s", "Kh 2c 5d", "Tc", {("Kh", 0), ("2c", 0)}, {("Tc", 1)}),
        # Alternate colours: a red card only on a black one and the reverse.
        ("alternate", "7h Kc", "8d 8s", "Qh Qs", {("8s", 0)}, {("Qh", 1)}),
        ("four-stocks", "7h Kc", "8d 2s 3s 4s", "Qh", {("8d", 0)}, {("Qh", 1)}),
    ],
)
def test_each_player_legal_plays(
    variant: str,
    piles: str,
    p1: str,
    p2: str,
    plays1: set[tuple[str, int]],
    plays2: set[tuple[str, int]],
) -> None:
    ruling = typed(piles, p1, p2, variant=variant).ruling()
    assert ruling is not None and ruling.situation is Situation.PLAY
    for moves, want in zip(ruling.plays, (plays1, plays2), strict=True):
        got = {
            (str(ruling.state.players[m.player].stocks[m.stock].top), m.pile)
            for m in moves
            if isinstance(m, Play)
        }
        assert len(got) == len(moves)  # plays only, no turn or shift in these positions
        assert got == want


@pytest.mark.parametrize(
    ("spit", "live", "situation"),
    [
        ((3, 2), None, Situation.BOTH_SPIT),
        ((3, 0), None, Situation.SPIT_ALONE),
        ((0, 0), None, Situation.NO_SPIT),
        ((3, 0), 1, Situation.SPIT_ALONE),
    ],
)
def test_stuck_positions(spit: tuple[int, int], live: int | None, situation: Situation) -> None:
    screen = typed("7d 9s", "Ad Jh", "Kh Jc", spit=spit).with_live(live)
    ruling = screen.ruling()
    assert ruling is not None and ruling.situation is situation


def test_one_pile_left_takes_plays_only_there() -> None:
    both = typed("7h 9s", "8d Ts", "Kh").ruling()
    one = typed("7h 9s", "8d Ts", "Kh").with_live(1).ruling()
    assert both is not None and one is not None
    assert {m.pile for m in both.plays[0] if isinstance(m, Play)} == {0, 1}
    assert {m.pile for m in one.plays[0] if isinstance(m, Play)} == {1}


@pytest.mark.parametrize(
    ("screen", "error", "en"),
    [
        (typed("7h Kc", "8x", ""), CompanionError, "8x"),
        (typed("7h Kc", "8d", "8d"), DuplicateCardError, "8♦ appears twice"),
        (
            typed("7h Kc", "8d 2s 3s 4s 5s", "", variant="four-stocks"),
            TableError,
            "player 1 has 5 stock piles; four stocks allows 4",
        ),
        (
            typed("7h Kc", "8d", "").with_move_text("p1 plays whatever"),
            InputError,
            "cannot read the move",
        ),
        (typed("7h Kc", "8d *h", ""), InputError, "'*h' is not a card (player 1's stock 2"),
        (typed("7h 8x", "8d", ""), InputError, "“8x” is not a pile (pile 2); write 7h, 10h"),
    ],
)
def test_a_bad_position_names_what_is_wrong(
    screen: SpitScreen, error: type[Exception], en: str
) -> None:
    with pytest.raises(error) as raised:
        screen.ruling()
    assert isinstance(raised.value, CompanionError)
    assert en in raised.value.message("en")  # the engine's words; the screen writes letters
    assert raised.value.message("fr") != raised.value.message("en")


def test_cleared_keeps_the_rules_only() -> None:
    screen = typed("7h Kc", "8d", "Qh", variant="speed").with_move_text("p1 8d -> pile 1")
    assert screen.cleared() == SpitScreen(variant="speed", edition=screen.edition + 1)


def test_switching_to_speed_or_back_clears_the_position_and_its_ruling() -> None:
    classic = typed("7h Kc", "8d 2s ? - 9c/3", "Qh 5c").with_move_text("p2 5c -> pile 1")
    classic = classic.with_tally(classic.tally.with_target(30))
    assert classic.ruling() is not None
    speed = classic.with_variant("speed")
    # A Spit position is no Speed position (stocks are not a hand): nothing left to rule.
    assert speed.ruling() is None and speed.move == "" and speed.stocks == ((), ())
    assert speed.variant == "speed" and speed.tally == classic.tally
    assert speed.edition == classic.edition + 1  # the fields drop what they showed
    assert speed.with_variant("classic").ruling() is None
    # Between two Spit rules the position means the same: ruled again under the new ones.
    four = classic.with_variant("alternate")
    assert four.piles == classic.piles and four.ruling() is not None
    assert classic.with_variant("no such rules") == classic


# -- the screen ---------------------------------------------------------------------------


def type_position(session: Session, piles: str, p1: str, p2: str, spit: str = "1 1") -> None:
    for i, token in enumerate(piles.split()):
        session.submit(f"spit-pile-{i}", token)
    session.submit("spit-stocks-0", p1)
    session.submit("spit-stocks-1", p2)
    for i, count in enumerate(spit.split()):
        session.submit(f"spit-left-{i}", count)


def test_the_nav_bar_opens_the_referee_not_a_placeholder(services: Services) -> None:
    session = Session(AppState(), services)
    session.dispatch(open_screen("spit"))
    page = session.view()
    assert find(page, "spit-wait").value.startswith("Tapez le dessus des deux tas")
    with pytest.raises(LookupError):
        find(page, "coming")


def test_typed_position_lists_each_players_plays_in_french_and_english(session: Session) -> None:
    type_position(session, "7h Kc", "8d 2s ? - 9c/3", "Qh 5c")
    plays = [texts(find(session.view(), f"spit-plays-{p}")) for p in (0, 1)]
    assert plays == [
        [
            "• 8♦ → tas 1 (sur 7♥)",
            "• retourner la réserve 3",
            "• déplacer 9♣ de la réserve 5 vers la réserve 4 vide",
        ],
        ["• Q♥ → tas 2 (sur K♣)"],
    ]
    session.tap("lang")
    assert texts(find(session.view(), "spit-plays-1")) == ["• Q♥ → pile 2 (on K♣)"]
    # The chips show what was typed, face-down and empty spaces included.
    chips = [find(session.view(), f"spit-stock-0-{i}").content.value for i in range(5)]
    assert chips == ["8♦", "2♠", "?", "—", "9♣"]


def test_a_player_with_nothing_to_play_is_told_so(session: Session) -> None:
    type_position(session, "7h Kc", "8d", "5c")
    assert texts(find(session.view(), "spit-plays-1")) == ["• rien à jouer"]


@pytest.mark.parametrize(
    ("spit", "fr", "en"),
    [
        ("1 1", "bloqués : les deux crachent", "stuck: both spit"),
        ("1 0", "bloqués : le joueur 1 crache seul", "stuck: player 1 spits alone"),
    ],
)
def test_a_stuck_table_says_who_spits(session: Session, spit: str, fr: str, en: str) -> None:
    type_position(session, "7d 9s", "Ad Jh", "Kh Jc", spit)
    assert texts(find(session.view(), "spit-situation"))[0] == fr
    session.tap("lang")
    assert texts(find(session.view(), "spit-situation"))[0] == en


def test_a_disputed_move_names_the_rule_it_broke(session: Session) -> None:
    type_position(session, "7h Kc", "8d 2s", "Qh 5c")
    page = session.view()
    find(page, "spit-move").value = "p2 5c -> tas 1"  # typed, not yet submitted
    check = find(page, "spit-check")
    check.on_click(ft.Event("click", check))
    verdict = texts(find(session.view(), "spit-verdict"))
    assert verdict == [
        "INTERDIT",
        "joueur 2 : 5♣ → tas 1 est interdit : 5♣ n'est pas d'un rang au-dessus ou au-dessous de 7♥",
    ]
    session.tap("lang")
    verdict = texts(find(session.view(), "spit-verdict"))
    assert verdict == [
        "ILLEGAL",
        "player 2: 5♣ → pile 1 is illegal: 5♣ is not one rank above or below 7♥",
    ]
    session.submit("spit-move", "p1 8d -> pile 1")
    assert texts(find(session.view(), "spit-verdict")) == [
        "LEGAL",
        "player 1: 8♦ → pile 1 is legal",
    ]
    session.tap("spit-clear-move")
    with pytest.raises(LookupError):
        find(session.view(), "spit-verdict")


def test_the_variant_switch_changes_the_ruling(session: Session) -> None:
    type_position(session, "7h Kc", "8d", "Qs")
    session.submit("spit-move", "p1 8d -> pile 1")
    assert texts(find(session.view(), "spit-verdict"))[0] == "PERMIS"
    find(session.view(), "spit-variant").on_select(
        SimpleNamespace(control=SimpleNamespace(value="alternate"))
    )
    assert session.state.spit.variant == "alternate"
    verdict = texts(find(session.view(), "spit-verdict"))
    assert verdict[0] == "INTERDIT" and "8♦" in verdict[1]


def test_speed_asks_for_hands_draw_and_side_piles(session: Session) -> None:
    find(session.view(), "spit-variant").on_select(
        SimpleNamespace(control=SimpleNamespace(value="speed"))
    )
    page = session.view()
    assert find(page, "spit-stocks-0").label == "Main du joueur 1"
    assert find(page, "spit-left-0").label == "Pioche"
    type_position(session, "7d 9s", "Ad Jh", "Kh Jc", "5 5")
    session.submit("spit-side-0", "3")
    session.submit("spit-side-1", "3")
    assert (
        texts(find(session.view(), "spit-situation"))[0]
        == "bloqués : retournez les piles de côté au centre"
    )


def test_only_one_pile_left(session: Session) -> None:
    type_position(session, "7h 9s", "8d Ts", "Kh")
    find(session.view(), "spit-live").on_select(SimpleNamespace(control=SimpleNamespace(value="2")))
    assert session.state.spit.live == 1
    assert texts(find(session.view(), "spit-plays-0")) == [
        "• 8♦ → tas 2 (sur 9♠)",
        "• 10♠ → tas 2 (sur 9♠)",
    ]


@pytest.mark.parametrize(
    ("p1", "p2", "fr"),
    [("8x", "", "8x"), ("8d", "8d", "8♦"), ("8d 2s 3s 4s 5s 6s", "", "6 piles de réserve")],
)
def test_problems_are_shown_instead_of_a_ruling(
    session: Session, p1: str, p2: str, fr: str
) -> None:
    type_position(session, "7h Kc", p1, p2)
    problems = texts(find(session.view(), "problems"))
    assert len(problems) == 1 and fr in problems[0]
    with pytest.raises(LookupError):
        find(session.view(), "spit-plays")


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_cards_in_sentences_show_their_suits(session: Session, lang: str) -> None:
    # The app's font draws the suits (ui/kit/fonts.py): rulings name cards as printed on them.
    session.state = replace(session.state, lang=lang)
    type_position(session, "7h Kc", "8d 2s 9c", "Qh 5c")
    session.submit("spit-move", "p2 5c -> pile 1")
    assert "5♣" in page_text(session) and "7♥" in page_text(session)


def test_an_emptied_stock_ends_the_round(session: Session) -> None:
    type_position(session, "7h Kc", "", "Qh 5c")
    lines = texts(find(session.view(), "spit-situation"))
    assert lines[:2] == [
        "le joueur 1 a vidé sa réserve : prenez les tas centraux et étalez de nouveau",
        "tapez sur l'un des tas (le plus petit est le meilleur choix) : la main la plus "
        "rapide le prend, à égalité la main du dessous, et l'autre joueur prend l'autre tas",
    ]


def test_new_table_clears_the_position(session: Session) -> None:
    type_position(session, "7h Kc", "8d", "Qh")
    session.tap("spit-new")
    assert session.state.spit == SpitScreen(edition=1)  # a reset: typing in its fields is dropped


# -- photos -------------------------------------------------------------------------------


def jpeg() -> bytes:
    return cv2.imencode(".jpg", np.full((60, 80, 3), 90, np.uint8))[1].tobytes()


class LayoutDetector:
    """Stands in for the card detector: what it would read on a Spit layout, placed by hand."""

    def __init__(self, detections: Detections) -> None:
        self.detections = detections

    def detect(self, image: np.ndarray) -> Detections:
        return self.detections


def reading(detections: Detections) -> LazyDetector:
    return LazyDetector(lambda: LayoutDetector(detections))


def test_photo_reading_unavailable_leaves_typing(session: Session) -> None:
    session.dispatch(load_spit_photo(jpeg(), "table.jpg"))
    banner = session.state.banner
    assert banner is not None
    assert banner.text("fr").startswith("Lecture des photos indisponible (impossible")
    assert banner.text("en").startswith("Photo reading unavailable (cannot load")
    assert find(session.view(), "vision-note")
    type_position(session, "7h Kc", "8d", "Qh")
    assert find(session.view(), "spit-plays")


def test_a_photo_fills_the_position(services: Services) -> None:
    detections = reads(*spit_layout("Qh 5c Td 6s 3h", "7h Kc", "8d 2s - Ac 9c"))
    services = replace(services, detector=reading(detections))
    session = Session(AppState(screen="spit", spit=SpitScreen(spit_left=(4, 6))), services)
    session.dispatch(load_spit_photo(jpeg(), "table.jpg"))
    spit = session.state.spit
    assert spit.piles == (PileView(cards("7h")[0]), PileView(cards("Kc")[0]))
    assert (tokens(spit.stocks[0]), tokens(spit.stocks[1])) == (
        ("8d", "2s", "Ac", "9c"),
        ("Qh", "5c", "10d", "6s", "3h"),
    )
    assert spit.spit_left == (4, 6)  # not on the photo: the counts typed are kept
    # The detector's own Card objects, on piles of one: none was written out and read again.
    tops = [pile.top for pile in (*spit.piles, *spit.stocks[0], *spit.stocks[1])]
    assert all(type(top) is Card for top in tops) and len(tops) == len(detections)
    assert {id(top) for top in tops} == {id(card) for card in detections.cards}
    assert all(isinstance(pile, PileView) and pile.size == 1 for pile in spit.piles)
    assert spit.photo == (cards("Qh 5c Td 6s 3h"), cards("7h Kc"), cards("8d 2s Ac 9c"))
    assert session.state.banner is not None
    assert (
        session.state.banner.text("en")
        == "11 cards read: check them, add ? for each face-down stock and say the spit cards left."
    )
    assert (
        find(session.view(), "spit-photo-read").value
        == "Lu (joueur 2 / tas / joueur 1) : Q♥ 5♣ 10♦ 6♠ 3♥ / 7♥ K♣ / 8♦ 2♠ A♣ 9♣"
    )
    assert texts(find(session.view(), "spit-plays-0")) == [
        "• 8♦ → tas 1 (sur 7♥)",
        "• A♣ → tas 2 (sur K♣)",
    ]


def test_unsure_reads_are_pointed_out(services: Services) -> None:
    sure = reads(*spit_layout("Qh", "7h Kc", "8d 2s"))
    doubt = Detections(sure.cards, np.array([0.9, 0.9, 0.9, 0.9, 0.55]), sure.xyxy, sure.quads)
    session = Session(AppState(screen="spit"), replace(services, detector=reading(doubt)))
    session.dispatch(load_spit_photo(jpeg()))
    session.tap("lang")
    assert banner_shown(session) == (
        f"5 cards read: check {sure.cards[4].pretty()} (55%) above all, add ? for each "
        "face-down stock and say the spit cards left."
    )
    session.tap("lang")
    assert f"vérifiez surtout {sure.cards[4].pretty()} (55 %)," in banner_shown(session)


@pytest.mark.parametrize(
    ("data", "detections", "en"),
    [
        (b"not an image", reads(), "spit.jpg: cannot be read as an image"),
        (
            None,
            reads(*spit_layout("3h", "2c 2d", "-")),
            "spit.jpg: read 3 cards in 2 rows (3♥ / 2♣ 2♦)",
        ),
    ],
)
def test_a_photo_that_is_no_spit_layout_is_refused_by_name(
    services: Services, data: bytes | None, detections: Detections, en: str
) -> None:
    session = Session(
        AppState(screen="spit", spit=typed("7h Kc", "8d", "Qh")),
        replace(services, detector=reading(detections)),
    )
    before = session.state.spit
    session.dispatch(load_spit_photo(jpeg() if data is None else data, "spit.jpg"))
    banner = session.state.banner
    assert banner is not None and banner.error
    assert banner_shown(session).startswith("spit.jpg")
    session.tap("lang")
    assert banner_shown(session).startswith(en)
    assert session.state.spit == before


@pytest.mark.slow
@pytest.mark.skipif(not MODEL.is_file(), reason=f"{MODEL} is not in this checkout")
def test_the_real_reader_on_a_rendered_spit_photo(services: Services) -> None:
    labels = json.loads((FIXTURES / "photo_labels.json").read_text())
    (entry,) = [e for e in labels if e["image"] == "spit_layout_01.jpg"]
    services = replace(services, detector=LazyDetector(lambda: CardDetector(MODEL)))
    session = Session(AppState(screen="spit"), services)
    session.dispatch(load_spit_photo((FIXTURES / entry["image"]).read_bytes(), entry["image"]))
    spit = session.state.spit
    assert [pile_token(pile) for pile in spit.piles if pile is not None] == notation(entry["piles"])
    assert list(tokens(spit.stocks[0])) == notation(c for c in entry["p1"] if c)
    assert list(tokens(spit.stocks[1])) == notation(c for c in entry["p2"] if c)
    assert all(isinstance(pile, PileView) for pile in (*spit.piles, *spit.stocks[0]))


def test_a_lone_pile_goes_to_the_player_who_did_not_empty_their_stock(session: Session) -> None:
    """Issue #54 (Spit, "Fin"): the app says who takes the only pile, and refuses the rest."""
    type_position(session, "7h/3 -", "", "Qh 5c", spit="2 0")
    lines = texts(find(session.view(), "spit-situation"))
    assert lines[1:3] == [
        "un seul tas central : le joueur 1 a vidé sa réserve et ne prend rien au centre ; "
        "le joueur 2 prend le tas 1",
        "le joueur 2 prend le tas 1",
    ]
    session.submit("spit-move", "p2 takes 2")
    assert "le joueur 2 prend le tas 1" in page_text(session)
    assert find(session.view(), "spit-verdict") is not None
    assert "INTERDIT" in page_text(session)

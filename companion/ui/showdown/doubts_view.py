"""Before the verdict: who sits where (once a night), and every doubt a photo leaves, each
judged in its own row with its evidence beside it (the card's crops from the photo and the
reader's next likely reads, or where a missing card should lie), fixed or confirmed with one
tap; every doubtful read confirmed at once only under all their crops side by side."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

import flet as ft

from companion.engine.cards import Card
from companion.ui.kit.cards import card_face, entry_text
from companion.ui.kit.photo.read import Spot
from companion.ui.kit.text import t
from companion.ui.kit.widgets import Dispatch, card_chip, panel, section
from companion.ui.showdown.actions import group_seats, name_hand, save_seats, table_players
from companion.ui.showdown.doubts import CHECK, Doubt, doubts
from companion.ui.showdown.fix_view import fix_panel
from companion.ui.showdown.host import H
from companion.ui.showdown.setup_view import table_action
from companion.ui.showdown.state import STRAY, ShowdownState

__all__ = ["seat_panel", "doubts_panel", "out_row"]


def seat_panel(state: H, dispatch: Dispatch[H]) -> ft.Control | None:
    """The night's first photo: which hand is whose, then kept as the night's seats."""
    table, lang = state.table, state.lang
    night = state.night
    if table.read is None or night is None or night.finished:
        return None
    if not table.seating:
        return ft.TextButton(
            key="change-seats",
            content=t("seat.change", lang),
            icon=ft.Icons.EVENT_SEAT,
            on_click=lambda e: dispatch(table_action(lambda tb: tb.with_seating(True))),
        )
    asked = table.asked_hand()
    return panel(
        "seats",
        section(
            "seat-list",
            t("seat.ask", lang),
            None if asked is None else _names_row(table.players, asked, lang, dispatch),
            _seat_answers(state, dispatch),
        ),
        ft.Colors.BLUE_50,
    )


def _seat_answers(state: H, dispatch: Dispatch[H]) -> ft.Control:
    """The night's first photo: its seats kept. Where the night has seats already (this
    photo's hands do not fit them, or they were asked again), the hands named go for this
    heist alone unless the players keep them as the night's new seats: never unasked."""
    lang = state.lang
    kept_already = bool(group_seats(state, table_players(state)))
    keep = ft.Button(
        key="keep-seats",
        content=t("seat.keep_new" if kept_already else "seat.keep", lang),
        icon=ft.Icons.EVENT_SEAT,
        on_click=lambda e: dispatch(save_seats),
    )
    if not kept_already:
        return keep
    once = ft.OutlinedButton(
        key="seats-this-heist",
        content=t("seat.this_heist", lang),
        on_click=lambda e: dispatch(table_action(lambda tb: tb.with_seating(False))),
    )
    return ft.Row([once, keep], wrap=True, spacing=6)


def _names_row(
    players: tuple[str, ...], asked: int, lang: str, dispatch: Dispatch[H]
) -> ft.Control:
    """The one row of names: whose is the hand outlined on the photo (its owner now filled)."""

    def button(i: int, name: str) -> ft.Control:
        kind = ft.FilledButton if i == asked else ft.OutlinedButton
        return kind(
            key=f"seat-name-{i}",
            content=name,
            on_click=lambda e: dispatch(name_hand(asked, name)),
        )

    return ft.Column(
        [
            ft.Text(t("seat.whose", lang), weight=ft.FontWeight.BOLD),
            ft.Row([button(i, name) for i, name in enumerate(players)], wrap=True, spacing=6),
        ],
        spacing=4,
        key="seat-names",
    )


# A crop's height on screen (points): an index corner a few dozen photo pixels tall, legible.
CROP_HEIGHT = 120
GLANCE_HEIGHT = 72  # the index corners side by side, over "every doubtful read is right"
# The most doubtful reads side by side: three rows of six, with the button, fit one screen.
AT_A_GLANCE = 18
ALTERNATIVES_SHOWN = 2  # the reader's next reads offered, then "other..."
PLACE_SIZE = (300, 225)  # a missing card's region on the photo, 4:3
CROP_ASPECT = 0.72  # a crop's width to its height, as the reader's corner and face are cut


def _spot(doubt: Doubt, table: ShowdownState) -> Spot | None:
    """The photo's read a doubt is about, if any."""
    if doubt.spot is None or table.read is None or not 0 <= doubt.spot < len(table.read.spots):
        return None
    return table.read.spots[doubt.spot]


def _crop(image: bytes, label: str, height: int, key: str) -> ft.Control:
    return ft.Image(
        src=image,
        width=round(height * CROP_ASPECT),
        height=height,
        fit=ft.BoxFit.CONTAIN,
        semantics_label=label,
        border_radius=4,
        key=key,
    )


def _crops(spot: Spot, lang: str, n: int) -> list[ft.Control]:
    """A read's index corner and face as the photo shows them, enlarged."""
    if spot.evidence is None:
        return []
    card = card_face(spot.read)
    pictures = (
        (spot.evidence.index, "doubt.crop_index", f"crop-index-{n}"),
        (spot.evidence.face, "doubt.crop_face", f"crop-face-{n}"),
    )
    return [
        _crop(image, t(words, lang, card=card), CROP_HEIGHT, key)
        for image, words, key in pictures
        if image is not None
    ]


def offered(spot: Spot, table: ShowdownState) -> tuple[Card, ...]:
    """The reader's next likely reads of ``spot`` that the table can still hold (fewer copies
    in play than its decks), likeliest first, at most ``ALTERNATIVES_SHOWN``."""
    if spot.evidence is None:
        return ()
    held = Counter(c for place in table.places() for c in table.cards_at(place))
    decks = table.rules.decks
    fit = [c for c in spot.evidence.alternatives if c != spot.read and held[c] < decks]
    return tuple(fit[:ALTERNATIVES_SHOWN])


def _choices(
    doubt: Doubt, table: ShowdownState, lang: str, dispatch: Dispatch[H], n: int
) -> list[ft.Control]:
    """Beside a doubtful read: the reader's next reads, one tap each, then "other..." (the
    typed fix, opened in this row)."""
    spot = _spot(doubt, table)
    if spot is None or doubt.spot is None or doubt.place == STRAY:
        return []
    index = doubt.spot

    def pick(card: Card) -> Callable[[ft.Event[ft.Container]], None]:
        return lambda e: dispatch(table_action(lambda tb: tb.read_as(index, card)))

    picks = [
        card_chip(entry_text(card), key=f"pick-{n}-{k}", on_click=pick(card), roomy=True)
        for k, card in enumerate(offered(spot, table))
    ]
    other = ft.TextButton(
        key=f"other-{n}",
        content=t("doubt.other", lang),
        on_click=lambda e: dispatch(table_action(lambda tb: tb.fix_read(index))),
        style=ft.ButtonStyle(padding=ft.Padding.symmetric(horizontal=8)),
    )
    return [ft.Row([ft.Text(t("doubt.or", lang)), *picks, other], wrap=True, spacing=4)]


def _answers(
    doubt: Doubt, table: ShowdownState, lang: str, dispatch: Dispatch[H], n: int
) -> list[ft.Control]:
    """A doubt's one-tap answers: its missing card typed, it confirmed as it is (a stray card
    left out) or read as one of the reader's next reads, its player sitting out."""
    answers: list[ft.Control] = []
    if doubt.missing and doubt.place is not None:
        place = doubt.place
        # Not ``table_field``: a field set to expand, even by False, breaks a wrapping row.
        answers.append(
            ft.TextField(
                key=f"add-missing-{n}",
                label=t("doubt.add_missing", lang, place=table.place_name(place, lang)),
                dense=True,
                width=240,
                on_submit=lambda e: dispatch(
                    table_action(lambda tb: tb.add_cards(place, e.control.value or ""))
                ),
            )
        )
    if doubt.confirmable:
        key = doubt.key
        answers.append(
            ft.OutlinedButton(
                key=f"confirm-{n}",
                content=t("doubt.leave_out" if doubt.place == STRAY else "doubt.confirm", lang),
                on_click=lambda e: dispatch(table_action(lambda tb: tb.confirm(key))),
            )
        )
    answers += _choices(doubt, table, lang, dispatch, n)
    if doubt.sits_out is not None:
        name = doubt.sits_out
        answers.append(
            ft.OutlinedButton(
                key=f"sits-out-{n}",
                content=t("doubt.sits_out", lang, name=name),
                on_click=lambda e: dispatch(table_action(lambda tb: tb.sit_out(name))),
            )
        )
    return answers


def _missing_place(doubt: Doubt, table: ShowdownState, lang: str, n: int) -> ft.Control:
    """Where a short place's card should lie: the photo around it with the place marked; for
    a hand with no card read, the whole photo (there face down, or missed); else that the
    photo does not say."""
    read = table.read
    shown = None if read is None or doubt.place is None else read.missing_at(doubt.place)
    if shown is not None and shown.crop is not None:
        words = t("doubt.missing_where", lang)
        return _pictured(ft.Text(words, size=13), shown.crop, PLACE_SIZE, words, n)
    # A hand with no card read at all: most often face down, its player not showing it.
    empty = doubt.place is not None and doubt.place >= 0 and not table.cards_at(doubt.place)
    said = ft.Text(
        t("doubt.hand_unknown" if empty else "doubt.missing_unknown", lang), size=13, italic=True
    )
    if not empty or read is None or read.whole is None:
        said.key = f"place-{n}"
        return said
    size = (PLACE_SIZE[0], round(PLACE_SIZE[0] * read.height / max(1, read.width)))
    return _pictured(said, read.whole, size, t("doubt.whole_photo", lang), n)


def _pictured(
    said: ft.Control, image: bytes, size: tuple[int, int], label: str, n: int
) -> ft.Control:
    """A doubt's words over the part of the photo they are about."""
    width, height = size
    picture = ft.Image(
        src=image,
        width=width,
        height=height,
        fit=ft.BoxFit.CONTAIN,
        semantics_label=label,
        border_radius=4,
    )
    return ft.Column([said, picture], spacing=4, key=f"place-{n}")


def _doubt_row(
    doubt: Doubt, table: ShowdownState, lang: str, dispatch: Dispatch[H], n: int
) -> ft.Control:
    """A doubt's line, its evidence and its answers, together where the player looks: a read's
    crops beside its answers; a missing card's place over its field; the typed fix, once
    "other..." is tapped, under them."""
    answers = _answers(doubt, table, lang, dispatch, n)
    spot = _spot(doubt, table)
    crops = _crops(spot, lang, n) if spot is not None else []
    body: ft.Control
    if crops:
        answered = ft.Column(answers, spacing=6, expand=True)
        body = ft.Row([*crops, answered], spacing=6, vertical_alignment=ft.CrossAxisAlignment.START)
    elif doubt.missing:
        body = ft.Column(
            [_missing_place(doubt, table, lang, n), ft.Row(answers, wrap=True, spacing=6)],
            spacing=6,
        )
    else:
        body = ft.Row(answers, wrap=True, spacing=6)
    rows: list[ft.Control | None] = [
        ft.Text("• " + doubt.text.text(lang), color=ft.Colors.BROWN_900),
        body,
    ]
    if spot is not None and table.on_doubt and table.selected == spot.at:
        rows.append(fix_panel(table, lang, dispatch))
    return ft.Column([r for r in rows if r is not None], spacing=6, key=f"doubt-{n}")


def _at_a_glance(
    found: tuple[Doubt, ...], table: ShowdownState, lang: str, dispatch: Dispatch[H]
) -> ft.Control | None:
    """Every doubtful read's index corner side by side, its read under it, and one tap that
    confirms them all: offered only so, with all their crops in view together (two or more
    reads, each with its crop, no more than fit one screen)."""
    reads = [(d, _spot(d, table)) for d in found if d.key.startswith(CHECK)]
    crops = [s.evidence.index if s is not None and s.evidence else None for _, s in reads]
    if not 2 <= len(reads) <= AT_A_GLANCE or any(c is None for c in crops):
        return None
    tiles: list[ft.Control] = [
        ft.Column(
            [
                _crop(
                    crop,
                    t("doubt.crop_index", lang, card=card_face(spot.read)),
                    GLANCE_HEIGHT,
                    f"glance-{i}",
                ),
                ft.Text(card_face(spot.read), weight=ft.FontWeight.BOLD),
            ],
            spacing=2,
            horizontal_alignment=ft.CrossAxisAlignment.CENTER,
        )
        for i, ((_, spot), crop) in enumerate(zip(reads, crops, strict=True))
        if spot is not None and crop is not None
    ]
    keys = tuple(d.key for d, _ in reads)
    return ft.Column(
        [
            ft.Text(t("doubt.glance", lang, n=len(reads)), size=13),
            ft.Row(tiles, wrap=True, spacing=6, run_spacing=6),
            ft.OutlinedButton(
                key="confirm-reads",
                content=t("doubt.confirm_reads", lang),
                icon=ft.Icons.DONE_ALL,
                on_click=lambda e: dispatch(table_action(lambda tb: tb.confirm(*keys))),
            ),
        ],
        spacing=6,
        key="glance",
    )


def doubts_panel(state: H, dispatch: Dispatch[H]) -> ft.Control | None:
    """Every open doubt, with its one-tap answer; None when there is none."""
    table, lang = state.table, state.lang
    found = doubts(table)
    if not found:
        return None
    rows = [_doubt_row(d, table, lang, dispatch, i) for i, d in enumerate(found)]
    glance = _at_a_glance(found, table, lang, dispatch)
    if glance is not None:  # over the doubtful reads' own rows
        first = next(i for i, d in enumerate(found) if d.key.startswith(CHECK))
        rows.insert(first, glance)
    return panel(
        "doubts",
        section(
            "doubt-list",
            t("doubt.title", lang),
            *rows,
            ft.Text(t("doubt.held", lang), size=13, italic=True),
        ),
        # Edged, not tinted: a screenshot of the doubts, their crops and photos, stays mostly
        # paper, as the photo check expects of the app's pages (``photo.read.not_a_table``).
        ft.Colors.AMBER_400,
        edged=True,
    )


def out_row(state: H, dispatch: Dispatch[H]) -> ft.Control | None:
    """Who sits this heist out, each with a tap to bring them back."""
    table, lang = state.table, state.lang
    if not table.out:
        return None
    return ft.Row(
        [
            ft.Text(t("photo.sitting_out", lang, names=", ".join(table.out))),
            *[
                ft.TextButton(
                    key=f"plays-{i}",
                    content=t("photo.plays", lang, name=name),
                    on_click=lambda e, name=name: dispatch(
                        table_action(lambda tb: tb.back_in(name))
                    ),
                )
                for i, name in enumerate(table.out)
            ],
        ],
        wrap=True,
        key="sitting-out",
    )

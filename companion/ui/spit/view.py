"""The Spit screen: a position typed or read from a photo, each player's legal plays, a dispute."""

from __future__ import annotations

from collections.abc import Callable

import flet as ft

from companion.engine.cards import format_cards
from companion.engine.spit import VARIANTS
from companion.engine.spit.referee import Ruling, Situation
from companion.engine.spit.tally import speed_deal
from companion.engine.spit.words import describe_move, explain
from companion.errors import CompanionError
from companion.ui.kit.services import Action, pure
from companion.ui.kit.text import t
from companion.ui.kit.widgets import (
    GREEN,
    RED,
    Dispatch,
    card_chip,
    dropdown,
    photo_buttons,
    section,
)
from companion.ui.spit.host import H
from companion.ui.spit.state import SPIT_VARIANTS, STUCK, Pile, SpitScreen, pile_token

__all__ = ["spit_view"]


def _spit(change: Callable[[SpitScreen], SpitScreen]) -> Action[H]:
    """An action changing only the Spit screen: ``change(screen) -> screen``."""
    return pure(lambda s: s.with_spit(change(s.spit)))


def _field(
    key: str,
    label: str,
    value: str,
    dispatch: Dispatch[H],
    change: Callable[[SpitScreen, str], SpitScreen],
    width: int | None = None,
    *,
    edition: int,
) -> ft.TextField:
    """A text field whose submit or blur gives its text to ``change(screen, text)``.

    ``edition``: the screen's reset count; a reset replaces what was being typed.
    """

    def typed(e: ft.Event[ft.TextField]) -> None:
        text = e.control.value or ""
        dispatch(_spit(lambda sp: change(sp, text)))

    return ft.TextField(
        key=key,
        label=label,
        value=value,
        dense=True,
        width=width,
        on_submit=typed,
        on_blur=typed,
        data=edition,
    )


def _chip(pile: Pile, key: str) -> ft.Control:
    """A pile as a card chip: the card itself, ``?`` face down, ``—`` empty; a token that did
    not read, as typed and flagged."""
    if isinstance(pile, str):
        return card_chip(pile, key=key, bad=True)
    if pile.top is not None:
        return card_chip(str(pile.top), key=key)
    return card_chip("?" if pile.size else "—", key=key)


def _setup(spit: SpitScreen, lang: str, dispatch: Dispatch[H]) -> ft.Control:
    live = "both" if spit.live is None else str(spit.live + 1)
    return ft.Row(
        [
            dropdown(
                "spit-variant",
                t("spit_rules", lang),
                spit.variant,
                [(v, t(f"spit_v_{v}", lang)) for v in SPIT_VARIANTS],
                lambda v: dispatch(_spit(lambda sp: sp.with_variant(v))),
                width=210,
            ),
            dropdown(
                "spit-live",
                t("spit_live", lang),
                live,
                [("both", t("spit_live_both", lang))]
                + [(str(n), t("spit_live_one", lang, n=n)) for n in (1, 2)],
                lambda v: dispatch(
                    _spit(lambda sp: sp.with_live(None if v == "both" else int(v) - 1))
                ),
                width=210,
            ),
        ],
        wrap=True,
        key="spit-setup",
    )


def _player_block(spit: SpitScreen, player: int, lang: str, dispatch: Dispatch[H]) -> ft.Control:
    n = player + 1
    speed = VARIANTS[spit.variant].speed
    stocks = t("spit_hand" if speed else "spit_stocks", lang, n=n)
    counts: list[ft.Control] = [
        _field(
            f"spit-left-{player}",
            t("spit_draw" if speed else "spit_left", lang),
            str(spit.spit_left[player]),
            dispatch,
            lambda sp, text: sp.with_spit_text(player, text),
            edition=spit.edition,
            width=120,
        ),
    ]
    if speed:
        counts.append(
            _field(
                f"spit-side-{player}",
                t("spit_side", lang),
                str(spit.side_left[player]),
                dispatch,
                lambda sp, text: sp.with_side_text(player, text),
                edition=spit.edition,
                width=120,
            )
        )
    field = _field(
        f"spit-stocks-{player}",
        stocks,
        " ".join(pile_token(pile) for pile in spit.stocks[player]),
        dispatch,
        lambda sp, text: sp.with_stock_text(player, text),
        edition=spit.edition,
        width=220,
    )
    return ft.Column(
        key=f"spit-player-{player}",
        spacing=4,
        controls=[
            ft.Text(stocks, weight=ft.FontWeight.BOLD),
            ft.Row(
                [
                    _chip(pile, f"spit-stock-{player}-{i}")
                    for i, pile in enumerate(spit.stocks[player])
                ],
                wrap=True,
                spacing=4,
            ),
            ft.Row([field, *counts], wrap=True),
        ],
    )


def _piles(spit: SpitScreen, lang: str, dispatch: Dispatch[H]) -> ft.Control:
    def pile(i: int) -> ft.Control:
        typed = spit.piles[i]
        chips = [] if typed is None else [_chip(typed, f"spit-pile-{i}-card")]
        return ft.Row(
            [
                _field(
                    f"spit-pile-{i}",
                    t("spit_pile", lang, n=i + 1),
                    "" if typed is None else pile_token(typed),
                    dispatch,
                    lambda sp, text: sp.with_pile_text(i, text),
                    edition=spit.edition,
                    width=110,
                ),
                *chips,
            ],
            spacing=6,
        )

    return ft.Container(
        ft.Row([pile(0), pile(1)], wrap=True, spacing=12),
        key="spit-piles",
        padding=8,
        bgcolor=ft.Colors.GREEN_50,
        border_radius=8,
    )


def _speed_deal(spit: SpitScreen, lang: str) -> ft.Control | None:
    """The chosen Speed deal in words: 15 cards each and side piles of 10, or 20 and 5."""
    rules = VARIANTS[spit.variant]
    if not rules.speed:
        return None
    deal = speed_deal(rules)
    words = t("spit_speed_deal", lang, cards=deal.cards, draw=deal.draw, side=deal.side)
    return ft.Text(words, size=13, key="spit-speed-deal")


def _tally_games(spit: SpitScreen, lang: str, dispatch: Dispatch[H]) -> list[ft.Control]:
    """The match's target, its totals and each game's points."""
    tally = spit.tally
    one, two = tally.totals
    return [
        ft.Text(t("spit_tally_help", lang), size=13, italic=True),
        _field(
            "spit-tally-target",
            t("spit_tally_target", lang),
            str(tally.target),
            dispatch,
            lambda sp, text: sp.with_target_text(text),
            edition=spit.edition,
            width=150,
        ),
        ft.Text(
            t("spit_tally_totals", lang, one=one, two=two, target=tally.target),
            size=16,
            weight=ft.FontWeight.BOLD,
            key="spit-tally-totals",
        ),
        *[
            ft.Text(
                t("spit_tally_game", lang, n=i, player=w + 1, points=p),
                size=13,
                key=f"spit-tally-game-{i}",
            )
            for i, (w, p) in enumerate(tally.games, start=1)
        ],
    ]


def _tally_champion(spit: SpitScreen, lang: str) -> ft.Control | None:
    """The match won: who, and by how much."""
    tally = spit.tally
    if tally.champion is None:
        return None
    won, lost = tally.totals[tally.champion], tally.totals[1 - tally.champion]
    return ft.Container(
        ft.Text(
            t("spit_tally_champion", lang, n=tally.champion + 1, winner=won, loser=lost),
            size=20,
            weight=ft.FontWeight.BOLD,
            color=ft.Colors.WHITE,
        ),
        key="spit-tally-champion",
        bgcolor=GREEN,
        padding=12,
        border_radius=8,
    )


def _tally_scoring(lang: str, dispatch: Dispatch[H]) -> ft.Control:
    """A game won: the cards the loser still holds, and who won it."""
    points = ft.TextField(
        key="spit-tally-points", label=t("spit_tally_points", lang), dense=True, width=190
    )
    return ft.Row(
        [
            points,
            *[
                ft.Button(
                    key=f"spit-tally-won-{n}",
                    content=t("spit_tally_won", lang, n=n),
                    on_click=lambda e, w=n - 1: dispatch(
                        _spit(lambda sp: sp.scored(w, points.value or ""))
                    ),
                )
                for n in (1, 2)
            ],
        ],
        wrap=True,
    )


def _tally_undo(lang: str, dispatch: Dispatch[H]) -> ft.Control:
    """The last game taken back, or a new match."""
    return ft.Row(
        [
            ft.TextButton(
                key="spit-tally-undo",
                content=t("spit_tally_undo", lang),
                on_click=lambda e: dispatch(_spit(lambda sp: sp.with_tally(sp.tally.undone()))),
            ),
            ft.TextButton(
                key="spit-tally-new",
                content=t("spit_tally_new", lang),
                on_click=lambda e: dispatch(_spit(lambda sp: sp.with_tally(sp.tally.restarted()))),
            ),
        ],
        wrap=True,
    )


def _tally(spit: SpitScreen, lang: str, dispatch: Dispatch[H]) -> ft.Control | None:
    """Speed's match: a point per card the loser still holds, game after game, to the target."""
    if not VARIANTS[spit.variant].speed:
        return None
    won = _tally_champion(spit, lang)
    return section(
        "spit-tally",
        t("spit_tally", lang),
        *_tally_games(spit, lang, dispatch),
        won if won is not None else _tally_scoring(lang, dispatch),
        _tally_undo(lang, dispatch),
    )


def _plays(ruling: Ruling, lang: str) -> ft.Control:
    """Each player's own moves; when nobody can play, what the table does instead."""
    if ruling.situation is not Situation.PLAY:
        lines = explain(ruling, lang)
        if ruling.verdict is not None:
            lines = lines[:-1]  # the dispute has its own box
        stuck = ruling.situation in STUCK
        return ft.Container(
            key="spit-situation",
            content=ft.Column(
                [
                    ft.Text(
                        line,
                        size=22 if i == 0 else 15,
                        weight=ft.FontWeight.BOLD if i == 0 else None,
                        color=ft.Colors.WHITE,
                    )
                    for i, line in enumerate(lines)
                ],
                spacing=4,
            ),
            bgcolor=ft.Colors.ORANGE_800 if stuck else ft.Colors.BLUE_GREY_700,
            padding=12,
            border_radius=8,
        )
    rows: list[ft.Control] = []
    for player, moves in enumerate(ruling.plays):
        rows.append(ft.Text(t("spit_player", lang, n=player + 1), weight=ft.FontWeight.BOLD))
        words = [
            describe_move(ruling.state, move, lang).split(": ", 1)[-1].lstrip(" :")
            for move in moves
        ] or [t("spit_nothing", lang)]
        rows.append(
            ft.Column(
                [ft.Text("• " + w, size=15) for w in words], spacing=2, key=f"spit-plays-{player}"
            )
        )
    return section("spit-plays", t("spit_plays", lang), *rows)


def _verdict(ruling: Ruling, lang: str) -> ft.Control | None:
    if ruling.verdict is None:
        return None
    legal = ruling.verdict.legal
    return ft.Container(
        key="spit-verdict",
        content=ft.Column(
            [
                ft.Text(
                    t("spit_legal" if legal else "spit_illegal", lang),
                    size=32,
                    weight=ft.FontWeight.BOLD,
                    color=ft.Colors.WHITE,
                ),
                ft.Text(explain(ruling, lang)[-1], size=15, color=ft.Colors.WHITE),
            ],
            horizontal_alignment=ft.CrossAxisAlignment.CENTER,
        ),
        bgcolor=GREEN if legal else RED,
        padding=16,
        border_radius=10,
    )


def _dispute(spit: SpitScreen, lang: str, dispatch: Dispatch[H]) -> ft.Control:
    move = ft.TextField(
        key="spit-move",
        label=t("spit_dispute", lang),
        value=spit.move,
        dense=True,
        on_submit=lambda e: dispatch(_spit(lambda sp: sp.with_move_text(e.control.value or ""))),
    )
    return section(
        "spit-dispute",
        t("spit_dispute", lang),
        ft.Text(t("spit_dispute_help", lang), size=13, italic=True),
        move,
        ft.Row(
            [
                ft.Button(
                    key="spit-check",
                    content=t("spit_check", lang),
                    on_click=lambda e: dispatch(
                        _spit(lambda sp: sp.with_move_text(move.value or ""))
                    ),
                ),
                ft.TextButton(
                    key="spit-clear-move",
                    content=t("spit_clear_move", lang),
                    on_click=lambda e: dispatch(_spit(lambda sp: sp.with_move_text(""))),
                ),
            ],
            wrap=True,
        ),
    )


def _rows(spit: SpitScreen) -> str:
    """The photo's cards row by row, as printed on them (``10♦``), to check by eye."""
    return " / ".join(format_cards(row, pretty=True) or "-" for row in spit.photo)


def spit_view(
    state: H, dispatch: Dispatch[H], photo_button: ft.Control | None = None
) -> ft.Control:
    spit, lang = state.spit, state.lang
    ruling: Ruling | None = None
    error: str | None = None
    try:
        ruling = spit.ruling()
    except CompanionError as exc:  # a mistyped card, a card twice, a move that cannot be read
        error = exc.message(lang)
    cards_in = photo_buttons(state, photo_button)
    parts: list[ft.Control | None] = [
        ft.Text(t("spit_title", lang), size=22, weight=ft.FontWeight.BOLD),
        _setup(spit, lang, dispatch),
        _speed_deal(spit, lang),
        ft.Row(cards_in, wrap=True, key="cards-in"),
        ft.Text(t("spit_photo_help", lang), size=13),
        ft.Text(t("spit_photo_read", lang, cards=_rows(spit)), size=13, key="spit-photo-read")
        if spit.photo
        else None,
        ft.Text(t("spit_tokens_help", lang), size=13, italic=True),
        _player_block(spit, 1, lang, dispatch),
        _piles(spit, lang, dispatch),
        _player_block(spit, 0, lang, dispatch),
    ]
    if error is not None:
        parts.append(
            ft.Container(
                ft.Text(error, color=RED),
                key="problems",
                padding=8,
                bgcolor=ft.Colors.RED_50,
                border_radius=8,
            )
        )
    elif ruling is None:
        parts.append(ft.Text(t("spit_wait", lang), key="spit-wait"))
    else:
        parts.append(_plays(ruling, lang))
    parts.append(_dispute(spit, lang, dispatch))
    if ruling is not None:
        parts.append(_verdict(ruling, lang))
    parts.append(_tally(spit, lang, dispatch))
    parts.append(
        ft.TextButton(
            key="spit-new",
            content=t("new_table", lang),
            on_click=lambda e: dispatch(_spit(lambda sp: sp.cleared())),
        )
    )
    return ft.Column([p for p in parts if p is not None], spacing=12)

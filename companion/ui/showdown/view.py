"""The showdown screen: setup, cards in (photo, webcam, typing), fixes, tokens, the verdict."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import flet as ft

from companion.engine.cards import Card
from companion.engine.gang.ranking import Ranking, Straights
from companion.engine.gang.showdown import Showdown
from companion.engine.gang.words import describe
from companion.errors import DuplicateCardError
from companion.messages import text
from companion.ui.cards import entry_text, plain
from companion.ui.services import Action, pure
from companion.ui.showdown.actions import apply_preset, group_presets, save_heist, save_preset
from companion.ui.showdown.state import RIVER, RIVER2, UI_VARIANTS, ShowdownState
from companion.ui.state import AppState
from companion.ui.text import t
from companion.ui.widgets import GREEN, RED, Dispatch, card_chip, section

__all__ = ["showdown_view"]


def _table(change: Any) -> Action:
    """An action changing only the table: ``change(table) -> table``."""
    return pure(lambda s: s.with_table(change(s.table)))


def _dropdown(
    key: str, label: str, value: str, options: list[tuple[str, str]], on_pick: Any
) -> ft.Dropdown:
    return ft.Dropdown(
        key=key,
        label=label,
        value=value,
        dense=True,
        width=170,
        options=[ft.DropdownOption(key=k, text=v) for k, v in options],
        on_select=lambda e: on_pick(e.control.value),
    )


def setup_panel(state: AppState, dispatch: Dispatch) -> ft.Control:
    table, lang = state.table, state.lang
    rules = table.rules

    def set_rules(**change: Any) -> None:
        dispatch(_table(lambda tb: tb.with_rules(replace(rules, **change))))

    def word(key: str) -> str:
        return text(key, lang)

    preset_name = ft.TextField(
        key="preset-name",
        label=t("preset_name", lang),
        dense=True,
        width=170,
        on_submit=lambda e: dispatch(save_preset(e.control.value or "")),
    )
    controls: list[ft.Control] = [
        ft.Row(
            [
                _dropdown(
                    "variant",
                    t("variant", lang),
                    table.variant,
                    [(v, word(f"variant.{v}")) for v in UI_VARIANTS],
                    lambda v: dispatch(_table(lambda tb: tb.with_variant(v))),
                ),
                _dropdown(
                    "ranking",
                    t("ranking", lang),
                    rules.ranking.value,
                    [(r.value, word(f"ranking.{r.value}")) for r in Ranking],
                    lambda v: set_rules(ranking=Ranking(v)),
                ),
                _dropdown(
                    "straights",
                    t("straights", lang),
                    rules.straights.value,
                    [(s.value, word(f"straights.{s.value}")) for s in Straights],
                    lambda v: set_rules(straights=Straights(v)),
                ),
                _dropdown(
                    "decks",
                    t("decks", lang),
                    str(rules.decks),
                    [("1", "1"), ("2", "2")],
                    lambda v: set_rules(decks=int(v)),
                ),
                ft.Switch(
                    key="two-rivers",
                    label=t("two_rivers", lang),
                    value=table.two_rivers,
                    on_change=lambda e: dispatch(
                        _table(lambda tb: tb.with_two_rivers(bool(e.control.value)))
                    ),
                ),
            ],
            wrap=True,
        ),
        ft.Row(
            [
                preset_name,
                ft.Button(
                    key="preset-save",
                    content=t("preset_save", lang),
                    on_click=lambda e: dispatch(save_preset(preset_name.value or "")),
                ),
                *[
                    ft.Chip(
                        key=f"preset-{p.name}",
                        label=ft.Text(p.name),
                        on_click=lambda e, n=p.name: dispatch(apply_preset(n)),
                    )
                    for p in group_presets(state.presets, table.players)
                ],
            ],
            wrap=True,
        ),
        ft.TextField(
            key="players",
            label=t("players", lang),
            value=", ".join(table.players),
            dense=True,
            on_submit=lambda e: dispatch(_table(lambda tb: tb.with_players_text(e.control.value))),
            on_blur=lambda e: dispatch(_table(lambda tb: tb.with_players_text(e.control.value))),
            data=table.edition,
        ),
    ]
    return ft.Column(controls, spacing=8, key="setup")


def _place_row(
    table: ShowdownState, place: int, lang: str, dispatch: Dispatch, doubled: set[Card]
) -> ft.Control:
    name = table.place_name(place, lang)
    cards = table.cards_at(place)
    slug = {RIVER: "river", RIVER2: "river2"}.get(place, f"hand-{place}")

    def pick(index: int) -> Any:
        return lambda _e: dispatch(_table(lambda tb: tb.select(place, index)))

    chips = [
        card_chip(
            entry_text(card),
            key=f"{slug}-card-{i}",
            selected=table.selected == (place, i),
            bad=isinstance(card, str) or card in doubled,
            on_click=pick(i),
        )
        for i, card in enumerate(cards)
    ]

    def typed(e: ft.Event[ft.TextField]) -> None:
        text = e.control.value or ""
        dispatch(_table(lambda tb: tb.with_cards_text(place, text)))

    controls: list[ft.Control] = [
        ft.Text(name, weight=ft.FontWeight.BOLD),
        ft.Row(chips, wrap=True, spacing=4),
        ft.TextField(
            key=f"{slug}-text",
            label=t("cards_of", lang, place=name),
            value=" ".join(entry_text(card) for card in cards),
            dense=True,
            on_submit=typed,
            on_blur=typed,
            data=table.edition,
        ),
    ]
    if place >= 0 and table.deals.francois_card:

        def given(e: ft.Event[ft.TextField]) -> None:
            text = e.control.value or ""
            dispatch(_table(lambda tb: tb.with_francois_text(place, text)))

        card = table.francois[place]
        controls.append(
            ft.TextField(
                key=f"francois-{place}",
                label=t("francois_card", lang),
                width=200,
                dense=True,
                value="" if card is None else entry_text(card),
                on_submit=given,
                on_blur=given,
                data=table.edition,
            )
        )
    return ft.Column(key=f"{slug}-row", controls=controls, spacing=4)


def _shared_rows(table: ShowdownState, lang: str, dispatch: Dispatch) -> ft.Control | None:
    """The circular variant's hands lying between neighbours, typed."""
    if not table.deals.shared_cards:
        return None

    def typed(pair: int) -> Any:
        def handler(e: ft.Event[ft.TextField]) -> None:
            text = e.control.value or ""
            dispatch(_table(lambda tb: tb.with_shared_text(pair, text)))

        return handler

    return ft.Column(
        key="shared",
        controls=[
            ft.TextField(
                key=f"shared-{i}",
                label=t("shared_hand", lang, pair=f"{a}+{b}"),
                value=" ".join(entry_text(card) for card in table.shared[i]),
                dense=True,
                on_submit=typed(i),
                on_blur=typed(i),
                data=table.edition,
            )
            for i, (a, b) in enumerate(table.neighbours())
        ],
        spacing=6,
    )


RANKS = "AKQJT98765432"
SUITS = "shdc"


def _tap_button(key: str, label: str, dispatch: Dispatch, change: Any) -> ft.Control:
    """A small button for one-tap fixes (a rank or a suit of the picked card)."""
    return ft.TextButton(
        key=key,
        content=label,
        on_click=lambda e: dispatch(_table(change)),
        style=ft.ButtonStyle(padding=ft.Padding.all(4)),
    )


def _fix_panel(table: ShowdownState, lang: str, dispatch: Dispatch) -> ft.Control | None:
    card = table.selected_card()
    if card is None or table.selected is None:
        return None
    here = table.selected[0]
    places = table.places()
    return ft.Container(
        key="fix-panel",
        content=ft.Column(
            [
                ft.Text(t("selected", lang, card=entry_text(card)), weight=ft.FontWeight.BOLD),
                ft.Row(
                    [
                        _tap_button(
                            f"rank-{r}",
                            "10" if r == "T" else r,
                            dispatch,
                            lambda tb, r=r: tb.retouch_selected(rank=r),
                        )
                        for r in RANKS
                    ],
                    wrap=True,
                    spacing=2,
                    run_spacing=2,
                ),
                ft.Row(
                    [
                        _tap_button(
                            f"suit-{s}",
                            t(f"suit_{s}", lang),
                            dispatch,
                            lambda tb, s=s: tb.retouch_selected(suit=s),
                        )
                        for s in SUITS
                    ],
                    spacing=2,
                    wrap=True,
                ),
                ft.TextField(
                    key="replace",
                    label=t("replace_with", lang),
                    dense=True,
                    width=160,
                    on_submit=lambda e: dispatch(
                        _table(lambda tb: tb.replace_selected(e.control.value or ""))
                    ),
                ),
                ft.Text(t("move_to", lang)),
                ft.Row(
                    [
                        ft.OutlinedButton(
                            key=f"move-{p}",
                            content=table.place_name(p, lang),
                            on_click=lambda e, p=p: dispatch(
                                _table(lambda tb: tb.move_selected(p))
                            ),
                        )
                        for p in places
                        if p != here
                    ],
                    wrap=True,
                ),
                ft.TextButton(
                    key="remove",
                    content=t("remove", lang),
                    on_click=lambda e: dispatch(_table(lambda tb: tb.remove_selected())),
                ),
            ],
            spacing=6,
        ),
        padding=10,
        border=ft.Border.all(2, ft.Colors.BLUE_700),
        border_radius=8,
    )


def _tokens(table: ShowdownState, lang: str, dispatch: Dispatch) -> ft.Control:
    numbers = table.token_map()
    buttons: list[ft.Control] = [
        ft.Button(
            key=f"token-{hid}",
            content=f"{hid}  #{numbers[hid]}" if hid in numbers else hid,
            bgcolor=ft.Colors.RED_100 if hid in numbers else None,
            on_click=lambda e, h=hid: dispatch(_table(lambda tb: tb.tap_hand(h))),
        )
        for hid, _owner in table.hand_ids()
    ]
    return section(
        "tokens",
        t("tokens", lang),
        ft.Text(t("tokens_help", lang), size=13),
        ft.Row(buttons, wrap=True),
        ft.Row(
            [
                ft.TextField(
                    key="tokens-text",
                    label=t("tokens_text", lang),
                    dense=True,
                    width=220,
                    on_submit=lambda e: dispatch(
                        _table(lambda tb: tb.with_tokens_text(e.control.value or ""))
                    ),
                ),
                ft.TextButton(
                    key="tokens-clear",
                    content=t("tokens_clear", lang),
                    on_click=lambda e: dispatch(_table(lambda tb: tb.clear_tokens())),
                ),
            ],
            wrap=True,
        ),
    )


def _verdict(result: Showdown, lang: str) -> ft.Control | None:
    if result.verdict is None:
        return None
    opens = result.verdict.opens
    reasons = [
        ft.Text(plain(f"#{f.token} {f.hand.id}: {f.reason(lang)}"), color=ft.Colors.WHITE, size=15)
        for f in result.verdict.failures
    ]
    return ft.Container(
        key="verdict",
        content=ft.Column(
            [
                ft.Text(
                    t("vault_opens" if opens else "alarm", lang),
                    size=40,
                    weight=ft.FontWeight.BOLD,
                    color=ft.Colors.WHITE,
                    text_align=ft.TextAlign.CENTER,
                ),
                *reasons,
            ],
            horizontal_alignment=ft.CrossAxisAlignment.CENTER,
        ),
        bgcolor=GREEN if opens else RED,
        padding=16,
        border_radius=10,
    )


def _best_fives(table: ShowdownState, result: Showdown, lang: str) -> ft.Control:
    """Each hand's best five; the cards the player holds stand out from the river's."""
    held = {p.name: p.cards for p in table.table().players}
    rows = []
    for hand in result.hands:
        best = hand.value.best
        own = set(held.get(hand.owner, ()))
        rows.append(
            ft.Column(
                [
                    ft.Text(f"{hand.id} — {describe(hand.value, lang)}", size=14),
                    ft.Row(
                        [
                            card_chip(str(c), key=f"best-{hand.id}-{i}", highlight=c in own)
                            for i, c in enumerate(best)
                        ],
                        spacing=4,
                        wrap=True,
                    ),
                ],
                spacing=2,
            )
        )
    order = " < ".join(" = ".join(group) for group in result.order)
    return section(
        "best-five",
        t("best_five", lang),
        *rows,
        ft.Text(t("correct_order", lang, order=order), size=13, italic=True),
    )


def showdown_view(
    state: AppState,
    dispatch: Dispatch,
    photo_button: ft.Control | None,
    webcam_button: ft.Control | None = None,
) -> ft.Control:
    table, lang = state.table, state.lang
    checked = table.check  # the one showdown of this state
    problems, result = checked.problems, checked.showdown
    doubled = {p.params["card"] for p in problems if isinstance(p, DuplicateCardError)}
    cards_in = [c for c in (photo_button, webcam_button) if c is not None]
    if state.vision_note:
        cards_in.append(
            ft.Text(
                t("vision_off", lang, reason=state.vision_note.text(lang)),
                size=13,
                color=ft.Colors.ORANGE_900,
                key="vision-note",
            )
        )
    if table.photo:
        cards_in.append(ft.Text(t("photo_kept", lang), size=13, key="photo-kept"))
    parts: list[ft.Control | None] = [
        setup_panel(state, dispatch),
        ft.Row(cards_in, wrap=True, key="cards-in"),
    ]
    for place in table.places():
        parts.append(_place_row(table, place, lang, dispatch, doubled))
        if table.selected is not None and table.selected[0] == place:
            parts.append(_fix_panel(table, lang, dispatch))  # right under the tapped card
    parts.append(_shared_rows(table, lang, dispatch))
    if problems:
        parts.append(
            ft.Container(
                key="problems",
                content=section(
                    "problem-list",
                    t("problems", lang),
                    *[ft.Text("• " + plain(p.message(lang)), color=RED) for p in problems],
                ),
                padding=8,
                bgcolor=ft.Colors.RED_50,
                border_radius=8,
            )
        )
    if result is not None:
        # The verdict right under the token buttons: where the last tap was made.
        parts += [
            _tokens(table, lang, dispatch),
            _verdict(result, lang),
            _best_fives(table, result, lang),
        ]
        if result.verdict is not None and state.night is not None and not state.night.finished:
            parts.append(
                ft.Button(
                    key="save-heist",
                    content=t("save_heist", lang),
                    on_click=lambda e: dispatch(save_heist),
                )
            )
    parts.append(
        ft.TextButton(
            key="new-table",
            content=t("new_table", lang),
            on_click=lambda e: dispatch(_table(lambda tb: tb.cleared())),
        )
    )
    return ft.Column([p for p in parts if p is not None], spacing=12)

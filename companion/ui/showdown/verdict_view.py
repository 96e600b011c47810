"""The end of a showdown: the red tokens tapped, the vault's verdict, each hand's best five."""

from __future__ import annotations

import flet as ft

from companion.engine.gang.showdown import Showdown
from companion.engine.gang.words import describe
from companion.ui.kit.burned_row import dog_text
from companion.ui.kit.text import t
from companion.ui.kit.widgets import GREEN, RED, Dispatch, card_chip, section
from companion.ui.showdown.doubts import answered
from companion.ui.showdown.host import H
from companion.ui.showdown.setup_view import table_action, table_field
from companion.ui.showdown.state import ShowdownState

__all__ = ["tokens_panel", "verdict_panel", "answered_panel", "best_fives"]


def tokens_panel(table: ShowdownState, lang: str, dispatch: Dispatch[H]) -> ft.Control:
    numbers = table.token_map()
    buttons: list[ft.Control] = [
        ft.Button(
            key=f"token-{hid}",
            content=f"{hid}  #{numbers[hid]}" if hid in numbers else hid,
            bgcolor=ft.Colors.RED_100 if hid in numbers else None,
            on_click=lambda e, h=hid: dispatch(table_action(lambda tb: tb.tap_hand(h))),
        )
        for hid, _owner in table.hand_ids()
    ]
    return section(
        "tokens",
        t("tokens", lang),
        ft.Text(t("tokens_help", lang), size=13),
        ft.Row(buttons, wrap=True),
        # The page's whole width: the label, seen before anything is typed, is never cut.
        ft.Row(
            [
                table_field(
                    "tokens-text",
                    t("tokens_text", lang),
                    None,
                    dispatch,
                    lambda tb, text: tb.with_tokens_text(text),
                )
            ]
        ),
        ft.TextButton(
            key="tokens-clear",
            content=t("tokens_clear", lang),
            on_click=lambda e: dispatch(table_action(lambda tb: tb.clear_tokens())),
        ),
    )


def _dog(result: Showdown, lang: str) -> list[ft.Control]:
    """Le chien's line under the verdict, when the burned cards were typed."""
    if result.dog is None:
        return []
    line = dog_text(result.dog, [h.id for h in result.hands], lang)
    return [ft.Text(line, color=ft.Colors.WHITE, size=15, key="verdict-dog")]


def verdict_panel(result: Showdown, lang: str) -> ft.Control | None:
    if result.verdict is None:
        return None
    opens = result.verdict.opens
    reasons = [
        ft.Text(
            t("failure_line", lang, token=f.token, hand=f.hand.id, reason=f.reason(lang)),
            color=ft.Colors.WHITE,
            size=15,
        )
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
                *_dog(result, lang),
            ],
            horizontal_alignment=ft.CrossAxisAlignment.CENTER,
        ),
        bgcolor=GREEN if opens else RED,
        padding=16,
        border_radius=10,
    )


def answered_panel(table: ShowdownState, lang: str) -> ft.Control | None:
    """Under the verdict: every doubt the players confirmed or declared instead of fixing."""
    told = answered(table)
    if not told:
        return None
    return section(
        "answered",
        t("verdict.answered", lang),
        *[
            ft.Text("• " + d.on_verdict().text(lang), size=14, key=f"answered-{i}")
            for i, d in enumerate(told)
        ],
    )


def best_fives(table: ShowdownState, result: Showdown, lang: str) -> ft.Control:
    """Each hand's best five; the cards the player holds stand out from the river's."""
    held = {p.name: p.cards for p in table.check.table.players}
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

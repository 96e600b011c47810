"""The table's setup: variant and table rules, presets, the players (also on the Game night
screen)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

import flet as ft

from companion.engine.gang.checks import DECKS
from companion.engine.gang.ranking import Ranking, Straights
from companion.engine.gang.tokens import TokenRule
from companion.ui.kit.cards import entry_text
from companion.ui.kit.services import Action, pure
from companion.ui.kit.text import t
from companion.ui.kit.widgets import Dispatch, dropdown
from companion.ui.showdown.actions import apply_preset, group_presets, save_preset
from companion.ui.showdown.host import H
from companion.ui.showdown.state import UI_VARIANTS

__all__ = ["setup_panel", "table_action", "table_field"]


def table_action(change: Any) -> Action[H]:
    """An action changing only the table: ``change(table) -> table``."""
    return pure(lambda s: s.with_table(change(s.table)))


def table_field(
    key: str,
    label: str,
    width: int | None,
    dispatch: Dispatch[H],
    change: Callable[[Any, str], Any],
) -> ft.TextField:
    """A field whose submitted text changes the table: ``change(table, text) -> table``;
    ``width`` None: as wide as the row it is put in."""
    return ft.TextField(
        key=key,
        label=label,
        dense=True,
        width=width,
        expand=width is None,
        on_submit=lambda e: dispatch(table_action(lambda tb: change(tb, e.control.value or ""))),
    )


def setup_panel(state: H, dispatch: Dispatch[H]) -> ft.Control:
    table, lang = state.table, state.lang
    rules = table.rules

    def set_rules(**change: Any) -> None:
        dispatch(table_action(lambda tb: tb.with_rules(replace(rules, **change))))

    def word(key: str) -> str:
        return t(key, lang)

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
                dropdown(
                    "variant",
                    t("variant", lang),
                    table.variant,
                    [(v, word(f"variant.{v}")) for v in UI_VARIANTS],
                    lambda v: dispatch(table_action(lambda tb: tb.with_variant(v))),
                ),
                dropdown(
                    "ranking",
                    t("ranking", lang),
                    rules.ranking.value,
                    [(r.value, word(f"ranking.{r.value}")) for r in Ranking],
                    lambda v: set_rules(ranking=Ranking(v)),
                ),
                dropdown(
                    "straights",
                    t("straights", lang),
                    rules.straights.value,
                    [(s.value, word(f"straights.{s.value}")) for s in Straights],
                    lambda v: set_rules(straights=Straights(v)),
                ),
                dropdown(
                    "decks",
                    t("decks", lang),
                    str(rules.decks),
                    [(str(n), str(n)) for n in DECKS],
                    lambda v: set_rules(decks=int(v)),
                ),
                dropdown(
                    "token-rule",
                    t("token_rule", lang),
                    rules.tokens.value,
                    [(r.value, word(f"token_rule.{r.value}")) for r in TokenRule],
                    lambda v: set_rules(tokens=TokenRule(v)),
                ),
                ft.Switch(
                    key="two-rivers",
                    label=t("two_rivers", lang),
                    value=table.two_rivers,
                    on_change=lambda e: dispatch(
                        table_action(lambda tb: tb.with_two_rivers(bool(e.control.value)))
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
                        tooltip=t("preset_apply", lang, name=p.name),
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
            on_submit=lambda e: dispatch(
                table_action(lambda tb: tb.with_players_text(e.control.value))
            ),
            on_blur=lambda e: dispatch(
                table_action(lambda tb: tb.with_players_text(e.control.value))
            ),
            data=table.edition,
        ),
        _burned_field(state, dispatch),
    ]
    if rules.tokens is not TokenRule.BASE:
        # The house rules are explained where they are picked; the base one is the game's own.
        explained = t(f"token_rule.{rules.tokens.value}.explain", lang)
        controls.insert(1, ft.Text(explained, size=13, key="token-rule-explained"))
    return ft.Column(controls, spacing=8, key="setup")


def _burned_field(state: H, dispatch: Dispatch[H]) -> ft.Control:
    """Le chien: the three burned cards, typed like any card; optional."""
    table, lang = state.table, state.lang

    def typed(e: ft.Event[ft.TextField]) -> None:
        text = e.control.value or ""
        dispatch(table_action(lambda tb: tb.with_burned_text(text)))

    return ft.TextField(
        key="burned",
        label=t("burned_cards", lang),
        value=" ".join(entry_text(card) for card in table.burned),
        dense=True,
        on_submit=typed,
        on_blur=typed,
        data=table.edition,
    )

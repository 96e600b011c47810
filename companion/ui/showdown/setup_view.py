"""The table's setup: variant and table rules, presets, the players (also on the Game night
screen)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from enum import Enum
from typing import Any

import flet as ft

from companion.engine.gang.checks import DECKS
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


def _rules_row(state: H, dispatch: Dispatch[H]) -> ft.Control:
    """The variant and the table rules, each a choice; the two rivers a switch."""
    table, lang = state.table, state.lang
    rules = table.rules

    def set_rules(**change: Any) -> None:
        dispatch(table_action(lambda tb: tb.with_rules(replace(rules, **change))))

    def rule(key: str, field: str, current: Enum) -> ft.Control:
        """A table rule picked among its kind's values, each in words (``key.value``)."""
        kind = type(current)
        words = [(r.value, t(f"{key}.{r.value}", lang)) for r in kind]
        return dropdown(
            key.replace("_", "-"),
            t(key, lang),
            current.value,
            words,
            lambda v: set_rules(**{field: kind(v)}),
        )

    decks = [(str(n), str(n)) for n in DECKS]

    def set_decks(value: str) -> None:
        set_rules(decks=int(value))

    return ft.Row(
        [
            dropdown(
                "variant",
                t("variant", lang),
                table.variant,
                [(v, t(f"variant.{v}", lang)) for v in UI_VARIANTS],
                lambda v: dispatch(table_action(lambda tb: tb.with_variant(v))),
            ),
            rule("ranking", "ranking", rules.ranking),
            rule("straights", "straights", rules.straights),
            dropdown(
                "decks",
                t("decks", lang),
                str(rules.decks),
                decks,
                lambda v: set_rules(decks=int(v)),
            ),
            rule("token_rule", "tokens", rules.tokens),
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
    )


def _presets_row(state: H, dispatch: Dispatch[H]) -> ft.Control:
    """The rules saved under a name, and the group's presets, one tap each."""
    lang = state.lang
    name = ft.TextField(
        key="preset-name",
        label=t("preset_name", lang),
        dense=True,
        width=170,
        on_submit=lambda e: dispatch(save_preset(e.control.value or "")),
    )
    return ft.Row(
        [
            name,
            ft.Button(
                key="preset-save",
                content=t("preset_save", lang),
                on_click=lambda e: dispatch(save_preset(name.value or "")),
            ),
            *[
                ft.Chip(
                    key=f"preset-{p.name}",
                    label=ft.Text(p.name),
                    tooltip=t("preset_apply", lang, name=p.name),
                    on_click=lambda e, n=p.name: dispatch(apply_preset(n)),
                )
                for p in group_presets(state.presets, state.table.players)
            ],
        ],
        wrap=True,
    )


def _typed_field(
    key: str,
    label: str,
    value: str,
    edition: int,
    dispatch: Dispatch[H],
    change: Callable[[Any, str], Any],
    hint: str | None = None,
) -> ft.TextField:
    """A setup field showing ``value``, whose text changes the table on submit or on leaving
    it: ``change(table, text) -> table``."""

    def typed(e: ft.Event[ft.TextField]) -> None:
        text = e.control.value or ""
        dispatch(table_action(lambda tb: change(tb, text)))

    return ft.TextField(
        key=key,
        label=label,
        hint_text=hint,
        value=value,
        dense=True,
        on_submit=typed,
        on_blur=typed,
        data=edition,
    )


def _players_field(state: H, dispatch: Dispatch[H]) -> ft.Control:
    """The players, as they sit: empty until typed, with an example of how."""
    table, lang = state.table, state.lang
    return _typed_field(
        "players",
        t("players", lang),
        ", ".join(table.players),
        table.edition,
        dispatch,
        lambda tb, text: tb.with_players_text(text),
        t("players_hint", lang),
    )


def _dealt_field(state: H, dispatch: Dispatch[H]) -> ft.Control | None:
    """Where the variant lets hand sizes differ: each hand's size, checked before the
    verdict (Crack's "changement du nombre de cartes en main")."""
    table, lang = state.table, state.lang
    if not table.sizes_free:
        return None
    return _typed_field(
        "dealt",
        t("dealt", lang),
        table.dealt.text(),
        table.edition,
        dispatch,
        lambda tb, text: tb.with_dealt_text(text),
        t("dealt_hint", lang),
    )


def setup_panel(state: H, dispatch: Dispatch[H]) -> ft.Control:
    """The table's setup: its rules (the house token rule explained), presets, the players,
    each hand's size where it may differ, le chien's burned cards."""
    rules, lang = state.table.rules, state.lang
    explained = (
        # The house rules are explained where they are picked; the base one is the game's own.
        ft.Text(
            t(f"token_rule.{rules.tokens.value}.explain", lang), size=13, key="token-rule-explained"
        )
        if rules.tokens is not TokenRule.BASE
        else None
    )
    controls = [
        _rules_row(state, dispatch),
        explained,
        _presets_row(state, dispatch),
        _players_field(state, dispatch),
        _dealt_field(state, dispatch),
        _burned_field(state, dispatch),
    ]
    return ft.Column([c for c in controls if c is not None], spacing=8, key="setup")


def _burned_field(state: H, dispatch: Dispatch[H]) -> ft.Control:
    """Le chien: the three burned cards, typed like any card; optional."""
    table, lang = state.table, state.lang
    return _typed_field(
        "burned",
        t("burned_cards", lang),
        " ".join(entry_text(card) for card in table.burned),
        table.edition,
        dispatch,
        lambda tb, text: tb.with_burned_text(text),
    )

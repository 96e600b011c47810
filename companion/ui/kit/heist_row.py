"""A saved heist as it was on the table, as the Game night and History screens list it."""

from __future__ import annotations

from collections.abc import Callable

import flet as ft

from companion.engine.cards import parse_cards
from companion.engine.gang.burned import value_dog
from companion.errors import CompanionError
from companion.messages import named
from companion.storage import Heist
from companion.storage.hands import sat_out
from companion.storage.stats import BASE_TOKENS, heist_token_rule
from companion.ui.kit.burned_row import dog_row
from companion.ui.kit.text import t
from companion.ui.kit.widgets import GREEN, RED, OpenReplay, card_chip

__all__ = ["heist_row"]


def _dog(heist: Heist, lang: str) -> ft.Control | None:
    """Le chien, when the heist kept its burned cards (a damaged entry is left out)."""
    try:
        dog = value_dog(parse_cards(" ".join(heist.burned))) if heist.burned else None
    except CompanionError:
        return None
    if dog is None:
        return None
    return dog_row(f"h{heist.number}-dog", dog, tuple(heist.hands), lang)


def heist_row(
    heist: Heist,
    lang: str,
    thumb: bytes | None,
    replay: OpenReplay | None = None,
    players: tuple[str, ...] = (),
    share: Callable[[int], None] | None = None,
) -> ft.Control:
    """A saved heist as it was on the table: the river, every hand's hole cards with its
    token, who sat out, the verdict and its reasons, the photo; ``share`` (the heist's id)
    sends its picture to the browser."""
    out = sat_out(players, heist.owners)
    tokens = heist_token_rule(heist)
    verdict = t("vault" if heist.verdict.opens else "alarm_word", lang)
    reasons = [
        ft.Text(str(f.get("reason_fr" if lang == "fr" else "reason", "")), size=13)
        for f in heist.verdict.failures
    ]
    hands = [
        ft.Row(
            [
                ft.Text(f"{hid} #{heist.tokens.get(hid, '?')}", size=13),
                *[card_chip(c, key=f"h{heist.number}-{hid}-{i}") for i, c in enumerate(cards)],
            ],
            wrap=True,
            spacing=4,
        )
        for hid, cards in heist.hands.items()
    ]
    parts: list[ft.Control | None] = [
        ft.Text(
            t("heist_line", lang, n=heist.number, verdict=verdict),
            weight=ft.FontWeight.BOLD,
            color=GREEN if heist.verdict.opens else RED,
        ),
        ft.Row(
            [card_chip(c, key=f"h{heist.number}-river-{i}") for i, c in enumerate(heist.river)],
            wrap=True,
            spacing=4,
        ),
        ft.Row(
            [card_chip(c, key=f"h{heist.number}-river2-{i}") for i, c in enumerate(heist.board2)],
            wrap=True,
            spacing=4,
        )
        if heist.board2
        else None,
        *hands,
        ft.Text(
            t("heist_token_rule", lang, rule=named(f"token_rule.{tokens}", tokens)),
            size=13,
            key=f"h{heist.number}-tokens",
        )
        if tokens != BASE_TOKENS
        else None,
        ft.Text(
            t("photo.sitting_out", lang, names=", ".join(out)),
            size=13,
            key=f"h{heist.number}-out",
        )
        if out
        else None,
        *reasons,
        _dog(heist, lang),
        ft.Image(src=thumb, width=200, key=f"photo-{heist.number}") if thumb else None,
        ft.TextButton(
            key=f"replay-{heist.number}",
            content=t("replay", lang),
            icon=ft.Icons.INSIGHTS,
            on_click=lambda e: replay(heist.night_id, heist.id),
        )
        if replay
        else None,
        ft.TextButton(
            key=f"share-{heist.number}",
            content=t("share.button", lang),
            icon=ft.Icons.SHARE,
            on_click=lambda e: share(heist.id),
        )
        if share
        else None,
    ]
    return ft.Container(
        key=f"heist-{heist.number}",
        content=ft.Column([p for p in parts if p is not None], spacing=4),
        padding=8,
        border=ft.Border.all(1, ft.Colors.GREY_400),
        border_radius=8,
    )

"""The cribbage screen's discard advice: the six cards dealt, which two to lay away."""

from __future__ import annotations

from fractions import Fraction

import flet as ft

from companion.engine.cribbage.discard import DiscardAdvice, DiscardOption
from companion.messages.numbers import numbers
from companion.ui.cribbage.actions import on_screen
from companion.ui.cribbage.fields import cards_field, switch
from companion.ui.cribbage.host import H
from companion.ui.kit.text import t
from companion.ui.kit.widgets import RED, Dispatch, section

__all__ = ["advice_section"]


def _decimal(value: Fraction, lang: str) -> str:
    return numbers(lang).decimal(float(value), 2)


def _option(option: DiscardOption, dealer: bool, lang: str, key: str) -> ft.Control:
    line = t(
        "crib_option",
        lang,
        discard=option.discard,
        keep=option.keep,
        hand=_decimal(option.hand, lang),
        op="+" if dealer else "-",
        crib=_decimal(option.crib, lang),
        net=_decimal(option.net, lang),
    )
    return ft.Text(line, size=13, key=key)


def _advice_lines(advice: DiscardAdvice, lang: str) -> list[ft.Control]:
    sign = t("crib_plus" if advice.dealer else "crib_minus", lang)
    return [
        ft.Text(t("crib_by_net", lang, sign=sign), weight=ft.FontWeight.BOLD),
        *[
            _option(o, advice.dealer, lang, f"advice-net-{i}")
            for i, o in enumerate(advice.by_net[:5])
        ],
        ft.Text(t("crib_by_hand", lang), weight=ft.FontWeight.BOLD),
        *[
            _option(o, advice.dealer, lang, f"advice-hand-{i}")
            for i, o in enumerate(advice.by_hand[:3])
        ],
    ]


def advice_section(state: H, dispatch: Dispatch[H]) -> ft.Control:
    lang, crib = state.lang, state.cribbage

    lines: list[ft.Control] = []
    if crib.advice_error is not None:
        error = crib.advice_error.text(lang)
        lines.append(ft.Text(error, color=RED, key="advice-error"))
    elif crib.advice is not None:
        lines += _advice_lines(crib.advice, lang)
    return section(
        "crib-advice",
        t("crib_advice", lang),
        ft.Row(
            [
                cards_field(
                    "crib-deal",
                    t("crib_deal", lang),
                    crib.deal,
                    260,
                    lambda text: dispatch(on_screen(lambda c: c.with_deal_text(text))),
                ),
                switch(
                    "crib-dealer",
                    t("crib_dealer", lang),
                    crib.dealer,
                    lambda on: dispatch(on_screen(lambda c: c.with_dealer(on))),
                ),
            ],
            wrap=True,
        ),
        *lines,
    )

"""The heist replay: per hand, bars for the chance of each final position at each street.

The bars are plain containers (no chart package): one small column of N bars per street, the
most likely position in a darker colour and the final token's position outlined. Under the charts,
each street's best tokens (knowing every hole card) and how often they open the vault. A third
view switches from the odds to the hands as they stood, street by street (``_stood``).
"""

from __future__ import annotations

import flet as ft

from companion.engine.cards import format_cards
from companion.engine.gang.replay.odds import BestTokens, Street
from companion.engine.gang.replay.records import StoodHand, StoodStreet
from companion.engine.gang.replay.words import (
    best_tokens_words,
    method_text,
    mistake_text,
    percent,
    stood_hand_text,
    stood_token_lines,
    street_name,
)
from companion.engine.gang.words import hand_label
from companion.messages.numbers import numbers
from companion.ui.kit.text import heist_words, t
from companion.ui.kit.widgets import RED, Dispatch, section
from companion.ui.replay.actions import close_replay, open_replay, show_view
from companion.ui.replay.host import H
from companion.ui.replay.state import STREETS, VIEWS, HandChart, ReplayState, StreetBars

__all__ = ["replay_view", "BAR_HEIGHT"]

BAR_HEIGHT = 64  # pixels for a certain position
STREET_WIDTH = 76  # four streets side by side on a phone


def _bar_width(n: int) -> int:
    """Bars as wide as fit one street's column (thinner with many hands)."""
    return max(4, min(16, STREET_WIDTH // n - 2))


def _number(x: float, lang: str) -> str:
    return numbers(lang).decimal(x, 1)


def _bar(bars: StreetBars, position: int, token: int | None, key: str, lang: str) -> ft.Control:
    p = bars.positions[position - 1]
    likeliest = position == bars.most_likely
    return ft.Container(
        key=key,
        width=_bar_width(len(bars.positions)),
        height=max(2, round(p * BAR_HEIGHT)),  # a sliver even at 0, so every position shows
        bgcolor=ft.Colors.INDIGO_700 if likeliest else ft.Colors.INDIGO_200,
        border=ft.Border.all(2, ft.Colors.AMBER_700) if position == token else None,
        tooltip=f"{position}: {percent(p, lang)}",
    )


def _street(chart: HandChart, bars: StreetBars, lang: str) -> ft.Control:
    n = len(bars.positions)
    slug = f"replay-{chart.hand_id}-{bars.street.value}"
    width = _bar_width(n)
    # Position numbers under the bars only while they fit; the tooltip says them anyway.
    numbers = (
        ft.Row(
            [
                ft.Text(str(k), size=10, width=width, text_align=ft.TextAlign.CENTER)
                for k in range(1, n + 1)
            ],
            spacing=2,
        )
        if width >= 10
        else None
    )
    controls: list[ft.Control | None] = [
        ft.Text(street_name(bars.street, lang), size=12, weight=ft.FontWeight.BOLD),
        ft.Container(
            height=BAR_HEIGHT,
            content=ft.Row(
                [_bar(bars, k, chart.token, f"{slug}-{k}", lang) for k in range(1, n + 1)],
                spacing=2,
                vertical_alignment=ft.CrossAxisAlignment.END,
            ),
        ),
        numbers,
        ft.Text(
            f"≈ {_number(bars.expected, lang)}",
            size=12,
            key=f"{slug}-expected",
            tooltip=t(
                "replay_expected",
                lang,
                expected=_number(bars.expected, lang),
                best=bars.most_likely,
            ),
        ),
    ]
    return ft.Column(
        [c for c in controls if c is not None], key=slug, spacing=2, width=STREET_WIDTH
    )


def _hand(chart: HandChart, lang: str) -> ft.Control:
    title = hand_label(chart.hand_id, lang)
    if chart.token is not None:
        title += " — " + t("replay_token", lang, token=chart.token)
    # The expected and the most likely final position, street by street from pre-flop to
    # river; joined by middle dots, as the web client's bundled font has no arrows.
    summary = t(
        "replay_expected",
        lang,
        expected=" · ".join(_number(b.expected, lang) for b in chart.streets),
        best=" · ".join(str(b.most_likely) for b in chart.streets),
    )
    return ft.Container(
        key=f"replay-hand-{chart.hand_id}",
        content=ft.Column(
            [
                ft.Text(title, weight=ft.FontWeight.BOLD),
                ft.Text(summary, size=12, key=f"replay-{chart.hand_id}-summary"),
                ft.Row(
                    [_street(chart, bars, lang) for bars in chart.streets],
                    wrap=True,
                    spacing=8,
                    vertical_alignment=ft.CrossAxisAlignment.START,
                ),
            ],
            spacing=6,
        ),
        padding=8,
        border=ft.Border.all(1, ft.Colors.GREY_400),
        border_radius=8,
    )


def _framed(key: str, lines: list[ft.Control]) -> ft.Control:
    """A street's block of lines in a thin grey frame."""
    return ft.Container(
        key=key,
        content=ft.Column(lines, spacing=4),
        padding=8,
        border=ft.Border.all(1, ft.Colors.GREY_400),
        border_radius=8,
    )


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:]


def _best_street(street: Street, best: BestTokens, lang: str) -> ft.Control:
    """One street's best tokens, one small tile per hand so they wrap at phone width, then the
    vault's chance with them and with the tokens taken (replay_text's words, line by line)."""
    words = best_tokens_words(best, lang)
    slug = f"replay-best-{street.value}"
    order = sorted(best.tokens, key=lambda hand_id: best.tokens[hand_id])
    tiles = ft.Row(
        key=f"{slug}-tokens",
        wrap=True,
        spacing=4,
        run_spacing=4,
        controls=[
            ft.Container(
                key=f"{slug}-{hand_id}",
                content=ft.Text(text, size=13),
                padding=ft.Padding.symmetric(horizontal=6, vertical=2),
                border=ft.Border.all(1, ft.Colors.INDIGO_200),
                border_radius=4,
            )
            for hand_id, text in zip(order, words.tokens, strict=True)
        ],
    )
    lines: list[ft.Control] = [
        ft.Text(street_name(street, lang), size=12, weight=ft.FontWeight.BOLD),
        tiles,
        ft.Text(_sentence(words.opens), size=13, key=f"{slug}-opens"),
    ]
    if words.taken is not None:
        lines.append(ft.Text(_sentence(words.taken), size=13, key=f"{slug}-taken"))
    if words.unproven is not None:
        lines.append(
            ft.Text(
                _sentence(words.unproven),
                size=12,
                italic=True,
                color=ft.Colors.AMBER_900,
                key=f"{slug}-unproven",
            )
        )
    if not best.method.exact:  # a sampled chance comes with its sample count and error bar
        lines.append(ft.Text(method_text(best.method, lang), size=12, color=ft.Colors.GREY_700))
    return _framed(slug, lines)


def _best_tokens(replay: ReplayState, lang: str) -> ft.Control | None:
    found = replay.best_tokens()
    if not found:
        return None
    title = _sentence(best_tokens_words(found[0][1], lang).title)
    note = ft.Text(t("replay_everyone", lang), size=12, color=ft.Colors.GREY_700)
    return section(
        "replay-best", title, note, *[_best_street(street, best, lang) for street, best in found]
    )


def _methods(replay: ReplayState, lang: str) -> ft.Control:
    """How each street's numbers were found: exact, or sampled with the error bar."""
    colon = " :" if lang == "fr" else ":"
    lines: list[ft.Control] = [
        ft.Text(
            f"{street_name(street, lang)}{colon} {method_text(method, lang)}",
            size=12,
            color=ft.Colors.GREY_700,
        )
        for street, method in replay.methods()
    ]
    return ft.Column(lines, spacing=2, key="replay-methods")


def _mistakes(replay: ReplayState, lang: str) -> ft.Control:
    found = replay.mistakes()
    if not replay.tokens:
        lines = [ft.Text(t("replay_no_tokens", lang))]
    elif not found:
        lines = [ft.Text(t("replay_no_mistake", lang), key="replay-no-mistake")]
    else:
        lines = [
            ft.Text(mistake_text(m, lang), key=f"replay-mistake-{i}") for i, m in enumerate(found)
        ]
    note = ft.Text(t("replay_river_only", lang), size=12, color=ft.Colors.GREY_700)
    return section("replay-mistakes", t("replay_mistakes", lang), *lines, note)


def _stood_hand(street: StoodStreet, hand: StoodHand, lang: str) -> ft.Control:
    """One hand as it stood: where, whose and what; its token, red when it does not fit."""
    slug = f"replay-stood-{street.street.value}-{hand.hand.id}"
    line: list[ft.Control] = [ft.Text(stood_hand_text(hand, lang), size=13, expand=True)]
    if hand.token is not None:
        line.append(
            ft.Text(
                t("replay_stood_token", lang, token=hand.token),
                size=13,
                key=f"{slug}-token",
                color=None if hand.agrees else RED,
                weight=None if hand.agrees else ft.FontWeight.BOLD,
            )
        )
    return ft.Row(line, key=slug, spacing=6)


def _stood_street(street: StoodStreet, lang: str) -> ft.Control:
    """A street's hands as they stood, weakest first, and its tokens judged by them."""
    boards = [format_cards(street.board, pretty=True) or "—"]
    if street.board2:
        boards.append(format_cards(street.board2, pretty=True) or "—")
    title = _sentence(f"{street_name(street.street, lang)} [{' / '.join(boards)}]")
    lines: list[ft.Control] = [
        ft.Text(title, size=12, weight=ft.FontWeight.BOLD),
        *[_stood_hand(street, h, lang) for h in street.hands],
    ]
    slug = f"replay-stood-{street.street.value}"
    lines += [
        ft.Text(
            _sentence(line),
            size=13,
            key=f"{slug}-judged-{i}",
            color=None if not street.disagreements else RED,
        )
        for i, line in enumerate(stood_token_lines(street, lang))
    ]
    return _framed(slug, lines)


def _stood(replay: ReplayState, lang: str) -> list[ft.Control]:
    """The view by the hands as they stood, street by street."""
    return [
        ft.Text(t("replay_stood_help", lang), size=13, key="replay-stood-help"),
        *[_stood_street(street, lang) for street in replay.stood()],
    ]


def _odds(replay: ReplayState, lang: str) -> list[ft.Control]:
    """The views by the odds: the charts, the best tokens, how they were found, the mistakes."""
    return [
        ft.Text(t("replay_help", lang), size=13),
        *[_hand(chart, lang) for chart in replay.charts()],
        *[block for block in (_best_tokens(replay, lang),) if block is not None],
        _methods(replay, lang),
        _mistakes(replay, lang),
    ]


def replay_view(state: H, dispatch: Dispatch[H]) -> ft.Control:
    replay, lang = state.replay, state.lang
    if replay is None:  # the root shows this screen only with a replay
        return ft.Column()
    parts: list[ft.Control] = [
        ft.Row(
            [
                ft.Text(
                    t("replay_title", lang, n=replay.number),
                    size=20,
                    weight=ft.FontWeight.BOLD,
                    expand=True,
                ),
                ft.TextButton(
                    key="replay-close",
                    content=t("replay_close", lang),
                    on_click=lambda e: dispatch(close_replay),
                ),
            ]
        )
    ]
    if len(replay.night_heists) > 1:  # the night's other heists, alarms in red
        parts.append(
            ft.Row(
                key="replay-heists",
                wrap=True,
                spacing=4,
                controls=[
                    ft.Chip(
                        key=f"replay-pick-{number}",
                        selected=heist_id == replay.heist_id,
                        label=ft.Text(
                            str(number),
                            color=None if opened else RED,
                            weight=ft.FontWeight.BOLD if heist_id == replay.heist_id else None,
                            # Said in words: a number alone, in red or not, tells a reader little.
                            semantics_label=heist_words(number, opened, lang),
                        ),
                        tooltip=heist_words(number, opened, lang),
                        on_click=lambda e, h=heist_id: dispatch(open_replay(replay.night_id, h)),
                    )
                    for heist_id, number, opened in replay.night_heists
                ],
            )
        )
    if replay.error:
        parts.append(ft.Text(replay.error_text(lang), color=RED, key="replay-error"))
    elif replay.running:
        parts += [
            ft.ProgressBar(key="replay-progress", value=replay.progress),
            ft.Text(
                t(
                    "replay_running",
                    lang,
                    done=min(replay.streets_done + 1, len(STREETS)),
                    total=len(STREETS),
                )
            ),
        ]
        if replay.std_error > 0:
            error = percent(replay.std_error, lang, digits=2)
            parts.append(
                ft.Text(t("replay_running_error", lang, error=error), key="replay-error-bar")
            )
    else:
        parts += [
            ft.Row(
                [
                    (ft.Button if view == replay.view else ft.TextButton)(
                        key=f"replay-view-{view}",
                        content=t(f"replay_{view}", lang),
                        on_click=lambda e, v=view: dispatch(show_view(v)),
                    )
                    for view in VIEWS
                ],
                wrap=True,
            ),
            *(_odds(replay, lang) if replay.by_odds else _stood(replay, lang)),
        ]
    return ft.Column(parts, spacing=10, key="replay")

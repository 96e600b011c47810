"""The heist replay: per hand, bars for the chance of each final position at each street.

The bars are plain containers (no chart package): one small column of N bars per street, the
most likely position in a darker colour and the final token's position outlined.
"""

from __future__ import annotations

import flet as ft

from companion.engine.replay_text import method_text, mistake_text, percent, street_name
from companion.engine.text import hand_label
from companion.ui import replay_actions
from companion.ui.replay_state import STREETS, VIEWS, HandChart, ReplayState, StreetBars
from companion.ui.state import AppState
from companion.ui.text import t
from companion.ui.views.common import RED, Dispatch, section

__all__ = ["replay_view", "BAR_HEIGHT"]

BAR_HEIGHT = 64  # pixels for a certain position
BAR_WIDTH = 16


def _number(x: float, lang: str) -> str:
    text = f"{x:.1f}"
    return text.replace(".", ",") if lang == "fr" else text


def _bar(bars: StreetBars, position: int, token: int | None, key: str, lang: str) -> ft.Control:
    p = bars.positions[position - 1]
    likeliest = position == bars.most_likely
    return ft.Container(
        key=key,
        width=BAR_WIDTH,
        height=max(2, round(p * BAR_HEIGHT)),  # a sliver even at 0, so every position shows
        bgcolor=ft.Colors.INDIGO_700 if likeliest else ft.Colors.INDIGO_200,
        border=ft.Border.all(2, ft.Colors.AMBER_700) if position == token else None,
        tooltip=f"{position}: {percent(p, lang)}",
    )


def _street(chart: HandChart, bars: StreetBars, lang: str) -> ft.Control:
    n = len(bars.positions)
    slug = f"replay-{chart.hand_id}-{bars.street.value}"
    return ft.Column(key=slug, spacing=2, controls=[
        ft.Text(street_name(bars.street, lang), size=13, weight=ft.FontWeight.BOLD),
        ft.Container(height=BAR_HEIGHT, content=ft.Row(
            [_bar(bars, k, chart.token, f"{slug}-{k}", lang) for k in range(1, n + 1)],
            spacing=2, vertical_alignment=ft.CrossAxisAlignment.END)),
        ft.Row([ft.Text(str(k), size=11, width=BAR_WIDTH, text_align=ft.TextAlign.CENTER)
                for k in range(1, n + 1)], spacing=2),
        ft.Text(t("replay_expected", lang, expected=_number(bars.expected, lang),
                  best=bars.most_likely), size=12),
        ft.Text(method_text(bars.method, lang), size=10, color=ft.Colors.GREY_700,
                width=max(120, n * (BAR_WIDTH + 2))),
    ])


def _hand(chart: HandChart, lang: str) -> ft.Control:
    title = hand_label(chart.hand_id, lang)
    if chart.token is not None:
        title += " — " + t("replay_token", lang, token=chart.token)
    return ft.Container(
        key=f"replay-hand-{chart.hand_id}",
        content=ft.Column([
            ft.Text(title, weight=ft.FontWeight.BOLD),
            ft.Row([_street(chart, bars, lang) for bars in chart.streets], wrap=True,
                   spacing=16, vertical_alignment=ft.CrossAxisAlignment.START),
        ], spacing=6),
        padding=8, border=ft.Border.all(1, ft.Colors.GREY_400), border_radius=8,
    )


def _mistakes(replay: ReplayState, lang: str) -> ft.Control:
    found = replay.mistakes()
    if not replay.tokens:
        lines = [ft.Text(t("replay_no_tokens", lang))]
    elif not found:
        lines = [ft.Text(t("replay_no_mistake", lang), key="replay-no-mistake")]
    else:
        lines = [ft.Text(mistake_text(m, lang), key=f"replay-mistake-{i}")
                 for i, m in enumerate(found)]
    note = ft.Text(t("replay_river_only", lang), size=12, color=ft.Colors.GREY_700)
    return section("replay-mistakes", t("replay_mistakes", lang), *lines, note)


def replay_view(state: AppState, dispatch: Dispatch) -> ft.Control:
    replay, lang = state.replay, state.lang
    if replay is None:  # the root shows this screen only with a replay
        return ft.Column()
    parts: list[ft.Control] = [ft.Row([
        ft.Text(t("replay_title", lang, n=replay.number), size=20, weight=ft.FontWeight.BOLD,
                expand=True),
        ft.TextButton(key="replay-close", content=t("replay_close", lang),
                      on_click=lambda e: dispatch(replay_actions.close_replay)),
    ])]
    if replay.error:
        parts.append(ft.Text(replay.error_text(lang), color=RED, key="replay-error"))
    elif replay.running:
        parts += [
            ft.ProgressBar(key="replay-progress", value=replay.progress),
            ft.Text(t("replay_running", lang, done=min(replay.streets_done + 1, len(STREETS)),
                   total=len(STREETS))),
        ]
    else:
        parts += [
            ft.Row([
                (ft.Button if view == replay.view else ft.TextButton)(
                    key=f"replay-view-{view}", content=t(f"replay_{view}", lang),
                    on_click=lambda e, v=view: dispatch(replay_actions.show_view(v)))
                for view in VIEWS
            ], wrap=True),
            ft.Text(t("replay_help", lang), size=13),
            *[_hand(chart, lang) for chart in replay.charts()],
            _mistakes(replay, lang),
        ]
    return ft.Column(parts, spacing=10, key="replay")

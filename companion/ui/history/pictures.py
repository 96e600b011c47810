"""History in pictures: the group's nights, its success by variant and by token rule, and how
each player judges their hand. Each figure says in a line what it shows; its numbers are
written beside it (success) or in "The numbers" under it, opened with a tap.

The numbers come from the game log's stats (``storage.figures``); the drawing is ``charts``.
"""

from __future__ import annotations

import flet as ft

from companion.engine.gang.replay.words import percent
from companion.messages import has_text
from companion.storage import Figures, Judging, PlayerJudging
from companion.storage.figures import Success
from companion.ui.history.charts import (
    MANY,
    lean_bar,
    rate_bar,
    score_bars,
    smoothing,
    sparkline,
)
from companion.ui.kit.text import t, variant_name
from companion.ui.kit.widgets import section

__all__ = ["pictures_section"]

CAPTION = 12


def _caption(key: str, text: str) -> ft.Control:
    return ft.Text(text, key=key, size=CAPTION, italic=True)


def _numbers(key: str, lang: str, lines: list[str]) -> ft.Control:
    """A figure's numbers, a line each, shown on a tap."""
    return ft.ExpansionTile(
        key=key,
        title=ft.Text(t("pictures.numbers", lang), size=13),
        dense=True,
        expanded_cross_axis_alignment=ft.CrossAxisAlignment.START,
        tile_padding=ft.Padding.only(left=0, right=8),
        controls=[ft.Text(line, size=12) for line in lines],
    )


def _nights(figures: Figures, lang: str) -> ft.Control:
    """Vaults and alarms, night by night."""
    nights = figures.nights
    scores = [(n.vaults, n.alarms) for n in nights]
    caption = t(
        "pictures.nights_caption",
        lang,
        n=len(nights),
        vaults=sum(v for v, _ in scores),
        alarms=sum(a for _, a in scores),
    )
    lines = [
        t("pictures.night_row", lang, night=n.night_id, vaults=n.vaults, alarms=n.alarms)
        for n in nights
    ]
    return ft.Column(
        [
            ft.Text(t("pictures.nights", lang), weight=ft.FontWeight.BOLD),
            score_bars(
                "figure-nights",
                caption,
                scores,
                f"#{nights[0].night_id}",
                f"#{nights[-1].night_id}",
            ),
            _caption("caption-nights", caption),
            _numbers("numbers-nights", lang, lines),
        ],
        spacing=4,
    )


def _rule_name(rule: str, lang: str) -> str:
    key = f"token_rule.{rule}"
    return t(key, lang) if has_text(key) else rule


def _success_rows(kind: str, rows: tuple[Success, ...], lang: str) -> list[ft.Control]:
    """A row per variant (or token rule): its name, its bar, vaults over heists."""
    found: list[ft.Control] = []
    for s in rows:
        name = variant_name(s.name, lang) if kind == "variant" else _rule_name(s.name, lang)
        numbers = t(
            "pictures.success_row",
            lang,
            vaults=s.vaults,
            heists=s.heists,
            rate=percent(s.rate, lang),
        )
        found.append(
            ft.Row(
                [
                    ft.Text(name, size=13, width=110, max_lines=2),
                    rate_bar(
                        f"bar-{kind}-{s.name}",
                        t("pictures.label", lang, name=name, text=numbers),
                        s.rate,
                    ),
                    ft.Text(numbers, size=12),
                ],
                spacing=6,
                vertical_alignment=ft.CrossAxisAlignment.CENTER,
            )
        )
    return found


def _success(figures: Figures, lang: str) -> ft.Control:
    """The share of vaults opened, by variant and by token rule."""
    return ft.Column(
        [
            ft.Text(t("pictures.success", lang), weight=ft.FontWeight.BOLD),
            _caption("caption-success", t("pictures.success_caption", lang)),
            ft.Text(t("pictures.by_variant", lang), size=13),
            *_success_rows("variant", figures.by_variant, lang),
            ft.Text(t("pictures.by_tokens", lang), size=13),
            *_success_rows("tokens", figures.by_tokens, lang),
        ],
        key="figure-success",
        spacing=4,
    )


def _figure_line(key: str, f: Judging, lang: str, **params: object) -> str:
    return t(key, lang, right=f.right, judged=f.judged, distance=f.distance, lean=f.lean, **params)


def _player(p: PlayerJudging, top: float, lean_scale: float, lang: str) -> ft.Control:
    """A player's line over the nights, their lean, and their numbers."""
    lines = [_figure_line("pictures.player_night", f, lang, night=n) for n, f in p.nights]
    streets = [
        _figure_line("pictures.street_row", f, lang, street=t(f"words.street.{s}", lang))
        for s, f in p.streets
    ]
    if streets:
        lines += [t("pictures.streets", lang), *streets]
    key = f"judging-{p.player}"
    row = _figure_line("pictures.judging_row", p.overall, lang)
    label = t("pictures.label", lang, name=p.player, text=row)
    distances = [f.distance for _, f in p.nights]
    sides = (t("pictures.under", lang), t("pictures.over", lang))
    return ft.Column(
        [
            ft.Text(p.player, weight=ft.FontWeight.BOLD, size=13),
            ft.Text(row, key=f"{key}-row", size=12),
            sparkline(f"{key}-line", label, distances, top, _short(top, lang)),
            lean_bar(f"{key}-lean", label, p.overall.lean, lean_scale, sides),
            _numbers(f"numbers-{key}", lang, lines),
        ],
        spacing=2,
    )


def _short(x: float, lang: str) -> str:
    return t("pictures.scale", lang, x=float(x))


def _smoothed(nights: int, lang: str) -> list[ft.Control]:
    """Past ``MANY`` nights the lines are smoothed: said under the caption."""
    if nights <= MANY:
        return []
    return [_caption("caption-smoothed", t("pictures.smoothed", lang, n=smoothing(nights)))]


def _judging(figures: Figures, lang: str) -> ft.Control:
    """Each player's distance night by night and lean, on one scale for all players."""
    players = figures.players
    title = ft.Text(t("pictures.judging", lang), weight=ft.FontWeight.BOLD)
    if not players:
        return ft.Column([title, ft.Text(t("pictures.no_judging", lang), key="no-judging")])
    # One scale for everyone, so two players' lines compare at a glance; at least one token.
    top = max([1.0, *(f.distance for p in players for _, f in p.nights)])
    lean_scale = max([1.0, *(abs(p.overall.lean) for p in players)])
    return ft.Column(
        [
            title,
            _caption("caption-judging", t("pictures.judging_caption", lang)),
            *_smoothed(len(figures.nights), lang),
            *[_player(p, top, lean_scale, lang) for p in players],
        ],
        key="figure-judging",
        spacing=8,
    )


def pictures_section(figures: Figures | None, lang: str) -> ft.Control:
    """The three figures, or a line saying they come with the first saved heist."""
    if figures is None or not figures.by_variant:
        body: list[ft.Control] = [ft.Text(t("pictures.empty", lang), key="pictures-empty")]
    else:
        body = [_nights(figures, lang), _success(figures, lang), _judging(figures, lang)]
    return section("pictures", t("pictures", lang), *body)

"""History and stats: the pictures, past nights, win rates, streaks, hardest variants, exports."""

from __future__ import annotations

from collections.abc import Callable

import flet as ft

from companion.engine.gang.replay.words import percent
from companion.storage import NightStatus, Record, Stats
from companion.storage.stats import night_token_rule
from companion.ui.history.actions import BGSTATS, PICTURE, export_data, show_heists
from companion.ui.history.host import H
from companion.ui.history.pictures import pictures_section
from companion.ui.kit.heist_row import heist_row
from companion.ui.kit.text import t, variant_name
from companion.ui.kit.widgets import Dispatch, Download, OpenReplay, section

__all__ = ["history_view"]


def _rate(record: Record, lang: str) -> str:
    return "-" if record.win_rate is None else percent(record.win_rate, lang)


def _row(name: str, won: int, of: int, rate: str, lang: str) -> str:
    """A line of the stats: "classic: 1/2 (50%)", spaced as the language spaces a colon."""
    return t("stat_row", lang, name=name, won=won, of=of, rate=rate)


def _exporter(
    dispatch: Dispatch[H], download: Download | None
) -> Callable[[str, int | None], None]:
    """How an export is asked: sent to the browser when the app can, else written to the
    data folder."""

    def export(kind: str, night: int | None = None) -> None:
        if download is not None:
            download(kind, night)
        else:
            dispatch(export_data(kind, night))

    return export


def _night_title(status: NightStatus, lang: str) -> ft.Control:
    """A past night in one line: number, date, variant, players, score and outcome."""
    night = status.night
    return ft.Text(
        f"#{night.id} {night.created_at:%Y-%m-%d} "
        f"{variant_name(night.variant, lang, night_token_rule(night))} — "
        f"{', '.join(night.players)} — "
        f"{t('score_short', lang, vaults=status.vaults, alarms=status.alarms)} "
        f"({t(f'log.outcome_{status.outcome.value}', lang)})",
        size=13,
    )


def _night_actions(
    state: H,
    status: NightStatus,
    dispatch: Dispatch[H],
    open_replay: OpenReplay,
    export: Callable[[str, int | None], None],
) -> ft.Control:
    """Under a night's line (a phone's width holds no more): its exports, its replay, its
    BG Stats play when won or lost, its heists."""
    lang, night = state.lang, status.night.id
    link = dict(state.play_links).get(night)
    actions: list[ft.Control] = [
        ft.TextButton(
            key=f"export-night-{night}", content="JSON", on_click=lambda e: export("json", night)
        ),
        ft.TextButton(
            key=f"export-night-csv-{night}", content="CSV", on_click=lambda e: export("csv", night)
        ),
    ]
    if status.heists:
        actions.append(
            ft.TextButton(
                key=f"replay-night-{night}",
                content=t("replay", lang),
                on_click=lambda e: open_replay(night, None),
            )
        )
    if link is not None:  # a won or lost night as a BG Stats play: the link, and its file
        actions += [
            ft.TextButton(
                key=f"bgstats-{night}",
                content=t("bgstats.open", lang),
                icon=ft.Icons.OPEN_IN_NEW,
                url=link,
            ),
            ft.TextButton(
                key=f"export-night-bgstats-{night}",
                content=t("bgstats.file", lang),
                on_click=lambda e: export(BGSTATS, night),
            ),
        ]
    if status.heists:
        actions.append(
            ft.TextButton(
                key=f"heists-{night}",
                content=t("history.heists", lang),
                icon=ft.Icons.EXPAND_MORE,
                on_click=lambda e: dispatch(show_heists(night)),
            )
        )
    return ft.Row(actions, wrap=True, spacing=0)


def _heists_of(
    state: H, status: NightStatus, open_replay: OpenReplay, share: Callable[[int], None] | None
) -> list[ft.Control]:
    """The night's heists as saved, once asked: every hole card, who sat out, tokens and
    verdict, and the picture to share when the app can send it."""
    shown = state.history_night
    if shown is None or shown[0] != status.night.id:
        return []
    players = status.night.players
    return [heist_row(h, state.lang, None, open_replay, players, share) for h in shown[1]]


def _nights(
    state: H,
    dispatch: Dispatch[H],
    open_replay: OpenReplay,
    export: Callable[[str, int | None], None],
    download: Download | None = None,
) -> ft.Control:
    """Every past night: its line, its actions, its heists when asked."""
    share = None if download is None else (lambda heist: download(PICTURE, heist))
    nights: list[ft.Control] = [
        ft.Column(
            [
                _night_title(s, state.lang),
                _night_actions(state, s, dispatch, open_replay, export),
                *_heists_of(state, s, open_replay, share),
            ],
            spacing=0,
        )
        for s in state.history
    ] or [ft.Text(t("no_history", state.lang))]
    return section("nights", t("history", state.lang), *nights)


def _stats(stats: Stats, lang: str) -> ft.Control:
    """Win rates overall, by variant and by group, streaks, the hardest variants."""
    o = stats.overall
    streaks = t(
        "streaks",
        lang,
        nw=stats.night_streaks.longest_wins,
        nl=stats.night_streaks.longest_losses,
        hv=stats.heist_streaks.longest_wins,
        ha=stats.heist_streaks.longest_losses,
    )
    overall = t("overall", lang, won=o.won, lost=o.lost, abandoned=o.abandoned, rate=_rate(o, lang))
    return section(
        "stats",
        t("stats", lang),
        ft.Text(overall, key="overall"),
        ft.Text(streaks),
        ft.Text(t("by_variant", lang), weight=ft.FontWeight.BOLD),
        *[
            ft.Text(_row(variant_name(v, lang), r.won, r.played, _rate(r, lang), lang))
            for v, r in stats.by_variant.items()
        ],
        ft.Text(t("by_group", lang), weight=ft.FontWeight.BOLD),
        *[
            ft.Text(
                _row(", ".join(stats.group_names.get(g, g)), r.won, r.played, _rate(r, lang), lang)
            )
            for g, r in stats.by_group.items()
        ],
        ft.Text(t("hardest", lang), weight=ft.FontWeight.BOLD),
        *[
            ft.Text(
                _row(
                    variant_name(d.variant, lang, d.tokens),
                    d.vaults,
                    d.heists,
                    percent(d.vault_rate, lang),
                    lang,
                )
            )
            for d in stats.hardest_variants
        ],
    )


def _exports(lang: str, export: Callable[[str, int | None], None]) -> ft.Control:
    """The whole log exported, as JSON or CSV."""
    return ft.Row(
        [
            ft.Button(
                key="export-json",
                content=t("export_json", lang),
                on_click=lambda e: export("json", None),
            ),
            ft.Button(
                key="export-csv",
                content=t("export_csv", lang),
                on_click=lambda e: export("csv", None),
            ),
        ],
        wrap=True,
    )


def history_view(
    state: H, dispatch: Dispatch[H], open_replay: OpenReplay, download: Download | None = None
) -> ft.Control:
    """``open_replay`` shows a night's replay (given by the app); ``download`` also sends each
    export to the browser; without it, the data folder only."""
    export = _exporter(dispatch, download)
    parts = [
        pictures_section(state.figures, state.lang),
        _nights(state, dispatch, open_replay, export, download),
        None if state.stats is None else _stats(state.stats, state.lang),
        _exports(state.lang, export),
    ]
    return ft.Column([p for p in parts if p is not None], spacing=12)

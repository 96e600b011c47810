"""History and stats: past nights, win rates, streaks, hardest variants, exports."""

from __future__ import annotations

import flet as ft

from companion.engine.gang.replay.words import percent
from companion.storage import NightStatus, Record
from companion.storage.stats import night_token_rule
from companion.ui.history.actions import BGSTATS, export_data, show_heists
from companion.ui.history.host import H
from companion.ui.kit.heist_row import heist_row
from companion.ui.kit.text import t, variant_name
from companion.ui.kit.widgets import Dispatch, Download, OpenReplay, section

__all__ = ["history_view"]


def _rate(record: Record, lang: str) -> str:
    return "-" if record.win_rate is None else percent(record.win_rate, lang)


def _row(name: str, won: int, of: int, rate: str, lang: str) -> str:
    """A line of the stats: "classic: 1/2 (50%)", spaced as the language spaces a colon."""
    return t("stat_row", lang, name=name, won=won, of=of, rate=rate)


def history_view(
    state: H, dispatch: Dispatch[H], open_replay: OpenReplay, download: Download | None = None
) -> ft.Control:
    """``open_replay`` shows a night's replay (given by the app); ``download`` also sends each
    export to the browser; without it, the data folder only."""
    lang = state.lang

    def export(kind: str, night: int | None = None) -> None:
        if download is not None:
            download(kind, night)
        else:
            dispatch(export_data(kind, night))

    def replay(night: int) -> list[ft.Control]:
        return [
            ft.TextButton(
                key=f"replay-night-{night}",
                content=t("replay", lang),
                on_click=lambda e: open_replay(night, None),
            )
        ]

    links = dict(state.play_links)

    def bgstats(night: int) -> list[ft.Control]:
        """A won or lost night as a BG Stats play: the link to tap, and its JSON file."""
        if night not in links:
            return []
        return [
            ft.TextButton(
                key=f"bgstats-{night}",
                content=t("bgstats.open", lang),
                icon=ft.Icons.OPEN_IN_NEW,
                url=links[night],
            ),
            ft.TextButton(
                key=f"export-night-bgstats-{night}",
                content=t("bgstats.file", lang),
                on_click=lambda e: export(BGSTATS, night),
            ),
        ]

    def heists_button(night: int) -> list[ft.Control]:
        return [
            ft.TextButton(
                key=f"heists-{night}",
                content=t("history.heists", lang),
                icon=ft.Icons.EXPAND_MORE,
                on_click=lambda e: dispatch(show_heists(night)),
            )
        ]

    def heists_of(status: NightStatus) -> list[ft.Control]:
        """The night's heists as saved: every hole card, who sat out, tokens and verdict."""
        shown = state.history_night
        if shown is None or shown[0] != status.night.id:
            return []
        players = status.night.players
        return [heist_row(h, lang, None, open_replay, players) for h in shown[1]]

    nights: list[ft.Control] = [
        ft.Column(
            [
                ft.Text(
                    f"#{s.night.id} {s.night.created_at:%Y-%m-%d} "
                    f"{variant_name(s.night.variant, lang, night_token_rule(s.night))} — "
                    f"{', '.join(s.night.players)} — "
                    f"{t('score_short', lang, vaults=s.vaults, alarms=s.alarms)} "
                    f"({t(f'log.outcome_{s.outcome.value}', lang)})",
                    size=13,
                ),
                # The actions under the night's line: a phone's width holds no more than that.
                ft.Row(
                    [
                        ft.TextButton(
                            key=f"export-night-{s.night.id}",
                            content="JSON",
                            on_click=lambda e, n=s.night.id: export("json", n),
                        ),
                        ft.TextButton(
                            key=f"export-night-csv-{s.night.id}",
                            content="CSV",
                            on_click=lambda e, n=s.night.id: export("csv", n),
                        ),
                        *(replay(s.night.id) if s.heists else []),
                        *bgstats(s.night.id),
                        *(heists_button(s.night.id) if s.heists else []),
                    ],
                    wrap=True,
                    spacing=0,
                ),
                *heists_of(s),
            ],
            spacing=0,
        )
        for s in state.history
    ] or [ft.Text(t("no_history", lang))]
    parts: list[ft.Control] = [section("nights", t("history", lang), *nights)]
    stats = state.stats
    if stats is not None:
        o = stats.overall
        parts.append(
            section(
                "stats",
                t("stats", lang),
                ft.Text(
                    t(
                        "overall",
                        lang,
                        won=o.won,
                        lost=o.lost,
                        abandoned=o.abandoned,
                        rate=_rate(o, lang),
                    ),
                    key="overall",
                ),
                ft.Text(
                    t(
                        "streaks",
                        lang,
                        nw=stats.night_streaks.longest_wins,
                        nl=stats.night_streaks.longest_losses,
                        hv=stats.heist_streaks.longest_wins,
                        ha=stats.heist_streaks.longest_losses,
                    )
                ),
                ft.Text(t("by_variant", lang), weight=ft.FontWeight.BOLD),
                *[
                    ft.Text(_row(variant_name(v, lang), r.won, r.played, _rate(r, lang), lang))
                    for v, r in stats.by_variant.items()
                ],
                ft.Text(t("by_group", lang), weight=ft.FontWeight.BOLD),
                *[
                    ft.Text(
                        _row(
                            ", ".join(stats.group_names.get(g, g)),
                            r.won,
                            r.played,
                            _rate(r, lang),
                            lang,
                        )
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
        )
    parts.append(
        ft.Row(
            [
                ft.Button(
                    key="export-json",
                    content=t("export_json", lang),
                    on_click=lambda e: export("json"),
                ),
                ft.Button(
                    key="export-csv",
                    content=t("export_csv", lang),
                    on_click=lambda e: export("csv"),
                ),
            ],
            wrap=True,
        )
    )
    return ft.Column(parts, spacing=12)

"""A finished game night as a play for the BG Stats app, through its documented way for other
apps to push plays: a ``createPlay`` link whose ``data`` parameter is the play as URL-encoded
JSON (game with its BoardGameGeek id, players, winner, date, duration, board, comments).

The Gang is cooperative: every player wins a won night and loses a lost one; there are no
points. The variant goes in ``board``; the heists, one short verdict each, in ``comments``,
then, given a judge, how well each player judged their hand at the showdown (``figures``).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import datetime
from typing import Any
from urllib.parse import quote

from companion.errors import CompanionError
from companion.messages import text
from companion.storage.figures import SHOWDOWN, Judge, night_judging
from companion.storage.model import Heist, NightStatus, Outcome
from companion.storage.protocol import GameLog

__all__ = [
    "BGG_THE_GANG",
    "CREATE_PLAY",
    "NightNotFinishedError",
    "create_play_link",
    "play_of",
    "night_play",
    "play_links",
]

# BoardGameGeek's id of The Gang (KOSMOS, 2024), which BG Stats matches the game by.
BGG_THE_GANG = 411567
CREATE_PLAY = "https://app.bgstatsapp.com/createPlay.html?data="
# BG Stats's own date format for a play, in the player's local time.
_PLAY_DATE = "%Y-%m-%d %H:%M:%S"


class NightNotFinishedError(CompanionError, ValueError):
    """A night still open or abandoned: it has no winner for BG Stats to record."""

    def __init__(self, night: int) -> None:
        super().__init__("bgstats.not_finished", night=night)


def _board(status: NightStatus, lang: str) -> str:
    night = status.night
    decks = night.rules.get("decks", 1)
    extra = [text("bgstats.decks", lang, n=decks)] if isinstance(decks, int) and decks > 1 else []
    return ", ".join([night.variant, *extra])


def _comments(status: NightStatus, heists: Sequence[Heist], lang: str, judge: Judge | None) -> str:
    verdicts = [
        text("bgstats.heist", lang, n=h.number, opens=text(_opened(h), lang)) for h in heists
    ]
    total = text("bgstats.total", lang, vaults=status.vaults, alarms=status.alarms)
    return "; ".join([*verdicts, total, *_judging(status, heists, lang, judge)])


def _judging(
    status: NightStatus, heists: Sequence[Heist], lang: str, judge: Judge | None
) -> list[str]:
    """A line per player judged: tokens right, mean distance, lean (+ over-claiming)."""
    if judge is None:
        return []
    found = night_judging(status.night.players, heists, judge)
    return [
        text(
            "bgstats.judging",
            lang,
            name=name,
            right=f.right,
            judged=f.judged,
            distance=f.distance,
            lean=f.lean,
        )
        for name in status.night.players
        if (f := found.get(name, {}).get(SHOWDOWN)) is not None
    ]


def _opened(heist: Heist) -> str:
    return "bgstats.vault_opened" if heist.verdict.opens else "bgstats.alarm"


def _minutes(start: datetime, end: datetime) -> int:
    return max(1, round((end - start).total_seconds() / 60))


def play_of(
    status: NightStatus, heists: Sequence[Heist], lang: str = "en", judge: Judge | None = None
) -> dict[str, Any]:
    """The play BG Stats imports for a won or lost night; an open or abandoned night has no
    winner yet, so it is refused (``NightNotFinishedError`` naming the night). Given a judge,
    its comments end with each player's judging."""
    night = status.night
    if not night.outcome.decided:
        raise NightNotFinishedError(night.id)
    end = night.closed_at or max((h.saved_at for h in heists), default=night.created_at)
    won = night.outcome is Outcome.WON
    return {
        "game": {
            "name": "The Gang",
            "bggId": BGG_THE_GANG,
            "sourceGameId": "companion-the-gang",
            "highestWins": True,
            "noPoints": True,
        },
        "playDate": night.created_at.astimezone().strftime(_PLAY_DATE),
        "durationMin": _minutes(night.created_at, end),
        "board": _board(status, lang),
        "comments": _comments(status, heists, lang, judge),
        "players": [
            {
                "name": name,
                "sourcePlayerId": f"companion-{name}",
                "startPlayer": False,
                "role": "",
                "rank": 1,
                "winner": won,
            }
            for name in night.players
        ],
    }


def create_play_link(play: dict[str, Any]) -> str:
    """The link that opens BG Stats's import dialog with ``play`` filled in."""
    data = json.dumps(play, ensure_ascii=False, separators=(",", ":"))
    return CREATE_PLAY + quote(data, safe="")


def night_play(
    log: GameLog, night_id: int, lang: str = "en", judge: Judge | None = None
) -> dict[str, Any]:
    """The play of the log's night ``night_id`` (refused, naming it, unless won or lost)."""
    return play_of(log.night_status(night_id), log.heists(night_id), lang, judge)


def play_links(
    log: GameLog, statuses: Sequence[NightStatus], lang: str = "en", judge: Judge | None = None
) -> tuple[tuple[int, str], ...]:
    """Each won or lost night among ``statuses`` with its ``createPlay`` link."""
    return tuple(
        (s.night.id, create_play_link(night_play(log, s.night.id, lang, judge)))
        for s in statuses
        if s.outcome.decided
    )

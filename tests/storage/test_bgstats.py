"""A finished night as a BG Stats play: the ``createPlay`` link's JSON against the fields BG
Stats documents for other apps pushing plays, from a real SQLite log."""

from __future__ import annotations

import json
import re
from dataclasses import replace
from datetime import timedelta
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest

from companion.messages import text
from companion.storage import SqliteGameLog
from companion.storage.bgstats import (
    BGG_THE_GANG,
    NightNotFinishedError,
    create_play_link,
    play_of,
)
from tests.storage.builders import heist, ticking_clock

# BG Stats's documented play format (its "push plays from other apps" page): every key it
# names, with the type it gives each.
PLAY = {
    "board": str,
    "durationMin": int,
    "comments": str,
    "game": dict,
    "location": str,
    "playDate": str,
    "players": list,
}
GAME = {"bggId": int, "highestWins": bool, "name": str, "noPoints": bool, "sourceGameId": str}
PLAYER = {
    "startPlayer": bool,
    "name": str,
    "rank": int,
    "role": str,
    "score": float,
    "sourcePlayerId": str,
    "winner": bool,
}


def _documented(value: dict[str, object], fields: dict[str, type]) -> None:
    assert set(value) <= set(fields), set(value) - set(fields)
    for key, kind in fields.items():
        if key in value:
            assert isinstance(value[key], kind), (key, value[key])


def _night(tmp_path: Path, verdicts: list[bool], decks: int = 1) -> SqliteGameLog:
    log = SqliteGameLog(tmp_path / "log.sqlite3", clock=ticking_clock(step=timedelta(minutes=7)))
    night = log.start_night(("Ann", "Bob", "Cy"), "classic", rules={"decks": decks})
    for opens in verdicts:
        log.save_heist(night.id, heist(opens))
    return log


def _link_json(link: str) -> dict[str, object]:
    parts = urlsplit(link)
    assert (parts.scheme, parts.netloc, parts.path) == (
        "https",
        "app.bgstatsapp.com",
        "/createPlay.html",
    )
    (data,) = parse_qs(parts.query, strict_parsing=True)["data"]
    play: dict[str, object] = json.loads(data)
    return play


def test_a_won_night_is_a_play_every_player_wins(tmp_path: Path) -> None:
    with _night(tmp_path, [True, False, True, True], decks=2) as log:
        (status,) = log.list_nights()
        play = _link_json(create_play_link(play_of(status, log.heists(status.night.id))))
    _documented(play, PLAY)
    game = play["game"]
    assert isinstance(game, dict)
    _documented(game, GAME)
    assert game["bggId"] == BGG_THE_GANG and game["name"] == "The Gang" and game["noPoints"]
    players = play["players"]
    assert isinstance(players, list) and [p["name"] for p in players] == ["Ann", "Bob", "Cy"]
    for player in players:
        _documented(player, PLAYER)
        assert player["winner"] is True and player["rank"] == 1
    assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d", str(play["playDate"]))
    assert play["durationMin"] == 28  # the night's start, then four heists 7 minutes apart
    assert play["board"] == "classic, 2 decks"
    assert play["comments"] == (
        "heist 1: vault opened; heist 2: alarm; heist 3: vault opened; heist 4: vault opened; "
        "3 vaults, 1 alarm"
    )


def test_a_lost_night_has_no_winner_and_french_comments(tmp_path: Path) -> None:
    with _night(tmp_path, [False, False, False]) as log:
        (status,) = log.list_nights()
        play = play_of(status, log.heists(status.night.id), "fr")
    assert not any(player["winner"] for player in play["players"])
    assert play["board"] == "classic"
    assert play["comments"].endswith("manche 3 : alarme; 0 coffre, 3 alarmes")


def test_names_with_accents_and_ampersands_survive_the_link(tmp_path: Path) -> None:
    with SqliteGameLog(tmp_path / "log.sqlite3", clock=ticking_clock()) as log:
        night = log.start_night(("Zoé", "A&B=1", "Chloé?"), "classic")
        owners = {"h1": "Zoé", "h2": "A&B=1", "h3": "Chloé?"}
        for _ in range(3):
            log.save_heist(night.id, replace(heist(True), owners=owners))
        (status,) = log.list_nights()
        play = play_of(status, log.heists(night.id))
    decoded = _link_json(create_play_link(play))
    assert [p["name"] for p in decoded["players"]] == ["Zoé", "A&B=1", "Chloé?"]


def test_an_open_night_is_refused_naming_it(tmp_path: Path) -> None:
    with _night(tmp_path, [True]) as log:
        (status,) = log.list_nights()
        with pytest.raises(NightNotFinishedError) as caught:
            play_of(status, log.heists(status.night.id))
    said = text(caught.value.code, "en", **caught.value.params)
    assert said.startswith(f"game night {status.night.id} is not over yet")

"""The History screen offers each won or lost night as a BG Stats play: a link that carries
the play's JSON, and the same JSON as a file through the exports; on a real game log."""

from __future__ import annotations

import json
from dataclasses import replace
from urllib.parse import parse_qs, urlsplit

from companion.storage.bgstats import BGG_THE_GANG, night_play
from companion.ui.history.actions import BGSTATS, download_file, export_data, export_files
from companion.ui.kit.services import Services
from companion.ui.shell.dispatch import run
from companion.ui.shell.root import root_view
from companion.ui.shell.state import AppState
from tests.storage.builders import heist
from tests.ui.screens import walk


def nights(services: Services) -> tuple[int, int, int]:
    """A won night, a lost one, and one still open."""
    ids = []
    for verdicts in ("VVV", "AAVA", "V"):
        night = services.log.start_night(("Ann", "Bob", "Cy"), "classic")
        for v in verdicts:
            services.log.save_heist(night.id, heist(v == "V"))
        ids.append(night.id)
    won, lost, open_ = ids
    return won, lost, open_


def test_each_won_or_lost_night_has_a_play_link_and_file(services: Services) -> None:
    won, lost, open_ = nights(services)
    state = AppState(lang="fr", screen="history").with_history_of(services.log)
    view = root_view(state, lambda action: None)
    urls = {c.key: c.url for c in walk(view) if str(getattr(c, "key", "")).startswith("bgstats-")}
    assert set(urls) == {f"bgstats-{won}", f"bgstats-{lost}"}
    for night, winner in ((won, True), (lost, False)):
        link = urlsplit(str(urls[f"bgstats-{night}"]))
        assert link.netloc == "app.bgstatsapp.com" and link.path == "/createPlay.html"
        play = json.loads(parse_qs(link.query)["data"][0])
        assert play == night_play(services.log, night, "fr")
        assert play["game"]["bggId"] == BGG_THE_GANG
        assert {p["winner"] for p in play["players"]} == {winner}
        assert "manche" in play["comments"]
    keys = {getattr(c, "key", None) for c in walk(view)}
    assert f"export-night-bgstats-{won}" in keys and f"export-night-bgstats-{open_}" not in keys

    name, data = download_file(export_files(services.log, BGSTATS, won, "en"))
    assert name == f"night-{won}-bgstats.json"
    assert json.loads(data) == night_play(services.log, won, "en")
    saved = run(export_data(BGSTATS, lost), state, services)
    assert saved.banner is not None and saved.banner.key == "exported"
    written = services.data_dir / "exports" / f"night-{lost}-bgstats.json"
    assert json.loads(written.read_text(encoding="utf-8"))["players"][0]["winner"] is False


def test_a_won_nights_screen_offers_it_to_bg_stats(services: Services) -> None:
    won, _lost, open_ = nights(services)
    state = AppState(lang="en", screen="night").with_night_status(services.log.night_status(won))
    state = replace(state, heists=services.log.heists(won))
    (link,) = [
        c for c in walk(root_view(state, print)) if getattr(c, "key", None) == "night-bgstats"
    ]
    play = json.loads(parse_qs(urlsplit(str(link.url)).query)["data"][0])
    assert play == night_play(services.log, won, "en")
    still_open = state.with_night_status(services.log.night_status(open_))
    keys = [getattr(c, "key", None) for c in walk(root_view(still_open, print))]
    assert "night-bgstats" not in keys

"""Actions on a real SQLite game log: nights, heists, undo, resume, presets, photos, exports."""

from __future__ import annotations

import io
import json
import zipfile
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from companion.engine.cards import Card
from companion.engine.gang.ranking import Ranking, Straights, TableRules
from companion.storage import Outcome, SqliteGameLog
from companion.storage.export import export_json
from companion.storage.hands import sat_out
from companion.ui.history.actions import download_file, export_data, export_files
from companion.ui.kit.services import MAX_UPLOAD_BYTES, LazyDetector, Services, decode_upload
from companion.ui.night.actions import THUMB_WIDTH, close_night, start_night, undo_heist
from companion.ui.shell.dispatch import run
from companion.ui.shell.navigation import initial_state, open_screen
from companion.ui.shell.root import root_view
from companion.ui.shell.state import AppState
from companion.ui.showdown.actions import (
    apply_preset,
    group_presets,
    load_photo,
    save_heist,
    save_preset,
)
from companion.ui.showdown.doubts import doubts
from companion.ui.showdown.state import RIVER, RIVER2, ShowdownState
from companion.vision import Detections
from companion.vision.layouts.expect import Expect
from companion.vision.layouts.read import GroupedCards, grouped
from tests.helpers import cards
from tests.ui.screens import find, png, walk
from tests.vision.layouts.builders import reads


def judged(state: AppState, order: tuple[str, ...] = ("Bob", "Cy", "Ana")) -> AppState:
    table = state.table.with_cards_text(RIVER, "As Kd Qh 7c 2s")
    for i, text in enumerate(("Ah Ad", "Th 9h", "3c 2c")):
        table = table.with_cards_text(i, text)
    for hand in order:
        table = table.tap_hand(hand)
    return state.with_table(table)


def night_state(services: Services, variant: str = "classic") -> AppState:
    state = AppState(table=ShowdownState(("Ana", "Bob", "Cy"), variant=variant))
    return run(start_night, state, services)


def test_save_heist_records_verdict_and_reasons_in_both_languages(services: Services) -> None:
    state = run(save_heist, judged(night_state(services), ("Cy", "Bob", "Ana")), services)
    assert state.banner is not None and state.banner.key == "heist_saved"
    (heist,) = state.heists
    assert heist.river == ("As", "Kd", "Qh", "7c", "2s")
    assert dict(heist.tokens) == {"Cy": 1, "Bob": 2, "Ana": 3}
    assert not heist.verdict.opens
    (failure,) = heist.verdict.failures
    assert failure["hand"] == "Bob" and failure["beaten_by"] == "Cy"
    assert failure["reason"] != failure["reason_fr"]
    assert (state.night.vaults, state.night.alarms) == (0, 1)  # type: ignore[union-attr]
    assert state.table.river == () and state.table.players == ("Ana", "Bob", "Cy")


def test_three_vaults_win_the_night_and_undo_reopens_it(services: Services) -> None:
    state = night_state(services)
    for _ in range(3):
        state = run(save_heist, judged(state), services)
    assert state.night is not None and state.night.outcome is Outcome.WON
    state = run(undo_heist, state, services)
    assert state.night is not None and state.night.outcome is Outcome.OPEN
    assert [h.number for h in state.heists] == [1, 2]
    assert state.banner is not None and state.banner.text("en") == "Heist #3 undone"


def test_undo_with_no_heist_is_a_banner_not_a_crash(services: Services) -> None:
    state = run(undo_heist, night_state(services), services)
    assert state.banner is not None and state.banner.error


def test_save_without_night_or_verdict_says_why(services: Services) -> None:
    state = run(save_heist, judged(AppState(table=ShowdownState(("Ana", "Bob", "Cy")))), services)
    assert state.banner is not None and state.banner.key == "no_night"
    state = run(save_heist, night_state(services), services)
    assert state.banner is not None and state.banner.key == "problems"
    other = judged(night_state(services), ()).table.with_variant("circular")
    for pair, typed in enumerate(("Jc Js", "9s 8h", "5h 6h")):  # a full circle (issue #54)
        other = other.with_shared_text(pair, typed)
    for hand in ("Bob", "Cy", "Ana", "Ana+Bob", "Bob+Cy", "Cy+Ana"):
        other = other.tap_hand(hand)
    assert other.showdown().verdict is not None  # type: ignore[union-attr]
    state = run(save_heist, night_state(services).with_table(other), services)
    assert state.banner is not None and state.banner.key == "night_variant"


def test_night_resumes_after_restart(tmp_path: Path) -> None:
    log = SqliteGameLog.in_folder(tmp_path)
    services = Services(log, tmp_path, LazyDetector())
    run(save_heist, judged(night_state(services)), services)
    log.close()
    reopened = SqliteGameLog.in_folder(tmp_path)
    try:
        state = initial_state(Services(reopened, tmp_path), "en")
        assert state.night is not None and state.night.vaults == 1
        assert state.table.players == ("Ana", "Bob", "Cy") and len(state.heists) == 1
        assert [s.night.id for s in state.history] == [state.night.night.id]
    finally:
        reopened.close()


def test_close_night_ends_it_as_abandoned(services: Services) -> None:
    state = run(close_night, night_state(services), services)
    assert state.night is None
    assert state.history[0].outcome is Outcome.ABANDONED


def test_presets_are_saved_and_applied(services: Services) -> None:
    state = AppState().with_table(
        ShowdownState.new().with_rules(TableRules(Ranking.LOW_A5, Straights.WRAP, 2))
    )
    state = run(save_preset("mardi"), state, services)
    assert [p.name for p in state.presets] == ["mardi"]
    state = state.with_table(state.table.with_rules(TableRules()))
    state = run(apply_preset("mardi"), state, services)
    assert state.table.rules == TableRules(Ranking.LOW_A5, Straights.WRAP, 2)
    missing = run(apply_preset("jeudi"), state, services)
    assert missing.banner is not None and missing.banner.error


def test_each_group_sees_its_own_presets(services: Services) -> None:
    ann = AppState(table=ShowdownState(("Ann", "Bob", "Cy")))
    ann = run(save_preset("mardi"), ann, services)
    assert [p.name for p in group_presets(ann.presets, ("cy", "Bob", "ANN"))] == ["mardi"]
    assert group_presets(ann.presets, ("Dan", "Eve", "Fay")) == ()


def test_photo_is_kept_and_typing_offered_when_reading_is_unavailable(services: Services) -> None:
    state = run(load_photo(png()), AppState(), services)
    assert state.banner is not None
    assert state.banner.text("en").startswith("Photo reading unavailable (cannot load")
    assert state.banner.text("fr").startswith("Lecture des photos indisponible (impossible")
    assert "card_corners.onnx" in state.banner.text("en")
    assert state.vision_note and state.table.photo is not None
    assert services.log.photo_path(state.table.photo).read_bytes() == png()


@pytest.mark.parametrize("data", [b"", b"not an image at all", b"\x89PNG\r\n\x1a\n" + b"0" * 50])
def test_non_images_are_refused_by_name(services: Services, data: bytes) -> None:
    state = run(load_photo(data, "notes.jpg"), AppState(), services)
    assert state.banner is not None and state.banner.error
    assert state.banner.text("en").startswith("notes.jpg: cannot be read as an image")
    assert state.table.photo is None


def test_an_iphone_heic_photo_is_refused_with_how_to_send_it(services: Services) -> None:
    heic = (Path(__file__).parents[2] / "fixtures" / "images" / "table.heic").read_bytes()
    state = run(load_photo(heic, "IMG_0042.HEIC"), AppState(), services)
    assert state.banner is not None and state.banner.error
    said = state.banner.text("en")
    assert said.startswith("IMG_0042.HEIC: cannot be read as an image (an HEIC photo")
    assert "Most Compatible" in said and "Le plus compatible" in state.banner.text("fr")
    assert state.table.photo is None


@pytest.mark.parametrize(("width", "height"), [(1, 1), (4000, 3)])
def test_pictures_too_small_to_show_a_card_are_refused_by_name(
    services: Services, width: int, height: int
) -> None:
    # A real PNG that decodes fine: the reader would refuse it, so the upload is refused first.
    state = run(load_photo(png(width, height), "dot.png"), AppState(), services)
    assert state.banner is not None and state.banner.error
    assert state.banner.text("en") == (
        f"dot.png: cannot be read as an image ({width}x{height} px, too small to show a card)"
    )
    assert state.table.photo is None


def test_too_large_uploads_are_refused_before_decoding(services: Services) -> None:
    state = run(load_photo(b"0" * (MAX_UPLOAD_BYTES + 1)), AppState(), services)
    assert state.banner is not None and "larger than" in state.banner.text("en")


class TableDetector(LazyDetector):
    """Stands in for the app's card reader: what it would read on a table laid out by hand
    (read surely, as a table's cards mostly are), grouped as the layout step groups a read."""

    def read_layout(
        self, image: np.ndarray, expect: Expect | None = None, decks: int = 1
    ) -> GroupedCards:
        return grouped(self.laid(), expect)

    def laid(self) -> Detections:
        river = [(code, 200 + 120 * k, 600) for k, code in enumerate("As Kd Qh 7c 2s".split())]
        hands = [("Ah", 150, 120), ("Ad", 190, 140), ("Th", 700, 170), ("9h", 740, 150)]
        return reads(*river, *hands, conf=0.99)


def test_a_read_photo_fills_the_table(services: Services) -> None:
    services = replace(services, detector=TableDetector())
    state = run(load_photo(png()), AppState(), services)
    assert state.table.river == cards("As Kd Qh 7c 2s")
    assert state.table.hands[:2] == (cards("Ah Ad"), cards("Th 9h"))
    # The photo's cards themselves, not text to parse again.
    assert all(isinstance(card, Card) for card in state.table.river)
    assert state.banner is not None and state.banner.text("en").startswith("9 cards read")


def test_the_real_reader_degrades_without_crashing() -> None:
    reader = LazyDetector()
    detector = reader.loaded()
    assert (detector is None) == (reader.unavailable is not None)


def test_exports_stay_in_the_data_folder(services: Services) -> None:
    state = run(save_heist, judged(night_state(services)), services)
    night_id = state.heists[0].night_id
    for action in (
        export_data("json"),
        export_data("csv"),
        export_data("json", night_id),
    ):
        state = run(action, state, services)
        for written in dict(state.banner.message.params)["path"].split(", "):  # type: ignore[union-attr]
            path = Path(written)
            assert path.parent == services.data_dir / "exports" and path.is_file()
    exported = json.loads((services.data_dir / "exports" / f"night-{night_id}.json").read_text())
    assert "Ana" in json.dumps(exported)


def test_a_heist_keeps_its_photo_and_the_night_shows_a_thumbnail(services: Services) -> None:
    state = run(load_photo(png(1200, 800)), night_state(services), services)
    state = run(save_heist, judged(state), services)
    (heist,) = state.heists
    assert heist.photo is not None
    ((ref, small),) = state.thumbnails
    image = decode_upload(small)
    assert ref == heist.photo and image.shape[1] == THUMB_WIDTH


def test_downloads_are_one_file_or_a_zip_of_the_tables(services: Services) -> None:
    state = run(save_heist, judged(night_state(services)), services)
    night_id = state.heists[0].night_id
    name, data = download_file(export_files(services.log, "json", night_id))
    assert name == f"night-{night_id}.json" and json.loads(data)
    name, data = download_file(export_files(services.log, "csv"))
    assert name == "all-csv.zip"
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        assert archive.namelist() == ["all-nights.csv", "all-heists.csv"]
        assert "Ana" in archive.read("all-heists.csv").decode()


def test_a_two_river_night_saves_both_rivers_and_resumes_with_them(tmp_path: Path) -> None:
    log = SqliteGameLog.in_folder(tmp_path)
    services = Services(log, tmp_path, LazyDetector())
    state = AppState(table=ShowdownState(("Ana", "Bob", "Cy")).with_two_rivers(True))
    state = run(start_night, state, services)
    table = judged(state, ()).table.with_cards_text(RIVER2, "Jd Jc 8s 4h 5d")
    for hand in [hid for group in table.showdown().order for hid in group]:  # type: ignore[union-attr]
        table = table.tap_hand(hand)
    state = run(save_heist, state.with_table(table), services)
    (heist,) = state.heists
    assert heist.board2 == ("Jd", "Jc", "8s", "4h", "5d") and heist.verdict.opens
    assert set(heist.hands) == {"Ana/1", "Ana/2", "Bob/1", "Bob/2", "Cy/1", "Cy/2"}
    log.close()
    reopened = SqliteGameLog.in_folder(tmp_path)
    try:
        assert initial_state(Services(reopened, tmp_path)).table.two_rivers
    finally:
        reopened.close()


@pytest.mark.parametrize(
    "variant, extra, hand, cards",
    [
        (
            "francois",
            lambda t: (
                t.with_francois_text(0, "Jc")
                .with_francois_text(1, "Js")
                .with_francois_text(2, "5h")
            ),
            "francois",
            ("Jc", "Js", "5h"),
        ),
        (
            "circular",
            # A full circle: every two neighbours share a hand (issue #54).
            lambda t: (
                t.with_shared_text(0, "Jc Js")
                .with_shared_text(1, "9s 8h")
                .with_shared_text(2, "5h 6h")
            ),
            "Ana+Bob",
            ("Jc", "Js"),
        ),
    ],
)
def test_hands_no_player_owns_are_saved_without_an_owner(
    services: Services, variant: str, extra: Any, hand: str, cards: tuple[str, ...]
) -> None:
    state = night_state(services, variant)
    table = state.table.with_cards_text(RIVER, "As Kd Qh 7c 2s")
    hands = (
        ("Ah Ad 4s", "Th 9h 8h", "3c 2c 6d")
        if variant == "francois"
        else ("Ah Ad", "Th 9h", "3c 2c")
    )
    for i, text in enumerate(hands):
        table = table.with_cards_text(i, text)
    table = extra(table)
    for hid in [h for group in table.showdown().order for h in group]:  # type: ignore[union-attr]
        table = table.tap_hand(hid)
    state = run(save_heist, state.with_table(table), services)
    (heist,) = state.heists
    assert heist.hands[hand] == cards and hand not in heist.owners
    assert heist.verdict.opens


def test_a_night_started_on_another_phone_shows_when_opening_the_night(services: Services) -> None:
    other_phone = AppState(table=ShowdownState(("Ana", "Bob", "Cy")))
    this_phone = initial_state(services)
    assert this_phone.night is None
    other_phone = run(start_night, other_phone, services)
    run(save_heist, judged(other_phone), services)
    this_phone = run(open_screen("night"), this_phone, services)
    assert this_phone.night is not None and this_phone.night.vaults == 1
    assert this_phone.table.players == ("Ana", "Bob", "Cy")
    assert [s.vaults for s in this_phone.history] == [1]


class EdgeDetector(TableDetector):
    """The table laid out by hand, and one card dropped at the photo's edge."""

    def laid(self) -> Detections:
        river = [(code, 200 + 120 * k, 600) for k, code in enumerate("As Kd Qh 7c 2s".split())]
        hands = [("Ah", 150, 120), ("Ad", 190, 140), ("Th", 700, 170), ("9h", 740, 150)]
        return reads(*river, *hands, ("5c", 1180, 880), conf=0.99)


def test_a_card_at_the_photo_edge_is_asked_about_not_given_a_player(services: Services) -> None:
    services = replace(services, detector=EdgeDetector())
    table = ShowdownState(("Ana", "Bob"))
    state = run(load_photo(png(1200, 900)), AppState(lang="en", table=table), services)
    assert state.table.players == ("Ana", "Bob")
    assert state.table.hands == (cards("Ah Ad"), cards("Th 9h"))
    assert state.table.stray == cards("5c")
    assert [d.text.text("en") for d in doubts(state.table)] == ["5♣: not in play?"]


def test_a_saved_hand_keeps_every_hole_card_and_the_log_names_who_sat_out(
    services: Services,
) -> None:
    state = night_state(services)
    table = state.table.sit_out("Cy").with_cards_text(RIVER, "As Kd Qh 7c 2s")
    # 5s and 3d play no part in either best five: they are still what the players held.
    for i, text in enumerate(("Th 5s", "Jh 3d")):
        table = table.with_cards_text(i, text)
    for hid in [h for group in table.showdown().order for h in group]:  # type: ignore[union-attr]
        table = table.tap_hand(hid)
    state = run(save_heist, state.with_table(table), services)
    (heist,) = state.heists
    assert dict(heist.hands) == {"Ana": ("Th", "5s"), "Bob": ("Jh", "3d")}
    assert sat_out(("Ana", "Bob", "Cy"), heist.owners) == ("Cy",)
    document = json.loads(export_json([(state.night, state.heists)], (), heist.saved_at))  # type: ignore[list-item]
    (saved,) = document["nights"][0]["heists"]
    assert saved["hands"] == {"Ana": ["Th", "5s"], "Bob": ["Jh", "3d"]}
    assert saved["sat_out"] == ["Cy"]


def test_after_a_sit_out_the_next_table_keeps_the_seat_order(services: Services) -> None:
    state = night_state(services)
    night = state.night.night.players  # type: ignore[union-attr]
    table = state.table.sit_out("Ana").with_cards_text(RIVER, "As Kd Qh 7c 2s")
    table = table.with_cards_text(0, "Th 5s").with_cards_text(1, "Jh 3d")
    for hid in [h for group in table.showdown().order for h in group]:  # type: ignore[union-attr]
        table = table.tap_hand(hid)
    state = run(save_heist, state.with_table(table), services)
    assert len(state.heists) == 1
    # The next table, typed or from a photo, lists everyone as they sit, not Ana last.
    assert state.table.players == night
    view = root_view(state, lambda action: None)
    rows = [c.key for c in walk(view) if str(getattr(c, "key", "")).endswith("-row")]
    assert rows == ["river-row", "hand-0-row", "hand-1-row", "hand-2-row"]
    assert [find(view, f"hand-{i}-text").label.split()[-1] for i in range(3)] == list(night)

"""What the buttons do that needs the outside world: the game log, photos, card reading.

Each action takes the state and the services and returns the next state; player-facing errors
become a banner (``run``), anything else is a bug and propagates.
"""

from __future__ import annotations

import io
import json
import zipfile
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import cv2
import numpy as np

from companion.engine.gang.showdown import Showdown
from companion.errors import CompanionError, ImageDecodeError, ModelLoadError
from companion.formats.table import showdown_to_json
from companion.storage import GameLog, Heist, HeistDraft, NightStatus, Preset, Verdict
from companion.storage.model import group_key
from companion.ui import cribbage_actions
from companion.ui.state import AppState, Banner, Rules, ShowdownState
from companion.ui.text import LANGS, t

if TYPE_CHECKING:  # types only: the app starts without the vision package
    from companion.vision.detections import Detections

__all__ = [
    "MAX_UPLOAD_BYTES",
    "PhotoReader",
    "Services",
    "Action",
    "run",
    "initial_state",
    "decode_image",
    "load_photo",
    "prepare_photo",
    "start_night",
    "save_heist",
    "undo_heist",
    "close_night",
    "save_preset",
    "apply_preset",
    "group_presets",
    "refresh_history",
    "open_screen",
    "export_data",
]

MAX_UPLOAD_BYTES = 15 * 1024 * 1024  # a phone photo is 2-8 MB; more is not a table photo


def _load_detector() -> Any:
    # Imported here: the app must start, and typing must work, without the vision package.
    from companion.vision import CardDetector

    return CardDetector()


class PhotoReader:
    """The card detector, loaded on first use; ``unavailable`` says why it cannot be."""

    def __init__(self, loader: Callable[[], Any] = _load_detector) -> None:
        self._loader = loader
        self._detector: Any = None
        self.unavailable: Banner | None = None  # why, in French and English

    def detector(self) -> Any:
        if self._detector is None and self.unavailable is None:
            try:
                self._detector = self._loader()
            except ImportError as error:
                name = error.name or str(error)
                self.unavailable = Banner(
                    messages=(
                        ("en", f"missing module: {name}"),
                        ("fr", f"module manquant : {name}"),
                    )
                )
            except ModelLoadError as error:
                self.unavailable = Banner.of_error(error)
        return self._detector

    def read(self, image: np.ndarray) -> Detections | None:
        """The cards the detector reads on ``image``, or None when it is unavailable."""
        detector = self.detector()
        return None if detector is None else detector.detect(image)


@dataclass
class Services:
    """What the app is given at start: the game log, its data folder, the card reader."""

    log: GameLog
    data_dir: Path
    reader: PhotoReader = field(default_factory=PhotoReader)


Action = Callable[[AppState, Services], AppState]


def run(action: Action, state: AppState, services: Services) -> AppState:
    """Apply an action; a player-facing error leaves the state as it was, with a banner."""
    try:
        return action(state, services)
    except CompanionError as error:
        return state.with_banner(Banner.of_error(error))


def initial_state(services: Services, lang: str = "fr") -> AppState:
    """Resume the open night, if any, with its players and variant on the table."""
    state = AppState(lang=lang, table=ShowdownState.new(lang))
    status = services.log.resume_night()
    if status is not None:
        state = _with_night(state, services, status, fresh_table=True)
    return refresh_history(replace(state, presets=services.log.presets()), services)


def _with_night(
    state: AppState, services: Services, status: NightStatus, fresh_table: bool = False
) -> AppState:
    night = status.night
    table = state.table
    if fresh_table:
        table = ShowdownState(
            night.players,
            variant=night.variant,
            rules=Rules.from_json(night.rules),
            two_rivers=bool(night.rules.get("two_rivers", False)),
            edition=table.edition + 1,
        )
    heists = services.log.heists(night.id)
    return replace(
        state,
        night=status,
        heists=heists,
        table=table,
        night_cribbage=services.log.cribbage_games(night.id),
        thumbnails=_thumbnails(services, heists, dict(state.thumbnails)),
    )


THUMB_WIDTH = 240


def thumbnail(data: bytes) -> bytes | None:
    """A small JPEG of a stored photo, or None when it no longer decodes."""
    try:
        image = decode_image(data)
    except ImageDecodeError:
        return None
    h, w = image.shape[:2]
    scale = min(1.0, THUMB_WIDTH / w)
    small = cv2.resize(
        image, (max(1, round(w * scale)), max(1, round(h * scale))), interpolation=cv2.INTER_AREA
    )
    ok, encoded = cv2.imencode(".jpg", small, [cv2.IMWRITE_JPEG_QUALITY, 70])
    return encoded.tobytes() if ok else None


def _thumbnails(
    services: Services, heists: tuple[Heist, ...], known: dict[str, bytes]
) -> tuple[tuple[str, bytes], ...]:
    refs = dict.fromkeys(h.photo for h in heists if h.photo)
    result = []
    for ref in refs:
        if ref not in known:
            small = thumbnail(services.log.photo_path(ref).read_bytes())
            if small is None:
                continue
            known[ref] = small
        result.append((ref, known[ref]))
    return tuple(result)


def decode_image(data: bytes, name: str = "upload") -> np.ndarray:
    """BGR pixels of an uploaded file; anything that is not an image is refused by name."""
    if len(data) > MAX_UPLOAD_BYTES:
        raise ImageDecodeError(name, f"larger than {MAX_UPLOAD_BYTES // 2**20} MB")
    # Here, not at the top: the app starts without the vision package (it loads with a photo).
    from companion.vision.image import decode_image as decode

    return decode(data, name)


def prepare_photo(data: bytes, name: str, services: Services) -> Action:
    """Decode, keep and read a photo now (the slow part, for a worker thread); the returned
    action shows the result."""
    try:
        image = decode_image(data, name)
        ref = services.log.store_photo(data)
        read = services.reader.read(image)
    except CompanionError as error:
        banner = Banner.of_error(error)
        return lambda state, _services: state.with_banner(banner)
    return _show_photo(ref, read, services.reader.unavailable)


def load_photo(data: bytes, name: str = "photo") -> Action:
    """Keep the photo, read its cards when the reader can, else say that typing is needed."""
    return lambda state, services: prepare_photo(data, name, services)(state, services)


def _show_photo(ref: str, read: Detections | None, note: Banner | None) -> Action:
    def action(state: AppState, services: Services) -> AppState:
        if read is None or note is not None:
            messages = tuple(
                (lang, t("vision_off", lang, reason=note.text(lang) if note else "?"))
                for lang in LANGS
            )
            if state.screen == "cribbage":  # the show photo is not the showdown table's
                return replace(state, vision_note=note, banner=Banner(messages=messages))
            table = replace(state.table, photo=ref)
            return replace(state, table=table, vision_note=note, banner=Banner(messages=messages))
        if state.screen == "cribbage":
            return cribbage_actions.show_read(state, read)
        if not len(read):
            return replace(
                state, table=replace(state.table, photo=ref), banner=Banner.of("read_none")
            )
        from companion.vision.layouts.gang import read_table  # loaded with the reader already

        groups = read_table(read)
        river = tuple(str(seen.card) for seen in groups.river)
        hands = tuple(tuple(str(seen.card) for seen in hand) for hand in groups.hands)
        table = state.table.with_read(river, hands, ref, state.lang)
        return replace(
            state,
            table=table,
            banner=Banner.of("read_done", n=len(read), conf=round(100 * groups.confidence)),
        )

    return action


def start_night(state: AppState, services: Services) -> AppState:
    table = state.table
    rules = {**table.rules.to_json(), "two_rivers": table.two_rivers}
    night = services.log.start_night(table.players, table.variant, rules=rules)
    return _with_night(state, services, services.log.night_status(night.id))


def _hole_cards(
    player_cards: tuple[str, ...], best: tuple[str, ...], split: bool
) -> tuple[str, ...]:
    """The cards a hand holds: all the player's for one hand each, else those its best five use."""
    if not split:
        return player_cards
    used = tuple(card for card in player_cards if card in best)
    return used or player_cards


def heist_draft(table: ShowdownState, result: Showdown) -> HeistDraft:
    """The heist to save from a judged table; failures keep their reasons in both languages."""
    if result.verdict is None:
        raise ValueError("heist_draft needs a judged showdown")
    cards_of = dict(zip(table.players, table.hands, strict=True))
    # Hands no single player owns: François's, and the circular variant's shared ones.
    extra: dict[str, tuple[str, ...]] = {}
    if table.variant == "francois":
        extra["francois"] = tuple(card for card in table.francois if card)
    if table.variant == "circular":
        extra.update(
            {
                f"{a}+{b}": cards
                for (a, b), cards in zip(table.neighbours(), table.shared, strict=False)
                if cards
            }
        )
    split = len(result.hands) - len(extra) != len(table.players)
    hands = {
        h.id: extra[h.id]
        if h.id in extra
        else _hole_cards(cards_of[h.owner], tuple(str(c) for c in h.value.best), split)
        for h in result.hands
    }
    if split:
        # A hole card that no sub-hand used is kept with the player's first hand, so that the
        # saved heist still holds the whole deal (the replay rebuilds it from the hands).
        for player, cards in cards_of.items():
            own = [h.id for h in result.hands if h.owner == player and h.id not in extra]
            kept = {card for hand_id in own for card in hands[hand_id]}
            unused = tuple(card for card in cards if card not in kept)
            if own and unused:
                hands[own[0]] = hands[own[0]] + unused
    en, fr = showdown_to_json(result, "en"), showdown_to_json(result, "fr")
    failures = [
        {**item, "reason_fr": item_fr["reason"]}
        for item, item_fr in zip(en["vault"]["failures"], fr["vault"]["failures"], strict=True)
    ]
    return HeistDraft(
        river=table.river,
        hands=hands,
        owners={h.id: h.owner for h in result.hands if h.owner in cards_of},
        tokens=table.token_map(),
        verdict=Verdict(result.verdict.opens, tuple(failures)),
        board2=table.river2 if table.two_rivers else None,
        photo=table.photo,
    )


def save_heist(state: AppState, services: Services) -> AppState:
    """Save the judged table in the open night (one transaction), then clear the table."""
    result = state.table.showdown()
    if state.night is None or result is None or result.verdict is None:
        return state.with_banner(Banner.of("no_night" if state.night is None else "problems"))
    if state.table.variant != state.night.night.variant:
        return state.with_banner(Banner.of("night_variant", variant=state.night.night.variant))
    heist = services.log.save_heist(state.night.night.id, heist_draft(state.table, result))
    state = _with_night(state, services, services.log.night_status(heist.night_id))
    state = replace(
        state, table=state.table.cleared(), banner=Banner.of("heist_saved", n=heist.number)
    )
    return refresh_history(state, services)


def undo_heist(state: AppState, services: Services) -> AppState:
    if state.night is None:
        return state.with_banner(Banner.of("no_night"))
    heist = services.log.undo_last_heist(state.night.night.id)
    state = _with_night(state, services, services.log.night_status(heist.night_id))
    return refresh_history(state.with_banner(Banner.of("undone", n=heist.number)), services)


def close_night(state: AppState, services: Services) -> AppState:
    if state.night is None:
        return state
    if not state.night.finished:
        services.log.close_night(state.night.night.id)
    closed = replace(state, night=None, heists=(), night_cribbage=(), thumbnails=())
    return refresh_history(closed, services)


def save_preset(name: str) -> Action:
    def action(state: AppState, services: Services) -> AppState:
        # The group is kept with the rules: each group of players sees its own presets.
        rules = {
            **state.table.rules.to_json(),
            "two_rivers": state.table.two_rivers,
            "group": list(group_key(state.table.players)),
        }
        preset = services.log.save_preset(name, rules)
        return replace(
            state,
            presets=services.log.presets(),
            banner=Banner.of("preset_saved", name=preset.name),
        )

    return action


def group_presets(presets: tuple[Preset, ...], players: tuple[str, ...]) -> tuple[Preset, ...]:
    """The presets this group saved, and those saved for no group in particular."""
    group = list(group_key(players))
    return tuple(p for p in presets if list(p.rules.get("group", group)) == group)


def apply_preset(name: str) -> Action:
    def action(state: AppState, services: Services) -> AppState:
        preset = services.log.preset(name)
        table = state.table.with_rules(Rules.from_json(preset.rules)).with_two_rivers(
            bool(preset.rules.get("two_rivers", False))
        )
        return replace(state, table=table, banner=Banner.of("preset_applied", name=preset.name))

    return action


def open_screen(screen: str) -> Action:
    """Go to a screen; the night and history are read again, as another phone may have
    saved a heist or started a night meanwhile."""

    def action(state: AppState, services: Services) -> AppState:
        state = state.go(screen)
        if state.screen == "cribbage":
            return cribbage_actions.resume_game(state, services)
        if state.screen not in ("night", "history", "showdown"):
            return state
        if state.night is not None:
            current: NightStatus | None = services.log.night_status(state.night.night.id)
        else:
            current = services.log.resume_night()
        if current is not None:
            table = state.table
            empty = not (table.river or any(table.hands))
            state = _with_night(state, services, current, fresh_table=state.night is None and empty)
        return refresh_history(state, services)

    return action


def refresh_history(state: AppState, services: Services) -> AppState:
    return replace(state, history=services.log.list_nights(), stats=services.log.stats())


def export_files(log: GameLog, kind: str, night_id: int | None = None) -> dict[str, bytes]:
    """An export's files by name: one JSON file, or the nights and heists CSV tables."""
    stem = "all" if night_id is None else f"night-{night_id}"
    if kind == "json":
        text = log.export_json(night_id)
        json.loads(text)  # the export is JSON by contract; a broken one is a bug
        return {f"{stem}.json": text.encode()}
    tables = log.export_csv(night_id)
    return {
        f"{stem}-nights.csv": tables.nights.encode(),
        f"{stem}-heists.csv": tables.heists.encode(),
    }


def download_file(files: dict[str, bytes]) -> tuple[str, bytes]:
    """What the browser downloads: the one file, or a zip of several."""
    if len(files) == 1:
        return next(iter(files.items()))
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in files.items():
            archive.writestr(name, data)
    return f"{next(iter(files)).rsplit('-', 1)[0]}-csv.zip", buffer.getvalue()


def export_data(kind: str, night_id: int | None = None) -> Action:
    """Write an export into the data folder's ``exports/`` (never anywhere else)."""

    def action(state: AppState, services: Services) -> AppState:
        folder = services.data_dir / "exports"
        folder.mkdir(parents=True, exist_ok=True)
        files = export_files(services.log, kind, night_id)
        for name, data in files.items():
            (folder / name).write_bytes(data)
        return state.with_banner(
            Banner.of("exported", path=", ".join(str(folder / name) for name in files))
        )

    return action

"""``GameLog``: what the app needs from a game log, whatever keeps it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, BinaryIO, Protocol, runtime_checkable

from companion.storage.export import CsvExport
from companion.storage.figures import Figures, Judge
from companion.storage.model import CribbageGame, Heist, HeistDraft, Night, NightStatus, Preset
from companion.storage.stats import Stats

__all__ = ["GameLog"]


@runtime_checkable
class GameLog(Protocol):
    """Game nights and their heists, table-rule presets, photos, stats and exports.

    A night ends at 3 vaults (won) or 3 alarms (lost), or when closed by hand (abandoned);
    an ended night refuses new heists with NightFinishedError.
    """

    # Nights
    def start_night(
        self,
        players: Sequence[str],
        variant: str,
        *,
        rules: Mapping[str, Any] | None = None,
        preset: str | None = None,
    ) -> Night: ...

    def night_status(self, night_id: int) -> NightStatus: ...

    def resume_night(self) -> NightStatus | None: ...

    def open_nights(self) -> tuple[NightStatus, ...]: ...

    def list_nights(self) -> tuple[NightStatus, ...]: ...

    def close_night(self, night_id: int) -> NightStatus: ...

    def save_seats(self, night_id: int, seats: Mapping[str, float]) -> NightStatus: ...

    # Heists
    def save_heist(self, night_id: int, draft: HeistDraft) -> Heist: ...

    def heists(self, night_id: int) -> tuple[Heist, ...]: ...

    def heist(self, heist_id: int) -> Heist: ...

    def undo_last_heist(self, night_id: int) -> Heist: ...

    # Photos
    def store_photo(self, data: bytes) -> str: ...

    def photo_path(self, ref: str) -> Path: ...

    def discard_photo(self, ref: str) -> bool: ...

    def forget_unsaved_photos(self, max_age_s: float = ...) -> frozenset[str]: ...

    # Table-rule presets
    def save_preset(self, name: str, rules: Mapping[str, Any]) -> Preset: ...

    def preset(self, name: str) -> Preset: ...

    def presets(self) -> tuple[Preset, ...]: ...

    # History
    def stats(self) -> Stats: ...

    def figures(self, judge: Judge | None = None) -> Figures: ...

    def export_json(self, night_id: int | None = None, judge: Judge | None = None) -> str: ...

    def export_csv(self, night_id: int | None = None, judge: Judge | None = None) -> CsvExport: ...

    def export_archive(self, file: BinaryIO, night_id: int | None = None) -> int: ...

    # Cribbage (the cribbage screen owns the state's shape)
    def save_cribbage_game(
        self,
        players: Sequence[str],
        state: Mapping[str, Any],
        *,
        game_id: int | None = None,
        finished: bool = False,
        night_id: int | None = None,
    ) -> CribbageGame: ...

    def cribbage_game(self, game_id: int) -> CribbageGame: ...

    def cribbage_games(self, night_id: int | None = None) -> tuple[CribbageGame, ...]: ...

    def close(self) -> None: ...

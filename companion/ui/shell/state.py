"""What the app shows, as plain frozen dataclasses: every change returns a new value.

Nothing here imports Flet, so the screens' logic is tested without a client. Each screen keeps
its own state in its folder (``ui/<screen>/state.py``); ``AppState`` holds them all, above the
screens, and gives each what its host protocol (``ui/<screen>/host.py``) asks.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from companion.formats.judging import judge_deal
from companion.formats.table import house_rules_from_json, house_rules_to_json
from companion.storage import CribbageGame, Figures, GameLog, Heist, NightStatus, Preset, Stats
from companion.storage.bgstats import play_links
from companion.ui.cribbage.state import CribbageState
from companion.ui.kit.banner import Banner
from companion.ui.kit.services import Services, vision_off
from companion.ui.kit.text import t
from companion.ui.night.actions import next_night, with_night
from companion.ui.night.host import NightLog, TableSetup
from companion.ui.replay.state import ReplayState
from companion.ui.showdown.state import ShowdownState
from companion.ui.spit.state import SpitScreen

__all__ = [
    "SCREENS",
    "AppState",
]


SCREENS = ("showdown", "night", "history", "cribbage", "spit")


def _default_in(name: str, seat: int, old: str, new: str) -> str:
    """``name``, or the seat's default name in ``new`` where it is the default name in ``old``."""
    default = t("player_default", old, n=seat + 1)
    return t("player_default", new, n=seat + 1) if name == default else name


def _renamed(table: ShowdownState, old: str, new: str) -> ShowdownState:
    """``table`` with each default name of ``old`` (its seat's) in ``new``. Not once tokens
    are given: they name the hands by their players' names."""
    names = tuple(_default_in(name, i, old, new) for i, name in enumerate(table.players))
    if names == table.players or table.tokens:
        return table
    # A new edition: the fields show the new names instead of keeping the old text.
    return replace(table, players=names, edition=table.edition + 1)


@dataclass(frozen=True)
class AppState:
    """The whole screen: language, where we are, the table, the night, the history."""

    lang: str = "fr"
    four_colours: bool = False  # suits in four colours (hearts red, diamonds blue, clubs green)
    screen: str = "showdown"
    table: ShowdownState = field(default_factory=ShowdownState.new)
    night: NightStatus | None = None
    heists: tuple[Heist, ...] = ()
    night_cribbage: tuple[CribbageGame, ...] = ()  # the night's cribbage games, latest first
    history: tuple[NightStatus, ...] = ()
    stats: Stats | None = None
    figures: Figures | None = None  # History's pictures: scores, success, each player's judging
    play_links: tuple[tuple[int, str], ...] = ()  # (night id, BG Stats link) of won/lost nights
    history_night: tuple[int, tuple[Heist, ...]] | None = None  # a past night's heists shown
    presets: tuple[Preset, ...] = ()
    banner: Banner | None = None
    vision_note: Banner | None = None  # why photo reading is unavailable, when it is
    thumbnails: tuple[tuple[str, bytes], ...] = ()  # (photo ref, small JPEG) of the night
    spit: SpitScreen = field(default_factory=SpitScreen)
    cribbage: CribbageState = field(default_factory=CribbageState)
    replay: ReplayState | None = None  # a saved heist's replay, shown over the current screen
    closing_night: bool = False  # "Close the night" tapped: asked before it is done

    def go(self, screen: str) -> AppState:
        return replace(
            self,
            screen=screen if screen in SCREENS else "showdown",
            banner=None,
            replay=None,
            closing_night=False,
        )

    def toggle_lang(self) -> AppState:
        return self.in_lang("en" if self.lang == "fr" else "fr")

    def in_lang(self, lang: str) -> AppState:
        """The page in ``lang``; players still under their default names ("Joueur 1") take
        the new language's ("Player 1")."""
        if lang == self.lang:
            return self
        board = self.cribbage.board
        if not board.entries and board.game_id is None:  # a game under way keeps its names
            names = tuple(
                _default_in(name, i, self.lang, lang) for i, name in enumerate(board.players)
            )
            board = replace(board, players=(names[0], names[1]))
        cribbage = self.cribbage.with_board(board)
        return replace(
            self, lang=lang, table=_renamed(self.table, self.lang, lang), cribbage=cribbage
        )

    def toggle_colours(self) -> AppState:
        return replace(self, four_colours=not self.four_colours)

    def with_table(self, table: ShowdownState) -> AppState:
        return replace(self, table=table, banner=None)

    def with_spit(self, spit: SpitScreen) -> AppState:
        return replace(self, spit=spit, banner=None)

    def with_banner(self, banner: Banner | None) -> AppState:
        return replace(self, banner=banner)

    def with_replay(self, replay: ReplayState | None) -> AppState:
        return replace(self, replay=replay)

    def with_cribbage(self, cribbage: CribbageState) -> AppState:
        return replace(self, cribbage=cribbage, banner=None)

    def with_vision_off(self, note: Banner | None) -> AppState:
        return replace(self, vision_note=note, banner=vision_off(note))

    def with_presets(self, presets: tuple[Preset, ...]) -> AppState:
        return replace(self, presets=presets)

    def with_night_status(self, status: NightStatus | None) -> AppState:
        return replace(self, night=status)

    def with_history_of(self, log: GameLog) -> AppState:
        history = log.list_nights()
        links = play_links(log, history, self.lang, judge_deal)
        return replace(
            self,
            history=history,
            stats=log.stats(),
            figures=log.figures(judge_deal),
            play_links=links,
        )

    def with_history_night(self, shown: tuple[int, tuple[Heist, ...]] | None) -> AppState:
        return replace(self, history_night=shown)

    def table_setup(self) -> TableSetup:
        table = self.table
        rules = house_rules_to_json(table.rules, table.two_rivers)
        return TableSetup(table.players, table.variant, rules)

    def with_night_log(self, log: NightLog, fresh_table: bool) -> AppState:
        night = log.status.night
        table = self.table
        if fresh_table:
            rules, two_rivers = house_rules_from_json(night.rules)
            table = ShowdownState(
                night.players,
                variant=night.variant,
                rules=rules,
                two_rivers=two_rivers,
                dealt=table.dealt,
                edition=table.edition + 1,
            )
        return replace(
            self,
            night=log.status,
            heists=log.heists,
            table=table,
            night_cribbage=log.games,
            thumbnails=log.thumbnails,
        )

    def with_night_read(self, services: Services, status: NightStatus) -> AppState:
        return with_night(self, services, status)

    def with_next_night(self, services: Services) -> AppState:
        return next_night(self, services)

    def without_night(self) -> AppState:
        return replace(
            self, night=None, heists=(), night_cribbage=(), thumbnails=(), closing_night=False
        )

    def with_closing_night(self, asked: bool) -> AppState:
        return replace(self, closing_night=asked, banner=None)

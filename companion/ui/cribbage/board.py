"""The cribbage screen's board: two players' scores to 121, kept as every score added, in order.

The hand, then the dealer's hand, then the crib, as the players count them: the winner is
whoever reached 121 first, and an undo is dropping the last entry. Before the first score, the
cut for the first deal (the lower card deals, a tie cuts again) is kept with the game. It is
saved as the JSON the game log keeps for the cribbage screen. A score no play or show can make
is refused, naming the rule in words (``IllegalMoveError("crib_board", rule, ...)``), so that a
typo is never pegged.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from companion.engine.cards import parse_cards
from companion.engine.cribbage.cut import DealCut, cut_for_deal, first_dealer
from companion.engine.cribbage.game import WINNING_SCORE
from companion.engine.names import same_name
from companion.errors import IllegalMoveError, InputError
from companion.messages import phrase
from companion.storage import CribbageGame
from companion.ui.kit.text import t

__all__ = ["KINDS", "IMPOSSIBLE_SHOWS", "ScoreEntry", "CribBoard", "points_typed"]

KINDS = ("show", "peg", "crib", "heels")
MAX_SHOW = 29
# No hand or crib counts these (the known distribution of all hand + starter deals).
IMPOSSIBLE_SHOWS = frozenset({19, 25, 26, 27})
# The most one pegging play scores: 31 (2), a double pair royal (12)... 15 is a safe bound.
MAX_PEG = 15
HEELS = 2
STATE_VERSION = 1


@dataclass(frozen=True)
class ScoreEntry:
    """Points pegged by one player, and why (a ``KINDS`` name)."""

    player: int
    kind: str
    points: int


def _refuse(rule: str, **params: Any) -> IllegalMoveError:
    return IllegalMoveError("crib_board", rule, **params)


def _check_points(kind: str, points: int) -> None:
    """Refuse scores no play or show can make, so a typo is caught before it is pegged."""
    if kind not in KINDS:
        raise ValueError(f"unknown score kind {kind!r}")  # a bug: the screen offers KINDS only
    if kind == "heels":
        if points != HEELS:
            raise _refuse("heels_two", points=points)
        return
    top = MAX_PEG if kind == "peg" else MAX_SHOW
    low = 1 if kind == "peg" else 0
    if not low <= points <= top:
        what = phrase(f"crib_board.a_{kind}")
        raise _refuse("points_range", what=what, low=low, high=top, points=points)
    if kind != "peg" and points in IMPOSSIBLE_SHOWS:
        raise _refuse("impossible_show", points=points)


def points_typed(text: str) -> int:
    """Points as typed in a score field; what is not a whole number is refused, quoted."""
    try:
        return int(text.strip())
    except ValueError:
        raise InputError("crib_board.points_number", text=text.strip()) from None


@dataclass(frozen=True)
class CribBoard:
    """Two players' scores as entries; ``game_id`` is the log's game once saved."""

    players: tuple[str, str] = ("1", "2")
    entries: tuple[ScoreEntry, ...] = ()
    game_id: int | None = None
    target: int = WINNING_SCORE
    cuts: tuple[DealCut, ...] = ()  # the cut for the first deal, each tie cut again

    @classmethod
    def new(cls, lang: str = "fr", players: Sequence[str] | None = None) -> CribBoard:
        names = (
            tuple(players)
            if players
            else tuple(t("player_default", lang, n=i + 1) for i in range(2))
        )
        return cls(players=(names[0], names[1]))

    def scores(self) -> tuple[int, int]:
        totals = [0, 0]
        for entry in self.entries:
            totals[entry.player] += entry.points
        return totals[0], totals[1]

    def winner(self) -> int | None:
        """The first to reach the target, in the order the points were pegged."""
        totals = [0, 0]
        for entry in self.entries:
            totals[entry.player] += entry.points
            if totals[entry.player] >= self.target:
                return entry.player
        return None

    def pegs(self, player: int) -> tuple[int, int]:
        """(front, back) peg holes: the score now, and before the player's last score."""
        front = self.scores()[player]
        mine = [e.points for e in self.entries if e.player == player]
        back = front - mine[-1] if mine else 0
        return min(front, self.target), min(back, self.target)

    def add(self, player: int, kind: str, points: int) -> CribBoard:
        if player not in (0, 1):
            raise ValueError(f"no player {player}")  # a bug: the screen shows two players
        winner = self.winner()
        if winner is not None:
            raise _refuse("game_over", name=self.players[winner], target=self.target)
        _check_points(kind, points)
        if points == 0:
            return self  # a nineteen hand: nothing to peg
        return replace(self, entries=self.entries + (ScoreEntry(player, kind, points),))

    def undo(self) -> CribBoard:
        """The last score dropped; before any score, the last cut for the deal."""
        if self.entries:
            return replace(self, entries=self.entries[:-1])
        return replace(self, cuts=self.cuts[:-1])

    @property
    def dealer(self) -> int | None:
        """Who deals first by the cut; None before it decides."""
        return first_dealer(self.cuts)

    def with_cut_text(self, text: str) -> CribBoard:
        """One more cut typed: the first player's card, then the second's."""
        typed = parse_cards(text, phrase("place.cut_cards"))
        cards = [card for cut in self.cuts for card in cut.cards] + list(typed)
        return replace(self, cuts=cut_for_deal(cards, self.players))

    def with_players_text(self, text: str) -> CribBoard:
        names = tuple(same_name(name) for name in text.split(",") if name.strip())
        if len(names) != 2 or names[0].casefold() == names[1].casefold():
            given = names or phrase("crib_board.no_names")
            raise InputError("crib_board.two_players", names=given)
        return replace(self, players=(names[0], names[1]))

    def to_json(self) -> dict[str, Any]:
        """The state the game log keeps (its players are kept apart, in their own column)."""
        state: dict[str, Any] = {
            "version": STATE_VERSION,
            "target": self.target,
            "entries": [[e.player, e.kind, e.points] for e in self.entries],
        }
        if self.cuts:  # games saved before the cut read as they were
            state["cuts"] = [[str(card) for card in cut.cards] for cut in self.cuts]
        return state

    @classmethod
    def of_game(cls, game: CribbageGame) -> CribBoard:
        """The board of a game the log keeps."""
        return cls.from_json(game.players, game.state, game.id)

    @classmethod
    def from_json(
        cls, players: Sequence[str], raw: Mapping[str, Any], game_id: int | None
    ) -> CribBoard:
        entries = tuple(ScoreEntry(int(p), str(k), int(n)) for p, k, n in raw.get("entries", ()))
        cut = [card for pair in raw.get("cuts", ()) for card in parse_cards(pair, "cuts")]
        return cls(
            (players[0], players[1]),
            entries,
            game_id,
            int(raw.get("target", WINNING_SCORE)),
            cut_for_deal(cut, players) if cut else (),
        )

"""The cribbage screen's state: a show to count, a two-player board to 121, discard advice.

Plain frozen dataclasses, like the rest of the app's state, tested without Flet. The board
keeps every score added, in order (the hand, then the dealer's hand, then the crib, as the
players count them), so that the winner is whoever reached 121 first and an undo is dropping
the last entry. It is saved as the JSON the game log keeps for the cribbage screen.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from companion.engine.cards import Card, parse_card
from companion.engine.cribbage.discard import DiscardAdvice, advise_discard
from companion.engine.cribbage.game import WINNING_SCORE
from companion.engine.cribbage.score import Rule, ScoreItem, Show, peg_count, score_peg, score_show
from companion.errors import CompanionError, IllegalMoveError
from companion.storage import CribbageGame
from companion.ui.banner import Banner
from companion.ui.cards import split_cards
from companion.ui.text import t

__all__ = [
    "KINDS",
    "IMPOSSIBLE_SHOWS",
    "ScoreEntry",
    "CribBoard",
    "ShowCount",
    "PegCount",
    "PEG_ENDS",
    "CribbageState",
]

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


def _refuse(rule: str, detail: str, detail_fr: str) -> IllegalMoveError:
    return IllegalMoveError(rule, detail, detail_fr)


def _check_points(kind: str, points: int) -> None:
    """Refuse scores no play or show can make, so a typo is caught before it is pegged."""
    if kind not in KINDS:
        raise ValueError(f"unknown score kind {kind!r}")  # a bug: the screen offers KINDS only
    if kind == "heels":
        if points != HEELS:
            raise _refuse("heels_two", "his heels scores 2", "le valet retourné vaut 2")
        return
    top = MAX_PEG if kind == "peg" else MAX_SHOW
    low = 1 if kind == "peg" else 0
    if not low <= points <= top:
        raise _refuse(
            "points_range",
            f"a {kind} scores {low} to {top}, not {points}",
            f"{'un pegging' if kind == 'peg' else 'un compte'} vaut de {low} à {top}, pas {points}",
        )
    if kind != "peg" and points in IMPOSSIBLE_SHOWS:
        raise _refuse(
            "impossible_show",
            f"no hand or crib scores {points}: count it again",
            f"aucune main ni crib ne vaut {points} : recomptez",
        )


@dataclass(frozen=True)
class CribBoard:
    """Two players' scores as entries; ``game_id`` is the log's game once saved."""

    players: tuple[str, str] = ("1", "2")
    entries: tuple[ScoreEntry, ...] = ()
    game_id: int | None = None
    target: int = WINNING_SCORE

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
            name = self.players[winner]
            raise _refuse(
                "game_over",
                f"the game is over: {name} reached {self.target}",
                f"la partie est finie : {name} a atteint {self.target}",
            )
        _check_points(kind, points)
        if points == 0:
            return self  # a nineteen hand: nothing to peg
        return replace(self, entries=self.entries + (ScoreEntry(player, kind, points),))

    def undo(self) -> CribBoard:
        return replace(self, entries=self.entries[:-1])

    def with_players_text(self, text: str) -> CribBoard:
        names = tuple(name.strip() for name in text.split(",") if name.strip())
        if len(names) != 2 or names[0].casefold() == names[1].casefold():
            raise _refuse(
                "two_players",
                f"cribbage here is for two players with two names, "
                f"not {', '.join(names) or 'none'}",
                f"le cribbage se joue ici à deux joueurs de noms différents, pas "
                f"{', '.join(names) or 'aucun'}",
            )
        return replace(self, players=(names[0], names[1]))

    def to_json(self) -> dict[str, Any]:
        """The state the game log keeps (its players are kept apart, in their own column)."""
        return {
            "version": STATE_VERSION,
            "target": self.target,
            "entries": [[e.player, e.kind, e.points] for e in self.entries],
        }

    @classmethod
    def of_game(cls, game: CribbageGame) -> CribBoard:
        """The board of a game the log keeps."""
        return cls.from_json(game.players, game.state, game.id)

    @classmethod
    def from_json(
        cls, players: Sequence[str], raw: Mapping[str, Any], game_id: int | None
    ) -> CribBoard:
        entries = tuple(ScoreEntry(int(p), str(k), int(n)) for p, k, n in raw.get("entries", ()))
        return cls(
            (players[0], players[1]), entries, game_id, int(raw.get("target", WINNING_SCORE))
        )


def _card(text: str) -> Card:
    return parse_card(text, "cribbage")


@dataclass(frozen=True)
class ShowCount:
    """A show typed or read from a photo: four cards, the starter, and whether it is the crib."""

    hand: tuple[str, ...] = ()
    starter: str = ""
    crib: bool = False
    unsure: tuple[str, ...] = ()  # cards a photo read with little confidence, to check by eye

    def with_hand_text(self, text: str) -> ShowCount:
        cards = split_cards(text)
        return self if cards == self.hand else replace(self, hand=cards, unsure=())

    def with_starter_text(self, text: str) -> ShowCount:
        cards = split_cards(text)
        starter = cards[0] if cards else ""
        return self if starter == self.starter else replace(self, starter=starter, unsure=())

    def with_crib(self, on: bool) -> ShowCount:
        return replace(self, crib=on)

    def show(self) -> Show | None:
        """The count once cards are typed; a wrong card or count raises, naming it."""
        if not self.hand and not self.starter:
            return None
        hand = tuple(_card(card) for card in self.hand)
        if not self.starter:
            raise _refuse(
                "starter_missing", "type the starter card too", "tapez aussi la carte de départ"
            )
        return score_show(hand, _card(self.starter), crib=self.crib)


PEG_ENDS = ("", "go", "last_card")


@dataclass(frozen=True)
class PegCount:
    """A pegging count typed card by card since the last reset, and whether its last card
    closed it (a go, or the last card of the hand)."""

    cards: tuple[str, ...] = ()
    end: str = ""  # a PEG_ENDS name

    def with_cards_text(self, text: str) -> PegCount:
        cards = split_cards(text)
        return self if cards == self.cards else replace(self, cards=cards)

    def with_end(self, end: str) -> PegCount:
        if end not in PEG_ENDS:
            raise ValueError(f"unknown end of count {end!r}")  # a bug: the screen offers these
        return replace(self, end=end)

    def items(self) -> tuple[ScoreItem, ...]:
        """What the last card scores; a wrong card or a count past 31 raises, naming it."""
        return score_peg(
            tuple(_card(card) for card in self.cards), Rule(self.end) if self.end else None
        )

    def total(self) -> int:
        return peg_count(_card(card) for card in self.cards)


@dataclass(frozen=True)
class CribbageState:
    """The whole cribbage screen."""

    count: ShowCount = field(default_factory=ShowCount)
    peg: PegCount = field(default_factory=PegCount)
    board: CribBoard = field(default_factory=CribBoard.new)
    deal: tuple[str, ...] = ()
    dealer: bool = False
    advice: DiscardAdvice | None = None
    advice_error: Banner | None = None

    def with_count(self, count: ShowCount) -> CribbageState:
        return replace(self, count=count)

    def with_peg(self, peg: PegCount) -> CribbageState:
        return replace(self, peg=peg)

    def with_board(self, board: CribBoard) -> CribbageState:
        return replace(self, board=board)

    def with_deal_text(self, text: str) -> CribbageState:
        deal = split_cards(text)
        # Leaving the field unchanged (blur) must not work the advice out again.
        return self if deal == self.deal else self._advised(deal, self.dealer)

    def with_dealer(self, dealer: bool) -> CribbageState:
        return self._advised(self.deal, dealer)

    def _advised(self, deal: tuple[str, ...], dealer: bool) -> CribbageState:
        """Work the advice out once, here, rather than at every redraw (about 0.1 s)."""
        if not deal:
            return replace(self, deal=deal, dealer=dealer, advice=None, advice_error=None)
        try:
            advice = advise_discard(tuple(_card(card) for card in deal), dealer)
        except CompanionError as error:
            return replace(
                self, deal=deal, dealer=dealer, advice=None, advice_error=Banner.of_error(error)
            )
        return replace(self, deal=deal, dealer=dealer, advice=advice, advice_error=None)

    def count_to(self, player: int) -> CribbageState:
        """Peg the counted show for ``player`` (as a crib when the count is one)."""
        show = self.count.show()
        if show is None:
            raise _refuse(
                "nothing_counted",
                "type or photograph a show first",
                "tapez ou photographiez d'abord un compte",
            )
        return replace(
            self, board=self.board.add(player, "crib" if show.crib else "show", show.total)
        )

    def peg_to(self, player: int) -> CribbageState:
        """Peg what the last card of the pegging count scores, for ``player``."""
        points = sum(item.points for item in self.peg.items())
        if not points:
            raise _refuse(
                "nothing_pegged", "the last card scores nothing", "la dernière carte ne marque rien"
            )
        return replace(self, board=self.board.add(player, "peg", points))

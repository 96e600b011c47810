"""Speed's match: a point for each card the loser still holds, game after game, to a target.

Spit, "Vitesse": "le gagnant reçoit un point pour chaque carte. Fixez un objectif de score." The
players set the target; ``DEFAULT_TARGET`` is where a new match starts. In Speed nobody ever
picks cards up, so a game's loser holds at least one card (the game ends when the winner is
out) and at most the cards dealt to them (``SpitRules.speed_cards``).

>>> from companion.engine.spit.state import VARIANTS
>>> match = SpeedTally(target=20).scored(0, 12, VARIANTS["speed"]).scored(1, 4, VARIANTS["speed"])
>>> match.totals, match.champion
((12, 4), None)
>>> match.scored(0, 9, VARIANTS["speed"]).champion
0
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from companion.engine.cards import DECK
from companion.engine.spit.state import SPEED_HAND, SpitRules, rules_title
from companion.errors import TableError

__all__ = ["DEFAULT_TARGET", "MAX_TARGET", "SpeedDeal", "speed_deal", "SpeedTally"]

DEFAULT_TARGET = 50  # about four games at 15 cards each; the players change it
MAX_TARGET = 1000


@dataclass(frozen=True)
class SpeedDeal:
    """What Speed deals each player, and each side pile under its centre card."""

    cards: int
    hand: int
    draw: int
    side: int


def speed_deal(rules: SpitRules) -> SpeedDeal:
    """Spit, "Vitesse": 15 cards each and side piles of 10, or 20 each and side piles of 5.

    >>> from companion.engine.spit.state import VARIANTS
    >>> speed_deal(VARIANTS["speed"]), speed_deal(VARIANTS["speed-20"]).side
    (SpeedDeal(cards=15, hand=5, draw=10, side=10), 5)
    """
    per_side = (len(DECK) - 2 * rules.speed_cards) // 2
    return SpeedDeal(rules.speed_cards, SPEED_HAND, rules.speed_cards - SPEED_HAND, per_side - 1)


@dataclass(frozen=True)
class SpeedTally:
    """A Speed match: the target score and each game's (winner, points), players from 0."""

    target: int = DEFAULT_TARGET
    games: tuple[tuple[int, int], ...] = ()

    @property
    def totals(self) -> tuple[int, int]:
        return (
            sum(p for w, p in self.games if w == 0),
            sum(p for w, p in self.games if w == 1),
        )

    @property
    def champion(self) -> int | None:
        """The player who reached the target first, if any (only the winner scores a game)."""
        scores = [0, 0]
        for winner, points in self.games:
            scores[winner] += points
            if scores[winner] >= self.target:
                return winner
        return None

    def with_target(self, target: int) -> SpeedTally:
        if not 1 <= target <= MAX_TARGET:
            raise TableError("spit.tally_target", target=target, most=MAX_TARGET)
        return replace(self, target=target)

    def scored(self, winner: int, points: int, rules: SpitRules) -> SpeedTally:
        """One more game: ``winner`` scores ``points``, the cards the other still holds."""
        if not rules.speed:
            raise TableError("spit.tally_not_speed", rules=rules_title(rules))
        if self.champion is not None:
            raise TableError("spit.tally_over", player=self.champion + 1)
        if winner not in (0, 1):
            raise TableError("spit.no_such_player", n=winner + 1)
        if not 1 <= points <= rules.speed_cards:
            raise TableError("spit.tally_points", points=points, most=rules.speed_cards)
        return replace(self, games=(*self.games, (winner, points)))

    def undone(self) -> SpeedTally:
        """Without its last game (a mistyped one); the same when there is none."""
        return replace(self, games=self.games[:-1])

    def restarted(self) -> SpeedTally:
        """A new match to the same target."""
        return SpeedTally(self.target)

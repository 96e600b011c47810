"""Spit positions and moves as players type them, shared by the CLI and the app.

>>> parse_pile("7h/3", "pile 1")
PileView(top=Card(rank=<Rank.SEVEN: 5>, suit=<Suit.HEARTS: 1>), size=3)
"""

from __future__ import annotations

import re

from companion.engine.cards import parse_card
from companion.engine.spit import Move, Spit, Take, Turn
from companion.engine.spit.referee import CardPlay, CardShift, PileView
from companion.errors import CardParseError, TableError

__all__ = ["parse_pile", "parse_move"]

_TOKEN = re.compile(r"^(?P<card>[^/]+?)(?:/(?P<size>\d+))?$")
_PLAYER = r"(?P<player>[pj][12])"
_NUMBER = r"(?:(?:the|le|la)\s+)?(?:(?:pile|tas|stock|r[ée]serve)\s*)?(?P<n>\d+)"
_TO = r"\s*(?:->|→|on|to|sur|vers)?\s*(?:(?:the|le|la)\s+)?"
# Checked in this order: the keyword moves first, so that "p1 turn 3" is not read as a card.
_MOVES = {
    "turn": re.compile(rf"^{_PLAYER}\s+(?:turns?(?:\s+up)?|retourne)\s+{_NUMBER}$"),
    "take": re.compile(rf"^{_PLAYER}\s+(?:takes?|slaps?|prend)\s+{_NUMBER}$"),
    "spit": re.compile(rf"^(?:spit|crache)(?:\s+(?:on\s+|sur\s+)?{_NUMBER})?$"),
    "play": re.compile(
        rf"^{_PLAYER}\s+(?:plays?\s+|joue\s+)?(?P<card>\S+){_TO}(?:pile|tas)\s*(?P<n>\d+)$"
    ),
    "shift": re.compile(
        rf"^{_PLAYER}\s+(?:moves?\s+|d[ée]place\s+)?(?P<card>\S+){_TO}(?:stock|r[ée]serve)\s*(?P<n>\d+)$"
    ),
}


def parse_pile(token: str, where: str) -> PileView:
    """One typed pile: ``7h``, ``7h/3``, ``?``, ``?/3`` or ``-``."""
    text = token.strip()
    if text in ("-", "_"):
        return PileView(None, 0)
    match = _TOKEN.match(text)
    if match is None:
        raise CardParseError(token, where)
    size = int(match["size"]) if match["size"] else 1
    if match["card"] == "?":
        return PileView(None, size)
    card = parse_card(match["card"], where)
    if card.is_wild:
        raise CardParseError(token, f"{where}; Spit has no wild cards")
    return PileView(card, size)


def _index(text: str, count: int, what: str) -> int:
    value = int(text)
    if not 1 <= value <= count:
        raise TableError(
            f"there is no {what} {value} (1 to {count})", f"il n'y a pas de {what} {value}"
        )
    return value - 1


def parse_move(text: str, stocks: int) -> Move | CardPlay | CardShift:
    """A disputed move as players write it (see ``companion spit referee --help``)."""
    line = " ".join(text.strip().lower().split())
    for kind, pattern in _MOVES.items():
        match = pattern.match(line)
        if match is None:
            continue
        if kind == "spit":
            return Spit(None if match["n"] is None else _index(match["n"], 2, "pile"))
        player = int(match["player"][1]) - 1
        if kind == "turn":
            return Turn(player, _index(match["n"], stocks, "stock"))
        if kind == "take":
            return Take(player, _index(match["n"], 2, "pile"))
        card = parse_card(match["card"], "--move")
        if kind == "play":
            return CardPlay(player, card, _index(match["n"], 2, "pile"))
        return CardShift(player, card, _index(match["n"], stocks, "stock"))
    raise TableError(
        f'cannot read the move {text!r}; write e.g. "p1 8d -> pile 1" (see --help)',
        f'coup illisible {text!r} ; écrivez par ex. "p1 8d -> pile 1" (voir --help)',
    )

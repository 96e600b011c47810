"""Spit positions and moves as players type them, shared by the CLI and the app; rulings as
JSON (``companion spit referee --json``).

>>> parse_pile("7h/3", "pile 1")
PileView(top=Card(rank=<Rank.SEVEN: 5>, suit=<Suit.HEARTS: 1>), size=3)
"""

from __future__ import annotations

import re
from typing import Any

from companion.engine.cards import parse_card
from companion.engine.spit import Move, Play, Shift, Spit, SpitState, Take, Turn
from companion.engine.spit.referee import CardPlay, CardShift, PileView, Ruling
from companion.engine.spit.words import describe_move, explain
from companion.errors import CardParseError, InputError, shortened
from companion.messages import Phrase, phrase

__all__ = ["parse_pile", "parse_move", "move_to_json", "ruling_to_json"]

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


def parse_pile(token: str, where: Phrase | str) -> PileView:
    """One typed pile: ``7h``, ``7h/3``, ``?``, ``?/3`` or ``-``."""
    text = token.strip()
    if text in ("-", "_"):
        return PileView(None, 0)
    match = _TOKEN.match(text)
    if match is None:
        raise CardParseError(token, where)
    size = _small_number(match["size"], where) if match["size"] else 1
    if match["card"] == "?":
        return PileView(None, size)
    card = parse_card(match["card"], where)
    if card.is_wild:
        raise InputError("spit.no_wild_cards", token=shortened(token), where=where)
    return PileView(card, size)


def _small_number(text: str, where: Phrase | str) -> int:
    """A pile size or a place number as typed; more than 3 digits is no Spit position (and a
    5,000-digit one is not even turned into a number)."""
    if len(text) > 3:
        raise InputError("spit.number_too_big", where=where, number=shortened(text))
    return int(text)


def _index(text: str, count: int, what: str) -> int:
    value = _small_number(text, phrase(f"spit.{what}"))
    if not 1 <= value <= count:
        raise InputError("spit.no_such_place", what=phrase(f"spit.{what}"), n=value, count=count)
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
    raise InputError("spit.move_unreadable", move=shortened(text))


def move_to_json(state: SpitState, move: Move | CardPlay | CardShift, lang: str) -> dict[str, Any]:
    data: dict[str, Any] = {
        "kind": type(move).__name__.lower(),
        "text": describe_move(state, move, lang),
    }
    if isinstance(move, Play | Shift):
        source = move.stock if isinstance(move, Play) else move.source
        data["card"] = str(state.players[move.player].stocks[source].cards[-1])
    if isinstance(move, CardPlay | CardShift):
        data["card"] = str(move.card)
    for field in ("player", "stock", "source", "target", "pile"):
        value = getattr(move, field, None)
        if value is not None:
            data[field] = value + 1
    return data


def ruling_to_json(ruling: Ruling, lang: str) -> dict[str, Any]:
    state = ruling.state
    data: dict[str, Any] = {
        "rules": state.rules.name,
        "situation": ruling.situation.value,
        "stuck": ruling.situation.value
        in ("both_spit", "spit_alone", "flip_side", "recycle", "stuck_no_spit"),
        "plays": {
            f"p{p + 1}": [move_to_json(state, move, lang) for move in moves]
            for p, moves in enumerate(ruling.plays)
        },
        "joint": [move_to_json(state, move, lang) for move in ruling.joint],
        "lines": explain(ruling, lang),
    }
    if ruling.verdict is not None:
        error = ruling.verdict.error
        data["move"] = {
            **move_to_json(state, ruling.verdict.move, lang),
            "legal": error is None,
            "rule": None if error is None else error.rule,
            "reason": None if error is None else error.message(lang),
        }
    return data

"""Spit in players' words, in English and French: moves, stalemates and rulings.

>>> from companion.engine.cards import parse_card as c
>>> from companion.engine.spit import VARIANTS
>>> from companion.engine.spit.referee import CardPlay, PileView, referee, typed_position
>>> state = typed_position(
...     VARIANTS["classic"],
...     piles=(PileView(c("7h")), PileView(c("Kc"))),
...     stocks=((PileView(c("8d")), PileView(c("2s"))), (PileView(c("5c")),)),
...     spit_left=(3, 3),
... )
>>> explain(referee(state, CardPlay(1, c("5c"), 0)), "en")[-1]
'player 2: 5♣ → pile 1 is illegal: 5♣ is not one rank above or below 7♥'
"""

from __future__ import annotations

from companion.engine.spit import Move, Phase, Play, Shift, Spit, SpitState, Take, Turn
from companion.engine.spit.referee import CardPlay, CardShift, Ruling, Situation
from companion.engine.spit.rules import lone_pile, lone_taker, pile_chooser
from companion.messages import text

__all__ = ["describe_move", "explain"]


def describe_move(state: SpitState, move: Move | CardPlay | CardShift, lang: str = "en") -> str:
    """A move in players' words, e.g. ``player 1: 8♦ → pile 1 (on 7♥)``."""

    def player(n: int) -> str:
        return text("words.spit.player", lang, n=n + 1)

    def pile(n: int) -> str:
        return text("words.spit.pile", lang, n=n + 1)

    def stock(n: int) -> str:
        return text("words.spit.stock", lang, n=n + 1)

    if isinstance(move, CardPlay):
        return text(
            "words.spit.card_play",
            lang,
            player=player(move.player),
            card=move.card.pretty(),
            pile=pile(move.pile),
        )
    if isinstance(move, CardShift):
        return text(
            "words.spit.card_shift",
            lang,
            player=player(move.player),
            card=move.card.pretty(),
            target=stock(move.target),
        )
    if isinstance(move, Play):
        card = state.players[move.player].stocks[move.stock].cards[-1]
        centre = state.piles[move.pile]
        on = centre[-1].pretty() if centre else "—"
        return text(
            "words.spit.play",
            lang,
            player=player(move.player),
            card=card.pretty(),
            pile=pile(move.pile),
            on=on,
        )
    if isinstance(move, Turn):
        return text("words.spit.turn", lang, player=player(move.player), stock=stock(move.stock))
    if isinstance(move, Shift):
        card = state.players[move.player].stocks[move.source].cards[-1]
        return text(
            "words.spit.shift",
            lang,
            player=player(move.player),
            card=card.pretty(),
            stock=stock(move.source),
            target=stock(move.target),
        )
    if isinstance(move, Spit):
        if state.rules.speed:
            return text("words.spit.flip", lang)
        spitters = [p for p in (0, 1) if state.players[p].spit]
        if move.pile is None or len(spitters) != 1:
            return text("words.spit.spit", lang)
        return text("words.spit.spit_alone", lang, player=player(spitters[0]), pile=pile(move.pile))
    if isinstance(move, Take):
        return text("words.spit.take", lang, player=player(move.player), pile=pile(move.pile))
    return str(move)


def _taking(state: SpitState, lang: str) -> str:
    """Who takes which pile at the end of a round: the rules' lone pile, the chooser, the slap."""

    def player(n: int) -> str:
        return text("words.spit.player", lang, n=n + 1)

    lone, taker, chooser = lone_pile(state), lone_taker(state), pile_chooser(state)
    if lone is not None:
        pile = text("words.spit.pile", lang, n=lone + 1)
        if taker is not None:
            return text(
                "words.spit.lone_pile",
                lang,
                emptier=player(1 - taker),
                player=player(taker),
                pile=pile,
            )
        return text("words.spit.slap_lone", lang, pile=pile)
    if chooser is not None:
        return text("words.spit.chooser", lang, player=player(chooser))
    return text("words.spit.slap", lang)


def explain(ruling: Ruling, lang: str = "en") -> list[str]:
    """The ruling as lines of text for players."""
    state = ruling.state
    lines: list[str] = []
    if ruling.situation is Situation.PLAY:
        for player, moves in enumerate(ruling.plays):
            name = text("words.spit.player", lang, n=player + 1)
            if not moves:
                lines.append(text("words.spit.nothing", lang, player=name))
            lines.extend(describe_move(state, move, lang) for move in moves)
    else:
        who = state.winner if state.emptied is None else state.emptied
        if ruling.situation is Situation.SPIT_ALONE:
            who = next(p for p in (0, 1) if state.players[p].spit)
        name = text("words.spit.player", lang, n=(who or 0) + 1)
        lines.append(text(f"words.spit.situation.{ruling.situation.value}", lang, player=name))
        if state.phase is Phase.TAKE:
            lines.append(_taking(state, lang))
        if ruling.situation not in (Situation.BOTH_SPIT, Situation.FLIP_SIDE):
            lines.extend(describe_move(state, move, lang) for move in ruling.joint)
    if ruling.verdict is not None:
        said = describe_move(state, ruling.verdict.move, lang)
        error = ruling.verdict.error
        if error is None:
            lines.append(text("words.spit.legal", lang, move=said))
        else:
            detail = error.reason.text(lang)
            lines.append(text("words.spit.illegal", lang, move=said, detail=detail))
    return lines

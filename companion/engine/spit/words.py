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

from companion.engine.spit import Move, Phase, PileChoice, Play, Shift, Spit, SpitState, Take, Turn
from companion.engine.spit.referee import CardPlay, CardShift, Ruling, Situation

__all__ = ["describe_move", "explain"]


_WORDS = {
    "en": {
        "player": "player {n}",
        "stock": "stock {n}",
        "pile": "pile {n}",
        "play": "{player}: {card} → {pile} (on {on})",
        "turn": "{player}: turn up {stock}",
        "shift": "{player}: move {card} from {stock} to the empty {target}",
        "spit": "both spit",
        "spit_alone": "{player} spits alone on {pile}",
        "take": "{player} takes {pile}",
        "card_play": "{player}: {card} → {pile}",
        "card_shift": "{player}: {card} → empty {target}",
        "flip": "flip the side piles",
        Situation.BOTH_SPIT: "stuck: both spit",
        Situation.SPIT_ALONE: "stuck: {player} spits alone",
        Situation.FLIP_SIDE: "stuck: flip the side piles onto the centre",
        Situation.RECYCLE: "stuck with no side cards: shuffle the centre into new side piles",
        Situation.NO_SPIT: "stuck with no spit cards left: take the spit piles and lay out again",
        Situation.ROUND_OVER: "{player} emptied their stock: take the spit piles and lay out again",
        Situation.GAME_OVER: "{player} has no cards left and wins",
        "slap": "slap either pile (the smaller is the better slap): the faster hand takes it, "
        "on a tie the lower hand, and the other player takes the other pile",
        "chooser": "{player} chooses a pile",
        "nothing": "{player}: nothing to play",
        "legal": "{move} is legal",
        "illegal": "{move} is illegal: {detail}",
    },
    "fr": {
        "player": "joueur {n}",
        "stock": "réserve {n}",
        "pile": "tas {n}",
        "play": "{player} : {card} → {pile} (sur {on})",
        "turn": "{player} : retourner la {stock}",
        "shift": "{player} : déplacer {card} de la {stock} vers la {target} vide",
        "spit": "les deux crachent",
        "spit_alone": "le {player} crache seul sur le {pile}",
        "take": "le {player} prend le {pile}",
        "card_play": "{player} : {card} → {pile}",
        "card_shift": "{player} : {card} → {target} vide",
        "flip": "retourner les piles de côté",
        Situation.BOTH_SPIT: "bloqués : les deux crachent",
        Situation.SPIT_ALONE: "bloqués : le {player} crache seul",
        Situation.FLIP_SIDE: "bloqués : retournez les piles de côté au centre",
        Situation.RECYCLE: "bloqués, piles de côté vides : mélangez le centre en piles de côté",
        Situation.NO_SPIT: "bloqués sans cartes à cracher : prenez les tas centraux et "
        "étalez de nouveau",
        Situation.ROUND_OVER: "le {player} a vidé sa réserve : prenez les tas centraux et "
        "étalez de nouveau",
        Situation.GAME_OVER: "le {player} n'a plus de cartes et gagne",
        "slap": "tapez sur l'un des tas (le plus petit est le meilleur choix) : la main la plus "
        "rapide le prend, à égalité la main du dessous, et l'autre joueur prend l'autre tas",
        "chooser": "le {player} choisit un tas",
        "nothing": "{player} : rien à jouer",
        "legal": "{move} est permis",
        "illegal": "{move} est interdit : {detail}",
    },
}


def _words(lang: str) -> dict[object, str]:
    return _WORDS.get(lang, _WORDS["en"])


def describe_move(state: SpitState, move: Move | CardPlay | CardShift, lang: str = "en") -> str:
    """A move in players' words, e.g. ``player 1: 8♦ → pile 1 (on 7♥)``."""
    w = _words(lang)

    def player(n: int) -> str:
        return w["player"].format(n=n + 1)

    def pile(n: int) -> str:
        return w["pile"].format(n=n + 1)

    def stock(n: int) -> str:
        return w["stock"].format(n=n + 1)

    if isinstance(move, CardPlay):
        return w["card_play"].format(
            player=player(move.player), card=move.card.pretty(), pile=pile(move.pile)
        )
    if isinstance(move, CardShift):
        return w["card_shift"].format(
            player=player(move.player), card=move.card.pretty(), target=stock(move.target)
        )
    if isinstance(move, Play):
        card = state.players[move.player].stocks[move.stock].cards[-1]
        centre = state.piles[move.pile]
        on = centre[-1].pretty() if centre else "—"
        return w["play"].format(
            player=player(move.player), card=card.pretty(), pile=pile(move.pile), on=on
        )
    if isinstance(move, Turn):
        return w["turn"].format(player=player(move.player), stock=stock(move.stock))
    if isinstance(move, Shift):
        card = state.players[move.player].stocks[move.source].cards[-1]
        return w["shift"].format(
            player=player(move.player),
            card=card.pretty(),
            stock=stock(move.source),
            target=stock(move.target),
        )
    if isinstance(move, Spit):
        if state.rules.speed:
            return w["flip"]
        spitters = [p for p in (0, 1) if state.players[p].spit]
        if move.pile is None or len(spitters) != 1:
            return w["spit"]
        return w["spit_alone"].format(player=player(spitters[0]), pile=pile(move.pile))
    if isinstance(move, Take):
        return w["take"].format(player=player(move.player), pile=pile(move.pile))
    return str(move)


def explain(ruling: Ruling, lang: str = "en") -> list[str]:
    """The ruling as lines of text for players."""
    w = _words(lang)
    state = ruling.state
    lines: list[str] = []
    if ruling.situation is Situation.PLAY:
        for player, moves in enumerate(ruling.plays):
            name = w["player"].format(n=player + 1)
            if not moves:
                lines.append(w["nothing"].format(player=name))
            lines.extend(describe_move(state, move, lang) for move in moves)
    else:
        who = state.winner if state.emptied is None else state.emptied
        if ruling.situation is Situation.SPIT_ALONE:
            who = next(p for p in (0, 1) if state.players[p].spit)
        name = w["player"].format(n=(who or 0) + 1)
        lines.append(w[ruling.situation].format(player=name))
        if state.phase is Phase.TAKE:
            chooser = state.emptied if state.rules.pile_choice is PileChoice.CHOOSER else None
            if chooser is None:
                lines.append(w["slap"])
            else:
                lines.append(w["chooser"].format(player=w["player"].format(n=chooser + 1)))
        if ruling.situation not in (Situation.BOTH_SPIT, Situation.FLIP_SIDE):
            lines.extend(describe_move(state, move, lang) for move in ruling.joint)
    if ruling.verdict is not None:
        text = describe_move(state, ruling.verdict.move, lang)
        error = ruling.verdict.error
        if error is None:
            lines.append(w["legal"].format(move=text))
        else:
            detail = error.reason.text(lang)
            lines.append(w["illegal"].format(move=text, detail=detail))
    return lines

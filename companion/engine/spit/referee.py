"""The Spit referee: from what the players can see, the legal plays, a stalemate, or a broken rule.

A typed position gives only what lies face up on the table: the two spit pile tops, each
player's stock tops (or a face-down top, or an empty space) and how many spit cards each has
left. Cards nobody can see are stood in for by ``HIDDEN``; a pile's size matters only for the
slap (the smaller pile) and for uncovering a card, so it defaults to one card.

>>> from companion.engine.cards import parse_card as c
>>> state = typed_position(
...     VARIANTS["classic"],
...     piles=(PileView(c("7h")), PileView(c("Kc"))),
...     stocks=((PileView(c("8d")), PileView(c("2s"))), (PileView(c("5c")),)),
...     spit_left=(3, 3),
... )
>>> ruling = referee(state, CardPlay(1, c("5c"), 0))
>>> explain(ruling, "en")[-1]
'player 2: 5♣ → pile 1 is illegal (rank_not_adjacent): 5♣ is not one rank above or below 7♥'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

from companion.engine.cards import Card, check_duplicates
from companion.engine.spit import (
    HIDDEN,
    VARIANTS,
    Move,
    Phase,
    PileChoice,
    Play,
    PlayerSide,
    Shift,
    Spit,
    SpitRules,
    SpitState,
    Stock,
    Take,
    Turn,
    check_move,
    is_stuck,
    legal_moves,
    settle,
)
from companion.errors import IllegalMoveError, TableError

__all__ = [
    "PileView",
    "CardPlay",
    "CardShift",
    "Situation",
    "Verdict",
    "Ruling",
    "typed_position",
    "resolve",
    "referee",
    "describe_move",
    "explain",
    "VARIANTS",
]


@dataclass(frozen=True, slots=True)
class PileView:
    """A pile as seen on the table: its face-up top (None: face down, or empty when size is 0)."""

    top: Card | None
    size: int = 1


EMPTY = PileView(None, 0)


@dataclass(frozen=True, slots=True)
class CardPlay:
    """A disputed play named by its card, as players say it: "player 1 plays 8♦ on pile 1"."""

    player: int
    card: Card
    pile: int


@dataclass(frozen=True, slots=True)
class CardShift:
    """A disputed move of a face-up card to an empty stock space."""

    player: int
    card: Card
    target: int


class Situation(Enum):
    PLAY = "play"
    BOTH_SPIT = "both_spit"
    SPIT_ALONE = "spit_alone"
    FLIP_SIDE = "flip_side"  # Speed: flip the side piles
    RECYCLE = "recycle"  # Speed: shuffle the centre into new side piles
    NO_SPIT = "stuck_no_spit"  # stuck with no spit cards: take the piles, lay out again
    ROUND_OVER = "round_over"  # a stock was emptied: take the piles, lay out again
    GAME_OVER = "game_over"


@dataclass(frozen=True, slots=True)
class Verdict:
    """The ruling on a disputed move: legal, or the rule it breaks."""

    move: Move | CardPlay | CardShift
    error: IllegalMoveError | None

    @property
    def legal(self) -> bool:
        return self.error is None


@dataclass(frozen=True, slots=True)
class Ruling:
    state: SpitState
    situation: Situation
    plays: tuple[tuple[Move, ...], tuple[Move, ...]]  # each player's own moves
    joint: tuple[Move, ...]  # spits and pile takings
    verdict: Verdict | None = None


def _stock(view: PileView, where: str) -> Stock:
    if view.size < 0 or (view.top is not None and view.size < 1):
        raise TableError(
            f"{where}: a pile cannot hold {view.size} cards",
            f"{where} : une pile ne peut pas contenir {view.size} cartes",
        )
    if view.size == 0:
        return Stock()
    if view.top is None:
        return Stock((HIDDEN,) * view.size, False)
    return Stock((HIDDEN,) * (view.size - 1) + (view.top,), True)


def typed_position(
    rules: SpitRules,
    piles: tuple[PileView, PileView],
    stocks: tuple[Sequence[PileView], Sequence[PileView]],
    spit_left: tuple[int, int],
    live: int | None = None,
    side_left: tuple[int, int] = (0, 0),
) -> SpitState:
    """A position typed by hand (Speed: ``stocks`` are the hands, ``spit_left`` the draw piles)."""
    seen: dict[str, list[Card]] = {}
    for i, view in enumerate(piles):
        seen[f"pile {i + 1}"] = [] if view.top is None else [view.top]
    for player, views in enumerate(stocks):
        if len(views) > rules.stock_piles:
            raise TableError(
                f"player {player + 1} has {len(views)} stock piles; {rules.name} allows "
                f"{rules.stock_piles}",
                f"le joueur {player + 1} a {len(views)} piles de réserve ; {rules.name} en permet "
                f"{rules.stock_piles}",
            )
        seen[f"player {player + 1}"] = [view.top for view in views if view.top is not None]
    for place, cards in seen.items():
        for card in cards:
            if card.is_wild:
                raise TableError(
                    f"{place}: Spit is played without wild cards ({card.pretty()})",
                    f"{place} : le Spit se joue sans joker ({card.pretty()})",
                )
    check_duplicates(seen)
    if min(spit_left + side_left) < 0:
        raise TableError("a count of cards cannot be negative", "un nombre de cartes est positif")
    if live is not None and live not in (0, 1):
        raise TableError(f"there is no pile {live + 1}", f"il n'y a pas de tas {live + 1}")
    sides = []
    for player in (0, 1):
        views = list(stocks[player]) + [EMPTY] * (rules.stock_piles - len(stocks[player]))
        where = f"player {player + 1}"
        stock = tuple(_stock(view, where) for view in views)
        sides.append(PlayerSide(stock, (HIDDEN,) * spit_left[player]))
    centre = tuple(_stock(view, f"pile {i + 1}").cards for i, view in enumerate(piles))
    side_piles = ((HIDDEN,) * side_left[0], (HIDDEN,) * side_left[1])
    state = SpitState(
        rules, (sides[0], sides[1]), (centre[0], centre[1]), live=live, side_piles=side_piles
    )
    return settle(state)


def resolve(state: SpitState, move: Move | CardPlay | CardShift) -> Move:
    """Turn a move named by its card into the engine's move; raise when the card is not there."""
    if not isinstance(move, CardPlay | CardShift):
        return move
    if move.player not in (0, 1):
        raise IllegalMoveError(
            "no_such_player", f"there is no player {move.player + 1}", "ce joueur n'existe pas"
        )
    for index, stock in enumerate(state.players[move.player].stocks):
        if stock.top == move.card:
            if isinstance(move, CardPlay):
                return Play(move.player, index, move.pile)
            return Shift(move.player, index, move.target)
    card, n = move.card.pretty(), move.player + 1
    if state.rules.speed:
        raise IllegalMoveError(
            "not_in_hand",
            f"{card} is not in player {n}'s hand",
            f"{card} n'est pas dans la main du joueur {n}",
        )
    raise IllegalMoveError(
        "not_a_stock_top",
        f"{card} is not face up on top of player {n}'s stock",
        f"{card} n'est pas face visible sur une réserve du joueur {n}",
    )


def _situation(state: SpitState) -> Situation:
    if state.phase is Phase.OVER:
        return Situation.GAME_OVER
    if state.phase in (Phase.TAKE, Phase.DEAL):
        return Situation.NO_SPIT if state.emptied is None else Situation.ROUND_OVER
    if state.phase is Phase.RECYCLE:
        return Situation.RECYCLE
    if not is_stuck(state):
        return Situation.PLAY
    if state.rules.speed:
        return Situation.FLIP_SIDE
    spitters = sum(1 for side in state.players if side.spit)
    return Situation.BOTH_SPIT if spitters == 2 else Situation.SPIT_ALONE


def referee(state: SpitState, disputed: Move | CardPlay | CardShift | None = None) -> Ruling:
    """Rule on a position: who may do what, whether both must spit, and the disputed move."""
    plays = (legal_moves(state, 0), legal_moves(state, 1))
    joint = tuple(move for move in legal_moves(state) if isinstance(move, Spit | Take))
    verdict = None
    if disputed is not None:
        try:
            check_move(state, resolve(state, disputed))
            verdict = Verdict(disputed, None)
        except IllegalMoveError as error:
            verdict = Verdict(disputed, error)
    return Ruling(state, _situation(state), plays, joint, verdict)


# ---------------------------------------------------------------------------------------------
# Words


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
        "slap": "the faster slap takes the smaller pile (on a tie of hands, the lower hand)",
        "chooser": "{player} chooses a pile",
        "nothing": "{player}: nothing to play",
        "legal": "{move} is legal",
        "illegal": "{move} is illegal ({rule}): {detail}",
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
        "slap": "la main la plus rapide prend le plus petit tas (à égalité, la main du dessous)",
        "chooser": "le {player} choisit un tas",
        "nothing": "{player} : rien à jouer",
        "legal": "{move} est permis",
        "illegal": "{move} est interdit ({rule}) : {detail}",
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
            detail = error.params["detail_fr" if lang == "fr" else "detail"]
            lines.append(w["illegal"].format(move=text, rule=error.rule, detail=detail))
    return lines

"""How a street's tokens move, under the table's token rule: the base rule, LSD, Kcarc or Crack.

One street at a time: only its own colour moves (Crack: "seuls les jetons de l'étape actuelle
sont déplaçables"), all its tokens start in the centre, and a hand holds at most one of them
(Gang: "Chaque joueur ne peut avoir qu'un jeton par couleur"). The rules:

- base (Gang, "Actions autorisées"): take a token from the centre or from another hand, or put
  back the one you hold;
- LSD (Crack): a token once taken can be neither put back nor taken from its holder, so the
  only move is taking one from the centre;
- Kcarc (Crack): the only moves are putting your own token back, or taking one from the centre
  and giving it to another player (never to yourself);
- Crack ("Règles d'échange des jetons"): taking anyone's token (one's own included) and putting
  it in the centre, or taking one from the centre for oneself when holding none; so a token
  never passes straight from one hand to another.

``check_moves`` follows a sequence of moves and stops at the first illegal one, saying why.

>>> moves = (TokenMove("Ana", MoveKind.TAKE, 1), TokenMove("Bob", MoveKind.TAKE_FROM, 1, "Ana"))
>>> check_moves(TokenRule.BASE, ("Ana", "Bob"), moves).holdings
{'Bob': 1}
>>> check_moves(TokenRule.LSD, ("Ana", "Bob"), moves).problem.index
1
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import Enum

from companion.errors import shortened
from companion.messages import Phrase, phrase

__all__ = ["TokenRule", "MoveKind", "TokenMove", "TokenProblem", "StreetTokens", "check_moves"]


class TokenRule(Enum):
    """The table's rule for moving tokens during a street."""

    BASE = "base"
    LSD = "lsd"
    KCARC = "kcarc"
    CRACK = "crack"

    @property
    def name_phrase(self) -> Phrase:
        return phrase(f"token_rule.{self.value}")

    @property
    def explanation(self) -> Phrase:
        """The rule in one sentence, for the table's setup and the docs."""
        return phrase(f"token_rule.{self.value}.explain")


class MoveKind(Enum):
    TAKE = "take"  # from the centre, for oneself
    TAKE_FROM = "take_from"  # from another hand, for oneself
    PUT_BACK = "put_back"  # a held token into the centre: one's own (under Crack: anyone's)
    GIVE = "give"  # from the centre, to another player


# Which moves each rule allows at all; the others are refused before looking at the tokens.
_ALLOWED = {
    TokenRule.BASE: frozenset({MoveKind.TAKE, MoveKind.TAKE_FROM, MoveKind.PUT_BACK}),
    TokenRule.LSD: frozenset({MoveKind.TAKE}),
    TokenRule.KCARC: frozenset({MoveKind.PUT_BACK, MoveKind.GIVE}),
    TokenRule.CRACK: frozenset({MoveKind.TAKE, MoveKind.PUT_BACK}),
}


@dataclass(frozen=True)
class TokenMove:
    """One move: ``by`` acts on ``token``; ``other`` is the hand taken from (``TAKE_FROM``) or
    given to (``GIVE``)."""

    by: str
    kind: MoveKind
    token: int
    other: str | None = None

    @property
    def phrase(self) -> Phrase:
        # A name that is no hand may be anything pasted: the message repeats only its start.
        other = shortened(self.other) if self.other is not None else None
        return phrase(
            f"token_move.{self.kind.value}", by=shortened(self.by), token=self.token, other=other
        )


@dataclass(frozen=True)
class TokenProblem:
    """The first illegal move: its place in the sequence (0-based), the move and why."""

    index: int
    move: TokenMove
    reason: Phrase
    rule: TokenRule

    @property
    def phrase(self) -> Phrase:
        return phrase(
            "token_move.illegal",
            n=self.index + 1,
            move=self.move.phrase,
            rule=self.rule.name_phrase,
            reason=self.reason,
        )


@dataclass(frozen=True)
class StreetTokens:
    """Where a street's tokens lie after its legal moves: ``where`` maps each token (1..n) to
    the hand holding it, or None in the centre; ``problem`` is the first illegal move, if any
    (the moves after it are not played)."""

    where: Mapping[int, str | None]
    problem: TokenProblem | None

    @property
    def holdings(self) -> dict[str, int]:
        """Each hand holding a token, and which."""
        return {hand: token for token, hand in sorted(self.where.items()) if hand is not None}

    @property
    def centre(self) -> tuple[int, ...]:
        """The tokens still in the centre, lowest first."""
        return tuple(sorted(token for token, hand in self.where.items() if hand is None))

    @property
    def finished(self) -> bool:
        """Every token is held: the street may end (a table may still move them before it does)."""
        return not self.centre


def _why(key: str, **params: object) -> Phrase:
    return phrase(f"token_why.{key}", **params)


def _reason(
    rule: TokenRule,
    move: TokenMove,
    where: Mapping[int, str | None],
    hands: Sequence[str],
    owners: Mapping[str, str],
) -> Phrase | None:
    """Why ``move`` is illegal from ``where``, or None when it is legal."""
    names = [move.by] + ([move.other] if move.other is not None else [])
    for hand in names:
        if hand not in owners:
            return _why("unknown_hand", hand=shortened(hand), hands=tuple(hands))
    if move.token not in where:
        return _why("no_token", token=move.token, n=len(where))
    if move.kind not in _ALLOWED[rule]:
        return _why(f"{rule.value}.{move.kind.value}")
    holder = where[move.token]
    held = {hand: token for token, hand in where.items() if hand is not None}
    if move.kind is MoveKind.PUT_BACK:
        if rule is TokenRule.CRACK:  # "prendre un jeton (de n'importe qui) et le mettre au centre"
            return None if holder is not None else _why("in_centre", token=move.token)
        return None if holder == move.by else _why("not_yours", by=move.by, token=move.token)
    taker = move.other if move.kind is MoveKind.GIVE else move.by
    assert taker is not None  # GIVE's receiver was checked above
    if move.kind is MoveKind.TAKE_FROM:
        if move.other == move.by:
            return _why("from_self", by=move.by)
        if holder != move.other:
            return _why("not_held_by", other=move.other, token=move.token)
    elif holder is not None:
        return _why("not_in_centre", token=move.token, holder=holder)
    if move.kind is MoveKind.GIVE and owners[taker] == owners[move.by]:
        return _why("give_self", by=move.by)
    if taker in held:
        return _why("already_holds", hand=taker, held=held[taker])
    return None


def check_moves(
    rule: TokenRule,
    hands: Sequence[str],
    moves: Sequence[TokenMove],
    owners: Mapping[str, str] | None = None,
    tokens: int | None = None,
) -> StreetTokens:
    """Play ``moves`` from a centre holding tokens 1 to ``tokens`` (default: one per hand) and
    stop at the first illegal one. ``owners`` maps each hand to its player (default: itself),
    so that Kcarc's "another player" skips a player's other hands."""
    owned = {hand: hand for hand in hands} if owners is None else dict(owners)
    count = len(hands) if tokens is None else tokens
    where: dict[int, str | None] = {token: None for token in range(1, count + 1)}
    for index, move in enumerate(moves):
        reason = _reason(rule, move, where, hands, owned)
        if reason is not None:
            return StreetTokens(dict(where), TokenProblem(index, move, reason, rule))
        if move.kind is MoveKind.PUT_BACK:
            where[move.token] = None
        elif move.kind is MoveKind.GIVE:
            where[move.token] = move.other
        else:
            where[move.token] = move.by
    return StreetTokens(dict(where), None)

"""The rules engine: pure functions over immutable card values, one subpackage per game.

- ``cards``: cards as values, and the one place text becomes cards;
- ``gang``: The Gang (hand ranking under every table rule, the house variants as data, the
  showdown and its words) and ``gang.replay`` (a heist street by street);
- ``cribbage``: show, pegging and discard scores, the game to 121, their words;
- ``spit``: the position, legal moves, the referee, self-play, their words.

It imports nothing from vision, ui or storage. This package names the most used values.
"""

from __future__ import annotations

from companion.engine.cards import (
    DECK,
    Card,
    Rank,
    Suit,
    check_duplicates,
    format_cards,
    parse_card,
    parse_cards,
)
from companion.engine.cribbage.discard import advise_discard
from companion.engine.cribbage.score import score_heels, score_peg, score_show
from companion.engine.gang.batch_values import evaluate_many
from companion.engine.gang.ranking import (
    Category,
    HandValue,
    Ranking,
    Straights,
    TableRules,
    best_hand,
    rank_five,
)
from companion.engine.gang.showdown import (
    Showdown,
    Verdict,
    form_hands,
    judge,
    order_hands,
    run_showdown,
)
from companion.engine.gang.table import Hand, Player, SharedHand, Table
from companion.engine.gang.variants import VARIANTS
from companion.engine.gang.words import describe, explain_win

__all__ = [
    "DECK",
    "VARIANTS",
    "Card",
    "Category",
    "Hand",
    "HandValue",
    "Player",
    "Rank",
    "Ranking",
    "SharedHand",
    "Showdown",
    "Straights",
    "Suit",
    "Table",
    "TableRules",
    "Verdict",
    "advise_discard",
    "best_hand",
    "check_duplicates",
    "describe",
    "evaluate_many",
    "explain_win",
    "form_hands",
    "format_cards",
    "judge",
    "order_hands",
    "parse_card",
    "parse_cards",
    "rank_five",
    "run_showdown",
    "score_heels",
    "score_peg",
    "score_show",
]

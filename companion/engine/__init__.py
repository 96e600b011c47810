"""The rules engine: pure functions over immutable card values, one subpackage per game.

- ``cards``: cards as values, and the one place text becomes cards;
- ``gang``: The Gang (hand ranking under every table rule, the house variants as data, the
  showdown and its words) and ``gang.replay`` (a heist street by street);
- ``cribbage``: show, pegging and discard scores, the game to 121, their words;
- ``spit``: the position, legal moves, the referee, self-play, their words.

It imports nothing from vision, ui or storage. This package names only what a Python user needs
to rank hands and judge a showdown; everything else is imported from its own module.

- ``parse_cards(text)``: the cards of ``"As Kd 7h"`` (a ``CardParseError`` names a bad one);
  ``Card``: one card, a frozen value.
- ``best_hand(hole, board, rules)``: the best five of the cards as a ``HandValue``, which
  compares as hands do (greater is stronger, equal is a tie); ``TableRules``: the table's
  ranking (high, or lowball A-5 or 2-7), straights rule and number of decks, standard poker
  when left out.
- ``describe(value, lang)``: a ``HandValue`` in words, in English (``"en"``) or French (``"fr"``).
- ``Table``: the players (``Player``: a name, hole cards) and the board;
  ``run_showdown(table, tokens)``: the ``Showdown``, its hands in the correct token order
  (weakest first) and, given each hand's token, the vault's verdict.

>>> from companion.engine import Player, Table, best_hand, describe, parse_cards, run_showdown
>>> board = parse_cards("Kh Kd 7c 2s 9h")
>>> describe(best_hand(parse_cards("As Ad"), board))
'two pair, aces and kings'
>>> ana, bob = Player("Ana", parse_cards("As Ad")), Player("Bob", parse_cards("Qc Jc"))
>>> table = Table(players=(ana, bob), board=board)
>>> showdown = run_showdown(table, tokens={"Ana": 1, "Bob": 2})
>>> showdown.order
(('Bob',), ('Ana',))
>>> showdown.verdict.opens
False
>>> showdown.verdict.failures[0].reason()
"Ana's two pair, aces and kings, beats Bob's pair of kings: two pair beats pair"
"""

from __future__ import annotations

from companion.engine.cards import Card, parse_cards
from companion.engine.gang.ranking import HandValue, TableRules, best_hand
from companion.engine.gang.showdown import Showdown, run_showdown
from companion.engine.gang.table import Player, Table
from companion.engine.gang.words import describe

__all__ = [
    "Card",
    "HandValue",
    "Player",
    "Showdown",
    "Table",
    "TableRules",
    "best_hand",
    "describe",
    "parse_cards",
    "run_showdown",
]

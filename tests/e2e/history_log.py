"""A game log of many nights for History's pictures, saved through the app's own save path.

Each heist is a real deal judged by the engine (``heist_draft``, as the Showdown screen saves
it); the players have habits the figures should show: Ana over-claims (her token often one too
high), Bob under-claims, Chloé is mostly right, Dan sits out one heist in three. Every fifth
night is four-two-hands (two hands each, each its own token), every third night is played under
LSD, and one heist in four recorded its tokens pre-flop too (the street table).
"""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

from companion.engine.cards import DECK
from companion.engine.gang.showdown import run_showdown
from companion.formats.table import table_from_json
from companion.storage import SqliteGameLog
from companion.storage.model import thaw
from companion.ui.showdown.actions import heist_draft

__all__ = ["PLAYERS", "seed_nights"]

PLAYERS = ("Ana", "Bob", "Chloé", "Dan")


def _tokens(order: list[str], owners: dict[str, str], rng: random.Random) -> dict[str, int]:
    """The right tokens (``order``, weakest first), then each player's habit applied."""
    hands = list(order)
    for i in range(len(hands) - 1):
        owner = owners[hands[i]]
        if owner == "Ana" and rng.random() < 0.5 or owner == "Bob" and rng.random() < 0.15:
            hands[i], hands[i + 1] = hands[i + 1], hands[i]  # Ana's token one too high
    for i in range(len(hands) - 1, 0, -1):
        if owners[hands[i]] == "Bob" and rng.random() < 0.45:
            hands[i], hands[i - 1] = hands[i - 1], hands[i]  # Bob's one too low
    return {hand: n for n, hand in enumerate(hands, start=1)}


def _deal(night: int, heist: int, rng: random.Random) -> dict[str, object]:
    four_two = night % 5 == 4
    seated = [p for p in PLAYERS if not (p == "Dan" and heist % 3 == 2)]
    cards = [str(c) for c in rng.sample(DECK, 5 + len(seated) * (4 if four_two else 2))]
    held = 4 if four_two else 2
    deal: dict[str, object] = {
        "variant": "four-two-hands" if four_two else "classic",
        "board": cards[:5],
        "players": [
            {"name": p, "cards": cards[5 + i * held : 5 + (i + 1) * held]}
            for i, p in enumerate(seated)
        ],
    }
    if night % 3 == 2:
        deal["rules"] = {"tokens": "lsd"}
    return deal


def seed_nights(data: Path, nights: int, seed: int = 56) -> None:
    """``nights`` finished nights (3 vaults or 3 alarms each) in the log of folder ``data``."""
    rng = random.Random(seed)
    with SqliteGameLog.in_folder(data) as log:
        for n in range(nights):
            variant = "four-two-hands" if n % 5 == 4 else "classic"
            rules = {"tokens": "lsd"} if n % 3 == 2 else {}
            night = log.start_night(PLAYERS, variant, rules=rules)
            heist = 0
            while not log.night_status(night.id).finished:
                table = table_from_json(_deal(n, heist, rng))
                hands = run_showdown(table).hands
                order = [h for group in run_showdown(table).order for h in group]
                tokens = _tokens(order, {h.id: h.owner for h in hands}, rng)
                draft = heist_draft(table, tokens, run_showdown(table, tokens), None)
                if heist % 4 == 1 and draft.deal is not None:
                    street = {**thaw(draft.deal), "tokens_by_street": {"preflop": tokens}}
                    draft = replace(draft, deal=street)
                log.save_heist(night.id, draft)
                heist += 1

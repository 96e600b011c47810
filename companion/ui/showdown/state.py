"""The Showdown screen's state: players, river, hands, the card picked for a fix, and tokens.

Plain frozen dataclasses, no Flet: every change returns a new value.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from companion.engine.gang.showdown import Showdown, run_showdown
from companion.engine.gang.variants import VARIANTS
from companion.formats.table import table_from_json
from companion.ui.cards import is_card, split_cards
from companion.ui.text import t

__all__ = [
    "RIVER",
    "RIVER2",
    "UI_VARIANTS",
    "MAX_PLAYERS",
    "Rules",
    "Problem",
    "ShowdownState",
]


RIVER = -1  # the river's place; hands are places 0..n-1, in seating order

RIVER2 = -2  # the second river, when the table plays two

# The rivers in a problem's parameters, named later in the reader's language.
RIVER_NAME = "\x00river"

RIVER2_NAME = "\x00river2"

UI_VARIANTS = tuple(VARIANTS)

DEFAULT_PLAYERS = 3

MAX_PLAYERS = 10

@dataclass(frozen=True)
class Rules:
    """Table rules as the engine's JSON table reads them."""

    ranking: str = "high"
    straights: str = "normal"
    decks: int = 1

    def to_json(self) -> dict[str, Any]:
        return {"ranking": self.ranking, "straights": self.straights, "decks": self.decks}

    @classmethod
    def from_json(cls, raw: Any) -> Rules:
        raw = dict(raw or {})
        return cls(
            str(raw.get("ranking", "high")),
            str(raw.get("straights", "normal")),
            int(raw.get("decks", 1)),
        )

@dataclass(frozen=True)
class Problem:
    """Something to fix before a verdict: a text key and its parameters."""

    key: str
    params: tuple[tuple[str, Any], ...] = ()

    def text(self, lang: str) -> str:
        def shown(value: Any) -> Any:
            if isinstance(value, tuple):
                return ", ".join(shown(item) for item in value)
            return {RIVER_NAME: t("river", lang), RIVER2_NAME: t("river2", lang)}.get(value, value)

        return t(self.key, lang, **{key: shown(value) for key, value in self.params})

@dataclass(frozen=True)
class ShowdownState:
    """One table being read: players, river, hands, the card picked for a fix, and tokens."""

    players: tuple[str, ...]
    river: tuple[str, ...] = ()
    hands: tuple[tuple[str, ...], ...] = ()
    variant: str = "classic"
    rules: Rules = field(default_factory=Rules)
    selected: tuple[int, int] | None = None  # (place, index)
    tokens: tuple[str, ...] = ()  # hand ids in the order the tokens were tapped: 1, 2, ...
    photo: str | None = None  # the stored photo's reference
    two_rivers: bool = False  # a house rule: each player's cards play on two rivers
    river2: tuple[str, ...] = ()
    francois: tuple[str, ...] = ()  # "francois": the card each player gave François ("" if none)
    shared: tuple[tuple[str, ...], ...] = ()  # "circular": hand between players i and i+1
    # Bumped when the table is reset (new table, new night): the fields then show the state's
    # text even where it did not change, instead of keeping what was being typed (typing_kept).
    edition: int = 0

    def __post_init__(self) -> None:
        # These follow the players: one entry each, whatever the caller gave.
        n = len(self.players)
        object.__setattr__(self, "hands", tuple(self.hands[:n]) + ((),) * (n - len(self.hands)))
        object.__setattr__(
            self, "francois", tuple(self.francois[:n]) + ("",) * (n - len(self.francois))
        )
        object.__setattr__(self, "shared", tuple(self.shared[:n]) + ((),) * (n - len(self.shared)))

    @classmethod
    def new(cls, lang: str = "fr", players: Sequence[str] | None = None) -> ShowdownState:
        names = (
            tuple(players)
            if players
            else tuple(t("player_default", lang, n=i + 1) for i in range(DEFAULT_PLAYERS))
        )
        return cls(players=names)

    # -- setup ----------------------------------------------------------------------------

    def with_players_text(self, text: str) -> ShowdownState:
        names = tuple(name.strip() for name in text.split(",") if name.strip())[:MAX_PLAYERS]
        if names == self.players:
            return self
        return replace(self, players=names, tokens=(), selected=None)

    def with_variant(self, variant: str) -> ShowdownState:
        return replace(self, variant=variant, tokens=())

    def with_rules(self, rules: Rules) -> ShowdownState:
        return replace(self, rules=rules, tokens=())

    def with_two_rivers(self, on: bool) -> ShowdownState:
        return replace(
            self, two_rivers=on, river2=self.river2 if on else (), tokens=(), selected=None
        )

    def places(self) -> tuple[int, ...]:
        """Every place cards lie in, in screen order: the river(s), then the hands."""
        rivers = (RIVER, RIVER2) if self.two_rivers else (RIVER,)
        return rivers + tuple(range(len(self.players)))

    def cleared(self) -> ShowdownState:
        """The same players and rules, an empty table."""
        return ShowdownState(
            self.players,
            variant=self.variant,
            rules=self.rules,
            two_rivers=self.two_rivers,
            edition=self.edition + 1,
        )

    # -- cards ----------------------------------------------------------------------------

    def cards_at(self, place: int) -> tuple[str, ...]:
        if place == RIVER2:
            return self.river2
        return self.river if place == RIVER else self.hands[place]

    def _with_cards(self, place: int, cards: tuple[str, ...]) -> ShowdownState:
        if place == RIVER:
            return replace(self, river=cards, tokens=(), selected=None)
        if place == RIVER2:
            return replace(self, river2=cards, tokens=(), selected=None)
        hands = list(self.hands)
        hands[place] = cards
        return replace(self, hands=tuple(hands), tokens=(), selected=None)

    def with_francois_text(self, player: int, text: str) -> ShowdownState:
        cards = split_cards(text)
        given = list(self.francois)
        given[player] = cards[0] if cards else ""
        return replace(self, francois=tuple(given), tokens=())

    def with_shared_text(self, pair: int, text: str) -> ShowdownState:
        shared = list(self.shared)
        shared[pair] = split_cards(text)
        return replace(self, shared=tuple(shared), tokens=())

    def neighbours(self) -> tuple[tuple[str, str], ...]:
        """The pairs of neighbours around the table, for the circular variant's shared hands."""
        n = len(self.players)
        return (
            tuple((self.players[i], self.players[(i + 1) % n]) for i in range(n)) if n >= 3 else ()
        )

    def with_cards_text(self, place: int, text: str) -> ShowdownState:
        cards = split_cards(text)
        # Leaving a field unchanged (blur) must not clear the tokens or the picked card.
        return self if cards == self.cards_at(place) else self._with_cards(place, cards)

    def with_read(
        self, river: Sequence[str], hands: Sequence[Sequence[str]], photo: str | None, lang: str
    ) -> ShowdownState:
        """A photo's reading: the river, then hands given to the players in seating order.

        More hands than players adds players; the table then gets checked and fixed by hand.
        """
        players = list(self.players)
        while len(players) < min(len(hands), MAX_PLAYERS):
            players.append(t("player_default", lang, n=len(players) + 1))
        read = [tuple(h) for h in hands[:MAX_PLAYERS]]
        return ShowdownState(
            tuple(players),
            tuple(river),
            tuple(read),
            self.variant,
            self.rules,
            photo=photo,
            two_rivers=self.two_rivers,
            edition=self.edition,
        )

    def select(self, place: int, index: int) -> ShowdownState:
        """Pick a card to change, move or remove; picking it again lets it go."""
        pick = (place, index)
        return replace(self, selected=None if self.selected == pick else pick)

    def selected_card(self) -> str | None:
        if self.selected is None:
            return None
        place, index = self.selected
        return self.cards_at(place)[index]

    def replace_selected(self, text: str) -> ShowdownState:
        if self.selected is None or not text.strip():
            return self
        place, index = self.selected
        cards = list(self.cards_at(place))
        cards[index : index + 1] = split_cards(text)[:1]
        return self._with_cards(place, tuple(cards))

    def retouch_selected(self, rank: str | None = None, suit: str | None = None) -> ShowdownState:
        """Change the picked card's rank or suit by a tap; it stays picked for the other part."""
        card = self.selected_card()
        if card is None or self.selected is None:
            return self
        old_rank, old_suit = (card[0], card[1]) if is_card(card) and len(card) == 2 else ("A", "s")
        fixed = (rank or old_rank) + (suit or old_suit)
        place, index = self.selected
        cards = list(self.cards_at(place))
        cards[index] = fixed
        return replace(self._with_cards(place, tuple(cards)), selected=self.selected)

    def remove_selected(self) -> ShowdownState:
        if self.selected is None:
            return self
        place, index = self.selected
        cards = self.cards_at(place)
        return self._with_cards(place, cards[:index] + cards[index + 1 :])

    def move_selected(self, to: int) -> ShowdownState:
        card = self.selected_card()
        if card is None or self.selected is None or self.selected[0] == to:
            return self
        moved = self.remove_selected()
        return moved._with_cards(to, moved.cards_at(to) + (card,))

    def add_cards(self, place: int, text: str) -> ShowdownState:
        return self._with_cards(place, self.cards_at(place) + split_cards(text))

    def place_name(self, place: int, lang: str) -> str:
        if place < 0:
            return t("river" if place == RIVER else "river2", lang)
        return self.players[place]

    # -- checks ---------------------------------------------------------------------------

    def problems(self) -> tuple[Problem, ...]:
        """Everything that stops a verdict: bad names, unreadable, doubled or missing cards."""
        found: list[Problem] = []
        variant = VARIANTS[self.variant]
        lo, hi = variant.players
        n = len(self.players)
        if not lo <= n <= hi:
            found.append(
                Problem("p_players", (("variant", self.variant), ("lo", lo), ("hi", hi), ("n", n)))
            )
        if (
            len({p.casefold() for p in self.players}) != n
            or any(c in p for p in self.players for c in "/+")
            or "francois" in self.players
        ):
            found.append(Problem("p_names"))
        if self.two_rivers and not variant.two_rivers:
            found.append(Problem("p_two_rivers", (("variant", self.variant),)))
        seen: dict[str, list[str]] = {}
        for name, cards in self._all_cards():
            for card in cards:
                if not is_card(card):
                    found.append(Problem("p_bad_card", (("token", card), ("place", name))))
                elif card != "*":
                    seen.setdefault(card, []).append(name)
        for card, names in seen.items():
            if len(names) > self.rules.decks:
                found.append(
                    Problem(
                        "p_duplicate",
                        (
                            ("card", card),
                            ("count", len(names)),
                            ("places", tuple(dict.fromkeys(names))),
                            ("decks", self.rules.decks),
                        ),
                    )
                )
        if len(self.river) != 5:
            found.append(Problem("p_river", (("n", len(self.river)),)))
        if self.two_rivers and len(self.river2) != 5:
            found.append(Problem("p_river2", (("n", len(self.river2)),)))
        for place, cards in enumerate(self.hands):
            # Classic on two rivers deals two cards each, François one per player (the engine's).
            want = 2 if self.two_rivers and self.variant == "classic" else variant.hole_cards
            if self.variant == "francois":
                want = n
                if not self.francois[place]:
                    found.append(Problem("p_francois", (("place", self.players[place]),)))
            if want is None and not cards:
                found.append(Problem("p_hand_empty", (("place", self.players[place]),)))
            elif want is not None and len(cards) != want:
                found.append(
                    Problem(
                        "p_hand",
                        (("place", self.players[place]), ("n", len(cards)), ("want", want)),
                    )
                )
        if self.variant == "circular":
            for (a, b), cards in zip(self.neighbours(), self.shared, strict=False):
                if cards and len(cards) != 2:
                    found.append(
                        Problem("p_hand", (("place", f"{a}+{b}"), ("n", len(cards)), ("want", 2)))
                    )
        return tuple(found)

    def _all_cards(self) -> list[tuple[str, tuple[str, ...]]]:
        """(place name, cards) of every place this variant uses; rivers as markers."""
        found = [
            (
                {RIVER: RIVER_NAME, RIVER2: RIVER2_NAME}.get(place) or self.players[place],
                self.cards_at(place),
            )
            for place in self.places()
        ]
        if self.variant == "francois":
            found += [
                (f"François ({p})", (card,))
                for p, card in zip(self.players, self.francois, strict=True)
                if card
            ]
        if self.variant == "circular":
            found += [
                (f"{a}+{b}", cards)
                for (a, b), cards in zip(self.neighbours(), self.shared, strict=False)
            ]
        return found

    # -- engine ---------------------------------------------------------------------------

    def table_json(self) -> dict[str, Any]:
        """The table in ``companion showdown``'s JSON format (tokens included when complete)."""
        table: dict[str, Any] = {
            "variant": self.variant,
            "rules": self.rules.to_json(),
            "board": list(self.river),
            "players": [
                {"name": p, "cards": list(c)} for p, c in zip(self.players, self.hands, strict=True)
            ],
        }
        if self.variant == "francois":
            for player, card in zip(table["players"], self.francois, strict=True):
                player["francois_card"] = card
        if self.variant == "circular":
            table["shared"] = [
                {"between": list(pair), "cards": list(cards)}
                for pair, cards in zip(self.neighbours(), self.shared, strict=False)
                if cards
            ]
        if self.two_rivers:
            table["two_rivers"] = True
            table["board2"] = list(self.river2)
        tokens = self.token_map()
        if tokens:
            table["tokens"] = tokens
        return table

    def showdown(self) -> Showdown | None:
        """The engine's reading of the table (with a verdict once every hand has a token)."""
        if self.problems():
            return None
        table = table_from_json(self.table_json())
        hands = run_showdown(table).hands
        complete = len(self.tokens) == len(hands)
        return run_showdown(table, self.token_map() if complete else None)

    def hand_ids(self) -> tuple[tuple[str, str], ...]:
        """(hand id, owner) of every hand that takes a token, in seating order."""
        result = self.showdown()
        return tuple((h.id, h.owner) for h in result.hands) if result else ()

    def token_map(self) -> dict[str, int]:
        return {hand: number for number, hand in enumerate(self.tokens, start=1)}

    def tap_hand(self, hand_id: str) -> ShowdownState:
        """Give the hand the next token; tapping a hand that has one takes it back."""
        if hand_id in self.tokens:
            return replace(self, tokens=tuple(h for h in self.tokens if h != hand_id))
        return replace(self, tokens=self.tokens + (hand_id,))

    def with_tokens_text(self, text: str) -> ShowdownState:
        """Numbers typed in seating order ("2 1 3"): hand k gets the k-th number.

        Unreadable or incomplete input leaves the tokens empty, so no verdict is guessed.
        """
        ids = [hid for hid, _ in self.hand_ids()]
        numbers = re.findall(r"\d+", text)
        if len(numbers) != len(ids) or sorted(int(n) for n in numbers) != list(
            range(1, len(ids) + 1)
        ):
            return replace(self, tokens=())
        order = sorted(zip((int(n) for n in numbers), ids, strict=True))
        return replace(self, tokens=tuple(hid for _, hid in order))

    def clear_tokens(self) -> ShowdownState:
        return replace(self, tokens=())

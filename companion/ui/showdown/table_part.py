"""The Showdown screen's first part: the table and its rules, the cards in each place, the card
picked for a fix.

A plain frozen dataclass, no Flet: each edit returns a new value. The fields hold engine
values: a card is a ``Card`` (typed or read from a photo), and only what a player typed that is
not a card stays as text (an ``Entry``), flagged where it sits instead of dropped. The photo's
part (``photo_part.PhotoPart``) and the tokens' (``state.ShowdownState``) build on it.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Self

from companion.engine.cards import parse_card
from companion.engine.gang.ranking import TableRules
from companion.engine.gang.variants import VARIANTS, Deals
from companion.engine.names import same_name
from companion.ui.kit.cards import Entry, card_of, entries
from companion.ui.kit.text import t
from companion.ui.showdown.dealt import HandSizes
from companion.ui.showdown.places import RIVER, RIVER2, STRAY

__all__ = ["MAX_PLAYERS", "TablePart"]

MAX_PLAYERS = 10


@dataclass(frozen=True)
class TablePart:
    """The players, the variant and its rules, the cards of each place, the card picked."""

    players: tuple[str, ...] = ()
    river: tuple[Entry, ...] = ()
    hands: tuple[tuple[Entry, ...], ...] = ()
    variant: str = "classic"
    rules: TableRules = field(default_factory=TableRules)
    two_rivers: bool = False  # a house rule: each player's cards play on two rivers
    river2: tuple[Entry, ...] = ()
    francois: tuple[Entry | None, ...] = ()  # the card each player gave François, if any
    shared: tuple[tuple[Entry, ...], ...] = ()  # circular: the hand between players i and i+1
    burned: tuple[Entry, ...] = ()  # the three burned cards (le chien), when typed
    stray: tuple[Entry, ...] = ()  # read on the photo but not in play, until moved or let go
    dealt: HandSizes = HandSizes()  # each hand's size where the variant lets them differ
    selected: tuple[int, int] | None = None  # (place, index)
    # Bumped when the table is reset (new table, new night): the fields then show the state's
    # text even where it did not change, instead of keeping what was being typed (typing_kept).
    edition: int = 0

    def __post_init__(self) -> None:
        # These follow the players: one entry each, whatever the caller gave.
        n = len(self.players)
        object.__setattr__(self, "hands", tuple(self.hands[:n]) + ((),) * (n - len(self.hands)))
        given = tuple(self.francois[:n]) + (None,) * (n - len(self.francois))
        object.__setattr__(self, "francois", given)
        object.__setattr__(self, "shared", tuple(self.shared[:n]) + ((),) * (n - len(self.shared)))

    def _new_hands(self) -> Self:
        """The hands that take tokens changed (players, variant, rules): what hangs on them
        goes. Nothing here; the tokens' part lets its tokens go."""
        return self

    # -- the setup ------------------------------------------------------------------------

    @property
    def deals(self) -> Deals:
        """What the table's variant deals (its extra fields: François's cards, shared hands)."""
        variant = VARIANTS.get(self.variant)
        return variant.deals if variant is not None else Deals(None)

    @property
    def sizes_free(self) -> bool:
        """Whether the variant lets hand sizes differ: the setup then says each one's."""
        return self.deals.hole_count(len(self.players), self.two_rivers) is None

    def hand_size(self, seat: int) -> int:
        """The hole cards the hand at ``seat`` must hold: the variant's count, or where hand
        sizes may differ, the setup's (``dealt``)."""
        want = self.deals.hole_count(len(self.players), self.two_rivers)
        return self.dealt.of(self.players[seat]) if want is None else want

    def with_players_text(self, text: str) -> Self:
        names = tuple(same_name(name) for name in text.split(",") if name.strip())[:MAX_PLAYERS]
        if names == self.players:
            return self
        return replace(self, players=names, selected=None)._new_hands()

    def with_variant(self, variant: str) -> Self:
        return replace(self, variant=variant)._new_hands()

    def with_rules(self, rules: TableRules) -> Self:
        # The token rule changes no hand's value: the tokens already given stay.
        changed = replace(self, rules=rules)
        return changed if rules.for_hands == self.rules.for_hands else changed._new_hands()

    def with_two_rivers(self, on: bool) -> Self:
        river2 = self.river2 if on else ()
        return replace(self, two_rivers=on, river2=river2, selected=None)._new_hands()

    def with_dealt_text(self, text: str) -> Self:
        """Each hand's size typed in the setup (``HandSizes.of_text``)."""
        return replace(self, dealt=HandSizes.of_text(text, self.players))

    def places(self) -> tuple[int, ...]:
        """Every place cards lie in, in screen order: the river(s), then the hands."""
        rivers = (RIVER, RIVER2) if self.two_rivers else (RIVER,)
        return rivers + tuple(range(len(self.players)))

    def neighbours(self) -> tuple[tuple[str, str], ...]:
        """The pairs of neighbours around the table, for the circular variant's shared hands."""
        n = len(self.players)
        return (
            tuple((self.players[i], self.players[(i + 1) % n]) for i in range(n)) if n >= 3 else ()
        )

    def place_name(self, place: int, lang: str) -> str:
        if place == STRAY:
            return t("photo.stray_place", lang)
        if place < 0:
            return t("river" if place == RIVER else "river2", lang)
        return self.players[place]

    # -- the cards ------------------------------------------------------------------------
    # A card fixed moves no token: the tokens are chips on the table, and the verdict is
    # judged again on the cards as they are now.

    def cards_at(self, place: int) -> tuple[Entry, ...]:
        if place == RIVER2:
            return self.river2
        if place == STRAY:
            return self.stray
        return self.river if place == RIVER else self.hands[place]

    def _with_cards(self, place: int, cards: tuple[Entry, ...]) -> Self:
        if place == STRAY:
            return replace(self, stray=cards, selected=None)
        if place == RIVER:
            return replace(self, river=cards, selected=None)
        if place == RIVER2:
            return replace(self, river2=cards, selected=None)
        hands = list(self.hands)
        hands[place] = cards
        return replace(self, hands=tuple(hands), selected=None)

    def with_cards_text(self, place: int, text: str) -> Self:
        cards = entries(text)
        # Leaving a field unchanged (blur) must not let the picked card go.
        return self if cards == self.cards_at(place) else self._with_cards(place, cards)

    def with_francois_text(self, player: int, text: str) -> Self:
        cards = entries(text)
        given = list(self.francois)
        given[player] = cards[0] if cards else None
        return replace(self, francois=tuple(given))

    def with_shared_text(self, pair: int, text: str) -> Self:
        shared = list(self.shared)
        shared[pair] = entries(text)
        return replace(self, shared=tuple(shared))

    def with_burned_text(self, text: str) -> Self:
        """The burned cards typed (none, or the three of le chien)."""
        cards = entries(text)
        return self if cards == self.burned else replace(self, burned=cards)

    def add_cards(self, place: int, text: str) -> Self:
        """Cards typed for a place, after those it holds (a card the photo missed)."""
        added = entries(text)
        return self if not added else self._with_cards(place, self.cards_at(place) + added)

    # -- the card picked for a fix --------------------------------------------------------

    def select(self, place: int, index: int) -> Self:
        """Pick a card to change, move or remove; picking it again lets it go."""
        pick = (place, index)
        return replace(self, selected=None if self.selected == pick else pick)

    def selected_card(self) -> Entry | None:
        if self.selected is None:
            return None
        place, index = self.selected
        return self.cards_at(place)[index]

    def replace_selected(self, text: str) -> Self:
        if self.selected is None or not text.strip():
            return self
        place, index = self.selected
        cards = list(self.cards_at(place))
        cards[index : index + 1] = entries(text)[:1]
        return self._with_cards(place, tuple(cards))

    def retouch_selected(self, rank: str | None = None, suit: str | None = None) -> Self:
        """Change the picked card's rank or suit by a tap; it stays picked for the other part."""
        entry = self.selected_card()
        if entry is None or self.selected is None:
            return self
        old = card_of(entry)
        old_rank, old_suit = (
            (str(old)[:-1], str(old)[-1]) if old is not None and not old.is_wild else ("A", "s")
        )
        fixed = parse_card((rank or old_rank) + (suit or old_suit), "ui")
        place, index = self.selected
        cards = list(self.cards_at(place))
        cards[index] = fixed
        return replace(self._with_cards(place, tuple(cards)), selected=self.selected)

    def remove_selected(self) -> Self:
        if self.selected is None:
            return self
        place, index = self.selected
        cards = self.cards_at(place)
        return self._with_cards(place, cards[:index] + cards[index + 1 :])

    def move_selected(self, to: int) -> Self:
        card = self.selected_card()
        if card is None or self.selected is None or self.selected[0] == to:
            return self
        moved = TablePart.remove_selected(self)  # the cards only: a photo part moves its outline
        return moved._with_cards(to, moved.cards_at(to) + (card,))

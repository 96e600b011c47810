"""The Showdown screen's state: players, river, hands, the card picked for a fix, and tokens.

Plain frozen dataclasses, no Flet: every change returns a new value. The fields hold engine
values: a card is a ``Card`` (typed or read from a photo), and only what a player typed that is
not a card stays as text (an ``Entry``), flagged where it sits instead of dropped. Each state is
checked once, by the engine's own validation, and judged once (``check``), whatever the screen
asks of it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property

from companion.engine.cards import Card, parse_card
from companion.engine.gang.ranking import TableRules
from companion.engine.gang.showdown import Showdown
from companion.engine.gang.table import Table
from companion.engine.gang.variants import VARIANTS, Deals
from companion.errors import CompanionError
from companion.ui.kit.cards import Entry, card_of, entries
from companion.ui.kit.photo.read import PhotoRead
from companion.ui.kit.photo.seats import angle, mean_point, turned_seats
from companion.ui.kit.text import t
from companion.ui.showdown.check import Checked, checked, table_of
from companion.ui.showdown.places import RIVER, RIVER2, STRAY
from companion.ui.showdown.tokens import numbered, tapped, typed_order

__all__ = ["RIVER", "RIVER2", "STRAY", "UI_VARIANTS", "MAX_PLAYERS", "Checked", "ShowdownState"]

UI_VARIANTS = tuple(VARIANTS)
DEFAULT_PLAYERS = 3
MAX_PLAYERS = 10


@dataclass(frozen=True)
class ShowdownState:
    """One table being read: players, river, hands, the card picked for a fix, and tokens."""

    players: tuple[str, ...]
    river: tuple[Entry, ...] = ()
    hands: tuple[tuple[Entry, ...], ...] = ()
    variant: str = "classic"
    rules: TableRules = field(default_factory=TableRules)
    selected: tuple[int, int] | None = None  # (place, index)
    tokens: tuple[str, ...] = ()  # hand ids in the order the tokens were tapped: 1, 2, ...
    photo: str | None = None  # the stored photo's reference
    two_rivers: bool = False  # a house rule: each player's cards play on two rivers
    river2: tuple[Entry, ...] = ()
    francois: tuple[Entry | None, ...] = ()  # the card each player gave François, if any
    shared: tuple[tuple[Entry, ...], ...] = ()  # circular: the hand between players i and i+1
    burned: tuple[Entry, ...] = ()  # the three burned cards (le chien), when typed
    # Bumped when the table is reset (new table, new night): the fields then show the state's
    # text even where it did not change, instead of keeping what was being typed (typing_kept).
    edition: int = 0
    read: PhotoRead | None = None  # the photo's outlines, following the cards' fixes
    stray: tuple[Entry, ...] = ()  # read on the photo but not in play, until moved or let go
    confirmed: frozenset[str] = frozenset()  # the doubts (``doubts.Doubt.key``) confirmed
    out: tuple[str, ...] = ()  # the night's players sitting this heist out
    seats_order: tuple[str, ...] = ()  # everyone in seat order, kept while some sit out
    seating: bool = False  # the question "which hand is whose" is open
    seat_hand: int = 0  # the hand that question is about (tapped on the photo)
    seats_named: bool = False  # a name was given: the next ones swap two hands
    on_photo: bool = False  # the picked card was tapped on the photo (its fixes show there)
    zoom: bool = False  # the photo takes pinch and wheel (else the wheel scrolls the page)
    # The table a photo's reading replaced, kept so that one tap brings it back: a table fixed
    # by hand is never lost to another upload. None once it had no card or after saving.
    before: ShowdownState | None = None

    def __post_init__(self) -> None:
        # These follow the players: one entry each, whatever the caller gave.
        n = len(self.players)
        object.__setattr__(self, "hands", tuple(self.hands[:n]) + ((),) * (n - len(self.hands)))
        given = tuple(self.francois[:n]) + (None,) * (n - len(self.francois))
        object.__setattr__(self, "francois", given)
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

    @property
    def deals(self) -> Deals:
        """What the table's variant deals (its extra fields: François's cards, shared hands)."""
        variant = VARIANTS.get(self.variant)
        return variant.deals if variant is not None else Deals(None)

    def with_players_text(self, text: str) -> ShowdownState:
        names = tuple(name.strip() for name in text.split(",") if name.strip())[:MAX_PLAYERS]
        if names == self.players:
            return self
        return replace(self, players=names, tokens=(), selected=None)

    def with_variant(self, variant: str) -> ShowdownState:
        return replace(self, variant=variant, tokens=())

    def with_rules(self, rules: TableRules) -> ShowdownState:
        # The token rule changes no hand's value: the tokens already given stay.
        same_hands = rules.for_hands == self.rules.for_hands
        return replace(self, rules=rules, tokens=self.tokens if same_hands else ())

    def with_two_rivers(self, on: bool) -> ShowdownState:
        return replace(
            self, two_rivers=on, river2=self.river2 if on else (), tokens=(), selected=None
        )

    def places(self) -> tuple[int, ...]:
        """Every place cards lie in, in screen order: the river(s), then the hands."""
        rivers = (RIVER, RIVER2) if self.two_rivers else (RIVER,)
        return rivers + tuple(range(len(self.players)))

    def cleared(self) -> ShowdownState:
        """The same players (those sitting out back in) and rules, an empty table."""
        return ShowdownState(
            self.everyone(),
            variant=self.variant,
            rules=self.rules,
            two_rivers=self.two_rivers,
            edition=self.edition + 1,
        )

    # -- cards ----------------------------------------------------------------------------

    def cards_at(self, place: int) -> tuple[Entry, ...]:
        if place == RIVER2:
            return self.river2
        if place == STRAY:
            return self.stray
        return self.river if place == RIVER else self.hands[place]

    def _with_cards(self, place: int, cards: tuple[Entry, ...]) -> ShowdownState:
        if place == STRAY:
            return replace(self, stray=cards, tokens=(), selected=None)
        if place == RIVER:
            return replace(self, river=cards, tokens=(), selected=None)
        if place == RIVER2:
            return replace(self, river2=cards, tokens=(), selected=None)
        hands = list(self.hands)
        hands[place] = cards
        return replace(self, hands=tuple(hands), tokens=(), selected=None)

    def with_francois_text(self, player: int, text: str) -> ShowdownState:
        cards = entries(text)
        given = list(self.francois)
        given[player] = cards[0] if cards else None
        return replace(self, francois=tuple(given), tokens=())

    def with_shared_text(self, pair: int, text: str) -> ShowdownState:
        shared = list(self.shared)
        shared[pair] = entries(text)
        return replace(self, shared=tuple(shared), tokens=())

    def with_burned_text(self, text: str) -> ShowdownState:
        """The burned cards typed (none, or the three of le chien); the tokens stay: the dog
        changes no hand."""
        cards = entries(text)
        return self if cards == self.burned else replace(self, burned=cards)

    def neighbours(self) -> tuple[tuple[str, str], ...]:
        """The pairs of neighbours around the table, for the circular variant's shared hands."""
        n = len(self.players)
        return (
            tuple((self.players[i], self.players[(i + 1) % n]) for i in range(n)) if n >= 3 else ()
        )

    def with_cards_text(self, place: int, text: str) -> ShowdownState:
        cards = entries(text)
        # Leaving a field unchanged (blur) must not clear the tokens or the picked card.
        if cards == self.cards_at(place):
            return self
        read = self.read.retyped(place, len(cards)) if self.read is not None else None
        return replace(self._with_cards(place, cards), read=read)

    def with_read(
        self,
        river: Sequence[Card],
        hands: Sequence[Sequence[Card]],
        photo: str | None,
        lang: str,
        *,
        players: Sequence[str] | None = None,
        stray: Sequence[Card] = (),
        read: PhotoRead | None = None,
        seating: bool = False,
    ) -> ShowdownState:
        """A photo's reading: the river, then hands given to ``players`` (the table's own when
        None) in that order, and the cards not in play.

        More hands than players adds players; the table then gets checked and fixed by hand.
        """
        names = list(players if players is not None else self.everyone())
        while len(names) < min(len(hands), MAX_PLAYERS):
            names.append(t("player_default", lang, n=len(names) + 1))
        held = [tuple(h) for h in hands[:MAX_PLAYERS]]
        return ShowdownState(
            tuple(names),
            tuple(river),
            tuple(held),
            self.variant,
            self.rules,
            photo=photo,
            two_rivers=self.two_rivers,
            edition=self.edition,
            read=read,
            stray=tuple(stray),
            seating=seating,
            before=self.kept(),
            burned=self.burned,  # never on the photo: typed, they stay
        )

    def kept(self) -> ShowdownState | None:
        """This table as a new photo's ``before``: None when it holds no card to lose."""
        has_cards = any(self.cards_at(place) for place in self.places()) or bool(self.stray)
        return replace(self, before=None, selected=None, on_photo=False) if has_cards else None

    def back_before_photo(self) -> ShowdownState:
        """The table the last photo replaced, as it was (or this one when there is none)."""
        if self.before is None:
            return self
        return replace(self.before, edition=self.edition + 1)

    def photos(self) -> frozenset[str]:
        """The stored photos this table keeps: its own and the one its ``before`` holds."""
        kept = {self.photo, self.before.photo if self.before is not None else None}
        return frozenset(ref for ref in kept if ref is not None)

    # -- seats and doubts -----------------------------------------------------------------

    def give_hand(self, place: int, name: str) -> ShowdownState:
        """The hand at ``place`` is ``name``'s: it swaps with the one ``name`` had."""
        if name not in self.players or not 0 <= place < len(self.players):
            return self
        other = self.players.index(name)
        if other == place:
            return self
        hands = list(self.hands)
        hands[place], hands[other] = hands[other], hands[place]
        read = self.read.renumbered({place: other, other: place}) if self.read else None
        return replace(self, hands=tuple(hands), read=read, tokens=(), selected=None)

    def with_zoom(self, on: bool) -> ShowdownState:
        return replace(self, zoom=on)

    def with_seating(self, on: bool) -> ShowdownState:
        return replace(self, seating=on, seats_named=False)

    def asked_hand(self) -> int | None:
        """The hand the seat question is about: the one tapped, else the first with cards."""
        if 0 <= self.seat_hand < len(self.hands) and self.hands[self.seat_hand]:
            return self.seat_hand
        return next((i for i, held in enumerate(self.hands) if held), None)

    def hand_angles(self) -> dict[int, float]:
        """Each hand's angle on the photo around the river's centre, by place (hands with no
        card from the photo left out)."""
        if self.read is None:
            return {}
        middle = self.read.centres(RIVER) or [s.centre for s in self.read.spots]
        if not middle:
            return {}
        centre = mean_point(middle)
        return {
            place: angle(centre, mean_point(self.read.centres(place)))
            for place in range(len(self.players))
            if self.read.centres(place)
        }

    def name_hand(self, place: int, name: str, clockwise: Sequence[str]) -> ShowdownState:
        """``name`` says the hand at ``place`` is theirs. The first answer seats everyone: the
        other hands follow clockwise on the photo in ``clockwise`` (the players' seat order);
        a later one swaps two hands, so that an answer never undoes another."""
        if name not in self.players:
            return self
        angles = self.hand_angles()
        typed_only = any(held and i not in angles for i, held in enumerate(self.hands))
        if self.seats_named or typed_only:
            named = self.give_hand(place, name)
        else:
            owners = turned_seats(angles, place, name, [n for n in clockwise if n in self.players])
            named = self._seated({self.players.index(n): p for p, n in owners.items()})
        return replace(named, seats_named=True, seat_hand=self.players.index(name))

    def _seated(self, taken: dict[int, int]) -> ShowdownState:
        """Each player (by seat) takes the hand at the place ``taken`` gives; the others none."""
        hands = tuple(self.hands[taken[i]] if i in taken else () for i in range(len(self.players)))
        places: dict[int, int | None] = {p: None for p in range(len(self.players))}
        places |= {old: new for new, old in taken.items()}
        read = self.read.renumbered(places) if self.read is not None else None
        return replace(self, hands=hands, read=read, tokens=(), selected=None)

    def everyone(self) -> tuple[str, ...]:
        """The table's players with those sitting out, in seat order."""
        everyone = self.players + self.out
        kept = self.seats_order
        return kept if sorted(kept) == sorted(everyone) else everyone

    def sit_out(self, name: str) -> ShowdownState:
        """``name`` sits this heist out: absent from the table (their cards, if any, go)."""
        if name not in self.players:
            return self
        seat = self.players.index(name)
        keep = [i for i in range(len(self.players)) if i != seat]
        places: dict[int, int | None] = {i: keep.index(i) for i in keep} | {seat: None}
        read = self.read.renumbered(places) if self.read is not None else None
        return replace(
            self,
            players=tuple(self.players[i] for i in keep),
            hands=tuple(self.hands[i] for i in keep),
            francois=tuple(self.francois[i] for i in keep),
            shared=(),
            out=self.out + (name,),
            seats_order=self.everyone(),
            read=read,
            tokens=(),
            selected=None,
        )

    def back_in(self, name: str) -> ShowdownState:
        """``name`` plays this heist after all: back in their seat, with no cards yet."""
        if name not in self.out:
            return self
        players = tuple(n for n in self.everyone() if n in self.players or n == name)
        old = {n: i for i, n in enumerate(self.players)}
        places: dict[int, int | None] = {old[n]: i for i, n in enumerate(players) if n in old}
        read = self.read.renumbered(places) if self.read is not None else None
        return replace(
            self,
            players=players,
            hands=tuple(self.hands[old[n]] if n in old else () for n in players),
            francois=tuple(self.francois[old[n]] if n in old else None for n in players),
            shared=(),
            out=tuple(n for n in self.out if n != name),
            read=read,
            tokens=(),
            selected=None,
        )

    def confirm(self, *keys: str) -> ShowdownState:
        """Doubts the players looked at and found right: they no longer hold the verdict."""
        return replace(self, confirmed=self.confirmed | set(keys))

    def add_cards(self, place: int, text: str) -> ShowdownState:
        """Cards typed for a place, after those it holds (a card the photo missed)."""
        added = entries(text)
        return self if not added else self._with_cards(place, self.cards_at(place) + added)

    def select(self, place: int, index: int) -> ShowdownState:
        """Pick a card to change, move or remove; picking it again lets it go."""
        pick = (place, index)
        return replace(self, selected=None if self.selected == pick else pick, on_photo=False)

    def selected_card(self) -> Entry | None:
        if self.selected is None:
            return None
        place, index = self.selected
        return self.cards_at(place)[index]

    def replace_selected(self, text: str) -> ShowdownState:
        if self.selected is None or not text.strip():
            return self
        place, index = self.selected
        cards = list(self.cards_at(place))
        cards[index : index + 1] = entries(text)[:1]
        return self._with_cards(place, tuple(cards))

    def retouch_selected(self, rank: str | None = None, suit: str | None = None) -> ShowdownState:
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

    def remove_selected(self) -> ShowdownState:
        if self.selected is None:
            return self
        place, index = self.selected
        cards = self.cards_at(place)
        read = self.read.removed(place, index, len(cards)) if self.read is not None else None
        return replace(self._with_cards(place, cards[:index] + cards[index + 1 :]), read=read)

    def move_selected(self, to: int) -> ShowdownState:
        card = self.selected_card()
        if card is None or self.selected is None or self.selected[0] == to:
            return self
        place, index = self.selected
        size, to_size = len(self.cards_at(place)), len(self.cards_at(to))
        read = self.read.moved(place, index, size, to, to_size) if self.read else None
        moved = replace(self.remove_selected(), read=read)
        return moved._with_cards(to, moved.cards_at(to) + (card,))

    def select_spot(self, spot: int) -> ShowdownState:
        """Pick the card a tap on the photo landed on (nothing, if it was taken off)."""
        if self.read is None or not 0 <= spot < len(self.read.spots):
            return self
        at = self.read.spots[spot].at
        if at is None:
            return self
        if self.seating and at[0] >= 0:  # while seats are asked, a tap picks a hand
            return replace(self, seat_hand=at[0], selected=None, on_photo=False)
        return replace(self.select(*at), on_photo=True)

    def place_name(self, place: int, lang: str) -> str:
        if place == STRAY:
            return t("photo.stray_place", lang)
        if place < 0:
            return t("river" if place == RIVER else "river2", lang)
        return self.players[place]

    # -- the engine (``check``) -------------------------------------------------------------

    def table(self) -> Table:
        """The engine's table of what the fields hold, the text that is no card left out."""
        return table_of(self)

    @cached_property
    def check(self) -> Checked:
        """The table checked by the engine's validation, and judged: once per state."""
        return checked(self)

    def problems(self) -> tuple[CompanionError, ...]:
        """Everything that stops a verdict, as the engine says it."""
        return self.check.problems

    def showdown(self) -> Showdown | None:
        """The engine's reading of the table (with a verdict once every hand has a token)."""
        return self.check.showdown

    def hand_ids(self) -> tuple[tuple[str, str], ...]:
        """(hand id, owner) of every hand that takes a token, in seating order."""
        result = self.showdown()
        return tuple((h.id, h.owner) for h in result.hands) if result else ()

    def token_map(self) -> dict[str, int]:
        return numbered(self.tokens)

    def tap_hand(self, hand_id: str) -> ShowdownState:
        """Give the hand the next token; tapping a hand that has one takes it back."""
        return replace(self, tokens=tapped(self.tokens, hand_id))

    def with_tokens_text(self, text: str) -> ShowdownState:
        """Numbers typed in seating order ("2 1 3"): hand k gets the k-th number; unreadable
        or incomplete input leaves the tokens empty."""
        return replace(self, tokens=typed_order(text, [hid for hid, _ in self.hand_ids()]))

    def clear_tokens(self) -> ShowdownState:
        return replace(self, tokens=())

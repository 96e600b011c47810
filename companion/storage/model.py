"""The values the game log stores and returns: frozen dataclasses, cards as plain strings.

Cards are kept as the text the table used ("As", "10h", "*"), verdict reasons and table rules
as JSON, so the log never depends on the poker engine's types. JSON values come back deeply
frozen (mappings are read-only, lists are tuples); ``thaw`` turns them back into plain JSON.
"""

from __future__ import annotations

import json
import math
import re
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields
from datetime import datetime
from enum import StrEnum
from types import MappingProxyType
from typing import Any

from companion.messages import Phrase, phrase
from companion.storage.errors import InvalidRecordError
from companion.storage.photos import is_photo_ref

__all__ = [
    "VAULTS_TO_WIN",
    "ALARMS_TO_LOSE",
    "MAX_PLAYERS",
    "Outcome",
    "Verdict",
    "HeistDraft",
    "CardOutline",
    "outlines_from_json",
    "Heist",
    "Night",
    "NightStatus",
    "Preset",
    "CribbageGame",
    "freeze",
    "thaw",
    "dump_json",
    "group_key",
    "outcome_of",
    "check_players",
    "check_seats",
    "check_rules",
    "check_name",
    "card_tokens",
    "same_name",
]

VAULTS_TO_WIN = 3
ALARMS_TO_LOSE = 3
MAX_PLAYERS = 10

Json = Any  # a value json.dumps accepts; frozen by ``freeze`` when stored in a record


class Outcome(StrEnum):
    """Where a game night stands."""

    OPEN = "open"
    WON = "won"
    LOST = "lost"
    ABANDONED = "abandoned"

    @property
    def decided(self) -> bool:
        """Won or lost: the night has a result (open and abandoned nights have none)."""
        return self in (Outcome.WON, Outcome.LOST)


def freeze(value: Json, where: str) -> Json:
    """A deeply read-only copy of a JSON value; rejects what JSON cannot hold, naming ``where``."""
    if value is None or isinstance(value, bool | int | str):
        return value
    if isinstance(value, float):
        if not math.isfinite(value):
            raise InvalidRecordError("record.not_a_number", field=where, value=value)
        return value
    if isinstance(value, Mapping):
        frozen: dict[str, Json] = {}
        for key, item in value.items():
            if not isinstance(key, str):
                raise InvalidRecordError("record.key_not_text", field=where, key=key)
            frozen[key] = freeze(item, f"{where}.{key}")
        return MappingProxyType(frozen)
    if isinstance(value, list | tuple):
        return tuple(freeze(item, f"{where}[{index}]") for index, item in enumerate(value))
    raise InvalidRecordError("record.not_json", field=where, kind=type(value).__name__)


def thaw(value: Json) -> Json:
    """Plain dicts and lists again, ready for ``json.dumps``."""
    if isinstance(value, Mapping):
        return {key: thaw(item) for key, item in value.items()}
    if isinstance(value, tuple | list):
        return [thaw(item) for item in value]
    return value


def dump_json(value: Json) -> str:
    """JSON text for the database and the exports; key order (seating order) is kept."""
    return json.dumps(thaw(value), ensure_ascii=False, allow_nan=False)


def _text(value: object, where: Phrase | str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise InvalidRecordError("record.empty_text", field=where)
    return same_name(value)


def same_name(name: str) -> str:
    """The one spelling a name is stored and compared in (NFC, trimmed): "Chloé" typed as one
    letter or as "e" and an accent is one player."""
    return unicodedata.normalize("NFC", name.strip())


# Between two cards in one text: what the table format reads (``engine.cards.parse_cards``).
_CARD_SEPARATORS = re.compile(r"[\s,;]+")


def card_tokens(value: object) -> tuple[str, ...] | None:
    """Cards in any form the table format allows: one text (``"Ks 7s"``, ``"Ks,7s"``) or a
    list of texts, one card each; None for anything else (a number, an empty card)."""
    if isinstance(value, str):
        return tuple(token for token in _CARD_SEPARATORS.split(value.strip()) if token)
    if not isinstance(value, list | tuple):
        return None
    tokens = tuple(card.strip() for card in value if isinstance(card, str))
    if len(tokens) != len(value) or not all(t and not _CARD_SEPARATORS.search(t) for t in tokens):
        return None
    return tokens


def _cards(values: Sequence[str], where: Phrase | str) -> tuple[str, ...]:
    if isinstance(values, str):
        # A bare string would otherwise be stored one character per card.
        raise InvalidRecordError("record.cards_as_list", field=where)
    cards = tuple(_text(card, where) for card in values)
    for card in cards:
        if any(ch.isspace() for ch in card):
            raise InvalidRecordError("record.card_with_space", field=where, card=card)
    return cards


def group_key(players: Sequence[str]) -> tuple[str, ...]:
    """The same group whatever the seating order or letter case: sorted, case-folded names."""
    return tuple(sorted(name.casefold() for name in players))


@dataclass(frozen=True)
class Verdict:
    """Whether the vault opens, and the engine's reasons (JSON) when it does not."""

    opens: bool
    failures: tuple[Json, ...] = ()

    def __post_init__(self) -> None:
        if not isinstance(self.opens, bool):
            raise InvalidRecordError("record.not_bool", field="verdict.opens")
        object.__setattr__(self, "failures", freeze(list(self.failures), "verdict.failures"))


# A card's corner may lie a little off the photo (a card cut by its edge): fractions of the
# photo's size beyond this are damage, not a card.
_OUTLINE_REACH = (-0.5, 1.5)


@dataclass(frozen=True)
class CardOutline:
    """Where one card of a heist lay on its photo, as it was read: the card, whose it was (a
    player, or ``RIVER`` / ``RIVER2``), and its four corners as fractions of the photo's width
    and height (so a copy of the photo at any size takes them)."""

    RIVER = "river"
    RIVER2 = "river2"

    card: str
    place: str
    corners: tuple[tuple[float, float], ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "card", _text(self.card, "outlines"))
        object.__setattr__(self, "place", _text(self.place, "outlines"))
        corners = tuple(tuple(point) for point in self.corners)
        low, high = _OUTLINE_REACH
        if len(corners) != 4 or not all(
            len(p) == 2
            and all(
                isinstance(v, int | float) and not isinstance(v, bool) and low <= v <= high
                for v in p
            )
            for p in corners
        ):
            raise InvalidRecordError("record.outline", field="outlines", card=self.card)
        object.__setattr__(self, "corners", tuple((float(x), float(y)) for x, y in corners))

    def to_json(self) -> dict[str, Json]:
        return {"card": self.card, "place": self.place, "corners": [list(p) for p in self.corners]}


def outlines_from_json(value: Json) -> tuple[CardOutline, ...]:
    """The outlines as ``CardOutline.to_json`` wrote them; anything else is refused."""
    if not isinstance(value, list | tuple) or not all(isinstance(v, Mapping) for v in value):
        raise InvalidRecordError("record.outline", field="outlines", card="?")
    found = []
    for item in value:
        corners = item.get("corners")
        if set(item) != {"card", "place", "corners"} or not isinstance(corners, list | tuple):
            raise InvalidRecordError("record.outline", field="outlines", card=item.get("card"))
        found.append(CardOutline(item["card"], item["place"], tuple(corners)))
    return tuple(found)


@dataclass(frozen=True)
class HeistDraft:
    """A heist as the table saw it, before it is saved: hands keyed by hand id.

    ``deal`` is the whole table (``companion showdown``'s JSON table object, tokens apart): every
    hole card of every variant, what a replay is rebuilt from. ``photo`` is the SHA-256
    reference that ``store_photo`` returned, or None.
    """

    river: tuple[str, ...]
    hands: Mapping[str, tuple[str, ...]]
    owners: Mapping[str, str]
    tokens: Mapping[str, int]
    verdict: Verdict
    board2: tuple[str, ...] | None = None
    photo: str | None = None
    deal: Mapping[str, Json] | None = None
    # Where each read card lay on the photo; () for a typed table or a heist saved before.
    outlines: tuple[CardOutline, ...] = ()

    def __post_init__(self) -> None:
        set_ = object.__setattr__
        set_(self, "outlines", tuple(self.outlines))
        if not all(isinstance(o, CardOutline) for o in self.outlines):
            raise InvalidRecordError("record.outline", field="outlines", card="?")
        if self.outlines and self.photo is None:
            raise InvalidRecordError("record.outline_no_photo", field="outlines")
        if self.deal is not None:
            set_(self, "deal", check_rules(self.deal, "deal"))
        set_(self, "river", _cards(self.river, "river"))
        if not self.river:
            raise InvalidRecordError("record.no_card", field="river")
        if self.board2 is not None:
            set_(self, "board2", _cards(self.board2, "board2"))
        if not self.hands:
            raise InvalidRecordError("record.no_hand", field="hands")
        hands = {
            _text(hand, "hands"): _cards(cards, phrase("record.field_hand", hand=hand))
            for hand, cards in self.hands.items()
        }
        set_(self, "hands", MappingProxyType(hands))
        owners = {
            _text(h, "owners"): _text(p, phrase("record.field_owner", hand=h))
            for h, p in self.owners.items()
        }
        tokens = {_text(h, "tokens"): token for h, token in self.tokens.items()}
        for where, keys in (("owners", owners), ("tokens", tokens)):
            unknown = sorted(set(keys) - set(hands))
            if unknown:
                raise InvalidRecordError("record.unknown_hand", field=where, unknown=unknown[0])
        for hand, token in tokens.items():
            if isinstance(token, bool) or not isinstance(token, int) or token < 1:
                raise InvalidRecordError(
                    "record.token", field=phrase("record.field_token", hand=hand), token=token
                )
        set_(self, "owners", MappingProxyType(owners))
        set_(self, "tokens", MappingProxyType(tokens))
        if self.photo is not None and not is_photo_ref(self.photo):
            raise InvalidRecordError("record.photo_ref", field="photo", photo=self.photo)

    @property
    def burned(self) -> tuple[str, ...]:
        """The three burned cards (le chien) when the table kept them: they travel in the deal,
        so heists saved before, or without them, have none."""
        kept = self.deal.get("burned") if self.deal is not None else None
        return card_tokens(kept) or ()


@dataclass(frozen=True, kw_only=True)
class Heist(HeistDraft):
    """A saved heist: its number in the night (1, 2, ...) and when it was saved (UTC)."""

    id: int
    night_id: int
    number: int
    saved_at: datetime

    def draft(self) -> HeistDraft:
        """The heist as it was given, without what saving added (e.g. to save it again)."""
        return HeistDraft(**{f.name: getattr(self, f.name) for f in fields(HeistDraft)})


@dataclass(frozen=True)
class Night:
    """A game night: who played, which variant, under which table rules (a JSON object)."""

    id: int
    players: tuple[str, ...]
    variant: str
    rules: Mapping[str, Json]
    preset: str | None
    created_at: datetime
    closed_at: datetime | None
    outcome: Outcome
    # Where each player sits: degrees around the river's centre on the photo (0: right of it,
    # 90: below it); players not seated yet are left out.
    seats: Mapping[str, float] = field(default_factory=lambda: MappingProxyType({}))

    @property
    def group(self) -> tuple[str, ...]:
        return group_key(self.players)


@dataclass(frozen=True)
class NightStatus:
    """A night with its score so far: 3 vaults win, 3 alarms lose."""

    night: Night
    vaults: int
    alarms: int

    @property
    def heists(self) -> int:
        return self.vaults + self.alarms

    @property
    def outcome(self) -> Outcome:
        return self.night.outcome

    @property
    def finished(self) -> bool:
        return self.night.outcome is not Outcome.OPEN


def outcome_of(vaults: int, alarms: int) -> Outcome:
    """Won at 3 vaults, lost at 3 alarms, open before."""
    if vaults >= VAULTS_TO_WIN:
        return Outcome.WON
    if alarms >= ALARMS_TO_LOSE:
        return Outcome.LOST
    return Outcome.OPEN


@dataclass(frozen=True)
class Preset:
    """Named table rules that a group saved (JSON object)."""

    name: str
    rules: Mapping[str, Json]
    saved_at: datetime


@dataclass(frozen=True)
class CribbageGame:
    """A cribbage game kept for its screen: players and the screen's own JSON state."""

    id: int
    players: tuple[str, ...]
    state: Mapping[str, Json]
    created_at: datetime
    updated_at: datetime
    finished: bool = field(default=False)
    night_id: int | None = None  # the game night it was played in, if any


def check_players(players: Sequence[str]) -> tuple[str, ...]:
    """1 to 10 distinct names (distinct ignoring case), in seating order."""
    if isinstance(players, str):
        raise InvalidRecordError("record.names_list", field="players")
    names = tuple(_text(name, "players") for name in players)
    if not 1 <= len(names) <= MAX_PLAYERS:
        raise InvalidRecordError(
            "record.players_count", field="players", n=len(names), most=MAX_PLAYERS
        )
    seen: set[str] = set()
    for name in names:
        if name.casefold() in seen:
            raise InvalidRecordError("record.name_twice", field="players", name=name)
        seen.add(name.casefold())
    return names


def check_seats(seats: Mapping[str, float], players: Sequence[str]) -> dict[str, float]:
    """Seats of the night's ``players`` only, as finite degrees in [0, 360), in seating order."""
    known = {name.casefold(): name for name in players}
    checked: dict[str, float] = {}
    for name, degrees in seats.items():
        player = known.get(same_name(name).casefold())
        if player is None:
            raise InvalidRecordError("record.not_tonight", field="seats", owner=name)
        if isinstance(degrees, bool) or not isinstance(degrees, int | float):
            raise InvalidRecordError("record.not_json", field="seats", kind=type(degrees).__name__)
        if not math.isfinite(degrees):
            raise InvalidRecordError("record.not_a_number", field="seats", value=degrees)
        checked[player] = round(float(degrees) % 360.0, 2)
    return {name: checked[name] for name in players if name in checked}


def check_rules(rules: Mapping[str, Json], where: str = "rules") -> Mapping[str, Json]:
    """A frozen JSON object of table rules."""
    if not isinstance(rules, Mapping):
        raise InvalidRecordError("record.json_object", field=where)
    frozen: Mapping[str, Json] = freeze(rules, where)
    return frozen


def check_name(name: str, where: str) -> str:
    """Non-empty text, trimmed."""
    return _text(name, where)

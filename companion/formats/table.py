"""The table format shared by the CLI, the app and the game log: JSON objects in and out.

This is the edge where text becomes engine values; every error names the field, player or card.
``table_to_json`` writes what ``table_from_json`` reads (tokens aside), so a saved table comes
back as it was.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.engine.cards import Card, parse_card, parse_cards
from companion.engine.gang.ranking import Ranking, Straights, TableRules
from companion.engine.gang.showdown import Showdown
from companion.engine.gang.table import Player, SharedHand, Table
from companion.engine.gang.tokens import TokenRule
from companion.engine.gang.words import describe
from companion.engine.names import same_name
from companion.errors import InputError, shortened
from companion.formats.reading import key_names
from companion.messages import Phrase, phrase

__all__ = [
    "table_from_json",
    "table_to_json",
    "rules_from_json",
    "rules_to_json",
    "house_rules_from_json",
    "house_rules_to_json",
    "tokens_from_json",
    "showdown_to_json",
]

_TABLE_KEYS = {
    "variant",
    "two_rivers",
    "rules",
    "board",
    "board2",
    "players",
    "shared",
    "tokens",
    "tokens_by_street",
    "token_moves",
    "name",
    "note",
    "burned",
}
_RULE_KEYS = {"straights", "ranking", "decks", "tokens"}
_PLAYER_KEYS = {"name", "cards", "francois_card"}


def _cards(value: Any, where: Phrase) -> tuple[Card, ...]:
    if isinstance(value, str):
        return parse_cards(value, where)
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        if not all(v.strip() for v in value):
            # In a list each string is one card: an empty one is a card left out, not a gap.
            raise InputError("json.empty_card", where=where)
        return parse_cards(value, where)
    raise InputError("json.cards_type", where=where)


def _flag(raw: Mapping[str, Any], key: str) -> bool:
    value = raw.get(key, False)
    if not isinstance(value, bool):
        # "false" is a non-empty string, true to Python: only JSON's true and false are read.
        raise InputError("json.flag_type", key=key, value=shortened(repr(value)))
    return value


def _enum_value(
    enum: type[Ranking] | type[Straights] | type[TokenRule], value: Any, key: str
) -> Any:
    try:
        return enum(value)
    except ValueError:
        choices = tuple(repr(member.value) for member in enum)
        raise InputError(
            "json.rule_value", key=key, value=shortened(repr(value)), choices=choices
        ) from None


def rules_from_json(raw: Any) -> TableRules:
    """The ``rules`` object of a table (absent: the standard rules)."""
    if raw is None:
        return TableRules()
    if not isinstance(raw, Mapping):
        raise InputError("json.rules_object")
    unknown = set(raw) - _RULE_KEYS
    if unknown:
        raise InputError("json.unknown_rules", rules=key_names(unknown))
    decks = raw.get("decks", 1)
    if isinstance(decks, bool) or not isinstance(decks, int):
        raise InputError("json.decks_type", decks=shortened(repr(decks)))
    return TableRules(
        ranking=_enum_value(Ranking, raw.get("ranking", "high"), "ranking"),
        straights=_enum_value(Straights, raw.get("straights", "normal"), "straights"),
        decks=decks,
        tokens=_enum_value(TokenRule, raw.get("tokens", "base"), "tokens"),
    )


def _player(raw: Any, index: int) -> Player:
    if not isinstance(raw, Mapping) or not isinstance(raw.get("name"), str):
        raise InputError("json.player_needs_name", n=index + 1)
    name = raw["name"].strip()
    unknown = set(raw) - _PLAYER_KEYS
    if unknown:
        raise InputError("json.unknown_player_fields", name=name, fields=key_names(unknown))
    given = raw.get("francois_card")
    francois = None
    if given is not None:
        if not isinstance(given, str):
            raise InputError("json.francois_card_type", name=name)
        francois = parse_card(given, phrase("place.francois_card", name=name))
    return Player(name, _cards(raw.get("cards", []), phrase("place.hand", name=name)), francois)


def _shared(raw: Any) -> tuple[SharedHand, ...]:
    if raw is None:
        return ()
    if not isinstance(raw, list):
        raise InputError("json.shared_list")
    hands = []
    for item in raw:
        between = item.get("between") if isinstance(item, Mapping) else None
        if not (
            isinstance(between, list)
            and len(between) == 2
            and all(isinstance(n, str) for n in between)
        ):
            raise InputError("json.shared_between")
        where = phrase("place.shared", hand="+".join(between))
        hands.append(SharedHand((between[0], between[1]), _cards(item.get("cards", []), where)))
    return tuple(hands)


def table_from_json(raw: Any) -> Table:
    """A ``Table`` from the JSON table object of ``companion showdown``."""
    if not isinstance(raw, Mapping):
        raise InputError("json.table_object")
    unknown = set(raw) - _TABLE_KEYS
    if unknown:
        raise InputError("json.unknown_fields", fields=key_names(unknown))
    if "board" not in raw or "players" not in raw:
        raise InputError("json.table_needs")
    players = raw["players"]
    if not isinstance(players, list):
        raise InputError("json.players_list")
    variant = raw.get("variant", "classic")
    if not isinstance(variant, str):
        raise InputError("json.variant_name")
    return Table(
        players=tuple(_player(p, i) for i, p in enumerate(players)),
        board=_cards(raw["board"], phrase("place.river")),
        variant=variant,
        rules=rules_from_json(raw.get("rules")),
        two_rivers=_flag(raw, "two_rivers"),
        board2=_cards(raw.get("board2") or [], phrase("place.river2")),
        shared=_shared(raw.get("shared")),
        burned=_cards(raw.get("burned") or [], phrase("place.burned")),
    )


def _codes(cards: tuple[Card, ...]) -> list[str]:
    return [str(card) for card in cards]


def table_to_json(table: Table) -> dict[str, Any]:
    """The JSON table object of ``table`` (what ``table_from_json`` reads back), without tokens."""
    players: list[dict[str, Any]] = []
    for p in table.players:
        player: dict[str, Any] = {"name": p.name, "cards": _codes(p.cards)}
        if p.francois_card is not None:
            player["francois_card"] = str(p.francois_card)
        players.append(player)
    raw: dict[str, Any] = {
        "variant": table.variant,
        "rules": rules_to_json(table.rules),
        "board": _codes(table.board),
        "players": players,
    }
    if table.two_rivers:
        raw["two_rivers"] = True
        raw["board2"] = _codes(table.board2)
    if table.shared:
        raw["shared"] = [
            {"between": list(s.between), "cards": _codes(s.cards)} for s in table.shared
        ]
    if table.burned:
        raw["burned"] = _codes(table.burned)
    return raw


def rules_to_json(rules: TableRules) -> dict[str, Any]:
    """The ``rules`` object that ``rules_from_json`` reads back (the base token rule left out,
    as rules saved before token rules existed are read)."""
    raw: dict[str, Any] = {
        "ranking": rules.ranking.value,
        "straights": rules.straights.value,
        "decks": rules.decks,
    }
    if rules.tokens is not TokenRule.BASE:
        raw["tokens"] = rules.tokens.value
    return raw


def house_rules_from_json(raw: Mapping[str, Any]) -> tuple[TableRules, bool]:
    """The table rules and the two-rivers switch of a night's or a preset's saved rules
    (other keys, such as a preset's group, are the saver's own)."""
    rules = rules_from_json({key: raw[key] for key in _RULE_KEYS if key in raw})
    return rules, raw.get("two_rivers") is True


def house_rules_to_json(rules: TableRules, two_rivers: bool) -> dict[str, Any]:
    """What ``house_rules_from_json`` reads back."""
    return {**rules_to_json(rules), "two_rivers": two_rivers}


def tokens_from_json(raw: Any) -> dict[str, int] | None:
    """The ``tokens`` object, or None when absent; numbers are checked against the hands later.
    Hands are named as the table names them (``same_name``: "Chloé" in either spelling)."""
    if raw is None:
        return None
    if not isinstance(raw, Mapping):
        raise InputError("json.tokens_object")
    tokens = {same_name(hand): token for hand, token in raw.items()}
    if len(tokens) < len(raw):
        twice = next(h for h in map(same_name, raw) if sum(same_name(k) == h for k in raw) > 1)
        raise InputError("json.tokens_same_hand", hand=shortened(twice))
    return tokens


def showdown_to_json(result: Showdown, lang: str = "en") -> dict[str, Any]:
    """The output object of ``companion showdown --json``."""
    hands = []
    for hand in result.hands:
        item: dict[str, Any] = {
            "id": hand.id,
            "owner": hand.owner,
            "category": hand.value.category.label,
            "best": [str(c) for c in hand.value.best],
            "description": describe(hand.value, lang),
            "river": hand.river,
        }
        if hand.value.played_as != hand.value.best:
            item["played_as"] = [str(c) for c in hand.value.played_as]
        hands.append(item)
    vault = None
    if result.verdict is not None:
        vault = {
            "opens": result.verdict.opens,
            "failures": [
                {
                    "hand": f.hand.id,
                    "token": f.token,
                    "beaten_by": f.beaten_by.id,
                    "reason": f.reason(lang),
                }
                for f in result.verdict.failures
            ],
        }
    out = {"hands": hands, "order": [list(group) for group in result.order], "vault": vault}
    if result.dog is not None:
        # Le chien beats every hand, whatever they hold (Crack's rules, as a joke).
        out["dog"] = {
            "category": result.dog.category.label,
            "best": [str(c) for c in result.dog.best],
            "played_as": [str(c) for c in result.dog.played_as],
            "description": describe(result.dog, lang),
            "beats": [h.id for h in result.hands],
        }
    return out

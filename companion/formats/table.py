"""The table format shared by the CLI and the app: JSON objects in, JSON objects out.

This is the edge where text becomes engine values; every error names the field, player or card.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.engine.cards import Card, parse_card, parse_cards
from companion.engine.gang.ranking import Ranking, Straights, TableRules
from companion.engine.gang.showdown import Showdown
from companion.engine.gang.variants import Player, SharedHand, Table
from companion.engine.gang.words import describe
from companion.errors import TableError

__all__ = ["table_from_json", "tokens_from_json", "showdown_to_json"]

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
    "name",
    "note",
}
_RULE_KEYS = {"straights", "ranking", "decks"}


def _bad(en: str, fr: str) -> TableError:
    return TableError(en, fr)


def _cards(value: Any, where: str) -> tuple[Card, ...]:
    if isinstance(value, str) or (
        isinstance(value, list) and all(isinstance(v, str) for v in value)
    ):
        return parse_cards(value, where)
    raise _bad(
        f"{where}: cards must be a list of card strings or one string",
        f"{where} : les cartes sont une liste de textes ou un texte",
    )


def _enum_value(enum: type[Ranking] | type[Straights], value: Any, key: str) -> Any:
    try:
        return enum(value)
    except ValueError:
        choices = ", ".join(repr(member.value) for member in enum)
        raise _bad(
            f"rules.{key} is {value!r}; expected one of {choices}",
            f"rules.{key} vaut {value!r} ; valeurs possibles : {choices}",
        ) from None


def _rules(raw: Any) -> TableRules:
    if raw is None:
        return TableRules()
    if not isinstance(raw, Mapping):
        raise _bad("rules must be an object", "rules doit être un objet")
    unknown = set(raw) - _RULE_KEYS
    if unknown:
        raise _bad(
            f"unknown rule(s): {', '.join(sorted(unknown))}",
            f"règle(s) inconnue(s) : {', '.join(sorted(unknown))}",
        )
    decks = raw.get("decks", 1)
    if isinstance(decks, bool) or not isinstance(decks, int):
        raise _bad(
            f"rules.decks must be 1 or 2, not {decks!r}", f"rules.decks vaut 1 ou 2, pas {decks!r}"
        )
    return TableRules(
        ranking=_enum_value(Ranking, raw.get("ranking", "high"), "ranking"),
        straights=_enum_value(Straights, raw.get("straights", "normal"), "straights"),
        decks=decks,
    )


def _player(raw: Any, index: int) -> Player:
    if not isinstance(raw, Mapping) or not isinstance(raw.get("name"), str):
        raise _bad(
            f"player {index + 1} needs a name and cards",
            f"le joueur {index + 1} doit avoir un nom et des cartes",
        )
    name = raw["name"].strip()
    given = raw.get("francois_card")
    francois = None
    if given is not None:
        if not isinstance(given, str):
            raise _bad(
                f"{name}'s francois_card must be one card",
                f"francois_card de {name} doit être une carte",
            )
        francois = parse_card(given, f"{name}'s card for François")
    return Player(name, _cards(raw.get("cards", []), f"{name}'s hand"), francois)


def _shared(raw: Any) -> tuple[SharedHand, ...]:
    if raw is None:
        return ()
    if not isinstance(raw, list):
        raise _bad("shared must be a list", "shared doit être une liste")
    hands = []
    for item in raw:
        between = item.get("between") if isinstance(item, Mapping) else None
        if not (
            isinstance(between, list)
            and len(between) == 2
            and all(isinstance(n, str) for n in between)
        ):
            raise _bad(
                "each shared hand needs 'between': [two player names]",
                "chaque main partagée a besoin de 'between' : [deux noms]",
            )
        where = f"the shared hand {'+'.join(between)}"
        hands.append(SharedHand((between[0], between[1]), _cards(item.get("cards", []), where)))
    return tuple(hands)


def table_from_json(raw: Any) -> Table:
    """A ``Table`` from the JSON table object of ``companion showdown``."""
    if not isinstance(raw, Mapping):
        raise _bad("a table must be a JSON object", "une table doit être un objet JSON")
    unknown = set(raw) - _TABLE_KEYS
    if unknown:
        raise _bad(
            f"unknown field(s): {', '.join(sorted(unknown))}",
            f"champ(s) inconnu(s) : {', '.join(sorted(unknown))}",
        )
    if "board" not in raw or "players" not in raw:
        raise _bad(
            "a table needs 'board' and 'players'", "une table doit avoir 'board' et 'players'"
        )
    players = raw["players"]
    if not isinstance(players, list):
        raise _bad("players must be a list", "players doit être une liste")
    variant = raw.get("variant", "classic")
    if not isinstance(variant, str):
        raise _bad("variant must be a name", "variant doit être un nom")
    return Table(
        players=tuple(_player(p, i) for i, p in enumerate(players)),
        board=_cards(raw["board"], "the river"),
        variant=variant,
        rules=_rules(raw.get("rules")),
        two_rivers=bool(raw.get("two_rivers", False)),
        board2=_cards(raw.get("board2") or [], "the second river"),
        shared=_shared(raw.get("shared")),
    )


def tokens_from_json(raw: Any) -> dict[str, int] | None:
    """The ``tokens`` object, or None when absent; numbers are checked against the hands later."""
    if raw is None:
        return None
    if not isinstance(raw, Mapping):
        raise _bad("tokens must map hand ids to numbers", "tokens associe les mains à des numéros")
    return dict(raw)


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
    return {"hands": hands, "order": [list(group) for group in result.order], "vault": vault}

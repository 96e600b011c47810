"""Words for hands and verdicts, in English and French, spoken to players.

>>> from companion.engine.cards import parse_cards
>>> from companion.engine.gang.ranking import rank_five
>>> describe(rank_five(parse_cards("Kh Kd 9c 9s 2h")), "fr")
'deux paires, rois et neuf'
"""

from __future__ import annotations

from companion.engine.cards import Rank
from companion.engine.gang.ranking import Category, HandValue, Ranking
from companion.engine.gang.table import FRANCOIS

__all__ = ["describe", "category_name", "explain_win", "hand_label", "rank_word"]

_EN_ONE = "two three four five six seven eight nine ten jack queen king ace".split()
_EN_MANY = "twos threes fours fives sixes sevens eights nines tens jacks queens kings aces".split()
_FR_ONE = "deux trois quatre cinq six sept huit neuf dix valet dame roi as".split()
_FR_MANY = "deux trois quatre cinq six sept huit neuf dix valets dames rois as".split()

_CATEGORY = {
    "en": (
        "high card",
        "pair",
        "two pair",
        "three of a kind",
        "straight",
        "flush",
        "full house",
        "four of a kind",
        "straight flush",
        "five of a kind",
        "flush house",
        "flush five",
    ),
    "fr": (
        "carte haute",
        "paire",
        "deux paires",
        "brelan",
        "quinte",
        "couleur",
        "full",
        "carré",
        "quinte flush",
        "quintuplé",
        "full couleur",
        "quintuplé couleur",
    ),
}

# What each deciding rank is, position by position, for the reason of a verdict.
_PARTS_EN = {
    Category.HIGH_CARD: ("highest card", "second card", "third card", "fourth card", "fifth card"),
    Category.PAIR: ("pair", "highest kicker", "second kicker", "third kicker"),
    Category.TWO_PAIR: ("top pair", "second pair", "kicker"),
    Category.THREE_OF_A_KIND: ("three of a kind", "highest kicker", "second kicker"),
    Category.STRAIGHT: ("top card",),
    Category.FULL_HOUSE: ("three of a kind", "pair"),
    Category.FOUR_OF_A_KIND: ("four of a kind", "kicker"),
    Category.FIVE_OF_A_KIND: ("rank",),
}
_PARTS_FR = {
    Category.HIGH_CARD: (
        "plus haute carte",
        "deuxième carte",
        "troisième carte",
        "quatrième carte",
        "cinquième carte",
    ),
    Category.PAIR: ("paire", "premier kicker", "deuxième kicker", "troisième kicker"),
    Category.TWO_PAIR: ("paire haute", "deuxième paire", "kicker"),
    Category.THREE_OF_A_KIND: ("brelan", "premier kicker", "deuxième kicker"),
    Category.STRAIGHT: ("hauteur de la quinte",),
    Category.FULL_HOUSE: ("brelan", "paire"),
    Category.FOUR_OF_A_KIND: ("carré", "kicker"),
    Category.FIVE_OF_A_KIND: ("rang",),
}
_SAME_PARTS = {
    Category.FLUSH: Category.HIGH_CARD,
    Category.STRAIGHT_FLUSH: Category.STRAIGHT,
    Category.FLUSH_HOUSE: Category.FULL_HOUSE,
    Category.FLUSH_FIVE: Category.FIVE_OF_A_KIND,
}


def rank_word(rank: Rank, lang: str, plural: bool = False) -> str:
    """``king``/``kings`` or ``roi``/``rois``."""
    if lang == "fr":
        return (_FR_MANY if plural else _FR_ONE)[rank]
    return (_EN_MANY if plural else _EN_ONE)[rank]


def _fr_a(rank: Rank) -> str:
    """French "à" + the rank: au roi, à la dame, à l'as."""
    if rank == Rank.ACE:
        return "à l'as"
    if rank == Rank.QUEEN:
        return "à la dame"
    return "au " + _FR_ONE[rank]


def _fr_de(rank: Rank) -> str:
    """French "de" + plural rank: de rois, d'as."""
    return "d'as" if rank == Rank.ACE else "de " + _FR_MANY[rank]


def _symbol(rank: Rank) -> str:
    return "10" if rank == Rank.TEN else rank.symbol


def category_name(category: Category, lang: str) -> str:
    return _CATEGORY.get(lang, _CATEGORY["en"])[category]


def describe(value: HandValue, lang: str = "en") -> str:
    """A hand in words: ``two pair, kings and nines`` / ``deux paires, rois et neuf``."""
    d = value.deciding
    cat = value.category
    if cat is Category.HIGH_CARD and value.ranking is not Ranking.HIGH:
        return "-".join(_symbol(r) for r in d)
    if lang == "fr":
        return _describe_fr(cat, d)
    return _describe_en(cat, d)


def _describe_en(cat: Category, d: tuple[Rank, ...]) -> str:
    one = _EN_ONE[d[0]]
    many = [_EN_MANY[r] for r in d]
    second = many[1] if len(d) > 1 else ""
    if cat is Category.STRAIGHT_FLUSH and d[0] == Rank.ACE:
        return "royal flush"
    templates = {
        Category.HIGH_CARD: "{one} high",
        Category.PAIR: "pair of {top}",
        Category.TWO_PAIR: "two pair, {top} and {second}",
        Category.THREE_OF_A_KIND: "three {top}",
        Category.STRAIGHT: "straight, {one} high",
        Category.FLUSH: "flush, {one} high",
        Category.FULL_HOUSE: "full house, {top} over {second}",
        Category.FOUR_OF_A_KIND: "four {top}",
        Category.STRAIGHT_FLUSH: "straight flush, {one} high",
        Category.FIVE_OF_A_KIND: "five {top}",
        Category.FLUSH_HOUSE: "flush house, {top} over {second}",
        Category.FLUSH_FIVE: "flush five, {top}",
    }
    return templates[cat].format(one=one, top=many[0], second=second)


def _describe_fr(cat: Category, d: tuple[Rank, ...]) -> str:
    many = [_FR_MANY[r] for r in d]
    second = many[1] if len(d) > 1 else ""
    if cat is Category.STRAIGHT_FLUSH and d[0] == Rank.ACE:
        return "quinte flush royale"
    templates = {
        Category.HIGH_CARD: "hauteur {one}",
        Category.PAIR: "paire {de}",
        Category.TWO_PAIR: "deux paires, {top} et {second}",
        Category.THREE_OF_A_KIND: "brelan {de}",
        Category.STRAIGHT: "quinte {a}",
        Category.FLUSH: "couleur {a}",
        Category.FULL_HOUSE: "full aux {top} par les {second}",
        Category.FOUR_OF_A_KIND: "carré {de}",
        Category.STRAIGHT_FLUSH: "quinte flush {a}",
        Category.FIVE_OF_A_KIND: "cinq {top}",
        Category.FLUSH_HOUSE: "full couleur aux {top} par les {second}",
        Category.FLUSH_FIVE: "cinq {top} de la même couleur",
    }
    return templates[cat].format(
        one=_FR_ONE[d[0]], top=many[0], second=second, de=_fr_de(d[0]), a=_fr_a(d[0])
    )


def hand_label(hand_id: str, lang: str = "en") -> str:
    """Who a hand belongs to, as a sentence subject: ``Bob``, ``Bob, hand 1``, ``François``."""
    if hand_id == FRANCOIS:
        return "François"
    if "+" in hand_id:
        return f"the shared hand {hand_id}" if lang == "en" else f"la main partagée {hand_id}"
    owner, _, part = hand_id.partition("/")
    if not part:
        return owner
    names = {
        "en": {"high": "high hand", "low": "low hand"},
        "fr": {"high": "main haute", "low": "main basse"},
    }[lang if lang == "fr" else "en"]
    word = names.get(part, ("hand " if lang == "en" else "main ") + part)
    return f"{owner}, {word}"


def _subject(hand_id: str, value: HandValue, lang: str) -> str:
    desc = describe(value, lang)
    label = hand_label(hand_id, lang)
    if lang == "fr":
        return f"{label} ({desc})"
    if "/" not in hand_id and "+" not in hand_id:
        return f"{label}'s {desc}"
    return f"{label} ({desc})"


def _why(winner: HandValue, loser: HandValue, lang: str) -> str:
    low = winner.ranking is not Ranking.HIGH
    if winner.category != loser.category:
        w, lo = category_name(winner.category, lang), category_name(loser.category, lang)
        if lang == "fr":
            return f"{w} bat {lo}" + (" en lowball" if low else "")
        return f"{w} beats {lo}" + (" at lowball" if low else "")
    parts = (_PARTS_FR if lang == "fr" else _PARTS_EN)[
        _SAME_PARTS.get(winner.category, winner.category)
    ]
    # Hands of one category decide on as many ranks; any pair of hands is still explained.
    for index, (w_rank, l_rank) in enumerate(zip(winner.deciding, loser.deciding, strict=False)):
        if w_rank != l_rank:
            part = parts[min(index, len(parts) - 1)]
            if lang == "fr":
                return f"{part} {_symbol(w_rank)} contre {_symbol(l_rank)}"
            word = "under" if low else "over"
            return f"{part} {_symbol(w_rank)} {word} {_symbol(l_rank)}"
    return "tie" if lang == "en" else "égalité"


def explain_win(
    winner_id: str, winner: HandValue, loser_id: str, loser: HandValue, lang: str = "en"
) -> str:
    """One sentence: who beats whom and what decides it.

    >>> from companion.engine.cards import parse_cards
    >>> from companion.engine.gang.ranking import rank_five
    >>> bob = rank_five(parse_cards("Kh Kd 9c 9s 2h"))
    >>> ana = rank_five(parse_cards("Ks Kc 7c 7s 3h"))
    >>> explain_win("Bob", bob, "Ana", ana)
    "Bob's two pair, kings and nines, beats Ana's two pair, kings and sevens: second pair 9 over 7"
    """
    win = _subject(winner_id, winner, lang)
    lose = _subject(loser_id, loser, lang)
    if lang == "fr":
        return f"{win} bat {lose} : {_why(winner, loser, lang)}"
    comma = "," if "," in describe(winner, lang) and win.endswith(describe(winner, lang)) else ""
    return f"{win}{comma} beats {lose}: {_why(winner, loser, lang)}"

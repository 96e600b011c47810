"""Cribbage counts as players say them, in English or French, with card glyphs.

Pure functions from scores to lines of text, shared by the CLI and the app.

>>> from companion.engine.cards import parse_cards
>>> from companion.engine.cribbage.score import score_show
>>> show = score_show(parse_cards("4c 5d 6h Kc"), parse_cards("5s")[0])
>>> describe_show(show, "fr")[1]
'quinze deux : 4♣ 5♦ 6♥'
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from companion.engine.cards import Card
from companion.engine.cribbage.discard import DiscardAdvice, DiscardOption
from companion.engine.cribbage.score import Rule, ScoreItem, Show
from companion.messages.numbers import numbers

__all__ = ["number_word", "describe_show", "describe_peg", "describe_advice", "item_label"]

_WORDS_EN = (
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
    "fifteen sixteen seventeen eighteen nineteen"
).split()
_WORDS_FR = (
    "zéro un deux trois quatre cinq six sept huit neuf dix onze douze treize quatorze quinze "
    "seize dix-sept dix-huit dix-neuf"
).split()


def number_word(number: int, lang: str = "en") -> str:
    """A score in words, as counted aloud (0 to 39; digits beyond).

    >>> number_word(21), number_word(21, "fr"), number_word(31, "fr")
    ('twenty-one', 'vingt et un', 'trente et un')
    """
    french = lang == "fr"
    words = _WORDS_FR if french else _WORDS_EN
    if 0 <= number < 20:
        return words[number]
    if not 20 <= number < 40:
        return str(number)
    tens = ("vingt", "trente") if french else ("twenty", "thirty")
    head, unit = tens[number // 10 - 2], number % 10
    if unit == 0:
        return head
    if french and unit == 1:
        return f"{head} et un"
    return f"{head}-{words[unit]}"


_LABELS = {
    "en": {
        Rule.FIFTEEN: "fifteen",
        Rule.PAIR: "pair",
        Rule.RUN: "run of {length}",
        Rule.FLUSH: "flush",
        Rule.NOBS: "nobs",
        Rule.HEELS: "his heels",
        Rule.THIRTY_ONE: "thirty-one",
        Rule.PAIR_ROYAL: "pair royal",
        Rule.DOUBLE_PAIR_ROYAL: "double pair royal",
        Rule.GO: "go",
        Rule.LAST_CARD: "last card",
    },
    "fr": {
        Rule.FIFTEEN: "quinze",
        Rule.PAIR: "paire",
        Rule.RUN: "suite de {length}",
        Rule.FLUSH: "couleur",
        Rule.NOBS: "valet de la couleur de départ (nobs)",
        Rule.HEELS: "valet retourné (his heels)",
        Rule.THIRTY_ONE: "trente et un",
        Rule.PAIR_ROYAL: "brelan",
        Rule.DOUBLE_PAIR_ROYAL: "carré",
        Rule.GO: "go",
        Rule.LAST_CARD: "dernière carte",
    },
}

_PHRASES = {
    "en": {
        "for": "{label} for {points}",
        "makes": "{label} for {points} makes {running}",
        "colon": ": ",
        "hand": "hand: {cards}, starter {starter}",
        "crib": "crib: {cards}, starter {starter}",
        "total": "total: {total} (fifteens {fifteens}, pairs {pairs}, runs {runs}, "
        "flush {flush}, nobs {nobs})",
        "nineteen": "nothing: a \u201cnineteen\u201d hand",
        "peg_total": "{points} for {card}",
        "peg_none": "nothing for {card}",
        "by_hand": "best discards for the hand alone (expected hand over 46 starters):",
        "by_net": "best discards counting the crib ({sign} expected crib):",
        "sign_dealer": "your crib: plus",
        "sign_pone": "their crib: minus",
        "option": "discard {discard}, keep {keep}: hand {hand} {op} crib {crib} = {net}",
    },
    "fr": {
        "for": "{label} pour {points}",
        "makes": "{label} pour {points}, ça fait {running}",
        "colon": " : ",
        "hand": "main : {cards}, carte de départ {starter}",
        "crib": "crib : {cards}, carte de départ {starter}",
        "total": "total : {total} (quinzes {fifteens}, paires {pairs}, suites {runs}, "
        "couleur {flush}, nobs {nobs})",
        "nineteen": "rien : une main « dix-neuf »",
        "peg_total": "{points} pour {card}",
        "peg_none": "rien pour {card}",
        "by_hand": "meilleurs écarts pour la main seule (main espérée sur 46 cartes de départ) :",
        "by_net": "meilleurs écarts en comptant le crib ({sign} le crib espéré) :",
        "sign_dealer": "votre crib : plus",
        "sign_pone": "crib adverse : moins",
        "option": "écarter {discard}, garder {keep} : main {hand} {op} crib {crib} = {net}",
    },
}


def _phrases(lang: str) -> dict[str, str]:
    return _PHRASES.get(lang, _PHRASES["en"])


def _glyphs(cards: Sequence[Card]) -> str:
    return " ".join(card.pretty() for card in cards)


def item_label(item: ScoreItem, lang: str = "en") -> str:
    """The name of the combination: ``run of 3``, ``suite de 3``, ``pair royal``..."""
    labels = _LABELS.get(lang, _LABELS["en"])
    return labels[item.rule].format(length=number_word(len(item.cards), lang))


def describe_show(show: Show, lang: str = "en") -> list[str]:
    """The show counted aloud: a header, one line per combination, then the total."""
    phrases = _phrases(lang)
    header = phrases["crib" if show.crib else "hand"]
    lines = [header.format(cards=_glyphs(show.hand), starter=show.starter.pretty())]
    running = 0
    for item in show.items:
        running += item.points
        if item.rule == Rule.FIFTEEN:
            # Fifteens are counted as "fifteen two, fifteen four...": the running total says it.
            said = f"{item_label(item, lang)} {number_word(running, lang)}"
        else:
            said = phrases["makes"].format(
                label=item_label(item, lang), points=item.points, running=number_word(running, lang)
            )
        lines.append(said + phrases["colon"] + _glyphs(item.cards))
    if not show.items:
        lines.append(phrases["nineteen"])
    lines.append(
        phrases["total"].format(
            total=show.total,
            fifteens=show.fifteens,
            pairs=show.pairs,
            runs=show.runs,
            flush=show.flush,
            nobs=show.nobs,
        )
    )
    return lines


def describe_peg(
    count_cards: Sequence[Card], items: Sequence[ScoreItem], lang: str = "en"
) -> list[str]:
    """Pegging points for the last card of a count: one line per reason, then the total."""
    phrases = _phrases(lang)
    lines = [
        phrases["for"].format(label=item_label(item, lang), points=item.points)
        + phrases["colon"]
        + _glyphs(item.cards)
        for item in items
    ]
    points = sum(item.points for item in items)
    last = count_cards[-1].pretty() if count_cards else "-"
    key = "peg_total" if points else "peg_none"
    lines.append(phrases[key].format(points=points, card=last))
    return lines


def _decimal(value: Fraction, lang: str) -> str:
    return numbers(lang).decimal(float(value), 2)


def _option_line(option: DiscardOption, dealer: bool, lang: str) -> str:
    return _phrases(lang)["option"].format(
        discard=_glyphs(option.discard),
        keep=_glyphs(option.keep),
        hand=_decimal(option.hand, lang),
        op="+" if dealer else "-",
        crib=_decimal(option.crib, lang),
        net=_decimal(option.net, lang),
    )


def describe_advice(advice: DiscardAdvice, lang: str = "en", top: int = 15) -> list[str]:
    """The discard advice: both rankings, best first, with their expectations."""
    phrases = _phrases(lang)
    sign = phrases["sign_dealer" if advice.dealer else "sign_pone"]
    lines = [phrases["by_net"].format(sign=sign)]
    lines += ["  " + _option_line(option, advice.dealer, lang) for option in advice.by_net[:top]]
    lines.append(phrases["by_hand"])
    lines += ["  " + _option_line(option, advice.dealer, lang) for option in advice.by_hand[:top]]
    return lines

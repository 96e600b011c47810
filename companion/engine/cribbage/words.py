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
from companion.engine.cribbage.cut import DealCut
from companion.engine.cribbage.discard import DiscardAdvice, DiscardOption
from companion.engine.cribbage.score import Rule, ScoreItem, Show
from companion.messages import text
from companion.messages.numbers import numbers

__all__ = [
    "number_word",
    "describe_show",
    "describe_peg",
    "describe_advice",
    "describe_cut",
    "item_label",
]


def number_word(number: int, lang: str = "en") -> str:
    """A score in words, as counted aloud (0 to 39; digits beyond).

    >>> number_word(21), number_word(21, "fr"), number_word(31, "fr")
    ('twenty-one', 'vingt et un', 'trente et un')
    """
    if 0 <= number < 20:
        return text(f"words.number.{number}", lang)
    if not 20 <= number < 40:
        return str(number)
    tens, unit = text(f"words.number.tens.{number // 10}", lang), number % 10
    if unit == 0:
        return tens
    key = "words.number.tens_and_one" if unit == 1 else "words.number.tens_and"
    return text(key, lang, tens=tens, unit=text(f"words.number.{unit}", lang))


def _glyphs(cards: Sequence[Card]) -> str:
    return " ".join(card.pretty() for card in cards)


def item_label(item: ScoreItem, lang: str = "en") -> str:
    """The name of the combination: ``run of 3``, ``suite de 3``, ``pair royal``..."""
    return text(
        f"words.crib.rule.{item.rule.value}", lang, length=number_word(len(item.cards), lang)
    )


def describe_show(show: Show, lang: str = "en") -> list[str]:
    """The show counted aloud: a header, one line per combination, then the total."""
    header = "words.crib.crib" if show.crib else "words.crib.hand"
    lines = [text(header, lang, cards=_glyphs(show.hand), starter=show.starter.pretty())]
    running = 0
    for item in show.items:
        running += item.points
        if item.rule == Rule.FIFTEEN:
            # Fifteens are counted as "fifteen two, fifteen four...": the running total says it.
            said = f"{item_label(item, lang)} {number_word(running, lang)}"
        else:
            said = text(
                "words.crib.makes",
                lang,
                label=item_label(item, lang),
                points=item.points,
                running=number_word(running, lang),
            )
        lines.append(said + text("words.crib.colon", lang) + _glyphs(item.cards))
    if not show.items:
        lines.append(text("words.crib.nineteen", lang))
    lines.append(
        text(
            "words.crib.total",
            lang,
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
    lines = [
        text("words.crib.for", lang, label=item_label(item, lang), points=item.points)
        + text("words.crib.colon", lang)
        + _glyphs(item.cards)
        for item in items
    ]
    points = sum(item.points for item in items)
    last = count_cards[-1].pretty() if count_cards else "-"
    key = "words.crib.peg_total" if points else "words.crib.peg_none"
    lines.append(text(key, lang, points=points, card=last))
    return lines


def _decimal(value: Fraction, lang: str) -> str:
    return numbers(lang).decimal(float(value), 2)


def _option_line(option: DiscardOption, dealer: bool, lang: str) -> str:
    return text(
        "words.crib.option",
        lang,
        discard=_glyphs(option.discard),
        keep=_glyphs(option.keep),
        hand=_decimal(option.hand, lang),
        op="+" if dealer else "-",
        crib=_decimal(option.crib, lang),
        net=_decimal(option.net, lang),
    )


def describe_advice(advice: DiscardAdvice, lang: str = "en", top: int = 15) -> list[str]:
    """The discard advice: both rankings, best first, with their expectations."""
    sign = text("words.crib.sign_dealer" if advice.dealer else "words.crib.sign_pone", lang)
    lines = [text("words.crib.by_net", lang, sign=sign)]
    lines += ["  " + _option_line(option, advice.dealer, lang) for option in advice.by_net[:top]]
    lines.append(text("words.crib.by_hand", lang))
    lines += ["  " + _option_line(option, advice.dealer, lang) for option in advice.by_hand[:top]]
    return lines


def describe_cut(
    cuts: Sequence[DealCut], lang: str = "en", names: Sequence[str] | None = None
) -> list[str]:
    """The cuts for the first deal, one line each: a tie (cut again), or who deals first."""
    a, b = names if names is not None else (text("words.crib.player", lang, n=n) for n in (1, 2))
    lines = []
    for n, cut in enumerate(cuts, start=1):
        first, second = (card.pretty() for card in cut.cards)
        if cut.dealer is None:
            outcome = text("words.crib.cut_tie", lang)
        else:
            outcome = text("words.crib.cut_dealer", lang, dealer=(a, b)[cut.dealer])
        lines.append(
            text(
                "words.crib.cut", lang, n=n, a=a, b=b, card_a=first, card_b=second, outcome=outcome
            )
        )
    return lines

"""A variant's name as players read it, with the table's token rule when it is not the base one.

>>> from companion.messages import render
>>> render(variant_words("classic", "lsd"), "en"), render(variant_words("classic"), "fr")
('classic (LSD tokens)', 'classique')
"""

from __future__ import annotations

from companion.messages import Phrase, named, phrase

__all__ = ["variant_words"]


def variant_words(variant: str, tokens: str = "base") -> Phrase | str:
    """``variant`` in words (as it is when unknown), and its token rule unless it is base."""
    name = named(f"variant.{variant}", variant)
    if tokens == "base":
        return name
    rule = named(f"token_rule.{tokens}", tokens)
    return phrase("token_rule.with_variant", variant=name, rule=rule)

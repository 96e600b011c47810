"""How each language writes numbers: one formatter per language, used wherever a number is shown.

>>> numbers("fr").decimal(2.25, 1), numbers("en").decimal(2.25, 2)
('2,2', '2.25')
>>> numbers("fr").percent(0.625, 1), numbers("en").percent(0.625)
('62,5 %', '62%')
>>> numbers("fr").whole(12345), numbers("en").whole(12345)
('12\u202f345', '12,345')
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Numbers", "NUMBERS", "numbers"]


@dataclass(frozen=True)
class Numbers:
    """One language's decimal mark, thousands separator and percent sign (with the space
    before it where the language puts one)."""

    decimal_mark: str
    thousands: str
    percent_sign: str

    def decimal(self, x: float, digits: int) -> str:
        """``x`` with ``digits`` decimals."""
        return self.marked(f"{x:.{digits}f}")

    def whole(self, n: int) -> str:
        """A whole number, its thousands apart."""
        return f"{n:,}".replace(",", self.thousands)

    def percent(self, p: float, digits: int = 0) -> str:
        """A share (0.62) as a percentage."""
        return self.decimal(100 * p, digits) + self.percent_sign

    def marked(self, written: str) -> str:
        """A number written the Python way (``2.5``) with this language's decimal mark."""
        return written.replace(".", self.decimal_mark)


NUMBERS = {
    "en": Numbers(decimal_mark=".", thousands=",", percent_sign="%"),
    # A narrow no-break space between thousands; a space before the percent sign.
    "fr": Numbers(decimal_mark=",", thousands="\u202f", percent_sign=" %"),
}


def numbers(lang: str) -> Numbers:
    """``lang``'s way with numbers (English when the language is unknown, as for messages)."""
    return NUMBERS.get(lang, NUMBERS["en"])

"""Matching Page One for cardcli: the Crazy-Eights-style race of RULES.md ``matching``."""

from .variant import MatchingVariant

__all__ = ["MatchingVariant"]

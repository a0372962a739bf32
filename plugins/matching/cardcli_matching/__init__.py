"""Matching Page One for cardcli: the Crazy-Eights-style race (``docs/variants/matching.md``)."""

from .variant import MatchingVariant

__all__ = ["MatchingVariant"]

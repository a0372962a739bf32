"""Trick-taking Page One for cardcli: the variant of RULES.md ``trick``."""

from .variant import TrickVariant

__all__ = ["TrickVariant"]

"""Trick-taking Page One for cardcli (``docs/variants/trick.md``)."""

from .variant import TrickVariant

__all__ = ["TrickVariant"]

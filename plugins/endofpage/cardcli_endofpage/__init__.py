"""End of the Page for cardcli: the rummy game of RULES.md ``endofpage``."""

from .variant import EndOfPageVariant

__all__ = ["EndOfPageVariant"]

"""End of the Page for cardcli: rummy scored to the end of the page (``docs/variants/endofpage.md``)."""

from .variant import EndOfPageVariant

__all__ = ["EndOfPageVariant"]

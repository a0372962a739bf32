"""Trick Page One's messages in the language cardcli speaks: the gettext domain
``cardcli-trick`` in this package's ``locale`` folder (see docs/plugins.md)."""

from cardcli.kit.language import N_, Catalog

#: The plugin's catalog: ``_("...")`` where a message is made, the variant's
#: ``catalog`` for what the core shows of its declarations.
_ = Catalog("cardcli-trick", "cardcli_trick")

__all__ = ["N_", "_"]

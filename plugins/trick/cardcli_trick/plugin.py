"""The entry point: the variant and its shipped rulesets (the project's
rulesets/trick-*.toml, linked into the package so they ship in the wheel)."""

from importlib.resources import files

from cardcli.contract.hookspecs import VariantPlugin

from .variant import TrickVariant

plugin = VariantPlugin(TrickVariant, files("cardcli_trick") / "rulesets")
cardcli_register_variants = plugin.cardcli_register_variants
cardcli_register_rulesets = plugin.cardcli_register_rulesets

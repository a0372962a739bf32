"""The entry point: registers the variant with cardcli through pluggy."""

from cardcli.hookspecs import hookimpl

from .variant import EndOfPageVariant


@hookimpl
def cardcli_register_variants(register):
    register(EndOfPageVariant())

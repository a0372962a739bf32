"""The entry point: registers the variant and its shipped rulesets with cardcli through pluggy."""

from collections.abc import Callable
from importlib.resources import files
from importlib.resources.abc import Traversable

from cardcli.hookspecs import hookimpl

from .variant import EndOfPageVariant


@hookimpl
def cardcli_register_variants(register: Callable[[EndOfPageVariant], None]) -> None:
    register(EndOfPageVariant())


@hookimpl
def cardcli_register_rulesets(register: Callable[[Traversable], None]) -> None:
    # The files are the project's rulesets/endofpage-*.toml, linked here so they ship in the wheel.
    register(files("cardcli_endofpage") / "rulesets")

"""``cardcli rules``: every option of a variant, or what a ruleset resolves to."""

from __future__ import annotations

import json
from pathlib import PurePath

import click

from ..contract.options import show_value
from ..contract.variant import Variant
from ..engine.plugins import Registry
from ..engine.rulesets import Ruleset, load_ruleset, ruleset_text, shipped_rulesets
from ..kit.errors import CardcliError
from ..kit.fit import lead_in, paged, terminal_width, visible_width, wrap
from ..kit.language import core as _
from ..kit.safe_text import printable
from ..records.saved import shown_path
from .common import complete_variant, handle_errors, registry, resolve_ruleset, ruleset_option

_show = show_value


@click.command(help=_("""Show VARIANT's options (default, allowed values, meaning), or a ruleset's values.

    \b
    cardcli rules matching
    cardcli rules --ruleset american
    cardcli rules matching --ruleset path/to/house.toml
    """))
@click.argument("variant", required=False, shell_complete=complete_variant)
@ruleset_option(_("Show what this ruleset resolves to."))
@click.option("--json", "as_json", is_flag=True, help=_("Print the resolved options as JSON."))
@handle_errors
def rules(variant: str | None, ruleset: str | None, as_json: bool) -> None:
    """``cardcli rules`` (``--json`` stays English: it is an interface)."""
    reg = registry()
    if variant is None and ruleset is None:
        raise click.UsageError(_("name a VARIANT or give --ruleset (see: cardcli variants)"))
    if ruleset is not None:
        loaded = load_ruleset(ruleset, reg, variant)
        target = reg.get(loaded.variant)
    else:
        target = reg.get(variant or "")
        loaded = resolve_ruleset(target, None)
    if as_json:
        click.echo(json.dumps({"variant": target.name, "ruleset": loaded.name, "source": loaded.source,
                               "options": loaded.options,
                               "constraints": [*target.constraints, "min_players is at most max_players"]},
                              indent=2))
        return
    with paged():  # a screen or two of options: paged at a terminal
        _show_rules(reg, target, loaded, ruleset)


def _show_rules(reg: Registry, target: Variant, loaded: Ruleset, ruleset: str | None) -> None:
    click.echo(_("{title} - variant {name!r}").format(title=target.words(target.title), name=target.name))
    if ruleset is not None:
        where = shown_path(loaded.source)
        if len(where) + 4 > terminal_width():  # a file deep in an installed package: --json has its path
            where = _("{file}; --json gives its path").format(file=PurePath(where).name)
        name = ruleset_text(target, loaded.name)  # a shipped ruleset's in the chosen language
        click.echo(printable(lead_in(_("Ruleset: {name}").format(name=name), f"({where})",
                                     terminal_width()), newlines=True))
        if loaded.description:
            description = ruleset_text(target, loaded.description)
            click.echo(printable("\n".join(wrap(f"  {description}", terminal_width(), indent=2)),
                                 newlines=True))
    click.echo("")
    name_width = max(visible_width(_("option")), *(len(o.name) for o in target.options))
    header = _("value") if ruleset is not None else _("default")
    value_width = max(visible_width(header),
                      *(len(_show(loaded.options[o.name])) + 1 for o in target.options))
    heads = (pad(_("option"), name_width), pad(header, value_width), _("allowed / meaning"))
    click.echo("  " + "  ".join(heads))
    column = 2 + name_width + 2 + value_width + 2  # where the allowed values and the meaning start
    width = terminal_width()
    for option in target.options:
        value = loaded.options[option.name]
        changed = "*" if value != option.default else " "
        for text in (f"  {option.name:<{name_width}}  {_show(value) + changed:<{value_width}}  "
                     f"{option.allowed()}", " " * column + target.words(option.help)):
            click.echo("\n".join(wrap(text, width, indent=column)))
    if ruleset is not None and any(loaded.options[o.name] != o.default for o in target.options):
        click.echo("\n" + _("  * differs from the default"))
    click.echo("\n" + _("Between options:"))
    for constraint in (*map(target.words, target.constraints), _("min_players is at most max_players")):
        click.echo("\n".join(wrap(f"  - {constraint}", width, indent=4)))
    if any(o.nullable for o in target.options):
        click.echo("\n".join(wrap("\n" + _('"none": write "none" in a ruleset (TOML has no null); a record '
                                            'header may write null or "none".'), width)))
    shipped = shipped_rulesets(reg, target.name)
    if shipped and ruleset is None:
        click.echo("\n" + _("Shipped rulesets (use with --ruleset NAME):"))
        width = max(len(name) for name, _path, _data in shipped)
        for name, _path, data in shipped:
            title = ruleset_text(target, data["name"]) if isinstance(data.get("name"), str) else name
            click.echo(printable(f"  {name:<{width}}  {title}"))


def pad(text: str, width: int) -> str:
    """``text`` padded with spaces to ``width`` terminal columns (a wide character takes two)."""
    return text + " " * max(0, width - visible_width(text))


__all__ = ["CardcliError", "rules"]

"""Tools for testing variants, the core's own and any plugin's.

The heart is :class:`VariantConformance`, the variant-independent checks
written once.  A plugin's test module runs all of them in two lines::

    from cardcli.testing import VariantConformance

    class TestMyVariant(VariantConformance):
        variant = "myvariant"

It needs pytest and hypothesis (the ``test`` extra).  The helpers below it
(:func:`play_game`, :func:`play_positions`, :func:`record_bytes`,
:func:`write_record`, :func:`validate_bytes`, :func:`validate_command`, ...)
are plain functions for a variant's own rule tests;
:func:`make_golden_records` (or ``python -m cardcli.testing golden VARIANT
FOLDER``) writes the golden records the kit keeps checking.
"""

from .checks import Position
from .conformance import VariantConformance
from .games import (
    assert_cards_conserved,
    fit_players,
    play_game,
    play_positions,
    record_bytes,
    record_lines,
    replay_states,
    state_signature,
    validate_bytes,
    validate_command,
    write_record,
)
from .golden import check_golden_record, make_golden_records

__all__ = [
    "Position",
    "VariantConformance",
    "assert_cards_conserved",
    "check_golden_record",
    "fit_players",
    "make_golden_records",
    "play_game",
    "play_positions",
    "record_bytes",
    "record_lines",
    "replay_states",
    "state_signature",
    "validate_bytes",
    "validate_command",
    "write_record",
]

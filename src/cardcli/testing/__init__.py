"""Tools for testing variants, the core's own and any plugin's.

The heart is :class:`VariantConformance`, the variant-independent checks
written once.  A plugin's test module runs all of them in two lines::

    from cardcli.testing import VariantConformance

    class TestMyVariant(VariantConformance):
        variant = "myvariant"

It needs pytest and hypothesis (the ``test`` extra).  The helpers below it
(:func:`play_game`, :func:`record_bytes`, :func:`write_record`,
:func:`validate_bytes`, :func:`validate_command`, ...) are
plain functions for a variant's own rule tests.
"""

from .conformance import (
    VariantConformance,
    assert_cards_conserved,
    play_game,
    record_bytes,
    record_lines,
    replay_states,
    state_signature,
    validate_bytes,
    validate_command,
    write_record,
)

__all__ = [
    "VariantConformance",
    "assert_cards_conserved",
    "play_game",
    "record_bytes",
    "record_lines",
    "replay_states",
    "state_signature",
    "validate_bytes",
    "validate_command",
    "write_record",
]

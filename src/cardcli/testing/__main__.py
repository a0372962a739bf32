"""``python -m cardcli.testing golden VARIANT FOLDER``: make a variant's golden records."""

import sys

from .golden import main

if len(sys.argv) < 2 or sys.argv[1] != "golden":
    print("usage: python -m cardcli.testing golden VARIANT FOLDER [--games N] [--seed N] "
          "[--players N] [--ruleset NAME]", file=sys.stderr)
    sys.exit(2)
sys.exit(main(sys.argv[2:]))

"""cardcli: the Page One family of card games at the terminal."""

__version__ = "0.1.0"

# A plugin written for the earlier contract that imports a renamed module is
# told where it went (cardcli.moved), rather than only that it is missing.
from . import moved as _moved

_moved.install()

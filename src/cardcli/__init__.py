"""cardcli: the Page One family of card games at the terminal."""

__version__ = "0.1.0"

"""wiezen: keeps the score of Flemish whist at real tables."""

__version__ = "0.1.0"

"""`python -m wiezen_score`: the same as the `wiezen` command."""

from .cli import main

main()

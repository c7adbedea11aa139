"""The service layer: what the prompt (`wiezen play`) and the scorer's phone (`wiezen serve`) both do at the table.

It sits between the ledger and the two front ends: core -> views -> ledger -> service -> web, cli. A line typed
at the prompt and a line sent from the phone go through the same :class:`~.table.Table`, which answers with
structured :class:`~.table.Answer` values (and y/N questions as :class:`~.table.Question`); it never prints,
never asks, and never imports click.
"""

"""The live sheet on the players' phones (`wiezen serve`): an HTTP server, its live-sheet state and the scorer's form.

The server is the standard library's threaded HTTP server with server-sent events (web/server.py); one poller
thread keeps the latest rendering of the sheet (web/live.py); the scorer's form takes every line `wiezen play`
takes, through the same table service (web/scorer.py, service/table.py). The page itself is rendered by the
pure presenters of views/live.py. Nothing here prints or parses options: cli/serve.py does that.
"""

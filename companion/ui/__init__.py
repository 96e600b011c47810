"""The table-side app (``companion app``): one folder per screen (``state``, ``actions``, ``view``),
the shell around them (``app``, ``root``, ``navigation``, ``services``, ``widgets``), the server.

The states and their rules import nothing from Flet, so they are used and tested without a client.
"""

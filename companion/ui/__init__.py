"""The table-side app (``companion app``), in three layers, each importing only those below it:

- the shared kit (``kit/``: ``banner``, ``cards``, ``text``, ``page``, ``services``,
  ``widgets``, ``fonts``, ``photo/``...): what every screen uses;
- the screens, one folder each (``state``, ``actions``, views, and ``host``: what the screen
  needs of the app's state, as a Protocol); a screen imports the shared kit and its own folder;
- the app (``shell/``: the app's state, navigation, the Flet component (``app``) and its parts,
  the web server (``server``)): it holds the screens and passes each what it opens of the others.

The states and their rules import nothing from Flet, so they are used and tested without a client.
"""

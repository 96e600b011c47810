"""A saved heist drawn as one picture to share (``picture``), its words in the app's font
(``glyphs``): above the log and the engine, below the app and the CLI."""

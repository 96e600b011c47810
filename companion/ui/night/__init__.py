"""The Game night screen: the night's heists and cribbage games, undo, close."""

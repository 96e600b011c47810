"""The Showdown screen: a table read from a photo or typed, fixed, tokens, the verdict."""

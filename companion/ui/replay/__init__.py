"""The heist Replay screen: odds street by street, best tokens, token mistakes."""

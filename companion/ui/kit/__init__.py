"""The shared kit: what every screen uses (the services, the banner, widgets, card fields, words,
the page as a screen sees it, the app's font, the photo with its reads). It imports no screen and
not the app."""

"""4. Second look: the frames a first read implies, read again; the card faces left unread."""

"""3. Merging: the corner reads merged into cards (one read per corner, one place per card)."""

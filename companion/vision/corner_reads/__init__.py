"""2. Corner reads: each proposed corner cut from the full-resolution photo and read."""

"""1. Proposals: the candidate index corners of a frame, each a frame (corner, edges, width)."""

"""What every stage of the reader shares: a photo's pixels (``image``), its light (``light``),
card paper (``paper``), frames and crops (``geometry``), the model sessions (``sessions``) and
the read's result (``detections``). It imports no stage."""

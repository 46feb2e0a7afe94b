"""Writes of the quality rubric, one module per stage: the rubric, calibration, rating rounds."""

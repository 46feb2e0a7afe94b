"""Reads for the rubric pages: agreement, quality breakdowns, rating rounds."""

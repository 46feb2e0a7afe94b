"""Writes of the quarterly review, one module per concern: cycles, verdicts, write-back."""

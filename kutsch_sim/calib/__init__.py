"""Calibration: what the bots state at their decisions against what was true (``record``),
and the tables and fits made from it."""

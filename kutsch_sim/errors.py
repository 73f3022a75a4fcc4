"""Exceptions raised for bad user input (item sets, data tables, command-line options)."""

from __future__ import annotations


class KutschError(ValueError):
    """Bad user input. The message is one line; the CLI prints it and exits with status 2."""

"""Helpers shared by the rule variants' scenario tests (tests/test_rules_variants*.py)."""

from __future__ import annotations


def rows(out) -> list[tuple]:
    """Events after the set-up as (name, a, b, c, d), without the TURN markers."""
    return [(e.name, e.a, e.b, e.c, e.d) for e in out.played() if e.name != "turn"]

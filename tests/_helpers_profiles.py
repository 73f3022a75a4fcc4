"""Profile tables of one's own in a test: ``KUTSCH_SIM_PROFILES`` set to them, read afresh at the
next profile lookup, and the loaded profiles restored when the test ends (monkeypatch)."""

from __future__ import annotations

import os

from kutsch_sim.bots import profiles


def use_profile_tables(monkeypatch, *paths) -> None:
    monkeypatch.setattr(profiles, "PROFILES", dict(profiles.PROFILES))
    monkeypatch.setattr(profiles, "_user_read", False)
    monkeypatch.setenv(profiles.ENV_FILES, os.pathsep.join(str(p) for p in paths))

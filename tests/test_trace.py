"""The plain-English trace says what the event log says (kutsch-sim play)."""

from __future__ import annotations

import re

from kutsch_sim.api import GameConfig, play_game
from kutsch_sim.bots.reasons import reason_row_text
from kutsch_sim.enums import CARD_KIND_LIST, EV, IK
from kutsch_sim.trace import CARD_NAMES, format_game


def test_offers_are_marked_unrefusable_exactly_when_the_engine_forced_them() -> None:
    """R4.5 (Broken Mirror), R4.6 (Black Pearl), R8 (Diplomat): the OFFER event's last field
    says the receiver may not refuse; the trace must say so for those offers and no others
    (it once keyed the remark on the card number, marking every offer of card 1, a Key)."""
    cfg = GameConfig(5, "full", ("smart",))
    forced_kinds: set[int] = set()
    plain_key_offer = False
    for game in range(12):
        r = play_game(cfg, 7, game)
        offers = r.events[r.events[:, 0] == EV.OFFER]
        lines = [ln for ln in format_game(r, reason_row_text).splitlines() if re.search(r" offers .* to seat \d", ln)
                 and not ln.lstrip().startswith("[")]
        assert len(lines) == len(offers)
        for row, line in zip(offers, lines, strict=True):
            card, must = int(row[4]), int(row[5])
            assert f"offers {CARD_NAMES[card]} to seat {int(row[3])}" in line
            assert line.endswith("(it cannot be refused).") == (must == 1), line
            if must:
                forced_kinds.add(CARD_KIND_LIST[card])
            elif CARD_KIND_LIST[card] == IK.KEY:
                plain_key_offer = True
    assert IK.PEARL in forced_kinds and plain_key_offer

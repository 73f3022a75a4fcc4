"""Declarations of the smart bot (R6.3, R6.4, R7): the Drink of Power only where it adds what
the plain declaration lacks, and declarations by value.

The positions come from tests/_helpers_bots_view.py: a dealt game at set-up, with cards then
moved into a seat's hand by the engine's own ``give_card_nb``.
"""

from __future__ import annotations

import numpy as np
import pytest
from numba import njit

from kutsch_sim.bots.dispatch import bot_choose_nb
from kutsch_sim.engine.game import action_options_nb
from kutsch_sim.engine.state import give_card_nb
from kutsch_sim.enums import ACT_DECLARE, ACT_MUL, DEC, DK, ORDER

from _helpers_bots_view import position


@njit(cache=True)
def declare_choice_nb(st, seat, cards, rs0):
    """Give ``seat`` the cards, then its turn's action with the random stream set to ``rs0``:
    (the chosen option, whether a Drink of Power declaration was among the options)."""
    for c in cards:
        give_card_nb(st, c, seat)
    k = action_options_nb(st, seat)
    drink = False
    for i in range(k):
        o = st.opts[i]
        if o // ACT_MUL == ACT_DECLARE and o % ACT_MUL == DK.DRINK:
            drink = True
    st.rs[0] = rs0
    st.dctx[0] = seat
    i = bot_choose_nb(st, seat, DEC.ACTION, k)
    return st.opts[i], drink


@pytest.mark.parametrize("game", range(6))
def test_a_seat_with_three_of_its_items_declares_plainly_not_with_the_drink(game):
    """R6.3, R7: with three victory items of its own team in hand, a seat of the smaller team
    that knows it (told) declares plainly; the Drink of Power would add nothing. The Drink's
    option is offered (else the test could not fail), and the random stream is varied, so a
    coin toss between the two would show."""
    st = position(5, ("smart",) * 5, game, 0, item_set="basic", told=range(5))
    small = [p for p in range(5) if st.assoc[p] == _minority(st)]
    seat = small[0]
    keys = np.array([0, 1, 2] if st.assoc[seat] == ORDER else [3, 4, 5], np.int64)
    for rs0 in range(1, 9):
        s = position(5, ("smart",) * 5, game, 0, item_set="basic", told=range(5))
        o, drink = declare_choice_nb(s, seat, keys, np.uint64(rs0 * 7919))
        assert drink, "the Drink of Power is not among the options"
        assert o // ACT_MUL == ACT_DECLARE and o % ACT_MUL == DK.TEAM, (game, rs0, o)


def _minority(st) -> int:
    """The smaller team at odd N (R2.2), from the associations dealt."""
    n = 5
    order = int(sum(1 for p in range(n) if st.assoc[p] == ORDER))
    return ORDER if order < n - order else 1 - ORDER

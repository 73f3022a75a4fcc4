"""The engine's one door to the players: the only engine module that imports the bots.

The rules need four things of whoever sits at the table, and nothing else:

- :func:`clear_seats_nb` and :func:`start_seats_nb`: a new state's, and a new game's, fresh
  player memory (``st.mem``, a record the bots own: ``bots.memory``);
- :func:`tell_nb`: an event has happened (called for every logged event, ``engine.log``);
  only the event types in ``TOLD_MASK`` are passed on, and only while ``sc[BELIEFS]`` says a
  seat keeps what it observes;
- :func:`ask_nb`: the index of the option a seat's bot chooses among ``st.opts[0:n]``
  (``engine.decide``: a scripted decision is taken before the bots are asked).

The names are the bots' kernels themselves, so the door costs nothing at run time.
"""

from __future__ import annotations

from ..bots.dispatch import bot_choose_nb as ask_nb
from ..bots.dispatch import clear_memory_nb as clear_seats_nb
from ..bots.dispatch import start_bots_nb as start_seats_nb
from ..bots.memory import MEMORY_DT
from ..bots.observer import OBSERVED_MASK as TOLD_MASK
from ..bots.observer import observe_nb as tell_nb

__all__ = ["MEMORY_DT", "TOLD_MASK", "ask_nb", "clear_seats_nb", "start_seats_nb", "tell_nb"]

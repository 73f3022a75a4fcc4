"""Questions asked of a seat's posterior weights over the team assignments (``bots.beliefs``):
are these seats all my teammates, and how sure is the hard evidence alone (the calibration maps'
features, ``bots.calibration``)."""

from __future__ import annotations

from ..jit import njit
from .beliefs import popcount_nb


@njit(cache=True, inline="always")
def joint_nb(n, me, na, asg, w, kas, named, want):
    """P(the seats of bitmask ``named`` on my team are exactly those of ``want``), from the
    seat's weights w: ``want = named`` all are teammates, ``want = 0`` none is."""
    full = (1 << n) - 1
    tot = 0.0
    for i in range(na):  # branch-free: w is 0 off the seat's list, and adding 0.0 changes nothing
        a = asg[i]
        same = a if (a >> me) & 1 else (~a) & full  # my side of the split (the module doc)
        tot += w[i] if (same & named) == want else 0.0
    return tot


@njit(cache=True)
def shares_nb(n, me, na, asg, w, named, small):
    """From seat ``me``'s weights w over the team assignments: (the share of the assignments its
    hard evidence allows, w > 0, in which every seat of bit mask ``named`` is on its side, or
    with ``small`` its side is the smaller team (odd N); the same weighed by w). (-1, -1) if
    none is allowed (a position built without set-up)."""
    full = (1 << n) - 1
    k = (n - 1) // 2
    allowed = 0.0
    hit = 0.0
    post = 0.0
    z = 0.0
    for i in range(na):
        wi = w[i]
        if wi <= 0.0:
            continue
        a = asg[i]
        same = a if (a >> me) & 1 else (~a) & full  # my side of the split (the module doc)
        ok = popcount_nb(same) == k if small else (same & named) == named
        allowed += 1.0
        z += wi
        if ok:
            hit += 1.0
            post += wi
    if allowed == 0.0:
        return -1.0, -1.0
    return hit / allowed, post / z

"""The search bot: ``smart`` whose turn action is chosen by playing worlds sampled from its
own view forward (``lookahead``, ``sample``); games with searching seats (``games``).

It sits above the play layer (it plays positions forward), which sits above the rules and
the bots; nothing below imports it.
"""

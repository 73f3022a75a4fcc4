"""Reading a played game: :mod:`.trace` (the game in plain English, with the bots' reasons),
:mod:`.beliefs` (what each seat believed at the end) and :mod:`.audit` (decisions checked
against what the seat knew)."""

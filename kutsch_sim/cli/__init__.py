"""The ``kutsch-sim`` command line: ``app`` (the typer application and ``main``), ``common``
(shared options, progress and errors) and one module a command."""

"""Batch runs: options, the Parquet results store, local and Dask runners, benchmarks.

Layers: :mod:`.options` checks user input (raising :class:`~kutsch_sim.errors.KutschError`),
:mod:`.runner` plans configurations x chunks and hands them to an executor (:mod:`.executor`: one
interface, played in process or on a Dask cluster by :mod:`.cluster`), :mod:`.store` writes the
chunks and the manifest atomically, :mod:`.paths` proves folders writable and names a write that
fails, :mod:`.study` runs a set of runs as parts (the standard study; :mod:`.ladder`, a skill
ladder's rungs), :mod:`.bench` measures throughput and start-up. Nothing here knows typer.
"""

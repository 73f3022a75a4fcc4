"""Batch runs: options, the Parquet results store, local and Dask runners, benchmarks.

Layers: :mod:`.options` checks user input (raising :class:`~kutsch_sim.errors.KutschError`),
:mod:`.runner` plans configurations x chunks and runs them through :func:`kutsch_sim.api.run_batch`
(in process, or on a Dask cluster via :mod:`.cluster`), :mod:`.store` writes the chunks and the
manifest atomically, :mod:`.bench` measures throughput and start-up. Nothing here knows typer.
"""

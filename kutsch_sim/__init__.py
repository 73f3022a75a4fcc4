"""kutsch_sim: Monte Carlo balance simulator for *Die Kutschfahrt zur Teufelsburg*."""

from ._jitcache import configure as _configure_jit_cache

__version__ = "0.1.0"
JIT_CACHE_DIR = _configure_jit_cache()

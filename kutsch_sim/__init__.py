"""kutsch_sim: Monte Carlo balance simulator for *Die Kutschfahrt zur Teufelsburg*."""

__version__ = "0.1.0"

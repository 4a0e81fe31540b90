"""The tournament core: settings, pairings (round robin, Swiss, pods), scoring, leagues and TRF export.

Pure Python: no database, no Discord, no event loop (an import-linter contract keeps it so). The tournament
service stores the values of ``model`` and calls these functions inside its transactions.
"""

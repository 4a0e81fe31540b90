"""The tournament core: settings, pairings (round robin, Swiss, pods), scoring, leagues and TRF export.

Pure Python: no database, no Discord, no event loop (an import-linter contract keeps it so). The tournament
service stores the values of ``model`` and calls these functions inside its transactions; Swiss pairing of a
large field takes seconds to minutes of CPU (bench/bench_tournament.py), so it runs off the event loop.

Where the rules are stated: scoring.py (points, placement points, byes, tiebreak order, withdrawals,
adjudication), swiss.py (the Dutch engine, starting numbers, byes), roundrobin.py (Berger, the odd one out),
pods.py (tables of 3 and 4, seats, teams), leagues.py (divisions, promotion, relegation, the 30-day drop).

A Swiss cannot go on past the rounds its field allows: with fewer than rounds + 1 players the engine runs out of
opponents not yet met and gives several players the pairing's bye in one round (the library logs "Multiple
forced byes"); the service should cap a Swiss's rounds at its entrants less one.
"""

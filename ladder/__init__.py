"""Ladders: many games between many bots, stored, resumable, and rated honestly.

config (ladder files) -> schedule (every game, as a pure function of the file) -> play
(the missing games, each stored as it finishes) -> store (SQLite) -> standings (Elo in
schedule order, maximum-likelihood ratings from ratings) -> tables, live, cli.
"""

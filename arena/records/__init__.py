"""A game's record: the domain values (gamelog), its one codec to and from proto's
GameRecord, files and blobs of it (binary and JSON), a replay of it through the rules
engine, and the figures drawn from it (stats). Knows nothing of processes or of how the
game was played.
"""

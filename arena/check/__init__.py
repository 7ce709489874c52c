"""`arena check-bot`: the conformance check a bot author runs before submitting, played as
real games against the arena's own seats.
"""

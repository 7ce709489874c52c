"""Secret deals: every game's seed and the id bots know it by, from one secret key.

A game's seed fixes every card of it (arena.core deals from it), so a bot that learns a
seed plays with every hand known. Seeds are therefore never derived from anything a bot
can see or guess (a schedule index, a default seed of 1): each is a keyed hash (HMAC-
SHA256) of the game's place in the plan under a *deal key*. A match or ladder without a
seed draws its key at random (and a ladder keeps it in its database, which no bot can
reach); with a seed the key is derived from it, so publishing the seed publishes every
deal. The same key also gives the *table id* each game is announced to bots by: opaque,
so it says nothing of the schedule, and different for the two games of a duplicate pair.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

from arena.core.game import MAX_SEED

__all__ = ["KEY_BYTES", "deal_seed", "key_from_seed", "new_key", "seed_warning", "table_id"]

KEY_BYTES = 32


def new_key() -> bytes:
    return secrets.token_bytes(KEY_BYTES)


SCRYPT_N, SCRYPT_R, SCRYPT_P = 1 << 15, 8, 1
"""scrypt's cost: 32 MiB of memory (128 * r * n bytes) and about 0.1 s a guess."""
_SALT = b"euchre-arena deal key 2"


def key_from_seed(seed: int) -> bytes:
    """The key that a published seed stands for: anyone with the seed can redeal, at
    scrypt's cost per seed tried."""
    return hashlib.scrypt(str(seed).encode(), salt=_SALT, n=SCRYPT_N, r=SCRYPT_R,
                          p=SCRYPT_P, maxmem=64 << 20, dklen=KEY_BYTES)


SAFE_SEED_DIGITS = 12
"""Seeds with fewer digits are warned about: 10**12 guesses at 0.1 s is 3,000 CPU-years."""


def seed_warning(seed: int) -> str | None:
    """None for a seed long enough to be no shortcut to the deals, else what guessing it
    takes, for the commands to print."""
    digits = len(str(abs(seed)))
    if digits >= SAFE_SEED_DIGITS:
        return None
    guesses = 10 ** digits
    seconds = guesses * 0.1
    if seconds >= 3600:
        cost = f"{seconds / 3600:,.0f} CPU-hours"
    elif seconds >= 60:
        cost = f"{seconds / 60:,.0f} CPU-minutes"
    else:
        cost = f"{seconds:.0f} CPU-seconds"
    plural = "" if digits == 1 else "s"
    return (f"seed {seed} has {digits} digit{plural}: every seed up to it can be tried in about "
            f"{cost} ({guesses:,} guesses at about 0.1 s each), and a bot that finds it "
            f"knows every card; use a seed of {SAFE_SEED_DIGITS} or more digits, or none "
            f"(a random key) when the bots are not trusted")


def _mac(key: bytes, *parts: str) -> bytes:
    return hmac.new(key, "\0".join(parts).encode(), hashlib.sha256).digest()


def deal_seed(key: bytes, *place: str | int) -> int:
    """The seed of the deal at `place` in a plan (e.g. the pairing and the deal number)."""
    digest = _mac(key, "deal", *map(str, place))
    return int.from_bytes(digest[:8], "big") & MAX_SEED


def table_id(key: bytes, game_id: str) -> str:
    """The id a game is announced to bots by: 16 hex digits that only the key links to
    the game."""
    return _mac(key, "table", game_id)[:8].hex()

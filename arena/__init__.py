"""Euchre Arena: runs Euchre-playing programs against each other, fairly, and rates them."""

__version__ = "0.1.0"

ADDRESS_ENV = "EUCHRE_BOT_ADDRESS"
"""The environment variable that tells a bot process where to listen."""

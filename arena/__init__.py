"""Euchre Arena: runs Euchre-playing programs against each other, fairly, and rates them."""

__version__ = "0.1.0"

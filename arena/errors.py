"""Errors of the arena above the rules core, split by whose mistake they are.

- ConfigError: a person's input is wrong (a manifest, a ladder file, a command-line
  value). The CLI prints the message, never a stack trace, and exits 2.
- Faults of bots are not errors: see arena.faults.
- Anything else that escapes is a bug in the arena.
"""

from __future__ import annotations


class ConfigError(Exception):
    """Bad input from a person; the message says where and what to change."""

"""Errors raised by the rules core.

They are split from the arena's other errors because they mean different things: a
RuleSetError is a bad configuration from a person, an IllegalActionError is a move the
rules forbid (from a bot, a replay or a test), and neither is a bug in the arena.
"""

from __future__ import annotations


class RulesCoreError(Exception):
    """Base of every error the rules core raises on purpose."""


class RuleSetError(RulesCoreError, ValueError):
    """A rule set that cannot be played: an unknown option, a bad value, or options
    that contradict each other (the message names them)."""


class IllegalActionError(RulesCoreError, ValueError):
    """An action the rules do not allow in this state; the message names both."""

    def __init__(self, action: object, state: str, reason: str) -> None:
        self.action = action
        self.state = state
        self.reason = reason
        super().__init__(f"illegal action {action} in {state}: {reason}")

"""Errors raised by the rules core.

They are split from the arena's other errors because they mean different things: a
RuleSetError is a bad configuration from a person, an IllegalActionError is a move the
rules forbid (from a bot, a replay or a test), and neither is a bug in the arena.
"""

from __future__ import annotations

from collections.abc import Sequence


class RulesCoreError(Exception):
    """Base of every error the rules core raises on purpose."""


class RuleSetError(RulesCoreError, ValueError):
    """A rule set that cannot be played: an unknown option, a bad value, or options
    that contradict each other (the message names them, and so do `option` and `options`)."""

    def __init__(self, message: str, *, options: Sequence[str] = ()) -> None:
        super().__init__(message)
        self.options: tuple[str, ...] = tuple(dict.fromkeys(options))
        """Every rule option the message names, in its order, each once: one for a bad
        value, both for a contradiction, all of them when several problems are joined.
        Empty when no option is to blame (an unknown preset)."""
        self.option: str | None = self.options[0] if self.options else None
        """The option named first: the one to point at."""


class IllegalActionError(RulesCoreError, ValueError):
    """An action the rules do not allow in this state; the message names both."""

    def __init__(self, action: object, state: str, reason: str) -> None:
        self.action = action
        self.state = state
        self.reason = reason
        super().__init__(f"illegal action {action} in {state}: {reason}")

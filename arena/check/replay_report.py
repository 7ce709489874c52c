"""What `arena replay-test` says of its replays: lines for people, as each game is done,
and one JSON document for scripts; and the exit status they come to.

Only what differs is listed, decision by decision: a person reads it to see where the
bot changed its mind, a script to count. Nothing here shows more than the tested seat
was told: its own recorded action, its bot's answer and that bot's own output.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from arena.check.replay_test import Decision, GameReplay, SeatNote
from arena.settings.errors import EXIT_NO, EXIT_OK, Kind


def _indented(text: str) -> str:
    """A bot's multi-line detail (its last output) under the line it belongs to."""
    return text.replace("\n", "\n      ")


def decision_line(d: Decision) -> str:
    where = f"seat {d.seat}, hand {d.hand_number + 1}, decision {d.decision_number}, {d.phase.value}"
    if d.fault is None:
        return f"{where}: the record has {d.recorded}, the bot said {d.answered}"
    return f"{where}: the record has {d.recorded}; {d.fault.kind.value}: {_indented(d.fault.detail)}"


def note_line(n: SeatNote) -> str:
    if n.fault is None:
        return f"seat {n.seat}: {n.not_asked} decision(s) not asked: {n.reason}"
    return f"seat {n.seat}, {n.call}: {n.fault.kind.value}: {_indented(n.fault.detail)}"


def counts(decisions: int, differ: int, faults: int, not_asked: int, not_compared: int) -> str:
    """'52 decisions, 2 differ', with faults and what was not compared when there are."""
    text = f"{decisions} decision{'s' if decisions != 1 else ''}, {differ} differ"
    if faults:
        text += f", {faults} bot fault{'s' if faults != 1 else ''}"
    if not_asked:
        text += f", {not_asked} not asked"
    if not_compared:
        text += f", {not_compared} not compared (the record's action was the arena's, after a fault)"
    return text


def game_lines(g: GameReplay) -> list[str]:
    seats = ", ".join(map(str, g.seats))
    head = f"{g.name}: seat{'s' if len(g.seats) != 1 else ''} {seats}: "
    head += counts(g.decisions, g.differ, g.faults, g.not_asked, g.not_compared)
    return [head, *(f"  {decision_line(d)}" for d in g.findings),
            *(f"  {note_line(n)}" for n in g.notes)]


def summary_line(games: Sequence[GameReplay]) -> str:
    total = counts(*(sum(getattr(g, k) for g in games)
                     for k in ("decisions", "differ", "faults", "not_asked", "not_compared")))
    return f"{len(games)} game{'s' if len(games) != 1 else ''}: {total}"


def exit_status(games: Sequence[GameReplay]) -> int:
    """A bot's fault wins (its answers cannot be trusted to say anything), then any
    difference; 0 when every decision asked agrees."""
    if any(g.faults for g in games):
        return Kind.BOT.status
    return EXIT_NO if any(g.differ for g in games) else EXIT_OK


def _fault(f: Any) -> dict[str, str] | None:
    return None if f is None else {"kind": f.kind.value, "detail": f.detail}


def to_json(bot: str, games: Sequence[GameReplay], not_replayed: int) -> dict[str, Any]:
    """Every figure of the text, and each finding as fields: actions as the text names
    them ("play JH"), hands counted from 1 as people read them, decision numbers as
    DecideRequest.decision_number told them."""
    keys = ("decisions", "differ", "faults", "not_asked", "not_compared")
    return {
        "bot": bot,
        **{k: sum(getattr(g, k) for g in games) for k in keys},
        "not_replayed": not_replayed,
        "games": [{
            "record": g.name,
            "game_id": g.log.game_id,
            "seats": list(g.seats),
            **{k: getattr(g, k) for k in keys},
            "agreed": g.agreed,
            "findings": [{
                "seat": d.seat, "hand": d.hand_number + 1, "decision": d.decision_number,
                "phase": d.phase.value, "recorded": str(d.recorded),
                "answered": None if d.answered is None else str(d.answered),
                "fault": _fault(d.fault),
            } for d in g.findings],
            "notes": [{
                "seat": n.seat, "call": n.call, "fault": _fault(n.fault),
                "not_asked": n.not_asked, "reason": n.reason,
            } for n in g.notes],
        } for g in games],
    }

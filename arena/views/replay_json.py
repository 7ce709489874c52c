"""A recorded game as JSON, hand by hand, from one seat or from the whole table.

`arena replay --json` alone prints the record itself (protobuf's JSON mapping, which
`arena verify` reads back). With `--seat N` or `--hand K` it prints this instead: each
hand as the list of what happened in it. From a seat, an event is what that seat was
told of it (arena.core.view.seat_event, the function that feeds its bot), and at each of
its own turns what it held and could do (seat_view): nothing else of the game goes in,
so the file holds no card the seat could not see and can be handed to its bot's author.
Without a seat the events are the engine's own, every card included, and the seed.

Hands are numbered from 1, as in the terminal view, the page and `--hand`; cards are
written as card_name() gives them ("JH", "TC", "JKR", "JH2" for a second copy).
"""

from __future__ import annotations

from typing import Any

from arena.core.actions import Action
from arena.core.cards import Card, card_name
from arena.core.game import ActionTaken, GameEnded, GameEvent, HandDealt, HandEnded, TrickCompleted
from arena.core.hand import HandResult
from arena.core.view import HandStarted, seat_event, seat_view
from arena.records.gamelog import GameLog
from arena.records.replay import Divergence, Point, walk
from arena.settings.limits import SeatLimits

FORMAT = 1
"""The shape of this document; raised when a key changes meaning."""


def _cards(cards: tuple[Card, ...] | list[Card]) -> list[str]:
    return [card_name(c) for c in sorted(cards)]


def action_json(action: Action) -> dict[str, Any]:
    out: dict[str, Any] = {"kind": action.kind.name.lower(), "text": str(action)}
    if action.card is not None:
        out["card"] = card_name(action.card)
    if action.suit is not None:
        out["suit"] = action.suit.name.lower()
    if action.alone:
        out["alone"] = True
    if action.seat is not None:
        out["to"] = action.seat
    return out


def _result_json(r: HandResult, scores: tuple[int, int]) -> dict[str, Any]:
    return {
        "event": "hand_over",
        "trump": None if r.trump is None else ("clubs", "diamonds", "hearts", "spades")[r.trump],
        "maker": r.maker,
        "alone": list(r.alone),
        "tricks_won": list(r.tricks_won),
        "outcome": r.score.outcome.value,
        "points": r.score.points,
        "scoring_team": r.score.team,
        "scores": list(scores),
    }


def event_json(event: GameEvent | HandStarted | ActionTaken) -> dict[str, Any]:
    """One event, full (the engine's) or as a seat was told it (seat_event's)."""
    if isinstance(event, HandDealt):
        return {"event": "deal", "dealer": event.dealer, "upcard": card_name(event.kitty[0]),
                "hands": [_cards(h) for h in event.hands], "kitty": _cards(event.kitty)}
    if isinstance(event, HandStarted):
        return {"event": "deal", "dealer": event.dealer, "upcard": card_name(event.upcard),
                "cards": _cards(event.hand)}
    if isinstance(event, ActionTaken):
        if event.action is None:
            return {"event": "action", "seat": event.seat, "kind": event.kind.name.lower(),
                    "hidden": True}
        return {"event": "action", "seat": event.seat, **action_json(event.action)}
    if isinstance(event, TrickCompleted):
        t = event.trick
        return {"event": "trick", "leader": t.leader,
                "plays": [[s, card_name(c)] for s, c in t.plays], "winner": t.winner}
    if isinstance(event, HandEnded):
        return _result_json(event.result, event.scores)
    if isinstance(event, GameEnded):
        return {"event": "game_over", "scores": list(event.scores),
                "winning_team": event.winning_team}
    raise TypeError(f"not an event: {event!r}")  # pragma: no cover - the union is closed


def build_json(log: GameLog, seat: int | None = None, hand: int | None = None) -> dict[str, Any]:
    """The game hand by hand: from `seat` only what it was told and saw, else everything;
    only hand `hand` (from 1) when given."""
    hands: list[dict[str, Any]] = []
    error: str | None = None
    turn: dict[str, Any] | None = None
    try:
        for step in walk(log):
            if isinstance(step, Point):
                # The actor's turn: what it held and could do, for the seat itself (or
                # from the whole table), from its own view.
                if seat is None or step.logged.seat == seat:
                    view = seat_view(step.game, step.logged.seat)
                    turn = {"held": _cards(list(view.hand)),
                            "legal": [str(a) for a in view.legal_actions]}
                    if step.logged.substituted:
                        turn["substituted"] = True
                continue
            told = step if seat is None else seat_event(step, seat)
            item = event_json(told)
            if isinstance(step, HandDealt):
                hands.append({"hand": step.hand_number + 1, "dealer": step.dealer, "events": []})
            elif isinstance(step, ActionTaken) and turn is not None:
                item |= turn
            turn = None
            hands[-1]["events"].append(item)
    except Divergence as d:
        error = d.told_to(seat)
    # The deal of a hand never played (the game ended as it was dealt) is no hand.
    hands = hands[: len(log.hands)]
    if hand is not None:
        hands = [h for h in hands if h["hand"] == hand]
    by_seat = {s.seat: s for s in log.seats}
    doc: dict[str, Any] = {
        "format": FORMAT,
        "game": log.game_id,
        "view": "every card" if seat is None else f"seat {seat} only",
        "seat": seat,
        "rules": log.rules.to_options(),
        "seats": [
            {"seat": s, "team": s % 2, "name": by_seat[s].name if s in by_seat else "",
             "version": by_seat[s].version if s in by_seat else "",
             "sandboxed": by_seat[s].sandboxed if s in by_seat else False,
             "limits": _limits(by_seat[s].limits) if s in by_seat else None}
            for s in range(log.rules.seats)
        ],
        "first_dealer": log.first_dealer,
    }
    if seat is None:  # the seed deals every card
        doc["seed"] = str(log.seed)
    doc |= {
        "result": {"end": log.end.value if log.end else None, "scores": list(log.final_scores),
                   "winning_team": log.winning_team, "draw": log.drawn},
        "faults": [
            {"seat": f.seat, "hand": f.hand_number + 1, "kind": f.kind.value,
             "substituted": f.substituted,
             # A fault's detail may quote the bot's output (its cards): a seat's own only.
             **({"detail": f.detail} if seat is None or f.seat == seat else {})}
            for f in log.faults
            if hand is None or f.hand_number + 1 == hand
        ],
        "hands": hands,
        "error": error,
    }
    return doc


def _limits(limits: SeatLimits | None) -> dict[str, Any] | None:
    """A sealed seat's limits as record.proto names them; None for a seat not sealed."""
    if limits is None:
        return None
    return {"kept_by": limits.kept_by, "enforced": list(limits.enforced),
            "memory_mb": limits.memory_mb, "processes": limits.processes,
            "tmp_mb": limits.tmp_mb, "shm_mb": limits.shm_mb,
            "file_size_mb": limits.file_size_mb, "open_files": limits.open_files,
            "cpus": limits.cpus}

"""Replaying a recorded game through the rules engine, and checking it on the way.

A record is trusted only as far as the engine agrees with it: the deals must be those of
its seed, every action must be legal when it was taken, and every trick winner, hand
result and score must be what the engine computes, as the events of GameState.apply()
say (the same stream a record is made from). The viewers replay through here too, so what
they show from a seat is what seat_view() says that seat could see.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from arena.core.cards import Card, card_name
from arena.core.errors import IllegalActionError, RulesCoreError
from arena.core.game import GameEvent, GameState, HandDealt, HandEnded, TrickCompleted
from arena.core.hand import HandResult
from arena.records.gamelog import STALLED_AFTER, GameEnd, GameLog, HandLog, LoggedAction, thrown_in_run
from arena.settings.errors import BadInput


class Divergence(BadInput):
    """The record and the rules disagree; the message says where first (a record is
    input: a file, or a database's blob)."""

    def __init__(self, where: str, problem: str) -> None:
        self.where = where
        self.problem = problem
        super().__init__(f"{where}: {problem}")

    def told_to(self, seat: int | None) -> str:
        """The message, or for one seat's eyes only where: the problem may name any
        seat's cards (a kitty, a deal, a buried discard)."""
        if seat is None:
            return str(self)
        return f"{self.where}: the record disagrees with the rules"


@dataclass(frozen=True, slots=True)
class Point:
    """The game just before one recorded action (game.hand is the hand being played)."""

    game: GameState
    hand_log: HandLog
    index: int
    logged: LoggedAction


def _cards(cards: Iterable[Card]) -> str:
    return " ".join(card_name(c) for c in cards)


def replay(log: GameLog) -> Iterator[Point]:
    """Yields the state before each action, and raises Divergence at the first place the
    record and the engine disagree (including after the last action)."""
    return (step for step in walk(log) if isinstance(step, Point))


def walk(log: GameLog) -> Iterator[Point | GameEvent]:
    """replay() with the engine's own events between the points: the first deal, then
    after each point what its action caused. The events hold full information; what a
    seat was told of them is arena.core.view.seat_event's to say."""
    try:
        game = GameState(log.rules, log.seed, log.first_dealer, log.rules_edition)
    except (ValueError, RulesCoreError) as e:
        raise Divergence("game", f"cannot start from the record: {e}") from None
    yield game.dealt
    dealt: HandDealt | None = game.dealt
    for h_index, hl in enumerate(log.hands):
        # Hands and actions are counted from 1 wherever people read them.
        where = f"hand {h_index + 1}"
        if dealt is None:
            raise Divergence(where, "the game was already over")
        if hl.hand_number != dealt.hand_number:
            raise Divergence(where, f"recorded as hand {hl.hand_number + 1}")
        if hl.dealer != dealt.dealer:
            raise Divergence(where, f"dealer {hl.dealer} recorded, the rotation gives {dealt.dealer}")
        if len(hl.dealt) != len(dealt.hands):
            raise Divergence(where, f"{len(hl.dealt)} seats dealt, the rules have {len(dealt.hands)}")
        for seat in range(len(dealt.hands)):
            if tuple(hl.dealt[seat]) != dealt.hands[seat]:
                raise Divergence(
                    where,
                    f"seat {seat} recorded as dealt [{_cards(hl.dealt[seat])}], the seed deals "
                    f"[{_cards(dealt.hands[seat])}]",
                )
        if tuple(hl.kitty) != dealt.kitty:
            raise Divergence(where, f"kitty [{_cards(hl.kitty)}], the seed gives [{_cards(dealt.kitty)}]")
        dealt = None
        winners: list[int] = []
        ended: HandEnded | None = None
        for i, la in enumerate(hl.actions):
            at = f"{where}, action {i + 1} (seat {la.seat} {la.action})"
            if ended is not None:
                raise Divergence(at, "the hand was already over")
            yield Point(game, hl, i, la)
            try:
                events = game.apply(la.action, la.seat)
            except IllegalActionError as e:
                raise Divergence(at, f"illegal: {e.reason}") from None
            yield from events
            for event in events:
                if isinstance(event, TrickCompleted):
                    winners.append(event.trick.winner)
                elif isinstance(event, HandEnded):
                    ended = event
                elif isinstance(event, HandDealt):
                    dealt = event
        if winners != list(hl.trick_winners):
            recorded = list(hl.trick_winners)
            raise Divergence(where, f"trick winners {recorded} recorded, the rules give {winners}")
        if hl.result is None:
            if ended is not None:
                raise Divergence(where, "the hand was finished but no result is recorded")
            if h_index != len(log.hands) - 1 or log.end not in (GameEnd.FORFEIT, GameEnd.STALLED):
                raise Divergence(where, "the hand is unfinished but the game goes on or was "
                                        "neither forfeited nor stalled")
            continue
        if ended is None:
            raise Divergence(where, "a result is recorded but the hand is not finished")
        if ended.result != hl.result:
            raise Divergence(
                where,
                f"result {_result_text(hl.result)} recorded, the rules give {_result_text(ended.result)}",
            )
        if ended.scores != tuple(hl.scores_after):
            raise Divergence(where, f"score {hl.scores_after} recorded, the rules give {ended.scores}")
    _check_end(log, game)


def _result_text(r: HandResult) -> str:
    return f"{r.score.outcome.value} {r.score.points} to team {r.score.team} (tricks {r.tricks_won})"


def _check_end(log: GameLog, game: GameState) -> None:
    scores = (game.scores[0], game.scores[1])
    if scores != tuple(log.final_scores):
        raise Divergence("end", f"final score {log.final_scores} recorded, the rules give {scores}")
    if log.end is GameEnd.COMPLETED:
        if not game.over:
            raise Divergence("end", "recorded as completed, but the game is not over by the rules")
        if game.winner != log.winning_team:
            recorded = "a draw" if log.winning_team is None else f"team {log.winning_team} as winner"
            ruled = "a draw" if game.winner is None else f"team {game.winner}"
            raise Divergence("end", f"{recorded} recorded, the rules give {ruled}")
    elif log.end is GameEnd.FORFEIT:
        if game.over:
            raise Divergence("end", "recorded as forfeited, but the game was finished")
        losers = 1 - (log.winning_team or 0)
        if not any(f.seat % 2 == losers and not f.substituted for f in log.faults):
            raise Divergence("end", f"forfeited by team {losers} with no fault of theirs recorded")
    elif log.end is GameEnd.STALLED:
        if game.over:
            raise Divergence("end", "recorded as stalled, but the game was finished")
        last = log.hands[-1] if log.hands else None
        if last is None or last.result is not None or last.actions:
            raise Divergence("end", "recorded as stalled, but its last hand is not the one "
                                    "dealt after the run, unplayed")
        if log.winning_team is not None:
            raise Divergence("end", f"recorded as stalled, a draw, with team {log.winning_team} as winner")
        run = thrown_in_run(game.results)
        if run != STALLED_AFTER:
            raise Divergence("end", f"recorded as stalled after {run} hands in a row thrown in; "
                                    f"the arena stops a game after {STALLED_AFTER}")
    else:
        raise Divergence("end", "the record does not say how the game ended")


def verify(log: GameLog) -> str | None:
    """None when the record is the game its seed and actions give; else the first divergence."""
    try:
        for _ in replay(log):
            pass
    except Divergence as d:
        return str(d)
    return None

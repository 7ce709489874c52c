"""Maps a game's record (arena.records.gamelog.GameLog) to the GameRecord message of
proto/euchre/v1/record.proto and back. Only arena.records.files calls it: bytes, JSON, files
and database blobs all go through there."""

from __future__ import annotations

from arena.core.cards import Card
from arena.records.gamelog import (
    SCHEMA_VERSION,
    GameEnd,
    GameLog,
    HandLog,
    LoggedAction,
    SeatBot,
)
from arena.settings.faults import Fault, FaultKind
from arena.settings.limits import SeatLimits
from arena.settings.spec import TimeControl
from arena.wire.codec import (
    MalformedMessage,
    _pair,
    action_from_pb,
    action_to_pb,
    card_to_pb,
    cards_from_pb,
    result_from_pb,
    result_to_pb,
    rules_from_pb,
    rules_to_pb,
)
from arena.wire.gen.euchre.v1 import record_pb2 as record_pb

_FAULT_TO_PB = {k: getattr(record_pb.FaultKind, f"FAULT_KIND_{k.name}") for k in FaultKind}
_FAULT_FROM_PB = {v: k for k, v in _FAULT_TO_PB.items()}
_END_TO_PB = {GameEnd.COMPLETED: record_pb.GAME_END_COMPLETED, GameEnd.FORFEIT: record_pb.GAME_END_FORFEIT,
              GameEnd.STALLED: record_pb.GAME_END_STALLED}
_END_FROM_PB = {v: k for k, v in _END_TO_PB.items()}


def gamelog_to_pb(log: GameLog) -> record_pb.GameRecord:
    msg = record_pb.GameRecord(
        schema_version=log.schema_version,
        game_id=log.game_id,
        seed=log.seed,
        first_dealer=log.first_dealer,
        started_ms=log.started_ms,
        finished_ms=log.finished_ms,
        table_id=log.table_id,
        rules_edition=log.rules_edition,
    )
    rules_to_pb(log.rules, msg.rules)
    if log.time_control is not None:
        tc = log.time_control
        msg.time_control.CopyFrom(record_pb.GameTimeControl(
            per_decision_ms=round(tc.per_decision * 1000), bank_ms=round(tc.bank * 1000),
            allowance_ms=round(tc.allowance * 1000)))
    for sb in log.seats:
        seat = msg.seats.add(seat=sb.seat, name=sb.name, version=sb.version,
                             digest=sb.digest, reported_name=sb.reported_name,
                             reported_version=sb.reported_version, sandboxed=sb.sandboxed)
        if sb.limits is not None:
            lim = sb.limits
            seat.limits.CopyFrom(record_pb.SeatLimits(
                kept_by=lim.kept_by, enforced=lim.enforced, memory_mb=lim.memory_mb,
                processes=lim.processes, tmp_mb=lim.tmp_mb, shm_mb=lim.shm_mb,
                file_size_mb=lim.file_size_mb, open_files=lim.open_files, cpus=lim.cpus))
    for h in log.hands:
        hm = msg.hands.add(hand_number=h.hand_number, dealer=h.dealer)
        for seat, cards in enumerate(h.dealt):
            d = hm.dealt.add(seat=seat)
            for c in cards:
                card_to_pb(c, d.cards.add())
        card_to_pb(h.upcard, hm.upcard)
        for c in h.kitty:
            card_to_pb(c, hm.kitty.add())
        for la in h.actions:
            ra = hm.actions.add(seat=la.seat, think_us=la.think_us, substituted=la.substituted)
            action_to_pb(la.action, ra.action)
        hm.trick_winners.extend(h.trick_winners)
        if h.result is not None:
            result_to_pb(h.result, hm.result)
        hm.scores_after.extend(h.scores_after)
    msg.final_scores.extend(log.final_scores)
    if log.winning_team is not None:
        msg.winning_team = log.winning_team
    msg.draw = log.drawn
    if log.end is not None:
        msg.end = _END_TO_PB[log.end]
    for f in log.faults:
        msg.faults.add(
            kind=_FAULT_TO_PB[f.kind], seat=f.seat, hand_number=f.hand_number,
            decision_number=f.decision_number, detail=f.detail, substituted=f.substituted,
        )
    return msg


def gamelog_from_pb(msg: record_pb.GameRecord) -> GameLog:
    """Raises MalformedMessage (or RuleSetError) for a record that cannot be read."""
    if msg.schema_version != SCHEMA_VERSION:
        raise MalformedMessage(f"record schema version {msg.schema_version}, expected {SCHEMA_VERSION}")
    rules = rules_from_pb(msg.rules)
    hands = []
    for hm in msg.hands:
        dealt: list[tuple[Card, ...]] = [()] * rules.seats
        for d in hm.dealt:
            if d.seat >= rules.seats:
                raise MalformedMessage(f"hand {hm.hand_number}: no seat {d.seat}")
            dealt[d.seat] = cards_from_pb(d.cards)
        hands.append(
            HandLog(
                hand_number=hm.hand_number,
                dealer=hm.dealer,
                dealt=tuple(dealt),
                kitty=cards_from_pb(hm.kitty),
                actions=[
                    LoggedAction(a.seat, action_from_pb(a.action), a.think_us, a.substituted)
                    for a in hm.actions
                ],
                trick_winners=list(hm.trick_winners),
                result=result_from_pb(hm.result) if hm.HasField("result") else None,
                scores_after=_pair(hm.scores_after),
            )
        )
    return GameLog(
        game_id=msg.game_id,
        rules=rules,
        seed=msg.seed,
        first_dealer=msg.first_dealer,
        seats=tuple(
            SeatBot(s.seat, s.name, s.version, s.digest, s.reported_name, s.reported_version,
                    s.sandboxed, _limits_from_pb(s.limits) if s.HasField("limits") else None)
            for s in msg.seats
        ),
        hands=hands,
        final_scores=_pair(msg.final_scores),
        winning_team=(
            None if msg.draw or msg.end == record_pb.GAME_END_UNSPECIFIED else msg.winning_team
        ),
        end=_END_FROM_PB.get(msg.end),
        faults=[
            Fault(_FAULT_FROM_PB.get(f.kind, FaultKind.DISCONNECTED), f.seat, f.hand_number,
                  f.decision_number, f.detail, f.substituted)
            for f in msg.faults
        ],
        started_ms=msg.started_ms,
        finished_ms=msg.finished_ms,
        schema_version=msg.schema_version,
        table_id=msg.table_id,
        rules_edition=msg.rules_edition or 1,  # written before editions: the first
        time_control=_time_control_from_pb(msg),
    )


def _time_control_from_pb(msg: record_pb.GameRecord) -> TimeControl | None:
    """None for a record written before time controls were kept (or one that holds no
    valid one: a record's word about its timing is advice, not a rule)."""
    if not msg.HasField("time_control"):
        return None
    m = msg.time_control
    try:
        return TimeControl(m.per_decision_ms / 1000, m.bank_ms / 1000, m.allowance_ms / 1000)
    except ValueError:
        return None


def _limits_from_pb(m: record_pb.SeatLimits) -> SeatLimits:
    return SeatLimits(m.kept_by, tuple(m.enforced), m.memory_mb, m.processes, m.tmp_mb,
                      m.shm_mb, m.file_size_mb, m.open_files, m.cpus)

"""Standings kept one game at a time (ladder.rating.running) against standings recomputed from
every game (ladder.rating.standings.compute_standings): the same, to the last bit, on random
ladders with draws, duplicate pairs, lone halves and games finishing out of order."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from arena.settings.deals import key_from_seed
from arena.settings.plan import PlannedGame
from ladder.config.ladder_file import GAUNTLET, ROUND_ROBIN
from ladder.rating.running import RunningStandings
from ladder.rating.sprt import SprtTest
from ladder.rating.standings import BY_GAMES, BY_PAIRS, compute_standings
from ladder.schedule.pairings import plan
from ladder.store.database import GameRow

TEST = SprtTest(elo0=0.0, elo1=60.0, alpha=0.05, beta=0.05)


def row(game: PlannedGame, rng: random.Random, strength: dict[str, float]) -> GameRow:
    edge = strength[game.bot_a] - strength[game.bot_b]
    roll = rng.random()
    score = 0.5 if roll < 0.15 else 1.0 if roll < 0.15 + 0.85 / (1 + 10 ** (-edge / 400)) else 0.0
    faults_a, faults_b = rng.choice([(0, 0)] * 8 + [(1, 0), (0, 2)])
    winner = None if score == 0.5 else (game.a_team if score == 1.0 else 1 - game.a_team)
    return GameRow(
        id=game.seq + 1, game_id=game.game_id, seq=game.seq, bot_a=game.bot_a,
        bot_b=game.bot_b, number=game.number, deal=game.deal, seed=game.seed,
        first_dealer=game.first_dealer, a_team=game.a_team, seats=game.seats,
        outcome="forfeit" if faults_a or faults_b else "completed", winning_team=winner,
        score_a=score, points_a=10, points_b=6, hands=7, faults=faults_a + faults_b,
        faults_a=faults_a, faults_b=faults_b, fault_kinds="timeout" if faults_a + faults_b else "",
        started_ms=1, finished_ms=2, run=1, sandboxed=rng.random() > 0.1,
    )


def random_ladder(seed: int, *, duplicate: bool, gauntlet: bool = False
                  ) -> tuple[list[GameRow], list[str]]:
    """A ladder's stored games, some left out (a stopped ladder, halves of pairs missing),
    in the order they finished: near schedule order, as concurrent game slots finish them."""
    rng = random.Random(seed)
    names = [f"bot{i}" for i in range(rng.randint(2, 5))]
    strength = {n: rng.uniform(-300, 300) for n in names}
    games = plan(names, fmt=GAUNTLET if gauntlet else ROUND_ROBIN,
                 challenger=names[0] if gauntlet else None,
                 games_per_pairing=2 * rng.randint(1, 12), key=key_from_seed(seed),
                 duplicate=duplicate)
    kept = [g for g in games if rng.random() > 0.1]
    rows = [row(g, rng, strength) for g in kept]
    window = rng.choice([1, 3, 8, len(rows) or 1])
    finished = sorted(rows, key=lambda r: r.seq + rng.uniform(0, window))
    return finished, names


def feed(rows: list[GameRow], *, duplicate: bool, planned: list[int] | None = None
         ) -> RunningStandings:
    """Adds the rows in the order given, settling after each the way a run does: up to
    the first planned game not yet added."""
    running = RunningStandings(duplicate=duplicate)
    todo = sorted(planned if planned is not None else [r.seq for r in rows])
    done: set[int] = set()
    at = 0
    for r in rows:
        running.add(r)
        done.add(r.seq)
        while at < len(todo) and todo[at] in done:
            at += 1
        running.settle(todo[at] if at < len(todo) else float("inf"))
    return running


@pytest.mark.parametrize("seed", range(40))
def test_running_standings_equal_the_full_recomputation(seed):
    duplicate = seed % 4 != 3
    rows, names = random_ladder(seed, duplicate=duplicate)
    running = feed(rows, duplicate=duplicate)
    for by in (BY_PAIRS, BY_GAMES):
        for prior in (2.0, 0.5):
            expected = compute_standings(rows, by=by, bots=names, prior=prior,
                                         duplicate=duplicate)
            got = running.standings(by=by, bots=names, prior=prior)
            assert got == expected, (by, prior)
    assert running.games == len(rows)
    assert running.waiting == 0  # every game settled: none kept one by one


@pytest.mark.parametrize("seed", range(12))
def test_a_gauntlets_test_and_field_are_the_same_counted_one_at_a_time(seed):
    rows, names = random_ladder(100 + seed, duplicate=True, gauntlet=True)
    running = feed(rows, duplicate=True)
    for by in (BY_PAIRS, BY_GAMES):
        expected = compute_standings(rows, by=by, challenger=names[0], sprt=TEST)
        got = running.standings(by=by, challenger=names[0], sprt=TEST)
        assert got == expected
    # The test counts the complete pairs (every pair of a gauntlet is the challenger's).
    st = running.standings(challenger=names[0], sprt=TEST)
    assert st.sprt is not None and st.sprt.units == st.pairs > 0


def test_standings_taken_part_way_equal_those_of_the_games_so_far():
    rows, names = next(found for seed in range(50)
                       if len((found := random_ladder(seed, duplicate=True))[0]) > 30)
    running = RunningStandings()
    todo = sorted(r.seq for r in rows)
    added: set[int] = set()
    at = 0
    for i, r in enumerate(rows):
        running.add(r)
        added.add(r.seq)
        while at < len(todo) and todo[at] in added:
            at += 1
        running.settle(todo[at] if at < len(todo) else float("inf"))
        if i % 5 == 0:
            assert running.standings(bots=names) == compute_standings(rows[:i + 1], bots=names)


def test_only_the_games_after_the_frontier_are_kept_one_by_one():
    rows, _ = random_ladder(11, duplicate=True)
    rows.sort(key=lambda r: r.seq)
    running = RunningStandings()
    most = 0
    for i, r in enumerate(rows):
        running.add(r)
        # Four games in flight: everything before the earliest of them is settled.
        running.settle(rows[i - 3].seq if i >= 3 else 0)
        most = max(most, running.waiting)
    assert most <= 4
    # Never settled, every game waits, and Elo is still replayed in schedule order.
    unsettled = RunningStandings()
    for r in reversed(rows):
        unsettled.add(r)
    assert unsettled.waiting == len(rows)
    assert unsettled.standings() == compute_standings(rows)


def test_a_game_before_the_frontier_or_against_itself_is_refused_uncounted():
    rows, _ = random_ladder(3, duplicate=True)
    rows.sort(key=lambda r: r.seq)
    running = RunningStandings()
    running.add(rows[1])
    running.settle(rows[1].seq)
    with pytest.raises(ValueError, match="before the settled frontier"):
        running.add(rows[0])
    with pytest.raises(ValueError, match="against itself"):
        running.add(replace(rows[2], bot_b=rows[2].bot_a))
    with pytest.raises(ValueError, match="must be in"):
        running.add(replace(rows[2], score_a=1.5))
    assert running.games == 1
    assert running.standings() == compute_standings([rows[1]])

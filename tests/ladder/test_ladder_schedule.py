"""Schedule fairness: equal games per pairing, seats and first dealers balanced, duplicate
pairs swapped, and ids that stay put when the ladder file changes around them."""

from __future__ import annotations

import itertools
import re
from collections import Counter

import pytest

from arena.core.rules import preset
from arena.settings.deals import deal_seed, key_from_seed
from arena.settings.manifest import load_manifest
from arena.settings.plan import game_spec
from arena.settings.spec import FaultPolicy, TimeControl
from ladder.config.ladder_file import GAUNTLET, ROUND_ROBIN
from ladder.schedule.pairings import pairings, plan

BOTS = ["delta", "alpha", "charlie", "bravo"]
KEY = key_from_seed(1)


def round_robin(games=16, duplicate=True, seed=7, names=BOTS):
    return plan(names, fmt=ROUND_ROBIN, games_per_pairing=games, key=key_from_seed(seed),
                duplicate=duplicate)


def test_every_pairing_plays_the_same_number_of_games():
    games = round_robin()
    per_pair = Counter((g.bot_a, g.bot_b) for g in games)
    assert len(per_pair) == 6
    assert set(per_pair.values()) == {16}
    assert {frozenset(p) for p in per_pair} == {frozenset(p) for p in itertools.combinations(BOTS, 2)}
    per_bot = Counter(name for g in games for name in (g.bot_a, g.bot_b))
    assert set(per_bot.values()) == {3 * 16}


def test_ids_are_unique_and_seq_is_the_list_order():
    games = round_robin()
    assert len({g.game_id for g in games}) == len(games)
    assert [g.seq for g in games] == list(range(len(games)))


@pytest.mark.parametrize("duplicate", [True, False])
def test_seats_and_first_dealers_are_balanced(duplicate):
    for g_count in (8, 16, 24):
        games = round_robin(games=g_count, duplicate=duplicate)
        by_pair: dict[tuple[str, str], list] = {}
        for g in games:
            by_pair.setdefault((g.bot_a, g.bot_b), []).append(g)
        for (a, b), mine in by_pair.items():
            seats = Counter()
            first_dealer_by_bot = Counter()
            deals_first = Counter()
            for g in mine:
                for seat, name in enumerate(g.seats):
                    seats[name, seat] += 1
                first_dealer_by_bot[g.seats[g.first_dealer], g.first_dealer] += 1
                deals_first[g.seats[g.first_dealer]] += 1
            # each bot holds each seat in half the games
            assert set(seats.values()) == {g_count // 2}, seats
            # each seat deals first equally often for each bot...
            assert set(first_dealer_by_bot.values()) == {g_count // 8}, first_dealer_by_bot
            # ...so each bot's team deals first in exactly half the games
            assert deals_first[a] == deals_first[b] == g_count // 2


def test_imbalance_is_at_most_one_game_for_any_count():
    for g_count in range(2, 20, 2):
        games = round_robin(games=g_count, names=["x", "y"])
        a_team0 = sum(1 for g in games if g.a_team == 0)
        assert a_team0 == g_count // 2
        dealers = Counter(g.first_dealer for g in games)
        assert max(dealers.values()) - min(dealers.values(), default=0) <= 2
        deals_first = Counter(g.seats[g.first_dealer] for g in games)
        assert abs(deals_first["x"] - deals_first["y"]) <= 2


def test_duplicate_pairs_share_the_deal_with_teams_swapped():
    games = round_robin()
    by_deal: dict[tuple[str, str, int], list] = {}
    for g in games:
        by_deal.setdefault((g.bot_a, g.bot_b, g.deal), []).append(g)
    assert all(len(v) == 2 for v in by_deal.values())
    for first, second in by_deal.values():
        assert first.seed == second.seed and first.first_dealer == second.first_dealer
        assert {first.a_team, second.a_team} == {0, 1}
        # the bot in each seat is swapped, so each bot plays the cards the other had
        assert all(x != y for x, y in zip(first.seats, second.seats, strict=True))
        # and the two games are adjacent in the schedule (they run side by side)
        assert second.seq == first.seq + 1
        # played by the two process families, announced by unrelated table ids
        assert (first.family, second.family) == (0, 1)
        assert first.table_id != second.table_id
    # each pairing has deals of its own: a process kept between games never meets a deal
    # twice, so it never knows cards played against it before
    assert len({g.seed for g in games}) == len(games) // 2
    assert games[0].seed == deal_seed(key_from_seed(7), games[0].bot_a, games[0].bot_b, 0)


def test_single_games_each_have_their_own_deal():
    games = round_robin(duplicate=False)
    for pair in {(g.bot_a, g.bot_b) for g in games}:
        mine = [g for g in games if (g.bot_a, g.bot_b) == pair]
        assert len({g.seed for g in mine}) == len(mine) == 16


def test_round_by_round_order():
    games = round_robin(games=4)
    # the first 12 games are deal 0 of every pairing, then deal 1
    assert [g.deal for g in games] == [0] * 12 + [1] * 12
    assert [g.number for g in games[:4]] == [0, 1, 0, 1]


def test_the_plan_is_a_pure_function_of_the_settings():
    assert round_robin() == round_robin()
    assert round_robin(seed=8) != round_robin()


def test_nothing_a_bot_is_told_names_the_schedule_or_the_deal():
    games = round_robin(games=8)
    other = {g.game_id: g for g in round_robin(games=8, seed=8)}
    for g in games:
        # 16 hex digits, unrelated to the game id, the pairing, the number or the seed
        assert re.fullmatch(r"[0-9a-f]{16}", g.table_id)
        assert g.table_id not in (g.game_id, str(g.seed), f"{g.number:05d}")
        # under another key the same game has another table id and another deal
        assert other[g.game_id].table_id != g.table_id
        assert other[g.game_id].seed != g.seed
    assert len({g.table_id for g in games}) == len(games)


def test_ids_do_not_depend_on_the_order_of_the_file_or_the_number_of_games():
    by_id = {g.game_id: g for g in round_robin(games=8)}
    reordered = round_robin(games=8, names=list(reversed(BOTS)))
    assert {g.game_id for g in reordered} == set(by_id)
    for g in reordered:
        old = by_id[g.game_id]
        assert (g.seed, g.first_dealer, g.seats) == (old.seed, old.first_dealer, old.seats)
    # more games per pairing keep the first ones as they were
    more = {g.game_id: g for g in round_robin(games=16)}
    for gid, g in by_id.items():
        assert (more[gid].seed, more[gid].seats, more[gid].seq) == (g.seed, g.seats, g.seq)
    # a new bot adds pairings and keeps every game of the old ones
    bigger = {g.game_id: g for g in round_robin(games=8, names=[*BOTS, "echo"])}
    for gid, g in by_id.items():
        assert (bigger[gid].seed, bigger[gid].seats) == (g.seed, g.seats)


def test_gauntlet_is_one_bot_against_the_field():
    games = plan(BOTS, fmt=GAUNTLET, challenger="charlie", games_per_pairing=4, key=KEY,
                 duplicate=True)
    pairs = {(g.bot_a, g.bot_b) for g in games}
    assert pairs == {("alpha", "charlie"), ("bravo", "charlie"), ("charlie", "delta")}
    assert len(games) == 12
    assert pairings(BOTS, GAUNTLET, "charlie") == [("charlie", "delta"), ("alpha", "charlie"),
                                                    ("bravo", "charlie")]


def test_game_spec_seats_the_planned_bots():
    random, heuristic = load_manifest("random"), load_manifest("heuristic")
    game = round_robin(names=["heuristic", "random"])[1]
    spec = game_spec(game, {"heuristic": heuristic, "random": random},
                     rules=preset("standard"),
                     time_control=TimeControl(), fault_policy=FaultPolicy.FORFEIT)
    assert spec.game_id == game.game_id and spec.seed == game.seed
    assert spec.first_dealer == game.first_dealer
    assert tuple(m.name for m in spec.seat_bots) == game.seats

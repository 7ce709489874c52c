"""A gauntlet's SPRT: decided over the schedule's stored prefix whatever order games
finish in, stopping the run, frozen in the database, never reopened by --games."""

from __future__ import annotations

import json
import random

import pytest

from arena.settings.deals import key_from_seed
from ladder.config.ladder_file import GAUNTLET, load_ladder
from ladder.rating.running import RunningStandings
from ladder.rating.sprt import SprtTest
from ladder.run.play import run_ladder
from ladder.schedule.pairings import plan
from ladder.schedule.sprt_watch import SprtWatch
from ladder.store.database import Store
from tests.helpers import no_bot_left
from tests.ladder.test_ladder_run import ladder_cli, write_ladder

__all__ = ["no_bot_left"]

TEST = SprtTest(elo0=0.0, elo1=100.0, alpha=0.2, beta=0.2)


def outcome(game_id: str) -> float:
    """A fixed result per game: the challenger 'c' wins about 70% of its games."""
    return 1.0 if random.Random(game_id).random() < 0.7 else 0.0


def test_the_decision_does_not_depend_on_the_finishing_order():
    games = plan(["c", "x", "y"], fmt=GAUNTLET, challenger="c", games_per_pairing=60,
                 key=key_from_seed(3), duplicate=True)
    # By hand, in schedule order: pairs of each pairing's deal, the challenger's mean.
    counts: dict[float, int] = {}
    halves: dict[tuple[str, str, int], float] = {}
    expected = None
    for i, g in enumerate(sorted(games, key=lambda g: g.seq)):
        mine = outcome(g.game_id) if g.bot_a == "c" else 1.0 - outcome(g.game_id)
        key = (g.bot_a, g.bot_b, g.deal)
        if key not in halves:
            halves[key] = mine
            continue
        unit = (halves.pop(key) + mine) / 2
        counts[unit] = counts.get(unit, 0) + 1
        state = TEST.state(counts, paired=True)
        if state.result is not None:
            expected = (state, i + 1)
            break
    assert expected is not None and expected[0].result == "H1"
    for seed in range(5):
        order = list(games)
        random.Random(seed).shuffle(order)
        watch = SprtWatch(TEST, "c", games, duplicate=True)
        for g in order:
            score = outcome(g.game_id)
            watch.add(g.game_id, g.bot_a, g.bot_b, score)
        assert (watch.decided, watch.decided_games) == expected


pytestmark = pytest.mark.usefixtures("no_bot_left")


@pytest.mark.processes
def test_a_gauntlet_stops_when_its_sprt_decides_and_stays_decided(tmp_path):
    path = write_ladder(tmp_path, ['"heuristic"', '"random"',
                                   '{ name = "random-b", bot = "random" }'],
                        games=40, format="gauntlet", challenger="heuristic", seed=5,
                        concurrency=2)
    with path.open("a") as f:
        f.write("[sprt]\nelo0 = 0\nelo1 = 100\nalpha = 0.2\nbeta = 0.2\n")
    cfg = load_ladder(path)
    summary = run_ladder(cfg)
    assert summary.complete and summary.sprt is not None
    assert summary.sprt.result == "H1"  # heuristic is far stronger than random
    with Store.open(cfg.database) as store:
        stored = store.game_count()
        decision = store.sprt_decision("heuristic")
    assert decision is not None and decision["result"] == "H1"
    assert decision["llr"] >= decision["upper"] == pytest.approx(TEST.upper)
    assert stored < summary.planned == 80  # stopped early
    assert decision["games"] <= stored

    data = json.loads(ladder_cli("standings", path, "--json").stdout)
    assert data["sprt"]["result"] == "H1" and data["sprt"]["frozen"] is True
    assert data["sprt"]["llr"] == pytest.approx(decision["llr"], abs=1e-4)
    assert data["challenger"]["name"] == "heuristic"
    assert data["challenger"]["field"]["other"] == "field"
    text = ladder_cli("standings", path).stdout
    assert "SPRT heuristic v field" in text and "H1 accepted" in text and "LLR" in text

    again = ladder_cli("run", path, "--quiet", "--games", "60")
    assert again.returncode == 0, again.stderr
    assert "already decided" in again.stdout and "nothing was" in again.stdout
    assert f"{stored} of 120 planned games stored" in again.stdout
    assert "stopped by the SPRT (H1 accepted)" in again.stdout
    with Store.open(cfg.database) as store:
        assert store.game_count() == stored


def test_the_live_view_shows_the_llr_and_its_bounds(tmp_path):
    import io

    from rich.console import Console

    from ladder.run.live import LiveView
    from tests.ladder.test_ladder_store import fake_log, open_store

    store, ids = open_store(tmp_path, ("c", "x", "y"))
    run = store.start_run(planned=0, to_play=0, concurrency=1)
    games = plan(["c", "x", "y"], fmt=GAUNTLET, challenger="c", games_per_pairing=8,
                 key=key_from_seed(3), duplicate=True)
    rows = [store.record_game(g, fake_log(g, outcome(g.game_id) == 1.0), ids, run)
            for g in games]
    store.close()
    console = Console(file=io.StringIO(), width=140, record=True)
    view = LiveView(console, challenger="c", sprt=TEST)
    standings = RunningStandings()
    view.started(title="g", total=len(games), done=0, standings=standings,
                 bots=["c", "x", "y"])
    for row in rows:
        assert row is not None
        standings.add(row)
        view.game_stored(row)
        view.game_done(row)
    view.finished()
    console.print(view)
    text = console.export_text()
    assert "SPRT c v field" in text and "LLR" in text
    assert f"({TEST.lower:.2f}, {TEST.upper:.2f})" in text


def test_a_resumed_run_finds_a_decision_its_stored_games_already_made(tmp_path):
    """A run killed after the deciding game was stored but before the decision was:
    the next run reaches the same decision from the stored games and plays nothing."""
    from tests.ladder.test_ladder_store import fake_log

    path = write_ladder(tmp_path, ['"heuristic"', '"random"',
                                   '{ name = "random-b", bot = "random" }'],
                        games=40, format="gauntlet", challenger="heuristic", seed=5)
    with path.open("a") as f:
        f.write("[sprt]\nelo0 = 0\nelo1 = 100\nalpha = 0.2\nbeta = 0.2\n")
    cfg = load_ladder(path)
    from ladder.schedule.pairings import plan_ladder

    with Store.open(cfg.database, write=True) as store:
        key = store.bind_settings(cfg.name, cfg.settings())
        versions = store.register_bots([b.manifest for b in cfg.bots])
        ids = {v.label: v.id for v in versions.values()}
        run = store.start_run(planned=80, to_play=80, concurrency=1)
        planned = plan_ladder(cfg, key)
        # heuristic wins every game of the first 12 pairs: by hand, in schedule order,
        # that is enough for H1 at these bounds (checked below against a fresh watch)
        watch = SprtWatch(cfg.sprt, "heuristic", planned, duplicate=True)
        decided_at = None
        for g in planned[:24]:
            store.record_game(g, fake_log(g, a_wins=g.bot_a == "heuristic"), ids, run)
            if watch.add(g.game_id, g.bot_a, g.bot_b,
                         1.0 if g.bot_a == "heuristic" else 0.0) and decided_at is None:
                decided_at = watch.decided
        store.finish_run(run, "interrupted")
        assert store.sprt_decision("heuristic") is None
    assert decided_at is not None and decided_at.result == "H1"
    summary = run_ladder(cfg)
    assert summary.sprt_decided_before and summary.played == 0 and summary.complete
    assert summary.sprt == decided_at
    with Store.open(cfg.database) as store:
        stored = store.sprt_decision("heuristic")
        assert store.game_count() == 24
    assert stored is not None and stored["result"] == "H1"
    assert (stored["llr"], stored["units"]) == (decided_at.llr, decided_at.units)


@pytest.mark.processes
def test_the_standings_give_fastchess_llr_where_its_fit_once_stopped_at_a_pole(tmp_path):
    """18 pairs for the challenger, LL 1, LD 1, WD 11 and WW 5: a table on which the fit
    of the 0 Elo hypothesis once stopped at a pole of its equation, so that the standings
    said LLR -33.21, H0 accepted, at a 75% score. fastchess's LLR is 0.82: no decision."""
    from ladder.schedule.pairings import plan_ladder
    from tests.ladder.test_ladder_store import drawn_log, fake_log

    path = write_ladder(tmp_path, ['"heuristic"', '"random"'], games=36,
                        format="gauntlet", challenger="heuristic", seed=5)
    with path.open("a") as f:
        f.write("[sprt]\nelo0 = 0\nelo1 = 20\n")
    cfg = load_ladder(path)
    halves = {0.0: "LL", 0.25: "LD", 0.75: "WD", 1.0: "WW"}  # the challenger's games
    pair_scores = [0.0, 0.25] + [0.75] * 11 + [1.0] * 5
    with Store.open(cfg.database, write=True) as store:
        key = store.bind_settings(cfg.name, cfg.settings())
        versions = store.register_bots([b.manifest for b in cfg.bots])
        ids = {v.label: v.id for v in versions.values()}
        run = store.start_run(planned=36, to_play=36, concurrency=1)
        deals: dict[int, list] = {}
        for g in plan_ladder(cfg, key):
            deals.setdefault(g.deal, []).append(g)
        assert len(deals) == len(pair_scores)
        for games, score in zip(deals.values(), pair_scores, strict=True):
            for g, half in zip(games, halves[score], strict=True):
                log = (drawn_log(g) if half == "D" else
                       fake_log(g, a_wins=(g.bot_a == "heuristic") == (half == "W")))
                store.record_game(g, log, ids, run)
        store.finish_run(run, "complete")
    expected = SprtTest(0.0, 20.0).state(
        {0.0: 1, 0.25: 1, 0.75: 11, 1.0: 5}, paired=True)
    assert expected.llr == pytest.approx(0.8215646, abs=1e-6)
    data = json.loads(ladder_cli("standings", path, "--json").stdout)
    assert data["sprt"]["llr"] == round(expected.llr, 4) == 0.8216
    assert data["sprt"]["result"] is None and data["sprt"]["units"] == 18
    assert data["sprt"]["frozen"] is False
    assert data["challenger"]["pooled"]["score"] == 0.75
    text = " ".join(ladder_cli("standings", path).stdout.split())  # the caption wraps
    assert "LLR 0.82 in (-2.94, 2.94) after 18 pairs: running" in text

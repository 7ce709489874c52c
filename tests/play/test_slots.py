"""The step and the dispatcher both executors share (arena.play.slots): twins never at once,
a lost game handed out again first, and a game that does not end leaves no process of its
slot running."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
import trio
import trio.testing

from arena.core.rules import preset
from arena.play.slots import Dispatch, GameSlot, SlotSettings
from arena.procs.processes import open_bot_pool
from arena.settings.manifest import load_manifest
from arena.settings.process import ProcessSettings
from arena.settings.spec import GameSpec
from tests.helpers import no_bot_left  # noqa: F401 - a fixture

RULES = preset("standard")


def spec(number: int, seed: int) -> GameSpec:
    return GameSpec(f"g{number}", RULES, seed, 0, ())


def pairs(deals: int) -> list[GameSpec]:
    """A schedule of duplicate pairs: games 2k and 2k+1 share deal k."""
    return [spec(n, n // 2) for n in range(2 * deals)]


async def drain(dispatch: Dispatch, slots: int, seed: int, lose: set[str] = frozenset()
                ) -> tuple[list[str], int]:
    """Plays every game handed out on `slots` slots of random length (on trio's mock
    clock), losing each game of `lose` once; (games in the order they ended, the most
    games of one deal ever in play at once)."""
    rng = random.Random(seed)
    ended: list[str] = []
    lost: set[str] = set()
    playing: dict[int, int] = {}
    most = 0

    async def slot() -> None:
        nonlocal most
        while (s := await dispatch.next()) is not None:
            playing[s.seed] = playing.get(s.seed, 0) + 1
            most = max(most, playing[s.seed])
            await trio.sleep(rng.uniform(0.1, 2.0))
            playing[s.seed] -= 1
            if s.game_id in lose and s.game_id not in lost:
                lost.add(s.game_id)
                await dispatch.again(s)
                continue
            await dispatch.done(s)
            ended.append(s.game_id)

    async with trio.open_nursery() as nursery:
        for _ in range(slots):
            nursery.start_soon(slot)
    return ended, most


@pytest.mark.parametrize("seed", range(8))
def test_twins_are_never_played_at_once_and_every_game_is_played_once(seed):
    specs = pairs(12)
    ended, most = trio.run(lambda: drain(Dispatch(iter(specs), lookahead=8), 4, seed),
                           clock=trio.testing.MockClock(autojump_threshold=0))
    assert most == 1
    assert sorted(ended) == sorted(s.game_id for s in specs)


def test_a_lost_game_goes_out_again_first_and_the_slots_wait_for_it():
    """A game handed back after every other was handed out is still played: a slot with
    nothing to take waits while a game is in play, since it may come back."""
    specs = pairs(6)
    last = specs[-1].game_id
    ended, most = trio.run(
        lambda: drain(Dispatch(iter(specs), lookahead=8, hands_back=True), 3, 1,
                      lose={"g0", last}),
        clock=trio.testing.MockClock(autojump_threshold=0))
    assert most == 1
    assert sorted(ended) == sorted(s.game_id for s in specs)


def test_without_hands_back_a_slot_with_nothing_left_is_told_so_at_once():
    """The local executor's games never come back: a slot with nothing left to take
    stops its bots while the last games are still played elsewhere."""

    async def main() -> tuple[str | None, str | None]:
        dispatch = Dispatch(iter([spec(0, 1)]), lookahead=4)
        first = await dispatch.next()
        with trio.fail_after(1):
            none = await dispatch.next()
        return (first.game_id if first else None), none

    assert trio.run(main) == ("g0", None)


def test_a_held_game_does_not_hold_up_the_games_behind_it():
    async def main() -> list[str]:
        dispatch = Dispatch(iter([spec(0, 7), spec(1, 7), spec(2, 8), spec(3, 9)]), lookahead=4)
        first = await dispatch.next()
        taken = [first.game_id]
        for _ in range(2):  # g1 is g0's twin: held while g0 plays, the others go ahead
            taken.append((await dispatch.next()).game_id)
        await dispatch.done(first)
        taken.append((await dispatch.next()).game_id)
        return taken

    assert trio.run(main) == ["g0", "g2", "g3", "g1"]


@pytest.mark.usefixtures("no_bot_left")
@pytest.mark.parametrize("fresh", [False, True])
def test_a_slot_keeps_its_bots_between_games_and_stops_them_when_a_game_raises(
        tmp_path, fresh):
    """The failure handling of both executors: the bots stay for the next game (unless
    fresh processes are asked for), and a game that raises instead of ending (here its
    observer has a bug) stops every process of its slot before the error goes on."""
    random_bot = load_manifest("random")
    seats = (random_bot, replace(random_bot, name="random-2")) * 2

    class Broken:
        def started(self, log: object) -> None:
            raise RuntimeError("an observer's bug")

    def observe(s: GameSpec) -> Broken | None:
        return Broken() if s.game_id == "broken" else None

    processes = ProcessSettings(tmp_path / "logs", sandbox=False, fresh_processes=fresh)
    (tmp_path / "logs").mkdir()

    async def main() -> None:
        async with open_bot_pool() as pool:
            slot = GameSlot(pool, SlotSettings(RULES, processes, observe), name="s0")
            log = await slot.play(GameSpec("g0", RULES, 3, 0, seats))
            assert not log.faults
            kept = [inst.process for inst in slot.cache._instances.values()]
            assert len(kept) == (0 if fresh else 4)
            assert all(p is not None and p.running for p in kept)
            with pytest.raises(RuntimeError, match="an observer's bug"):
                await slot.play(GameSpec("broken", RULES, 4, 0, seats))
            # stopped by the slot itself, the pool still open
            assert not slot.cache._instances
            assert not any(p.running for p in kept if p is not None)
            again = await slot.play(GameSpec("g1", RULES, 5, 0, seats))  # afresh
            assert not again.faults

    trio.run(main)

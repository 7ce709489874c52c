"""What a run says and refuses at its start about the machine it runs on: which limits
per bot hold here and how secret seeded deals are (`arena match`, `ladder run` and
`arena check-bot` print these), and settings whose bots could hold more memory than the
machine has, refused before a game starts."""

from __future__ import annotations

import os

from arena.settings.errors import ConfigError


def run_notes(*, sealed: bool, seed: int | None) -> list[str]:
    """What a run says at its start about fair play: which limits per bot hold on this
    machine (arena.procs.cgroups), and, with a seed and sealed bots, that the deals are only as
    secret as the seed (with what a short one costs to guess)."""
    from arena.procs import cgroups
    from arena.settings.deals import seed_warning

    notes = []
    if sealed:
        notes.append(f"limits: {cgroups.detect().text()}")
        if seed is not None:
            notes.append(f"note: seed {seed} was given, so the deals are as secret as the "
                         f"seed: anyone who has it can redeal every game")
            warning = seed_warning(seed)
            if warning is not None:
                notes.append(f"warning: {warning}")
    return notes


def check_memory(*, concurrency: int, seats: int, memory_mb: int, sealed: bool,
                 lower: str = "the concurrency") -> None:
    """Refuses (ConfigError, one line) settings whose bots could together hold more
    memory than the machine has: every game at once has a bot in each seat, each allowed
    `memory_mb`."""
    if not sealed:
        return
    try:
        machine_mb = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE") >> 20
    except (ValueError, OSError):
        return
    wanted = concurrency * seats * memory_mb
    if wanted > machine_mb:
        most = max(1, machine_mb // (seats * memory_mb))
        raise ConfigError(
            f"{concurrency} games at once x {seats} seats x {memory_mb} MiB per bot is "
            f"{wanted:,} MiB, more than this machine's {machine_mb:,} MiB: lower {lower} "
            f"(at most {most} here) or the memory per bot ([limits] memory_mb)")

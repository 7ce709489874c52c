"""How a record's seat limits read in `arena replay`."""

from arena.settings.limits import SeatLimits


def limits(cpus: str) -> SeatLimits:
    return SeatLimits("cgroup v1", ("memory", "cpuset"), 512, 64, 64, 64, 64, 256, cpus)


def test_the_cpus_a_seat_ran_on_read_as_cpus_not_as_a_count():
    assert "on CPU 0;" in limits("0").text()
    assert "on CPUs 0-1;" in limits("0-1").text()
    assert "CPU" not in limits("").text()
    assert limits("0").text().endswith("kept by cgroup v1 (memory, cpuset)")

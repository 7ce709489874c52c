"""`ladder report` as data and as a page: --json, --csv for every table, and --html, one
self-contained page whose charts a real browser lays out (headless Chromium, as the
replay viewer's test does)."""

from __future__ import annotations

import csv
import json
import re
from pathlib import Path

import pytest

from ladder.cli import main as ladder_cli
from tests.ladder.test_ladder_store import stored_ladder
from tests.views.test_replay_html import Dom, require_chromium, run_chromium

HOSTILE = "<i>x</i>&co"
STRENGTHS = {"alpha": 150, "bravo": 0, HOSTILE: -100}


@pytest.fixture(scope="module")
def report(tmp_path_factory) -> tuple[Path, dict, Path, str]:
    tmp = tmp_path_factory.mktemp("report")
    store, _ = stored_ladder(tmp, STRENGTHS, games=24)
    db = store.path
    store.close()
    page, folder = tmp / "out.html", tmp / "tables"
    argv = ["report", str(db), "--html", str(page), "--csv", str(folder), "--json"]
    import contextlib
    import io

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert ladder_cli.main(argv) == 0
    return db, json.loads(out.getvalue()), folder, page.read_text(encoding="utf-8")


def test_json_holds_every_table(report):
    _, data, _, _ = report
    names = {b["name"] for b in data["bots"]}
    assert names == set(STRENGTHS)
    assert data["by"] == "pairs" and data["pairs"] == 36 and data["units"] == 36
    assert len(data["gaps"]) == 3
    for g in data["gaps"]:
        assert g["margin"] > 0 and 0 <= g["los"] <= 1
        h = g["head_to_head"]
        assert h["by"] == "pairs" and h["units"] == 12
    assert {f["bot"] for f in data["figures"]} == names
    assert data["curve"] and data["curve"][-1]["games"] == 72
    last = data["curve"][-1]["ratings"]
    by_bot = {b["name"]: b for b in data["bots"]}
    for name, point in last.items():  # the curve ends where the standings are
        assert point["rating"] == pytest.approx(by_bot[name]["rating"], abs=1e-3)
    assert all(b["elo_running"] for b in data["bots"])
    json.dumps(data, allow_nan=False)


def test_csv_writes_every_table(report):
    _, data, folder, _ = report
    files = sorted(p.name for p in folder.iterdir())
    assert files == sorted(f"{t}.csv" for t in
                           ("standings", "gaps", "los", "crosstable", "bots", "curve"))
    with (folder / "standings.csv").open(newline="") as f:
        rows = list(csv.DictReader(f))
    assert [r["bot"] for r in rows] == [b["name"] for b in data["bots"]]
    assert float(rows[0]["rating"]) == pytest.approx(data["bots"][0]["rating"], abs=1e-3)
    with (folder / "gaps.csv").open(newline="") as f:
        gaps = list(csv.DictReader(f))
    assert len(gaps) == 3 and all(float(g["margin"]) > 0 for g in gaps)
    with (folder / "curve.csv").open(newline="") as f:
        assert len(list(csv.DictReader(f))) == 3 * len(data["curve"])


def test_page_is_self_contained_and_escaped(report):
    _, _, _, page = report
    assert page.startswith("<!DOCTYPE html>")
    lowered = page.lower()
    assert "http:" not in lowered and "https:" not in lowered and "<link" not in lowered
    assert not re.search(r"""\b(?:src|href)\s*=""", lowered)
    assert "url(" not in lowered and "@import" not in lowered
    assert "<i>x</i>" not in page and "&lt;i&gt;x&lt;/i&gt;&amp;co" in page
    for heading in ("Ratings against games played", "Standings", "Gaps", "Crosstable",
                    "Likelihood of superiority", "Per bot"):
        assert f"<h2>{heading}</h2>" in page
    assert page.count('class="line"') == 3 and page.count('class="band"') == 3


@pytest.mark.processes
def test_the_charts_are_drawn_in_a_browser(report, tmp_path):
    _, _, _, page = report
    chromium = require_chromium()
    path = tmp_path / "report.html"
    path.write_text(page, encoding="utf-8")
    dom = Dom(run_chromium(chromium, tmp_path, "report", path.as_uri(), "--dump-dom"))
    body = dom.find(tag="body")[0]
    # every bot's line and band has a real size, as the browser measured it
    assert body.get("data-lines") == "3" and body.get("data-bands") == "3"
    # heat cells: 6 in the crosstable, 6 in the LOS matrix, 3 gaps
    assert body.get("data-cells") == "15"


def test_prior_zero_is_the_plain_fit(report, capsys):
    db, data, _, _ = report
    assert ladder_cli.main(["standings", str(db), "--json", "--prior", "0"]) == 0
    plain = json.loads(capsys.readouterr().out)
    assert plain["prior"] == 0 and data["prior"] == 2
    top = {b["name"]: b["rating"] for b in plain["bots"]}
    shrunk = {b["name"]: b["rating"] for b in data["bots"]}
    # the prior pulls every rating toward the mean, 1200
    for name in top:
        assert abs(shrunk[name] - 1200) < abs(top[name] - 1200)
    with pytest.raises(SystemExit) as e:
        ladder_cli.main(["standings", str(db), "--prior", "-1"])
    assert e.value.code == 2
    assert "expected a number of 0 or more" in capsys.readouterr().err

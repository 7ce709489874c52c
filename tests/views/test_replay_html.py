"""The HTML replay viewer: one self-contained page, each seat's perspective built from
seat_view() only, checked in the data and in headless Chromium (which CI installs with
scripts/install_chromium.sh: a missing browser fails these tests, it does not skip them).
"""

from __future__ import annotations

import itertools
import json
import os
import re
import subprocess
from concurrent.futures import ThreadPoolExecutor
from html.parser import HTMLParser
from pathlib import Path
from typing import ClassVar

import pytest

from arena.core.actions import ActionKind
from arena.core.cards import card_label
from arena.core.rules import PRESETS, RuleSet
from arena.records.gamelog import GameEnd, GameLog
from arena.records.replay import replay, verify
from arena.settings.faults import Fault, FaultKind
from arena.views.replay_html import build_data, render_html
from tests.helpers import play_random_game

CHROMIUM = Path("/usr/bin/chromium")
ROOT = Path(__file__).resolve().parents[2]
HOSTILE = "</script><b>x</b>"


# --- a real game, played in-process as arena/play/runner.py records one --------------------------


def first_discard(log: GameLog) -> tuple[int, int, int] | None:
    """(action index, dealer, card) of hand 0's discard, if the dealer discarded."""
    hl = log.hands[0]
    for i, la in enumerate(hl.actions):
        if la.action.kind is ActionKind.DISCARD:
            return i, la.seat, la.action.card  # type: ignore[return-value]
    return None


@pytest.fixture(scope="module")
def game_log() -> GameLog:
    """A standard game whose first hand has a dealer's discard (first such seed)."""
    names = ("north <star>", HOSTILE, "O'Brien & \"Co\"", "dealer-bot")
    for seed in range(1, 200):
        log = play_random_game(seed, RuleSet(name="standard"), names)
        if first_discard(log) is not None and len(log.hands) >= 3:
            assert verify(log) is None
            return log
    raise AssertionError("no seed gave a first hand with a discard")


@pytest.fixture(scope="module")
def page(game_log) -> str:
    return render_html(game_log)


def step_data(data: dict, step: int, perspective: str | int) -> tuple[dict, dict, str]:
    per = data["steps"][step][2]
    pi = 0 if perspective == "all" else 1 + int(perspective)
    pub, pri, last = (data["pieces"][i] for i in per[pi])
    return pub, pri, last


# --- the file itself ----------------------------------------------------------------------


def test_page_is_self_contained(page):
    assert page.startswith("<!DOCTYPE html>")
    lowered = page.lower()
    assert "http:" not in lowered and "https:" not in lowered
    assert "//" not in page
    for m in re.finditer(r"""(?:src|href)\s*=\s*["']?([^"'\s>]*)""", lowered):
        assert m.group(1).startswith("data:"), m.group(0)
    assert "url(" not in lowered and "@import" not in lowered
    assert "<link" not in lowered
    assert len(page) < 1_000_000


def test_hostile_names_are_escaped(page, game_log):
    assert "<b>x</b>" not in page
    assert page.count("</script>") == 2  # the data and the script, nothing from a name
    assert "&lt;/script&gt;&lt;b&gt;x&lt;/b&gt;" in page  # in the title
    raw = re.search(r'<script type="application/json" id="game-data">(.*?)</script>', page, re.S)
    assert raw is not None and "<" not in raw.group(1)
    data = json.loads(raw.group(1))
    assert [s["name"] for s in data["seats"]] == [b.name for b in game_log.seats]


def test_a_name_cannot_inject_into_the_template():
    log = play_random_game(3, RuleSet(name="standard"), ("%DATA%", "%JS%", "%CSS%", "%TITLE%"))
    page = render_html(log)
    assert page.count('<script type="application/json"') == 1
    assert "%DATA% &amp; %CSS% vs %JS% &amp; %TITLE%" in page


def test_size_stays_small_for_a_long_game():
    rules = RuleSet(name="long", target=14)
    log = play_random_game(11, rules, ("a", "b", "c", "d"))
    assert len(log.hands) >= 10
    size = len(render_html(log).encode())
    assert size < 400_000, f"{len(log.hands)} hands: {size} bytes"


# --- the data: what each perspective holds ------------------------------------------------


OPTION_GAMES = {
    # Phases no preset opens: the dealer's optional pickup, a turned joker bid on, and
    # railroading (a card passed face down that only its giver has seen).
    "options": PRESETS["british"].with_options(
        dealer_may_decline=True, turned_joker_bid=True, railroading=True
    ),
    "six-railroading": PRESETS["six-player"].with_options(
        lone_asks_partner=False, railroading=True
    ),
}


@pytest.mark.parametrize("preset", sorted(PRESETS) + sorted(OPTION_GAMES))
def test_seat_perspectives_hold_nothing_hidden(preset):
    """Against the engine, replayed here: no perspective of a seat holds another seat's
    card, the kitty under the upcard, (but for the dealer) the discard, or a card given
    or passed to a lone player but by the two it is shown to, in any form."""
    rules = OPTION_GAMES.get(preset) or PRESETS[preset]
    for seed in (5, 6, 7):
        log = play_random_game(seed, rules, ("a", "b", "c", "d"))
        data = build_data(log)
        assert data["error"] is None
        steps = iter(i for i, st in enumerate(data["steps"]) if st[1] < _hand_len(log, st[0]))
        for pt in replay(log):
            i = next(steps)
            hand = pt.game.hand
            pub_all, pri_all, _ = step_data(data, i, "all")
            assert [len(h) for h in pri_all["hs"]] == pub_all["n"]
            assert pri_all["hs"] == [sorted(h) for h in hand.hands]
            for seat in range(log.rules.seats):
                hidden = set(hand.kitty[1:])
                for other in range(log.rules.seats):
                    if other != seat:
                        hidden |= set(hand.hands[other])
                    hidden |= set(hand.set_aside[other])
                if seat != hand.dealer and hand.discarded is not None:
                    hidden.add(hand.discarded)
                hidden |= set(hand.set_aside_unseen)
                if hand.passed_card is not None:
                    hidden.add(hand.passed_card)
                hidden -= {hand.upcard}  # public, even in the dealer's hand or discarded
                hidden -= {hand.gave[seat], *hand.set_aside[seat]}  # its own doing
                pub, pri, last = step_data(data, i, seat)
                assert pub["n"] == pub_all["n"]
                shown = {pub["up"], *pri["h"], *pri["lg"]}
                shown |= {c for t in pub["tk"] for c in t[1][1::2]}
                if pub["ct"]:
                    shown |= set(pub["ct"][1][1::2])
                if pri["dc"] is not None:
                    shown.add(pri["dc"])
                assert not shown & hidden, (preset, seed, i, seat)
                assert set(pri) == {"h", "dc", "lg", "looked"}
                words = last.split()  # whole labels: "A♥" is not "A♥²", the other copy
                assert not any(card_label(c) in words for c in hidden)
                if seat != hand.dealer and "discards" in last:
                    assert last.endswith("discards a card face down"), last


def _hand_len(log: GameLog, h: int) -> int:
    return len(log.hands[h].actions)


def test_steps_and_hands(game_log):
    data = build_data(game_log)
    assert len(data["hands"]) == len(game_log.hands)
    assert len(data["steps"]) == sum(len(h.actions) + 1 for h in game_log.hands)
    first = 0
    for h, hl in enumerate(game_log.hands):
        assert data["hands"][h]["first"] == first
        end = first + len(hl.actions)
        pub, _, _ = step_data(data, end, "all")
        assert pub["sc"] == list(hl.scores_after)
        assert pub["end"] and pub["ph"] == "hand_over"
        assert sum(pub["tw"]) == len(hl.trick_winners)
        first = end + 1


def test_a_broken_record_still_renders_with_the_divergence():
    log = play_random_game(4, RuleSet(name="standard"), ("a", "b", "c", "d"))
    hl = log.hands[1]
    hl.trick_winners = [(w + 1) % 4 for w in hl.trick_winners]
    page = render_html(log)
    data = build_data(log)
    assert data["error"] and "hand 2" in data["error"]  # hands counted from 1
    assert "diverges from the rules" in page


def test_a_forfeited_game_ends_on_its_unfinished_hand():
    log = play_random_game(8, RuleSet(name="standard"), ("a", "b", "c", "d"))
    hl = log.hands[1]
    cut = next(i for i, la in enumerate(hl.actions) if la.action.kind is ActionKind.PLAY) + 2
    log.hands = log.hands[:2]
    hl.actions = hl.actions[:cut]
    hl.trick_winners, hl.result, hl.scores_after = [], None, (0, 0)
    loser = hl.actions[-1].seat
    log.faults = [Fault(FaultKind.CRASHED, loser, 1, 3, "exit 1 <oops>", False)]
    log.end, log.winning_team = GameEnd.FORFEIT, 1 - loser % 2
    log.final_scores = log.hands[0].scores_after
    assert verify(log) is None
    data = build_data(log)
    assert data["error"] is None
    pub, _, _ = step_data(data, len(data["steps"]) - 1, "all")
    assert pub["end"] == f"Game forfeited: Team {1 - loser % 2} wins"
    assert pub["ct"] is not None and len(pub["ct"][1]) == 4  # two cards on the table
    page = render_html(log)
    assert "<oops>" not in page


# --- in the browser -----------------------------------------------------------------------


def require_chromium() -> Path:
    """The browser, or a failure (not a skip: CI installs it) saying how to get it."""
    if not (CHROMIUM.exists() and os.access(CHROMIUM, os.X_OK)):
        pytest.fail(
            f"{CHROMIUM} is missing: run scripts/install_chromium.sh (as root) to install "
            "Debian's chromium for the HTML replay tests",
            pytrace=False,
        )
    return CHROMIUM


class Dom(HTMLParser):
    """Every element's attributes, and the text inside each element with an id."""

    VOID: ClassVar[set[str]] = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta",
            "source", "track", "wbr"}

    def __init__(self, text: str) -> None:
        super().__init__()
        self.elements: list[dict[str, str]] = []
        self.text: dict[str, str] = {}
        self._open: list[str | None] = []
        self.raw = text
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        a = {k: v or "" for k, v in attrs} | {"tag": tag}
        self.elements.append(a)
        if tag in self.VOID:
            return
        self._open.append(a.get("id"))
        if "id" in a:
            self.text.setdefault(a["id"], "")

    def handle_endtag(self, tag):
        if tag not in self.VOID and self._open:
            self._open.pop()

    def handle_data(self, data):
        for i in self._open:
            if i is not None:
                self.text[i] += data

    def find(self, **attrs) -> list[dict[str, str]]:
        want = {k.replace("_", "-"): str(v) for k, v in attrs.items()}
        return [e for e in self.elements if all(e.get(k) == v for k, v in want.items())]

    def by_id(self, id_: str) -> dict[str, str]:
        found = [e for e in self.elements if e.get("id") == id_]
        assert len(found) == 1, id_
        return found[0]


def run_chromium(exe: Path, tmp: Path, name: str, url: str, *args: str) -> str:
    profile = tmp / f"profile-{name}"
    cmd = [
        str(exe), "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
        "--no-first-run", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", f"--user-data-dir={profile}", "--virtual-time-budget=2000",
        *args, url,
    ]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


@pytest.fixture(scope="module")
def browser(page, tmp_path_factory):
    """The page written out, and a copy with a script that clicks and presses keys."""
    tmp = tmp_path_factory.mktemp("html")
    path = tmp / "game.html"
    path.write_text(page, encoding="utf-8")
    driven = tmp / "driven.html"
    driven.write_text(page.replace("</body>", _DRIVER + "</body>"), encoding="utf-8")
    return tmp, path, driven


def dump_all(chromium: Path, tmp: Path, jobs: dict[str, str]) -> dict[str, Dom]:
    with ThreadPoolExecutor(max_workers=len(jobs)) as pool:
        futures = {
            name: pool.submit(run_chromium, chromium, tmp, name, url, "--dump-dom")
            for name, url in jobs.items()
        }
        return {name: Dom(f.result()) for name, f in futures.items()}


_DRIVER = """<script>
(function () {
  const out = [];
  const note = () => out.push([document.getElementById("step-label").textContent,
    document.body.dataset.step, document.body.dataset.hand, document.body.dataset.kind]);
  note();
  document.getElementById("next").click(); note();
  document.dispatchEvent(new KeyboardEvent("keydown", {key: "ArrowRight"})); note();
  document.dispatchEvent(new KeyboardEvent("keydown", {key: "ArrowLeft"})); note();
  document.getElementById("next-hand").click(); note();
  const sel = document.getElementById("perspective");
  sel.value = "2"; sel.dispatchEvent(new Event("change")); note();
  const pre = document.createElement("pre");
  pre.id = "driver-out";
  pre.textContent = JSON.stringify({out: out, hash: location.hash,
    up: document.querySelectorAll('.card[data-where="hand"][data-face="up"]').length});
  document.body.appendChild(pre);
})();
</script>
"""


def hand_cards(dom: Dom, face: str, seat: int | None = None) -> list[dict[str, str]]:
    found = dom.find(data_where="hand", data_face=face)
    return [e for e in found if seat is None or e.get("data-seat") == str(seat)]


def test_in_the_browser(browser, game_log):
    chromium = require_chromium()
    tmp, path, driven = browser
    url = path.as_uri()
    end0 = len(game_log.hands[0].actions)
    discard_at, dealer, discarded = first_discard(game_log)  # type: ignore[misc]
    other = (dealer + 1) % 4
    after = discard_at + 1
    doms = dump_all(chromium, tmp, {
        "s0-seat2": f"{url}#step=0&seat=2",
        "s0-all": f"{url}#step=0&seat=all",
        "end0": f"{url}#step={end0}&seat=all",
        "disc-dealer": f"{url}#step={after}&seat={dealer}",
        "disc-other": f"{url}#step={after}&seat={other}",
        "driven": f"{driven.as_uri()}#step=0&seat=all",
    })

    # Step 0 from seat 2: its five cards face up, fifteen backs for the others.
    d = doms["s0-seat2"]
    up = hand_cards(d, "up")
    assert len(up) == 5 and {e["data-seat"] for e in up} == {"2"}
    assert sorted(int(e["data-card"]) for e in up) == sorted(game_log.hands[0].dealt[2])
    for s in (0, 1, 3):
        assert len(hand_cards(d, "down", s)) == 5 and not hand_cards(d, "up", s)
    assert d.by_id("perspective")  # the choice exists
    assert d.find(data_where="upcard", data_face="up")[0]["data-card"] == str(
        game_log.hands[0].upcard)
    assert len(d.find(data_role="dealer")) == 1
    # The hostile name is text on the page, not markup.
    assert HOSTILE in d.text["seat-1"]
    assert "<b>x</b>" not in d.raw and "&lt;/script&gt;&lt;b&gt;x&lt;/b&gt;" in d.raw

    # Step 0, all cards: twenty face up, no backs in hands.
    d = doms["s0-all"]
    assert len(hand_cards(d, "up")) == 20 and not hand_cards(d, "down")
    dealt = {c for h in game_log.hands[0].dealt for c in h}
    assert {int(e["data-card"]) for e in hand_cards(d, "up")} == dealt

    # The end of hand 0: the recorded score and the result.
    d = doms["end0"]
    score = d.by_id("score")
    assert (int(score["data-team0"]), int(score["data-team1"])) == game_log.hands[0].scores_after
    assert d.by_id("banner") and d.text["result"].strip()
    assert d.find(tag="body")[0]["data-kind"] == "end"
    hl = game_log.hands[0]
    assert hl.result is not None
    if hl.trick_winners:  # the last trick stays in the middle, its winner marked
        size = 4 - len(hl.result.alone)
        last = [(la.seat, la.action.card) for la in hl.actions[-size:]]
        shown = [(int(e["data-seat"]), int(e["data-card"])) for e in d.find(data_where="trick")]
        assert shown == last
        won = [e for e in d.find(data_where="trick") if "win" in e["class"].split()]
        assert [int(e["data-seat"]) for e in won] == [hl.trick_winners[-1]]

    # The discard: the dealer sees it, another seat sees only a back, nowhere its card.
    d = doms["disc-dealer"]
    shown = d.find(data_where="discard", data_face="up")
    assert [int(e["data-card"]) for e in shown] == [discarded]
    d = doms["disc-other"]
    assert not d.find(data_where="discard", data_face="up")
    assert d.find(data_where="discard", data_face="down")
    assert not d.find(data_card=discarded)
    assert card_label(discarded) not in d.text["table"] + d.text["side"]

    # Stepping with the buttons and keys: the label and step advance, then go back.
    out = json.loads(doms["driven"].text["driver-out"])
    labels = [o[0] for o in out["out"]]
    steps = [int(o[1]) for o in out["out"]]
    assert steps[:5] == [0, 1, 2, 1, end0 + 1]
    assert labels[0].startswith("Step 1 /") and labels[1].startswith("Step 2 /")
    assert labels[2].startswith("Step 3 /") and labels[0] != labels[1] != labels[2]
    assert out["out"][4][2] == "1"  # next hand: hand index 1
    assert out["hash"] == f"#step={end0 + 1}&seat=2"
    assert out["up"] == 5  # the perspective switched to seat 2


def test_screenshot(browser, game_log):
    chromium = require_chromium()
    tmp, path, _ = browser
    shot = tmp / "shot.png"
    step = len(game_log.hands[0].actions) - 2  # mid trick, late in the hand
    run_chromium(chromium, tmp, "shot", f"{path.as_uri()}#step={step}&seat=all",
                 f"--screenshot={shot}", "--window-size=1200,800")
    assert shot.exists()
    data = shot.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    assert len(data) > 30_000, len(data)



_LAYOUT = """<script>
(function () {
  const box = (e) => { const r = e.getBoundingClientRect();
    return [r.left, r.top, r.right, r.bottom]; };
  const pre = document.createElement("pre");
  pre.id = "layout";
  pre.textContent = JSON.stringify({
    table: box(document.getElementById("table")),
    seats: [...document.querySelectorAll("#table .seat")].map((e) =>
      [e.dataset.seat, e.className, box(e)]),
    options: [...document.querySelectorAll("#perspective option")].map((o) => o.value),
  });
  document.body.appendChild(pre);
})();
</script>
"""


def test_six_seats_in_the_browser(tmp_path):
    """A six-player game: six places round the table that do not overlap, a perspective
    for each seat, and from one seat its own five cards and twenty-five backs."""
    chromium = require_chromium()
    log = play_random_game(11, PRESETS["six-player"], ("red", "blue"))
    assert verify(log) is None
    page = render_html(log)
    path = tmp_path / "six.html"
    path.write_text(page, encoding="utf-8")
    laid = tmp_path / "six-layout.html"
    laid.write_text(page.replace("</body>", _LAYOUT + "</body>"), encoding="utf-8")
    url = path.as_uri()
    doms = dump_all(chromium, tmp_path, {
        "all": f"{url}#step=0&seat=all",
        "seat4": f"{url}#step=0&seat=4",
        "layout": f"{laid.as_uri()}#step=0&seat=all",
    })
    assert len(hand_cards(doms["all"], "up")) == 30 and not hand_cards(doms["all"], "down")
    d = doms["seat4"]
    up = hand_cards(d, "up")
    assert {e["data-seat"] for e in up} == {"4"} and len(up) == 5
    assert sorted(int(e["data-card"]) for e in up) == sorted(log.hands[0].dealt[4])
    assert len(hand_cards(d, "down")) == 25
    layout = json.loads(doms["layout"].text["layout"])
    assert layout["options"] == ["all", "0", "1", "2", "3", "4", "5"]
    boxes = [b for _, _, b in layout["seats"]]
    assert len(boxes) == 6 and len({c for _, c, _ in layout["seats"]}) == 6
    tl, tt, tr, tb = layout["table"]
    for i, (l1, t1, r1, b1) in enumerate(boxes):
        assert tl <= l1 and r1 <= tr and tt <= t1 and b1 <= tb, (i, boxes[i], layout["table"])
        for l2, t2, r2, b2 in boxes[i + 1:]:
            assert r1 <= l2 or r2 <= l1 or b1 <= t2 or b2 <= t1, (boxes[i], (l2, t2, r2, b2))
    shot = tmp_path / "six.png"
    step = len(log.hands[0].actions) - 2
    run_chromium(chromium, tmp_path, "six-shot", f"{url}#step={step}&seat=all",
                 f"--screenshot={shot}", "--window-size=1200,800")
    data = shot.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 30_000, len(data)


_MEASURE = """<script>
(function () {
  const box = (e) => { if (!e) return null; const r = e.getBoundingClientRect();
    return [r.left, r.top, r.right, r.bottom]; };
  const q = (sel, root) => [...(root || document).querySelectorAll(sel)];
  const disc = document.getElementById("discard-box");
  const pre = document.createElement("pre");
  pre.id = "measure";
  pre.textContent = JSON.stringify({
    vw: window.innerWidth, vh: window.innerHeight, scale: document.body.dataset.scale,
    table: box(document.getElementById("table-wrap")), side: box(document.getElementById("side")),
    seats: q("#table .seat").map((e) => [e.dataset.seat, box(e)]),
    up: q("#table .hand").map((h) => q('.card[data-face="up"]', h).map(box)),
    fixed: q("#kitty, #trump-box").map(box),
    discardSeat: disc ? disc.closest(".seat").dataset.seat : null,
    tricks: q("#tricks-list .tr").map((t) => [t.dataset.leader, t.dataset.winner,
      q(".play", t).map((p) => [p.dataset.seat, p.classList.contains("lead"),
        p.querySelector(".card").dataset.card, p.querySelector(".by").textContent])]),
  });
  document.body.appendChild(pre);
})();
</script>
"""


def _apart(a: list[float], b: list[float]) -> bool:
    return a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1]


def check_layout(m: dict, where: str) -> None:
    """Everything on screen, nothing on the table on top of anything else, every face-up
    card in a hand showing its corner."""
    vw, vh, k = m["vw"], m["vh"], float(m["scale"])
    tl, tt, tr, tb = m["table"]
    sl, st, sr, _ = m["side"]
    assert tl >= 0 and tr <= vw and tb <= vh, (where, "table", m["table"], vw, vh)
    assert sl >= 0 and sr <= vw + 0.5 and st < vh, (where, "side panel", m["side"], vw)
    assert tr <= sl or tb <= st, (where, "table over the side panel")
    boxes = [b for _, b in m["seats"]] + m["fixed"]
    for i, a in enumerate(boxes):
        assert tl <= a[0] and a[2] <= tr and tt <= a[1] and a[3] <= tb, (where, i, a)
        for b in boxes[i + 1:]:
            assert _apart(a, b), (where, a, b)
    for cards in m["up"]:
        for a, b in itertools.pairwise(cards):
            assert b[0] - a[0] >= 24 * k - 0.5, (where, "a card's corner is covered", a, b)


def test_layout_at_two_window_sizes(game_log, tmp_path):
    """At 1280x800 and 900x700, four and six seats: the table and the side panel both in
    the window, seats apart, every face-up card readable (the all-cards view fans every
    hand), the discard beside the dealer, and each trick listed with who led and who
    played each card."""
    chromium = require_chromium()
    six = play_random_game(11, PRESETS["six-player"], ("red", "blue"))
    jobs: dict[str, str] = {}
    steps: dict[str, tuple[GameLog, int]] = {}
    for name, log in (("four", game_log), ("six", six)):
        page = render_html(log).replace("</body>", _MEASURE + "</body>")
        path = tmp_path / f"{name}.html"
        path.write_text(page, encoding="utf-8")
        acts = log.hands[0].actions
        disc = next((i for i, la in enumerate(acts) if la.action.kind is ActionKind.DISCARD), 0)
        for label, step in (("dealt", disc + 1), ("end", len(acts))):
            for size in ("1280,800", "900,700"):
                key = f"{name}-{label}-{size.replace(',', 'x')}"
                jobs[key] = f"{path.as_uri()}#step={step}&seat=all"
                steps[key] = (log, step)
    with ThreadPoolExecutor(max_workers=4) as pool:
        futures = {
            key: pool.submit(run_chromium, chromium, tmp_path, key, url, "--dump-dom",
                             f"--window-size={key.rsplit('-', 1)[1].replace('x', ',')}")
            for key, url in jobs.items()
        }
        measured = {key: json.loads(Dom(f.result()).text["measure"]) for key, f in futures.items()}
    for key, m in measured.items():
        log, step = steps[key]
        check_layout(m, key)
        hl = log.hands[0]
        if "900x700" in key:
            assert float(m["scale"]) < 1  # scaled down, not cut off
        if key.startswith("four-dealt"):  # (at six seats a discard may be a lone player's)
            assert hl.actions[step - 1].action.kind is ActionKind.DISCARD
            assert m["discardSeat"] == str(hl.dealer), key
            assert sum(map(len, m["up"])) == 20
        if "-end-" in key:  # every trick: its leader first, then each card over its player
            assert len(m["tricks"]) == len(hl.trick_winners)
            plays = [la for la in hl.actions if la.action.kind is ActionKind.PLAY]
            for (leader, winner, shown), won in zip(m["tricks"], hl.trick_winners, strict=True):
                size = len(shown)
                trick, plays = plays[:size], plays[size:]
                assert [int(s) for s, _, _, _ in shown] == [la.seat for la in trick]
                assert [int(c) for _, _, c, _ in shown] == [la.action.card for la in trick]
                assert int(leader) == trick[0].seat and int(winner) == won
                assert [lead for _, lead, _, _ in shown] == [True] + [False] * (size - 1)
                assert all(by.startswith(f"{s} ") for s, _, _, by in shown)
    for size in ("1280,800", "900,700"):  # pictures to look at (kept in the test's folder)
        shot = tmp_path / f"shot-{size.replace(',', 'x')}.png"
        run_chromium(chromium, tmp_path, f"shot-{size}", f"{(tmp_path / 'four.html').as_uri()}"
                     f"#step={len(game_log.hands[0].actions) - 2}&seat=all",
                     f"--screenshot={shot}", f"--window-size={size}")
        assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_a_seats_page_offers_that_seat_alone(game_log, tmp_path):
    """A page made for one seat has one perspective: asking for another (or all cards) by
    the address or a key shows that seat still."""
    chromium = require_chromium()
    page = render_html(game_log, seat=2)
    path = tmp_path / "seat2.html"
    path.write_text(page.replace("</body>", _DRIVER + "</body>"), encoding="utf-8")
    d = Dom(run_chromium(chromium, tmp_path, "seat2", f"{path.as_uri()}#step=0&seat=all",
                         "--dump-dom"))
    options = [e for e in d.elements if e["tag"] == "option"]
    assert [o["value"] for o in options] == ["2"]
    assert d.find(tag="body")[0]["data-perspective"] == "2"
    up = hand_cards(d, "up")
    assert {e["data-seat"] for e in up} == {"2"} and len(up) == 5
    assert "seen from seat 2" in d.text["subtitle"] and "seed" not in d.text["subtitle"]

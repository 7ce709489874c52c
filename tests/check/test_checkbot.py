"""`arena check-bot` passes a good bot and fails each misbehaving one with the reason."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from arena.settings.manifest import SAMPLE_BOTS
from tests.helpers import command_bot, misbehaving_bot, no_bot_left  # noqa: F401 - a fixture

pytestmark = pytest.mark.usefixtures("no_bot_left", "own_temp_folder")


@pytest.fixture
def own_temp_folder(monkeypatch):
    """Each test's check-bot makes its folders (bot logs, kept when a check fails) in a
    temp folder of the test's own (short, for unix socket paths), removed at its end: a
    test never sees, nor removes, another's, whatever runs beside it."""
    folder = tempfile.mkdtemp(prefix="ck-")
    monkeypatch.setenv("TMPDIR", folder)
    yield Path(folder)
    shutil.rmtree(folder, ignore_errors=True)


def check_bot(ref: str, *extra: str, columns: str | None = "200") -> subprocess.CompletedProcess:
    """check-bot with its output piped, COLUMNS as given (None: unset)."""
    env = {k: v for k, v in os.environ.items() if k != "COLUMNS"}
    if columns is not None:
        env["COLUMNS"] = columns
    return subprocess.run(
        [sys.executable, "-m", "arena.cli.main", "check-bot", ref, "--games", "1",
         "--rules", "standard", *extra],
        capture_output=True, text=True, timeout=180, env=env,
    )


def failed_rows(table: str, result: str = "FAIL") -> list[str]:
    """The text of each FAIL row (or `result`'s) of check-bot's table: a row begins where
    the result cell is filled, and the lines rich wraps it over add to its check and detail
    cells."""
    rows: list[list[str]] = []
    for line in table.splitlines():
        cells = [c.strip() for c in line.split("│")]
        if len(cells) < 5:
            continue
        if cells[2] or not rows:
            rows.append(cells[1:4])
        else:
            rows[-1][0] += " " + cells[1]
            rows[-1][2] += " " + cells[3]
    return [" ".join(r) for r in rows if r[1] == result]


def write_manifest(tmp_path, mode: str) -> str:
    return str(misbehaving_bot(tmp_path, mode).source)


@pytest.mark.parametrize("bot", ["random", "heuristic"])
def test_sample_bots_pass(bot):
    proc = check_bot(bot, "--rules", "british")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "PASS" in proc.stdout and "FAIL" not in proc.stdout
    assert "dealer_names_trump" in proc.stdout  # the joker scenario of the british rules ran


def test_pimc_passes(tmp_path):
    # The pimc sample bot as check-bot runs it, sealed in its sandbox, started as
    # `python bot.py` in its folder; a copy thinking 2 ms a decision, to keep this short and light
    # (its manifest's budget is a few times that).
    folder = tmp_path / "pimc"
    shutil.copytree(SAMPLE_BOTS / "pimc", folder,
                    ignore=shutil.ignore_patterns("__pycache__"))
    manifest = folder / "bot.toml"
    text = manifest.read_text()
    assert 'PIMC_BUDGET = "' in text
    manifest.write_text(re.sub(r'PIMC_BUDGET = "[^"]*"', 'PIMC_BUDGET = "0.002"', text))
    proc = check_bot(str(folder), "--rules", "british")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "PASS" in proc.stdout and "FAIL" not in proc.stdout
    assert "pimc" in proc.stdout and "dealer_names_trump" in proc.stdout


SEALED_ADDRESS = "unix:/run/euchre/bot.sock"
"""What a sealed bot finds in its EUCHRE_BOT_ADDRESS."""


@pytest.mark.parametrize(
    ("mode", "expected", "fix"),
    [
        # started three times (1, 2 and 4 s) before it is charged: a slow machine is not
        # the bot's fault, and check-bot judges as a match does
        ("never-listen", "started 3 times, the last with 4 s",
         f"fix: listen on the address in EUCHRE_BOT_ADDRESS ({SEALED_ADDRESS}), as it is"),
        ("exit-at-once", "exited with code 1",
         "fix: the bot exited before it listened: its own output above says why"),
        ("refuse", "refused every rule set", None),
        ("hang", "timeout", None),
        ("crash", "crashed", None),
        ("garbage", "malformed", None),
        ("lacks-card", "illegal_action", None),
        ("ignore-term", "killed after the 0.5 s grace period",
         "fix: exit promptly on SIGTERM: stop serving"),
    ],
)
def test_misbehaving_bots_fail_with_the_reason(tmp_path, mode, expected, fix):
    # One rule set is enough to meet each fault; short limits keep the waiting short, but
    # a busy machine may take seconds to start a bot that does listen.
    start_limit = "1" if mode == "never-listen" else "60"
    extra = ["--per-decision", "0.5", "--start-limit", start_limit, "--grace", "0.5"]
    proc = check_bot(write_manifest(tmp_path, mode), *extra)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    out = proc.stdout
    rows = [" ".join(r.split()) for r in failed_rows(out)]
    assert any(expected in row for row in rows), out
    if fix is not None:
        assert any(expected in row and fix in row for row in rows), out
    # misbehave.py serves the protocol itself: no advice of the SDK's, nor a log tail
    # promised where none is shown
    assert not any(word in row for row in rows for word in ("SDK", "run()", "tail")), out
    assert "Traceback" not in proc.stderr


def one_row(proc: subprocess.CompletedProcess) -> str:
    """The one FAIL row of a check that failed, its wrapped lines joined."""
    assert proc.returncode == 1, proc.stdout + proc.stderr
    rows = failed_rows(proc.stdout)
    assert len(rows) == 1, proc.stdout
    return " ".join(rows[0].split())


SCRIPT = "#!/bin/sh\nexit 1\n"


@pytest.mark.parametrize(
    ("command", "files", "said", "fix"),
    [
        # a program not built: its path is the bot's folder's, and that is the fix
        (["./build/cppbot"], {},
         "command not found: ./build/cppbot: there is no {folder}/build/cppbot",
         "fix: build it, or correct the path in the manifest's command: ./NAME and DIR/NAME "
         "are taken from the bot's working folder ({folder}), {here}/NAME from the "
         "manifest's folder, and a bare NAME is looked up on PATH"),
        (["{here}/build/cppbot"], {"build.sh": (SCRIPT, 0o755)},
         "there is no {folder}/build/cppbot",
         "fix: build it (the bot's folder holds build.sh), or correct the path"),
        # a bare name is looked up on PATH, not in the folder that holds it
        (["variant"], {"variant": (SCRIPT, 0o755)},
         "command not found: variant is in no folder of the bot's PATH (/usr/local/bin:",
         "fix: write ./variant in the manifest's command: a bare name such as 'variant' is "
         "looked up on PATH only, never in the bot's folder"),
        # ... and the program of that name in a folder of the bot's is named with its path
        (["cppbot"], {"build/cppbot": (SCRIPT, 0o755)},
         "command not found: cppbot is in no folder of the bot's PATH",
         "fix: write ./build/cppbot in the manifest's command"),
        (["no-such-variant"], {}, "no-such-variant is in no folder of the bot's PATH",
         "fix: install no-such-variant, or correct the manifest's command"),
        # there, but not executable: chmod, or its interpreter
        (["./bot.sh"], {"bot.sh": (SCRIPT, 0o644)},
         "permission denied running ./bot.sh: {folder}/bot.sh is not executable",
         'fix: make it executable (chmod a+x ./bot.sh), or run it through its interpreter: '
         'command = ["sh", "bot.sh"]'),
        (["./bot.py"], {"bot.py": ("", 0o644)}, "is not executable",
         'command = ["{python}", "bot.py"]'),
    ],
)
def test_a_command_that_cannot_run_is_told_what_to_fix(tmp_path, command, files, said, fix):
    """Nothing is started, so nothing is said of listening, of the address or of a log."""
    bot = command_bot(tmp_path, "cppbot", command, files)
    folder = str(bot.cwd)
    row = one_row(check_bot(str(bot.source)))
    assert said.replace("{folder}", folder) in row, row
    assert fix.replace("{folder}", folder) in row, row
    assert "listen" not in row and "EUCHRE_BOT_ADDRESS" not in row and "log" not in row, row


def test_a_program_nobody_may_run_is_refused_before_it_starts(tmp_path):
    """As root, a sealed bot runs as nobody: a program only its owner may execute would
    fail inside the sandbox with an exit code; it is said before anything starts."""
    if os.geteuid() != 0:
        pytest.skip("sealed bots run as nobody only when the arena runs as root")
    bot = command_bot(tmp_path, "owners", ["./bot.sh"], {"bot.sh": (SCRIPT, 0o744)})
    row = one_row(check_bot(str(bot.source)))
    assert "may not be executed by uid 65534 (nobody)" in row, row
    assert "fix: make it executable (chmod a+x ./bot.sh)" in row, row


@pytest.mark.parametrize("sealed", [True, False])
def test_a_bot_listening_elsewhere_is_told_the_address_it_was_given(tmp_path, sealed):
    """The message names what the bot found in EUCHRE_BOT_ADDRESS (it prints it), never
    the arena's way to it (/proc/...), and where it listens instead; more time would not
    help, so it is not started again."""
    extra = () if sealed else ("--no-sandbox",)
    proc = check_bot(write_manifest(tmp_path, "elsewhere"), "--start-limit", "2", *extra)
    row = one_row(proc)
    told = re.search(r"\| told (\S+)", row)
    assert told, row
    if sealed:
        assert told.group(1) == SEALED_ADDRESS
    assert f"did not listen on {told.group(1)} within 2 s: it listens on unix:" in row, row
    assert "elsewhere-" in row and "/proc/" not in row and "started 3 times" not in row, row
    shown = SEALED_ADDRESS if sealed else "the one named above"
    assert f"fix: listen on the address in EUCHRE_BOT_ADDRESS ({shown}), as it is" in row, row


@pytest.mark.parametrize("mode, status", [("status", "INTERNAL"),
                                          ("precondition", "FAILED_PRECONDITION")])
def test_an_error_status_of_a_bot_in_another_language_is_said_without_the_sdks_words(
        tmp_path, mode, status):
    """A C++ handler returns a status; it raises nothing and writes no traceback. The row
    says the status and its details, and where the log is. Any status the bot's server
    chose is its error, not a lost connection."""
    row = one_row(check_bot(write_manifest(tmp_path, mode), "--start-limit", "60"))
    assert "bot_error" in row and f"Decide: {status}: no table state for this game" in row, row
    log = re.search(r"\(its log: (\S+)\)", row)
    assert log and Path(log.group(1)).is_file(), row
    assert "fix: answer every call with a response and status OK" in row, row
    for word in ("traceback", "SDK", "raised", "decide()"):
        assert word.lower() not in row.lower(), row


def test_a_process_that_fails_to_start_mid_check_is_told_why(tmp_path):
    """Self-play starts more processes than the first: one that exits as it starts is
    told so, as the first would be."""
    proc = check_bot(write_manifest(tmp_path, "once"), "--no-sandbox", "--start-limit", "60")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    rows = [" ".join(r.split()) for r in failed_rows(proc.stdout)]
    assert any("standard: self-play 1" in r and "exited with code 1 before listening" in r
               and "fix: the bot exited before it listened" in r for r in rows), proc.stdout


def test_a_bots_brackets_are_printed_as_text_not_markup(tmp_path):
    """Bot output like "[jsbot 123]" or "[/tmp/x.sock]" is neither swallowed as a style nor
    a crash of the table (rich markup)."""
    proc = check_bot(write_manifest(tmp_path, "brackets"), "--start-limit", "60")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "Traceback" not in proc.stderr and "MarkupError" not in proc.stderr
    assert "[jsbot 123] starting" in proc.stdout
    assert "[/tmp/x.sock] [bold]" in proc.stdout


def test_one_bug_is_one_row_naming_a_few_games_and_a_failed_check_keeps_its_logs(tmp_path):
    proc = check_bot(write_manifest(tmp_path, "lacks-card"), "--start-limit", "60",
                     "--games", "4")
    row = one_row(proc)  # every scenario failed the same way: one row names them
    # a few of them by name, the rule set's once, and how many more
    assert row.startswith("standard: self-play 1, self-play 2, self-play 3 and 5 more FAIL"), row
    # misbehave.py serves the protocol itself: the advice is in the protocol's words
    assert "DecideRequest.legal_actions" in row and "view." not in row
    logs = re.search(r"^bot logs: (\S+) \(kept\)$", proc.stdout, flags=re.M)
    assert logs and Path(logs.group(1)).is_dir(), proc.stdout
    shutil.rmtree(logs.group(1))


def test_a_grouped_row_names_a_few_and_counts_the_rest():
    from arena.check.checkbot import _names

    names = ["standard: self-play 1", "standard: self-play 2", "six-player: round 2 as dealer",
             *(f"british: self-play {i}" for i in range(97))]
    assert _names(names) == ("standard: self-play 1, self-play 2, six-player: round 2 as "
                             "dealer and 97 more")
    assert _names(names[:2]) == "standard: self-play 1, self-play 2"


def test_a_passing_check_leaves_no_folder_behind_unless_asked_to_keep_it():
    proc = check_bot("random", "--start-limit", "60")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    folder = re.search(r"bot logs in (\S+) \(removed if every check passes, unless "
                       r"--keep-logs\)", proc.stdout)
    assert folder and not Path(folder.group(1)).exists(), proc.stdout
    assert f"bot logs in {folder.group(1)} removed, as every check passed" in proc.stdout

    kept = check_bot("random", "--start-limit", "60", "--keep-logs")
    assert kept.returncode == 0, kept.stdout + kept.stderr
    folder = re.search(r"bot logs in (\S+) \(kept\)", kept.stdout)
    assert folder and f"bot logs: {folder.group(1)} (kept)" in kept.stdout, kept.stdout
    logs = list(Path(folder.group(1)).glob("random-*.log"))
    assert logs and "EUCHRE_BOT_ADDRESS=" in logs[0].read_text()  # the bot's own log, whole
    shutil.rmtree(folder.group(1))


def test_fail_fast_stops_at_the_first_fail_and_says_what_was_not_checked(tmp_path):
    """A bot that stalls in every game: with --fail-fast one game is waited out, not all
    of them; without it, check-bot says where the time went."""
    bot = write_manifest(tmp_path, "stall")
    fast = check_bot(bot, "--rules", "british", "--per-decision", "0.5", "--start-limit", "60",
                     "--fail-fast")
    row = one_row(fast)
    assert row.startswith("standard: self-play 1 FAIL timeout"), row
    notes = [" ".join(r.split()) for r in failed_rows(fast.stdout, "note")]
    assert ("not checked note --fail-fast: stopped at the first FAIL; not checked: standard: "
            "round 2 as dealer, dealer's discard, partner alone and 1 more; the rule set "
            "british") in notes, fast.stdout
    assert "british: rules" not in fast.stdout and "phases reached" not in fast.stdout
    assert "time spent" not in fast.stdout

    every = check_bot(bot, "--per-decision", "0.5", "--start-limit", "60")
    assert every.returncode == 1, every.stdout + every.stderr
    notes = [" ".join(r.split()) for r in failed_rows(every.stdout, "note")]
    assert any(re.fullmatch(r"time spent note 5 games each waited out the 0\.5 s limit before "
                            r"ruling a timeout, about \d+ s in all: --fail-fast stops at the "
                            r"first FAIL", n) for n in notes), every.stdout


def test_a_hello_name_other_than_the_manifests_is_noted(tmp_path):
    """misbehave.py says "misbehave-good" in Hello; its manifest calls it "good"."""
    proc = check_bot(write_manifest(tmp_path, "good"), "--start-limit", "60")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "Hello says 'misbehave-good', the manifest 'good'" in " ".join(proc.stdout.split())


STUBBORN_BOT = """\
from arena.sdk import PASS, Bot, run


class Stubborn(Bot):
    name = "stubborn"

    def decide(self, view):
        return PASS  # whatever is asked: illegal once someone has made trump


if __name__ == "__main__":
    run(Stubborn())
"""


def test_an_sdk_bot_is_advised_in_the_sdks_words_and_the_table_wraps_in_a_pipe(tmp_path):
    """The SDK says so in Hello, so the fix names `view.legal_actions`, not the proto's
    field. Piped with no COLUMNS (80 columns), the table wraps its cells instead of
    cutting them with an ellipsis, and the log folder's line is not broken."""
    folder = tmp_path / "stubborn"
    folder.mkdir()
    (folder / "bot.py").write_text(STUBBORN_BOT)
    (folder / "bot.toml").write_text('name = "stubborn"\ncommand = ["{python}", "bot.py"]\n')
    proc = check_bot(str(folder), "--start-limit", "60", columns=None)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    out = proc.stdout
    assert "…" not in out
    table = [ln for ln in out.splitlines() if ln[:1] in "┏┃┡│└"]
    assert table and max(len(ln) for ln in table) <= 80, out
    assert "served by arena.sdk" in " ".join(out.split())
    rows = failed_rows(out)
    assert len(rows) == 1, out
    row = " ".join(rows[0].split())
    assert "illegal_action" in row and "fix: return only one of view.legal_actions" in row
    assert "DecideRequest" not in row
    logs = re.search(r"^bot logs: (\S+) \(kept\)$", out, flags=re.M)
    assert logs and Path(logs.group(1)).is_dir(), out


def test_transport_tcp_is_offered_as_in_a_match():
    refused = check_bot("random", "--transport", "tcp")
    assert refused.returncode == 2, refused.stdout + refused.stderr
    assert "--transport tcp: a sandboxed bot has no network" in refused.stderr
    proc = check_bot("random", "--transport", "tcp", "--no-sandbox", "--start-limit", "60",
                     "--grace", "10")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "over loopback TCP" in proc.stdout and "FAIL" not in proc.stdout


NEVER_CALLS = '''
from arena.sdk import ActionKind, Bot, run


class Never(Bot):
    name = "never"
    version = "1"

    def decide(self, view):
        passes = [a for a in view.legal_actions if a.kind is ActionKind.PASS]
        return passes[0] if passes else view.legal_actions[0]


run(Never())
'''


@pytest.mark.parametrize("rules", ["new-zealand", "six-player"])
def test_a_bot_that_never_makes_trump_fails_instead_of_redealing_for_ever(tmp_path, rules):
    """Without stick-the-dealer, seats that always pass redeal for ever: check-bot stops
    the game and says why, in seconds (at six seats too, after a rule set of four)."""
    folder = tmp_path / "never"
    folder.mkdir()
    (folder / "bot.py").write_text(NEVER_CALLS)
    (folder / "bot.toml").write_text('name = "never"\nversion = "1"\ncommand = ["{python}", "bot.py"]\n')
    proc = check_bot(str(folder), "--rules", rules)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    rows = failed_rows(proc.stdout)
    assert any("hands in a row thrown in" in r and "never makes trump" in r for r in rows), rows


def test_ctrl_c_prints_the_checks_done_before_it_and_keeps_the_logs(own_temp_folder):
    import signal
    import time

    proc = subprocess.Popen(
        [sys.executable, "-m", "arena.cli.main", "check-bot", "random"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env={**os.environ, "COLUMNS": "200"},
    )
    deadline = time.monotonic() + 60
    # Stopped once the first rule set's games are being played (a second rule set's
    # bot has its log): by then the bot has started and answered Hello.
    while len(list(own_temp_folder.glob("euchre-check-*/*.log"))) < 2:
        assert proc.poll() is None and time.monotonic() < deadline, proc.communicate()
        time.sleep(0.1)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, out + err
    assert "starts and listens" in out and "stopped by SIGINT" in out
    assert "Traceback" not in err
    logs = Path(re.search(r"bot logs: (\S+)", out).group(1))
    assert logs.is_dir()
    shutil.rmtree(logs)

"""Bot manifests: what a person writes, and the errors they get when it is wrong."""

from __future__ import annotations

import re
import sys

import pytest

from arena.settings.errors import ConfigError
from arena.settings.manifest import load_manifest, sample_bot_names


def write(tmp_path, text: str):
    (tmp_path / "bot.toml").write_text(text)
    return str(tmp_path)


def test_sample_bots_by_name_folder_and_file():
    assert {"random", "heuristic", "pimc"} <= set(sample_bot_names())
    m = load_manifest("random")
    assert m.name == "random" and m.command[0] == sys.executable
    assert load_manifest(str(m.source.parent)).digest == m.digest
    assert load_manifest(str(m.source)).name == "random"


def test_command_forms_and_substitutions(tmp_path):
    m = load_manifest(write(tmp_path, 'name = "b"\ncommand = "{python} {here}/bot.py --fast"\n'
                            'env = { LEVEL = "3" }\nversion = 2\n'))
    assert m.command == (sys.executable, f"{tmp_path.resolve()}/bot.py", "--fast")
    assert m.env == {"LEVEL": "3"} and m.version == "2" and m.cwd == tmp_path.resolve()
    remote = load_manifest(write(tmp_path, 'name = "far"\naddress = "127.0.0.1:50051"\n'))
    assert remote.command is None and remote.address == "127.0.0.1:50051"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('command = ["x"]\n', "'name' must be a non-empty string"),
        ('name = "a b"\ncommand = ["x"]\n', "may not hold spaces"),
        ('name = "b"\n', "exactly one of 'command'"),
        ('name = "b"\ncommand = ["x"]\naddress = "h:1"\n', "exactly one of 'command'"),
        ('name = "b"\ncommand = []\n', "'command' is empty"),
        ('name = "b"\ncommand = [1]\n', "'command' must be a string or a list"),
        ('name = "b"\ncommand = ["x"]\nenv = { A = 1 }\n', "'env' must be a table of strings"),
        ('name = "b"\ncommand = ["x"]\ncwd = "nowhere"\n', "is not a folder"),
        ('name = "b"\ncommand = ["x"]\ncolour = "red"\n', "line 3: unknown key 'colour'"),
        ('name = "b"\ncommand = ["x"]\nstartup_timeout = 0\n',
         "'startup_timeout' must be a positive number of seconds"),
        ('name = "b"\ncommand = ["x"]\nstartup_timeout = "slow"\n',
         "'startup_timeout' must be a positive number of seconds"),
        ('name = "b"\ncommand = ["x"\n', "not valid TOML"),
    ],
)
def test_bad_manifests_name_the_problem(tmp_path, text, message):
    with pytest.raises(ConfigError) as info:
        load_manifest(write(tmp_path, text))
    assert message in str(info.value)
    assert str(tmp_path) in str(info.value)


def test_unknown_references_list_the_sample_bots(tmp_path):
    with pytest.raises(ConfigError, match=r"sample bot .*random"):
        load_manifest("no-such-bot")
    with pytest.raises(ConfigError, match=r"holds no bot\.toml"):
        load_manifest(str(tmp_path))


def test_digest_changes_when_the_bot_changes(tmp_path):
    ref = write(tmp_path, 'name = "b"\ncommand = ["{python}", "bot.py"]\n')
    (tmp_path / "bot.py").write_text("print(1)\n")
    before = load_manifest(ref).digest
    assert load_manifest(ref).digest == before
    (tmp_path / "bot.py").write_text("print(2)\n")
    assert load_manifest(ref).digest != before


def test_read_only_paths_limits_and_the_python_runtime(tmp_path):
    from arena.settings.limits import DEFAULT_CAPS
    from arena.settings.manifest import python_runtime

    extra = tmp_path / "runtime"
    extra.mkdir()
    bot = tmp_path / "bot"
    bot.mkdir()
    m = load_manifest(write(bot, 'name = "b"\ncommand = ["{python}", "bot.py"]\n'
                            'read_only = ["../runtime"]\n[limits]\nmemory_mb = 100\n'))
    assert m.read_only[0] == extra.resolve()
    assert set(python_runtime()) <= set(m.read_only)  # {python} brings the arena's Python
    sandbox = m.sandbox(DEFAULT_CAPS)
    assert sandbox.limits.memory_mb == 100 and sandbox.limits.processes == DEFAULT_CAPS.processes
    plain = load_manifest(write(bot, 'name = "b"\ncommand = ["/usr/bin/env", "node", "bot.js"]\n'))
    assert plain.read_only == ()  # no {python}: nothing of the arena's


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('read_only = "/opt"\n', "'read_only' must be a list"),
        ('read_only = ["/no/such/place"]\n', "read_only path '/no/such/place' does not exist"),
        ('[limits]\nmemory = 5\n', "limits: unknown key 'memory'"),
        ('[limits]\nmemory_mb = -1\n', "limits.memory_mb must be a whole number"),
    ],
)
def test_bad_sandbox_keys(tmp_path, text, message):
    with pytest.raises(ConfigError, match=re.escape(message)):
        load_manifest(write(tmp_path, 'name = "b"\ncommand = ["x"]\n' + text))


def test_a_misspelt_key_gets_its_line_and_a_suggestion(tmp_path):
    text = 'name = "b"\ncommand = ["x"]\n\nenviron = { A = "1" }\nstartup_timout = 30\n'
    with pytest.raises(ConfigError) as info:
        load_manifest(write(tmp_path, text))
    message = str(info.value)
    assert "line 4: unknown key 'environ' (did you mean 'env'?)" in message
    assert "line 5: unknown key 'startup_timout' (did you mean 'startup_timeout'?)" in message


def test_a_program_is_not_a_manifest(tmp_path):
    program = tmp_path / "bot.py"
    program.write_text("print('hello')\n")
    with pytest.raises(ConfigError, match="a bot is given by its manifest") as info:
        load_manifest(str(program))
    assert "not valid TOML" not in str(info.value)


def test_a_manifest_may_give_its_own_start_limit(tmp_path):
    slow = load_manifest(write(tmp_path, 'name = "b"\ncommand = ["x"]\nstartup_timeout = 45\n'))
    assert slow.startup_timeout == 45.0
    assert load_manifest(write(tmp_path, 'name = "b"\ncommand = ["x"]\n')).startup_timeout is None


def test_the_arenas_outputs_and_caches_are_not_the_bot(tmp_path):
    """A ladder file kept in the bot's folder puts its database, SQLite's files and the
    bot logs there; none of that, nor version control or caches, changes the bot."""
    ref = write(tmp_path, 'name = "b"\ncommand = ["{python}", "bot.py"]\n')
    (tmp_path / "bot.py").write_text("print(1)\n")
    (tmp_path / "node_modules" / "lib").mkdir(parents=True)
    (tmp_path / "node_modules" / "lib" / "index.js").write_text("1\n")
    before = load_manifest(ref)
    assert set(before.file_digests) == {"bot.toml", "bot.py", "node_modules/lib/index.js"}
    for name in ("club.sqlite", "club.sqlite-wal", "club.sqlite-shm", "other.db-journal",
                 "club-logs/b-s0-00.log", "runs/match-1/games/g.pb", ".git/HEAD",
                 "__pycache__/bot.cpython-311.pyc", "sub/.pytest_cache/x", "bot.log"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("noise\n")
    after = load_manifest(ref)
    assert after.digest == before.digest and after.file_digests == before.file_digests
    # ...but node_modules is a JavaScript bot's code
    (tmp_path / "node_modules" / "lib" / "index.js").write_text("2\n")
    assert load_manifest(ref).digest != before.digest


def test_a_manifest_may_say_which_files_are_the_bot(tmp_path):
    (tmp_path / "bot.py").write_text("print(1)\n")
    (tmp_path / "weights").mkdir()
    (tmp_path / "weights" / "w.bin").write_text("w\n")
    (tmp_path / "notes.txt").write_text("n\n")
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "cache.json").write_text("{}\n")
    only = load_manifest(write(tmp_path, 'name = "b"\ncommand = ["{python}", "bot.py"]\n'
                               'files = ["*.py", "weights"]\n'))
    assert set(only.file_digests) == {"bot.toml", "bot.py", "weights/w.bin"}
    less = load_manifest(write(tmp_path, 'name = "b"\ncommand = ["{python}", "bot.py"]\n'
                               'exclude = ["data/cache.json", "*.txt"]\n'))
    assert set(less.file_digests) == {"bot.toml", "bot.py", "weights/w.bin"}
    before = less.digest
    (tmp_path / "notes.txt").write_text("changed\n")
    (tmp_path / "data" / "cache.json").write_text("[]\n")
    assert load_manifest(str(tmp_path)).digest == before
    with pytest.raises(ConfigError, match="'exclude' must be a list of file patterns"):
        load_manifest(write(tmp_path, 'name = "b"\ncommand = "x"\nexclude = "*.txt"\n'))


def test_changed_files_names_what_changed():
    from arena.settings.manifest import changed_files

    said = changed_files({"bot.py": "1", "a.py": "2", "old.py": "3"},
                         {"bot.py": "9", "a.py": "2", "new.py": "4"})
    assert said == "changed bot.py; added new.py; removed old.py"

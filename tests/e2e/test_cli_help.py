"""What both command lines promise in their --help: every positional argument says what
goes there, options both have are spelled alike (the options of the bots' processes
defined once, for a match, a check and a ladder), --rules offers one list, and every
command says its exit statuses, those of arena.settings.errors."""

from __future__ import annotations

import argparse
from dataclasses import fields

import pytest

from arena.cli.args import process_settings
from arena.cli.main import build_parser as arena_parser
from arena.settings.errors import EXIT_INTERRUPTED, ConfigError, Kind
from arena.settings.limits import Limits
from arena.settings.process import ProcessSettings
from arena.settings.rule_sets import NAMED_RULES
from ladder.cli.main import build_parser as ladder_parser


def _commands() -> list[tuple[str, argparse.ArgumentParser]]:
    out = []
    for prog, parser in (("arena", arena_parser()), ("ladder", ladder_parser())):
        sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
        out += [(f"{prog} {name}", p) for name, p in sub.choices.items()]
    return out


@pytest.mark.parametrize(("command", "parser"), [pytest.param(c, p, id=c) for c, p in _commands()])
def test_every_positional_argument_is_described(command, parser):
    for action in parser._actions:
        if action.option_strings:
            continue
        assert action.help, f"{command}: {action.dest} has no help"
        assert action.metavar and action.metavar != action.dest, f"{command}: {action.dest}"
        # and --help prints it
        assert action.help.split()[0] in parser.format_help()


def test_games_is_spelled_alike_everywhere():
    spelled = {}
    for command, parser in _commands():
        for action in parser._actions:
            if "--games" in action.option_strings:
                spelled[command] = (tuple(action.option_strings), action.metavar)
    assert set(spelled) >= {"arena match", "arena check-bot", "ladder run", "ladder demo"}
    assert set(spelled.values()) == {(("--games",), "N")}, spelled
    assert arena_parser().parse_args(["match", "a", "b", "--games", "6"]).games == 6
    assert ladder_parser().parse_args(["run", "x.toml", "--games", "6"]).games == 6


def test_match_and_check_bot_offer_the_same_rule_sets():
    choices = {}
    for command, parser in _commands():
        for action in parser._actions:
            if "--rules" in action.option_strings:
                choices[command] = list(action.choices or ())
    assert choices == {"arena match": list(NAMED_RULES), "arena check-bot": list(NAMED_RULES)}
    assert {"32-card", "33-card", "standard", "six-player"} <= set(NAMED_RULES)
    args = arena_parser().parse_args(["match", "a", "b", "--rules", "33-card"])
    assert args.rules == "33-card"


@pytest.mark.parametrize(("command", "parser"), [
    pytest.param(c, p, id=c) for c, p in [*_commands(), ("arena", arena_parser()),
                                           ("ladder", ladder_parser())]])
def test_every_command_says_its_exit_statuses(command, parser):
    epilog = parser.epilog or ""
    assert "Exit status: 0 " in epilog, command
    for kind in Kind:  # each kind's status and meaning, as arena.settings.errors writes them
        assert f"; {kind.status} {kind.means}" in epilog, (command, kind)
    assert "Exit status:" in parser.format_help()
    if "watch" not in command:  # a watcher takes Ctrl-C as its end, status 0
        assert f"{EXIT_INTERRUPTED} stopped by Ctrl-C" in epilog, command


def _process_options(parser: argparse.ArgumentParser) -> dict[str, tuple[tuple[str, ...], str]]:
    """The options of a command that set a field of ProcessSettings: (flags, help) by field."""
    settings = {f.name for f in fields(ProcessSettings)}
    return {a.dest: (tuple(a.option_strings), a.help or "") for a in parser._actions
            if a.option_strings and a.dest in settings}


def test_ladder_run_takes_every_process_option_of_a_match_spelt_and_described_alike():
    commands = dict(_commands())
    match = _process_options(commands["arena match"])
    # every knob of the bots' processes is an option of a match (the logs go under --out)
    assert set(match) == {f.name for f in fields(ProcessSettings)} - {"log_dir"}
    run = _process_options(commands["ladder run"])
    assert run == match
    check = _process_options(commands["arena check-bot"])
    assert check == {k: v for k, v in match.items() if k != "fresh_processes"}
    shown = " ".join(commands["ladder run"].format_help().split())
    for flags, text in match.values():
        assert all(flag in shown for flag in flags)
        assert " ".join(text.split()) in shown.replace("%%", "%")


def test_the_process_options_make_the_same_settings_for_a_match_and_a_ladder(tmp_path):
    flags = ["--transport", "tcp", "--no-sandbox", "--start-limit", "3", "--grace", "0.5",
             "--limit", "memory_mb=300", "--limit", "processes=8", "--fresh-processes"]
    base = ProcessSettings(tmp_path)
    from_match = process_settings(arena_parser().parse_args(["match", "a", "b", *flags]), base)
    from_ladder = process_settings(ladder_parser().parse_args(["run", "x.toml", *flags]), base)
    assert from_match == from_ladder == ProcessSettings(
        tmp_path, transport="tcp", start_limit=3.0, grace=0.5, sandbox=False,
        limits=Limits(memory_mb=300, processes=8), fresh_processes=True)
    # nothing given: the settings it is applied to, whatever they are
    file_settings = ProcessSettings(tmp_path, grace=7.0, limits=Limits(tmp_mb=9))
    assert process_settings(ladder_parser().parse_args(["run", "x.toml"]), file_settings) \
        == file_settings
    with pytest.raises(ConfigError, match="--transport tcp: a sandboxed bot has no network"):
        process_settings(arena_parser().parse_args(["match", "a", "b", "--transport", "tcp"]),
                         base)
    with pytest.raises(SystemExit):
        arena_parser().parse_args(["match", "a", "b", "--limit", "memory=3"])

"""What both command lines promise in their --help: every positional argument says what
goes there, options both have are spelled alike, --rules offers one list, and every
command says its exit statuses, those of arena.errors."""

from __future__ import annotations

import argparse

import pytest

from arena.check_rules import NAMED_RULES
from arena.cli import build_parser as arena_parser
from arena.errors import EXIT_INTERRUPTED, Kind
from ladder.cli import build_parser as ladder_parser


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
    for kind in Kind:  # each kind's status and meaning, as arena.errors writes them
        assert f"; {kind.status} {kind.means}" in epilog, (command, kind)
    assert "Exit status:" in parser.format_help()
    if "watch" not in command:  # a watcher takes Ctrl-C as its end, status 0
        assert f"{EXIT_INTERRUPTED} stopped by Ctrl-C" in epilog, command

"""`paxh --help` (issue 39): closed sets are choices whose values the help lists and a value
outside them is refused; no option shows a placeholder that says nothing (`<bool>` for a flag,
`<list[str]>` for a repeatable option); every option's help is a sentence."""

import os
import re
import subprocess
import sys
import typing

import pytest

from pax_hispanica import cli
from pax_hispanica.bots import KINDS as BOT_KINDS

PAXH = [sys.executable, "-m", "pax_hispanica.cli"]


def help_of(*command: str) -> str:
    """`paxh COMMAND --help` as a 250-column terminal shows it."""
    out = subprocess.run(PAXH + [*command, "--help"], capture_output=True, text=True, timeout=60,
                         env={**os.environ, "COLUMNS": "250", "TERM": "dumb"})
    assert out.returncode == 0, out.stderr
    return out.stdout


def walk(command, path=()):
    yield path, command
    for name, sub in getattr(command, "commands", {}).items():
        yield from walk(sub, (*path, name))


COMMANDS = [list(path) for path, _ in walk(cli.command())]      # paxh itself, every group and command


@pytest.mark.parametrize("command", COMMANDS, ids=" ".join)
def test_help_shows_no_bool_or_list_placeholder(command):
    text = help_of(*command)
    assert "<bool>" not in text and "<list[" not in text, text


@pytest.mark.parametrize("command, option, values", [
    ("play", "--bot", BOT_KINDS),
    ("play", "--lang", ("en", "ca")),
    ("replay", "--lang", ("en", "ca")),
    ("tune", "--sampler", ("tpe", "cmaes", "nsga2")),
    ("tune", "--skill", ("off", "heuristic", "ismcts", "matrix")),
    ("tune", "--nations", ("default", "shuffle")),
    ("train-eval", "--label", ("ranking", "winner")),
])
def test_a_closed_set_lists_its_values_in_help_and_refuses_another(command, option, values):
    assert re.search(rf"{option}\s+<{re.escape('|'.join(values))}>", help_of(command)), (command, option)
    bad = subprocess.run(PAXH + [command, option, "nonsense"], capture_output=True, text=True, timeout=60,
                         env={**os.environ, "COLUMNS": "250", "TERM": "dumb"})
    assert bad.returncode == 2
    text = " ".join(bad.stderr.replace("│", " ").split())
    assert f"Invalid value for '{option}': Value error, 'nonsense' is not one of " \
           f"{', '.join(repr(v) for v in values)}." in text, text


def test_the_choices_are_the_sets_the_code_uses():
    """Each choice's values are the ones its layer accepts: the bot registry, the catalogues,
    Optuna's samplers, train-eval's labels."""
    from pax_hispanica.sim import train_eval, tune
    from pax_hispanica.sim.train_eval_command import train_eval_command
    from pax_hispanica.sim.tune_command import tune_command
    from pax_hispanica.web.present.i18n import LANGS

    def choices(func, name):
        return typing.get_args(typing.get_args(typing.get_type_hints(func, include_extras=True)[name])[0])

    assert typing.get_args(cli.BotKind) == BOT_KINDS
    assert typing.get_args(cli.Lang) == LANGS
    assert choices(tune_command, "sampler") == tune.SAMPLERS
    assert set(choices(train_eval_command, "label")) == set(train_eval.LABELS)


def test_every_option_is_explained_in_a_sentence():
    for path, command in walk(cli.command()):
        for p in command.params:
            if getattr(p, "hidden", False):
                continue
            text = (p.help or "").strip()
            assert text[:1].isupper() and text.endswith("."), (" ".join(path), p.opts, text)

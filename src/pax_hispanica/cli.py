"""`paxh`: play in the terminal, replay records and scenarios, simulate bot games, serve the web game."""

from __future__ import annotations

import inspect
import json
import random
from pathlib import Path
from typing import Annotated, Any, Literal

import typer

from . import api
from .bots import DEFAULT_KIND as DEFAULT_BOT
from .bots import KINDS as BOT_KINDS

app = typer.Typer(add_completion=False, no_args_is_help=True,
                  help="Pax Hispanica: the rules engine, bots, simulator and web game.")

# Closed sets are choices: `--help` lists their values and a value outside them is refused.
Lang = Literal["en", "ca"]                  # the catalogues of web/present/i18n.py (LANGS; tests/cli/test_help.py)
BotKind = Literal[BOT_KINDS]                # type: ignore[valid-type]  # the bot registry's kinds, read at import


def version_line() -> str:
    """What `paxh --version` prints: the version, and which engine is loaded (api.COMPILED), with
    why the compiled one is not (compiled_engine.STATUS: not built, stale, PAXH_PURE=1, ...)."""
    from . import __version__, compiled_engine
    engine = ("compiled engine (mypyc)" if api.COMPILED
              else f"pure-Python engine (the compiled engine: {compiled_engine.STATUS.reason})")
    return f"paxh {__version__}, {engine}"


def _version(value: bool) -> None:
    if value:
        typer.echo(version_line())
        raise typer.Exit()


@app.callback()
def _options(version: Annotated[bool, typer.Option("--version", callback=_version, is_eager=True,
                                                   help="Print the version and which engine is loaded, and exit.")]
             = False) -> None:
    pass


def short_help(doc: str | None) -> str:
    """A docstring's first paragraph on one line: Typer's rich command list keeps a docstring's
    line breaks, which would cut each command's description in the middle of a sentence."""
    return " ".join(inspect.cleandoc(doc or "").split("\n\n", 1)[0].split())


def _register_sim_command(name: str, module: str, attr: str, summary: str) -> None:
    """A command of the `sim` extra; without the extra it is still listed and says what is missing."""
    try:
        command = getattr(__import__(f"pax_hispanica.sim.{module}", fromlist=[attr]), attr)
    except ImportError as e:
        missing = str(e)

        def needs_the_extra() -> None:
            typer.echo(f"paxh {name} needs the sim extra ({missing}); run scripts/setup.sh", err=True)
            raise typer.Exit(2)
        needs_the_extra.__doc__ = f"{summary} (needs the `sim` extra: pip install -e '.[sim]')."
        app.command(name)(needs_the_extra)
        return
    app.command(name, short_help=short_help(command.__doc__))(command)


_register_sim_command("simulate", "command", "simulate_command", "Run many bot games")
_register_sim_command("tune", "tune_command", "tune_command", "Tune ruleset numbers with Optuna")
_register_sim_command("train-eval", "train_eval_command", "train_eval_command", "Learn ISMCTS's evaluation from simulated games")
_register_sim_command("ladder", "ladder_command", "ladder_command", "Rate bot configurations with openskill")

from .analysis.command import analyse_command, train_value_command   # noqa: E402 -- heavy imports stay inside
app.command("train-value", short_help=short_help(train_value_command.__doc__))(train_value_command)
app.command("analyse", short_help=short_help(analyse_command.__doc__))(analyse_command)


def _load_any(path: Path) -> dict[str, Any]:
    """The JSON of a record (`actions` + `seed`/`config`) or a scenario (`position`)."""
    try:
        data: dict[str, Any] = json.loads(path.read_text())
    except (OSError, json.JSONDecodeError) as e:
        typer.echo(f"cannot read {path}: {e}", err=True)
        raise typer.Exit(2) from None
    return data


@app.command()
def replay(
    file: Annotated[Path, typer.Argument(help="A game record or a scenario file (JSON).")],
    to: Annotated[int | None, typer.Option("--to", help="Replay only the first N actions.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the summary and the events as JSON.")] = False,
    viewer: Annotated[int | None, typer.Option("--viewer", help="Show the events as this seat sees them.")] = None,
    show_all: Annotated[bool, typer.Option("--all", help="Show every event, secrets included, even in an unfinished "
                                           "game (the record holds the seed anyway).")] = False,
    lang: Annotated[Lang, typer.Option("--lang", help="The language of the summary and the log.")] = "en",
    show_log: Annotated[bool, typer.Option("--log", help="Also print the events, in words.")] = False,
) -> None:
    """Replay a record (or a scenario) and print the resulting state summary, in words."""
    data = _load_any(file)
    try:
        if "position" in data and "format" not in data:
            scn = dict(data)
            if to is not None:
                scn["actions"] = scn.get("actions", [])[:to]
            game = api.from_scenario(scn)
        else:
            game = api.replay(data, upto=to)
    except api.IllegalAction as e:
        if getattr(e, "code", None) in ("bad_scenario", "bad_config"):   # the file, not an action
            typer.echo(f"{file}: not a valid record or scenario: {e}", err=True)
            raise typer.Exit(2) from None
        typer.echo(f"illegal action while replaying: {e}", err=True)
        raise typer.Exit(1) from None
    except (KeyError, ValueError, api.RulesetError) as e:
        typer.echo(f"{file}: not a valid record or scenario: {e}", err=True)
        raise typer.Exit(2) from None
    # a finished game is replayed with everything revealed; an unfinished one as a spectator sees it
    reveal = show_all or (viewer is None and api.is_over(game.state))
    events = api.redact(game.events, viewer, reveal_all=reveal)
    summary = api.summary(game.state)
    if as_json:
        typer.echo(json.dumps({"summary": summary, "events": events, "actions": len(game.record["actions"])},
                              ensure_ascii=False, indent=1))
        return
    from rich.console import Console
    from rich.markup import escape

    from .tui import print_summary, translator
    ruleset = str(api.view(game.state, None, include_state=False).get("ruleset") or "reference")
    tr = translator([p["nation"] for p in summary["players"]], lang, you=viewer, ruleset=ruleset)
    console = Console()
    if show_log:
        for event in events:
            console.print(f"  [dim]{event.get('rule', ''):7}[/] {escape(tr.event(event))}")
    print_summary(summary, console, tr, events)


@app.command()
def play(
    players: Annotated[int, typer.Option("--players", "-p", min=2, max=5, help="Seats at the table (2-5).")] = 4,
    seat: Annotated[int, typer.Option("--seat", help="Your seat (0-based).")] = 0,
    seed: Annotated[int | None, typer.Option("--seed", help="Game seed (default: random).")] = None,
    bot: Annotated[BotKind, typer.Option("--bot", case_sensitive=False,
                                         help=f"The bot kind that plays the other seats; {DEFAULT_BOT} unless "
                                              "given, as in the web lobby.")] = DEFAULT_BOT,
    lang: Annotated[Lang, typer.Option("--lang", help="The language of the game's words.")] = "en",
    save: Annotated[Path | None, typer.Option("--save", help="Write the game record here when it ends or you quit.")] = None,
    set_params: Annotated[list[str] | None, typer.Option("--set", metavar="NAME=VALUE", help="A variant: override one ruleset number, NAME=VALUE (repeatable; `paxh rules --params` lists them), e.g. --set conquistador_prestige=2 for RULES.md's TRS-5.")] = None,
) -> None:
    """Play one seat in the terminal against bots."""
    if not 0 <= seat < players:
        typer.echo(f"--seat must be 0..{players - 1}", err=True)
        raise typer.Exit(2)
    if bot.strip().lower() not in BOT_KINDS:
        typer.echo(f"--bot must be one of {', '.join(BOT_KINDS)}", err=True)
        raise typer.Exit(2)
    from .sim.runner import parse_params
    from .tui import TerminalGame
    try:
        params = parse_params(set_params)
        api.load_ruleset("reference", params or None)
    except (ValueError, api.RulesetError) as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from None
    seed = random.SystemRandom().getrandbits(63) if seed is None else seed
    TerminalGame(players, seat, seed, bot, lang, save, params).run()


def _serve_settings() -> str:
    from pax_hispanica.web.settings import help_text   # plain data: no web dependency is imported
    return help_text()


# the database options of serve, db and admin (one declaration)
_DB_URL = typer.Option("--database-url", envvar="PAXH_DATABASE_URL",
                       help="SQLAlchemy URL (default: SQLite file in --data-dir).")
_DATA_DIR = typer.Option("--data-dir", help="Folder for the SQLite database.")


@app.command(epilog=_serve_settings())
def serve(
    host: Annotated[str, typer.Option(help="The address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="The port to listen on.")] = 8000,
    database_url: Annotated[str | None, _DB_URL] = None,
    data_dir: Annotated[str, _DATA_DIR] = "data",
) -> None:
    """Start the multiplayer web game (http://127.0.0.1:8000)."""
    try:
        from pax_hispanica.web.settings import SettingsError, load
        try:   # every PAXH_* setting checked before anything starts (web/settings.py)
            load()
        except SettingsError as e:
            typer.echo(f"paxh serve: {e}", err=True)
            raise typer.Exit(2) from None
        from pax_hispanica.web.server import run
    except ImportError as e:
        typer.echo(f"paxh serve needs the web extra ({e}); run scripts/setup.sh", err=True)
        raise typer.Exit(2) from None
    typer.echo(version_line(), err=True)          # which engine plays (compiled, or pure and why)
    run(host=host, port=port, database_url=database_url, data_dir=data_dir)


db_app = typer.Typer(help="The web game's database.", no_args_is_help=True)
app.add_typer(db_app, name="db")


@db_app.command("check")
def db_check(
    database_url: Annotated[str | None, _DB_URL] = None,
    data_dir: Annotated[str, _DATA_DIR] = "data",
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress lines.")] = False,
    quick: Annotated[bool, typer.Option("--quick", help="SQLite: check the file with quick_check "
                                        "instead of integrity_check.")] = False,
    list_games: Annotated[bool, typer.Option("--list", help="Also print each sound game's id, actions and "
                                             "chain fingerprint (compare a backup with its restore).")] = False,
) -> None:
    """Check the SQLite file, then replay every stored game and check its hash chain; list the
    damaged ones (exit 1 if any, or if the file is damaged).

    Read-only: it changes nothing in the database (the server marks a damaged game when it
    loads it)."""
    try:
        from pax_hispanica.web.db.check import NoSchema, Unreadable, check_database
    except ImportError as e:
        typer.echo(f"paxh db check needs the web extra ({e}); run scripts/setup.sh", err=True)
        raise typer.Exit(2) from None
    from pax_hispanica.web.db import schema as webdb
    url = database_url or webdb.default_url(data_dir)

    def progress(done: int, total: int) -> None:
        if not quiet:
            typer.echo(f"checked {done}/{total} games", err=True)

    try:
        by_version: dict[str, list[int]] = {}
        fingerprints: dict[str, str] = {}
        damaged, total = check_database(url, progress, by_version, fingerprints, quick=quick)
    except NoSchema as e:
        typer.echo(f"paxh db check: {e}", err=True)
        raise typer.Exit(2) from None
    except Unreadable as e:     # issue 37, N8: a damaged SQLite file is exit 1 and a sentence
        typer.echo(f"paxh db check: {e}", err=True)
        raise typer.Exit(1 if e.damaged else 2) from None
    if list_games:
        for gid, fp in sorted(fingerprints.items()):
            typer.echo(f"game {gid}: {fp}")
    for gid, reason in damaged:
        typer.echo(f"damaged game {gid}: {reason}")
    current = {name for name, v in api.ruleset_versions().items() if v["current"]}
    for version, (games, bad) in sorted(by_version.items()):   # PRJ-50: each replays under its own version
        what = "current" if version in current else "earlier, replayed under its own numbers" \
            if version in api.ruleset_versions() and not api.ruleset_versions()[version]["refused"] else "not replayed"
        typer.echo(f"ruleset {version}: {games} games, {bad} damaged ({what})")
    typer.echo(f"{total} games checked, {len(damaged)} damaged", err=True)
    if damaged:
        raise typer.Exit(1)


@db_app.command("backup")
def db_backup(
    file: Annotated[Path, typer.Argument(help="The backup file to write (replaced if it exists).")],
    database_url: Annotated[str | None, _DB_URL] = None,
    data_dir: Annotated[str, _DATA_DIR] = "data",
    logical: Annotated[bool, typer.Option("--logical", help="Every table's rows as JSON lines (restores "
                                          "into SQLite or PostgreSQL), instead of a SQLite file or a pg_dump archive.")] = False,
) -> None:
    """Back up the whole database while servers run: SQLite's online backup API, pg_dump, or a logical export.

    SQLite gives a SQLite file; PostgreSQL a pg_dump archive when a pg_dump as new as the server
    is found, else a logical export (docs/deploy.md, "Backups")."""
    from pax_hispanica.web.db import backup as bk
    from pax_hispanica.web.db import schema as webdb
    try:
        typer.echo(bk.backup(database_url or webdb.default_url(data_dir), file, logical=logical))
    except bk.BackupError as e:
        typer.echo(f"paxh db backup: {e}", err=True)
        raise typer.Exit(e.code) from None


@db_app.command("restore")
def db_restore(
    file: Annotated[Path, typer.Argument(help="A file written by `paxh db backup`.")],
    database_url: Annotated[str | None, _DB_URL] = None,
    data_dir: Annotated[str, _DATA_DIR] = "data",
    force: Annotated[bool, typer.Option("--force", help="Replace everything in a database that is not empty.")] = False,
) -> None:
    """Restore a backup into an empty database (stop the servers first); --force replaces a non-empty one."""
    from pax_hispanica.web.db import backup as bk
    from pax_hispanica.web.db import schema as webdb
    try:
        typer.echo(bk.restore(database_url or webdb.default_url(data_dir), file, force=force))
    except bk.BackupError as e:
        typer.echo(f"paxh db restore: {e}", err=True)
        raise typer.Exit(e.code) from None


admin_app = typer.Typer(help="Moderators of the web game: accounts with the admin flag.", no_args_is_help=True)
app.add_typer(admin_app, name="admin")


def _admin_flag(name: str, on: bool, database_url: str | None, data_dir: str) -> None:
    try:
        from pax_hispanica.web.db import schema as webdb
        from pax_hispanica.web.accounts.service import set_admin_sync
    except ImportError as e:
        typer.echo(f"paxh admin needs the web extra ({e}); run scripts/setup.sh", err=True)
        raise typer.Exit(2) from None
    if not set_admin_sync(database_url or webdb.default_url(data_dir), name, on):
        typer.echo(f"no account is named {name!r}", err=True)
        raise typer.Exit(1)
    typer.echo(f"{name}: {'a moderator now' if on else 'no longer a moderator'}")


@admin_app.command("grant")
def admin_grant(
    name: Annotated[str, typer.Argument(help="The account's user name.")],
    database_url: Annotated[str | None, _DB_URL] = None,
    data_dir: Annotated[str, _DATA_DIR] = "data",
) -> None:
    """Give an account the admin flag: it reads the chat reports (/admin/reports)."""
    _admin_flag(name, True, database_url, data_dir)


@admin_app.command("revoke")
def admin_revoke(
    name: Annotated[str, typer.Argument(help="The account's user name.")],
    database_url: Annotated[str | None, _DB_URL] = None,
    data_dir: Annotated[str, _DATA_DIR] = "data",
) -> None:
    """Take an account's admin flag away."""
    _admin_flag(name, False, database_url, data_dir)


@admin_app.command("list")
def admin_list(
    database_url: Annotated[str | None, _DB_URL] = None,
    data_dir: Annotated[str, _DATA_DIR] = "data",
) -> None:
    """The accounts with the admin flag."""
    from pax_hispanica.web.db import schema as webdb
    from pax_hispanica.web.accounts.service import admin_names_sync
    for name in admin_names_sync(database_url or webdb.default_url(data_dir)):
        typer.echo(name)


@app.command()
def rules(
    rule: Annotated[str | None, typer.Argument(help="A rule ID such as AUC-4.")] = None,
    params: Annotated[bool, typer.Option("--params", help="List the ruleset's numbers a variant may override (--set NAME=VALUE, PRJ-31), then the Market cards' costs (card_cost.<id>, PRJ-67) the King's share by player count (kings_crown_share.<N>, PRJ-68), the SMUGGLER's bribe by player count (smuggler_bribe.<N>, PRJ-78) and the Spanish Crown colonies by player count (crown_colonies.<N>, PRJ-75).")] = False,
    ruleset: Annotated[str, typer.Option("--ruleset", help="Ruleset name or folder, for --params.")] = "reference",
    set_params: Annotated[list[str] | None, typer.Option("--set", help="For --params: a variant's values, NAME=VALUE (repeatable), e.g. --set house_rules=reference-7 (PRJ-83).")] = None,
) -> None:
    """List the rule IDs the engine implements (with their source page)."""
    if params:
        from .sim.runner import parse_params
        try:
            variant = parse_params(set_params) or None
            table = api.parameters(ruleset, variant, extended=True)   # PRJ-67, PRJ-68, PRJ-75: card costs, per-count numbers
            named = api.house_rules(ruleset, variant)
            sets = api.house_rule_sets(ruleset)
        except (ValueError, api.RulesetError) as exc:
            typer.echo(f"error: ruleset {ruleset!r}: {exc}", err=True)
            raise typer.Exit(2) from None
        when = api.house_rule_conditions()      # PRJ-81: which numbers can change a seed sentence
        for name, p in table.items():
            bounds = f"{p['range'][0]}..{p['range'][1]}" if p.get("range") else ""
            cond = when.get(name.split(".")[0])
            house = f"  house rule ({cond['rule']}) when {cond['when']}" if cond else ""
            typer.echo(f"{name:28} {p['type']:4} {p['value']!s:10} {bounds:8}{house}".rstrip())
        typer.echo("")
        typer.echo("Named sets of house rules (--set house_rules=NAME, PRJ-83; a --set of a number goes on top):")
        for sname, s in sets.items():
            typer.echo(f"  {sname}: {', '.join(f'{k}={v}' for k, v in s['params'].items())}")
            typer.echo(f"    {s['about']}")
        if not sets:
            typer.echo("  none")
        typer.echo("")
        if named:
            typer.echo("House rules of this ruleset (PRJ-81: seed sentences it changes; never the default):")
            for h in named:
                typer.echo(f"  HOUSE RULE {h.rule} ({h.param}): {h.change}. The seed: {h.sentence}.")
        else:
            typer.echo("House rules of this ruleset: none (PRJ-81: every seed sentence as written).")
        return
    items: list[tuple[str, tuple[str, str]]] = list(api.RULES.items())
    if rule:
        rid = rule.upper()
        if rid not in api.RULES:
            typer.echo(f"unknown rule {rule}; `paxh rules` lists them", err=True)
            raise typer.Exit(2)
        items = [(rid, api.RULES[rid])]
    for rid, (src, title) in items:
        typer.echo(f"{rid:8} {src:16} {title}")


def plain_flags(command: typer.core.TyperCommand | typer.core.TyperGroup) -> None:
    """Help without type placeholders where they say nothing: a flag (`--json`, `--help`) takes
    no value, so it shows none (Typer would print `<bool>`), and a repeatable option without a
    metavar of its own shows its element's type (`<str>`, not `<list[str]>`). For every
    command and group under `command`."""
    params = list(command.params)
    help_option = command.get_help_option(command.context_class(command))
    if help_option is not None:
        params.append(help_option)
    for p in params:
        if getattr(p, "is_flag", False):
            p.metavar = ""
        elif getattr(p, "multiple", False) and p.metavar is None:
            shown = p.display_type(command.context_class(command))  # type: ignore[attr-defined]  # Typer's parameters (typer.core) have it
            p.metavar = shown.replace("list[", "").replace("]", "")
    for sub in getattr(command, "commands", {}).values():
        plain_flags(sub)


def command() -> typer.core.TyperGroup:
    """The command `paxh` runs: `app` with plain_flags applied."""
    cmd = typer.main.get_command(app)
    assert isinstance(cmd, typer.core.TyperGroup), "paxh has several commands"
    plain_flags(cmd)
    return cmd


def main() -> None:
    command()()


if __name__ == "__main__":
    main()

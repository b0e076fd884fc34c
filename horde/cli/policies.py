"""``horde policies``: the team policies and their parameters, and the policy puzzles."""

from __future__ import annotations

from pathlib import Path

import click

from horde.cli.common import (
    HordeGroup,
    cli,
    echo_table,
)


@cli.group(cls=HordeGroup, invoke_without_command=True)
@click.pass_context
def policies(ctx):
    """List the team policies with their descriptions and parameters."""
    if ctx.invoked_subcommand is not None:
        return
    from horde.team import expert  # noqa: F401 (registers the expert beside the bundled policies)
    from horde.team.policies import POLICIES, parameters

    for name, cls in POLICIES.items():
        params = ", ".join(f"{k}={v!r}" for k, v in parameters(cls).items()) or "no parameters"
        click.echo(f"{name:10s} {cls.description}  [{params}]")


@policies.command("puzzles", examples=(
    "horde policies puzzles",
    "horde policies puzzles --policy baseline --verbose",
))
@click.option("--policy", "names", multiple=True, help="a policy to run (repeat; default: every registered one)")
@click.option("--folder", type=click.Path(file_okay=False, exists=True), default=None,
              help="a folder of puzzle files (default: the bundled puzzles)")
@click.option("--verbose", is_flag=True, help="also list every puzzle a policy misses, with its answer and why")
@click.option("--markdown", is_flag=True, help="print the table as Markdown")
def policies_puzzles(names, folder, verbose, markdown):
    """Run every policy on the policy puzzles; print the puzzles solved per policy and theme."""
    from horde.lab.puzzles import load_themes, play_all, score_table
    from horde.team.policies import POLICIES

    themes = load_themes(Path(folder) if folder else None)
    chosen = list(names) or list(POLICIES)
    outcomes = play_all(themes, chosen)
    header, rows = score_table(themes, outcomes, chosen)
    count = sum(len(t.puzzles) for t in themes)
    click.echo(f"{count} policy puzzles in {len(themes)} themes: puzzles solved (*: the policy is named for the theme)")
    echo_table(header, rows, markdown)
    if verbose:
        for o in outcomes:
            if not o.solved:
                expected = " or ".join(repr(a) for a in o.puzzle.answers)
                click.echo(f"\n{o.policy} misses {o.puzzle.name} ({o.puzzle.theme}): answered {o.answer!r}, "
                           f"expected {expected}\n  {' '.join(o.puzzle.why.split())}")

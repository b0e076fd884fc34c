"""``horde table``: a page on this machine (or the table's local network) that runs the Horde of a
real game, keeps every game and turns a group's games into what ``horde calibrate`` reads."""

from __future__ import annotations

import secrets
import socket
from pathlib import Path

import click

from horde.cli.common import cli
from horde.cli.config import config_options, house_rules
from horde.errors import HordeError


def _local_address() -> str:
    """This machine's address on its local network, as the table's phones reach it (no packet is
    sent: a UDP socket's connect only picks the route)."""
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("10.255.255.255", 1))
        return str(probe.getsockname()[0])
    except OSError:
        return "127.0.0.1"
    finally:
        probe.close()


def default_folder() -> Path:
    import platformdirs

    return Path(platformdirs.user_data_dir("horde")) / "table"


@cli.command("table", examples=(
    "horde table",
    "horde table --share --port 8765",
    "horde table --folder our-table --config our-house.toml",
))
@click.option("--folder", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="where groups, seasons and games are kept (default: horde's data folder, table/)")
@click.option("--port", type=click.IntRange(1, 65535), default=8765, show_default=True, help="the port to listen on")
@click.option("--share", is_flag=True,
              help="open the page to the table's local network (default: this machine only); prints a link and a "
                   "QR code with the secret key")
@click.option("--key", default=None, help="the secret key the link carries (default: a new random one each start)")
@click.option("--no-estimate", is_flag=True, help="don't run calibrate and tune after each finished game")
@config_options
def table_command(folder, port, share, key, no_estimate, config, no_config):
    """Run the Horde of a real game in a web page: the engine plays the Horde with its own rules,
    the players enter what happens on their side, and every game is kept for horde calibrate.
    The house rules (--config, ./horde.toml) are every new game's knobs, under the page's."""
    import segno
    import uvicorn

    from horde.cli.tablepage import make_app
    from horde.files import make_folder

    house = house_rules({"config": config, "no_config": no_config})
    folder = folder if folder is not None else default_folder()
    try:
        make_folder(folder)
    except OSError as error:
        raise HordeError(f"cannot make the table's folder: {error}", str(folder)) from None
    key = key or secrets.token_urlsafe(16)
    if len(key) < 8 or not all(c.isalnum() or c in "-_" for c in key):
        raise HordeError(f"--key {key!r}: expected at least 8 letters, digits, '-' or '_'")
    host = "0.0.0.0" if share else "127.0.0.1"
    shown = _local_address() if share else "127.0.0.1"
    link = f"http://{shown}:{port}/?key={key}"
    click.echo(f"horde table: the games are kept in {folder}")
    click.echo(f"open {link}")
    if share:
        click.echo("anyone on this network with this link (or the QR code) can act for the players; without the "
                   "key a request changes nothing")
        qr = segno.make(link, error="m")
        qr.terminal(compact=True)
    else:
        click.echo("this machine only (--share opens it to the table's phones)")
    app = make_app(folder, key, estimate_seasons=not no_estimate, house=house.knobs(), house_path=house.path)
    uvicorn.run(app, host=host, port=port, log_level="warning")

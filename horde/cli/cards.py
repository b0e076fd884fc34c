"""``horde cards``: show, import, compile, coverage, recall and the verbs of the card vocabulary."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from horde.cli.common import (
    HordeGroup,
    cards_option,
    cli,
    stop_code,
    terminate_as_interrupt,
)


@cli.group(cls=HordeGroup)
def cards():
    """Show how cards are modelled."""


@cards.command("show", examples=(
    'horde cards show "Grave Titan"',
    'horde cards show "Elspeth Tirel" --cards my-cards/',
))
@click.argument("name")
@cards_option
def cards_show(name, cards):
    """Print how a card is modelled: its printed facts and its verbs by hook, and where each came
    from (a card file, or the card index and the Oracle-text compiler)."""
    from horde.cards.catalogue import catalogue_for, facts_of
    from horde.cards.oracle import compile_text
    from horde.engine.cards import FACES

    catalogue = catalogue_for(cards)
    card = catalogue.get(name)
    origin = catalogue.origins.get(card.name)
    _show_facts(card, "")
    click.echo(f"Colour identity: {''.join(sorted(card.identity)) or 'colourless'}")
    if card.text:
        click.echo(f"Text: {card.text}")
    _show_hooks(card, "")
    for face in card.faces:  # a card of two faces (709, 712, 715): each face its own facts and behaviour
        if face.face == "fused":
            click.echo(f"Fused: both halves cast together from hand for {face.cost} (702.102)")
            continue
        click.echo(f"Face: {face.name} ({FACES[face.face]})")
        _show_facts(face, "  ")
        _show_hooks(face, "  ")
    made_from: dict = {}
    if origin is not None and origin.kind in ("compiled", "approximated"):
        for face, text in _index_texts(card, origin):
            prefix = f"{face.name}: " if card.faces else ""
            made_from.update({prefix + line: sentence for line, sentence in
                              compile_text(text, facts_of(face), catalogue.tokens).made_from.items()})
    if origin is None or origin.kind == "hand-written":
        where = origin.where if origin else card.source
        click.echo(f"Facts and behaviour: hand-written, defined at {where}")
        return
    if origin.kind in ("described", "created"):
        where = "" if origin.where.startswith("None") else f" at {origin.where}"  # described outside a list
        click.echo("Facts and behaviour: " + (f"the text of '{origin.where}' that creates it (111.4)"
                                              if origin.kind == "created" else f"read from its description{where}"))
        return
    click.echo(f"Facts: the card index ({origin.where}), from MTGJSON's AtomicCards" +
               (f"; {origin.note}" if origin.note else ""))
    if origin.kind == "approximated":
        click.echo("Behaviour: APPROXIMATED (--approximate): plays by its facts and the abilities read; "
                   "dropped: " + ("; ".join(repr(s) for s in origin.dropped) or "nothing"))
        click.echo("Each line read and the sentence it was read from:")
    else:
        click.echo("Behaviour: compiled from its Oracle text; each line and the sentence it was read from:")
    for line, sentence in made_from.items():
        click.echo(f"  {line}  <-  {sentence!r}")


def _show_facts(card, indent: str) -> None:
    """A card's (or a face's) printed facts, one a line."""
    from horde.cards.catalogue import pt_text

    click.echo(f"{indent}{card.name}  {card.cost if card.cost.value or card.cost.x else ''}".rstrip())
    click.echo(indent + card.type_line())
    if card.power is not None:
        click.echo(indent + pt_text(card))
    if card.loyalty is not None:
        click.echo(f"{indent}Loyalty {card.loyalty}")
    if card.keywords:
        click.echo(f"{indent}Keywords: " + ", ".join(sorted(card.keywords)))
    for ability in card.mana_abilities:
        click.echo(f"{indent}Mana: {ability.describe()}")
    if card.equip is not None:
        click.echo(f"{indent}Equip {card.equip}")


def _show_hooks(card, indent: str) -> None:
    """A card's (or a face's) behaviour: each verb by hook."""
    for hook, effects in card.hooks.items():
        for effect in effects:
            cost = f"{effect.cost:+d}: " if effect.cost is not None else ""
            costs = f"[{', '.join(str(c) for c in effect.costs)}] " if effect.costs else ""
            click.echo(f"{indent}  {hook}: {cost}{costs}{effect.describe()}")


def _index_texts(card, origin) -> list:
    """A compiled card's Oracle text as the index holds it (with its line breaks), with the card
    (or each face, for a card of two faces) it was compiled for."""
    from horde.cards.cardindex import open_index

    index = open_index(Path(origin.where))
    indexed = index.lookup(card.name) if index is not None else None
    if indexed is None:
        return [(card, card.text)]
    if indexed.faces and card.faces:
        faces = [face for face in card.faces if face.face != "fused"]
        played = [card] + faces if card.layout not in ("split", "aftermath") else faces
        return [(face, data.get("text") or "") for face, data in zip(played, indexed.faces, strict=False)]
    return [(card, indexed.text)]


@cards.command("import", examples=(
    "horde cards import AtomicCards.json.xz",
    "horde cards import AtomicCards.json --quiet",
))
@click.argument("file", metavar="FILE")
@click.option("--quiet", is_flag=True, help="no progress bar")
def cards_import(file, quiet):
    """Read MTGJSON's AtomicCards.json (plain, .gz, .xz or .zip) into the card index of the data
    folder ($HORDE_HOME or the platform's user data folder)."""
    from tqdm.auto import tqdm

    from horde.cards.cardindex import index_path
    from horde.cards.catalogue import import_cards
    from horde.files import check_regular, shown

    check_regular(file, "AtomicCards file")  # a missing file: one line, before any progress bar
    with tqdm(unit="B", unit_scale=True, unit_divisor=1024, desc="cards import", disable=quiet) as bar:
        def progress(read: int, total: int) -> None:
            bar.total = total
            bar.update(read - bar.n)

        try:
            with terminate_as_interrupt() as stop:  # SIGTERM too: the temporary file is removed
                summary = import_cards(file, progress=progress)
        except KeyboardInterrupt:
            bar.close()
            click.echo(f"interrupted: the card index is as it was ({shown(index_path())})", err=True)
            sys.exit(stop_code(stop.received))
    click.echo(f"imported {summary['cards']} cards from {summary['source']} into {shown(index_path())} "
               f"({summary['refused_layouts']} multi-faced cards kept only to say why they are refused)")


@cards.command("compile", examples=(
    'horde cards compile "When ~ enters the battlefield, create two 2/2 black Zombie creature tokens."',
    'horde cards compile "Destroy target creature." --type Instant',
    'horde cards compile "Whenever a land you control enters, surveil 1." --why',
))
@click.argument("text")
@click.option("--name", default="this card", show_default=True, help="the card's name (read as ~ in the text)")
@click.option("--type", "type_line", default="Creature", show_default=True,
              help="the card's type line, e.g. 'Instant' or 'Legendary Planeswalker — Liliana'")
@click.option("--why", is_flag=True, help="say for each sentence not understood where the grammar stopped "
                                           "and what it expected, or what the vocabulary can't express")
def cards_compile(text, name, type_line, why):
    """Print the behaviour lines the Oracle-text compiler makes of TEXT, or the sentences it cannot read."""
    from horde.cards.catalogue import default_catalogue
    from horde.cards.oracle import Facts, compile_text

    left, _, right = type_line.replace(" - ", " — ").partition("—")
    words = left.split()
    facts = Facts(name, frozenset(w for w in words if w[0].isupper() and w not in ("Legendary", "Basic", "Snow")),
                  frozenset(right.split()), frozenset(w for w in words if w in ("Legendary", "Basic", "Snow")))
    compiled = compile_text(text, facts, default_catalogue().tokens)
    if not compiled.ok:
        for sentence in compiled.unread:
            click.echo(f"not understood: {sentence!r}")
            if why and sentence in compiled.why:
                click.echo(f"  {compiled.why[sentence]}")
        sys.exit(2)  # as every other error of the command line
    for line in compiled.lines:
        click.echo(line)
    if not compiled.lines:
        click.echo("(no behaviour)")
    for token in compiled.tokens.values():  # 111.4: a token the text creates, defined by that text
        click.echo(f"(a new token: {_token_facts(token)})")


def _token_facts(token) -> str:
    """A token's name and facts on one line: 'Insect: Token Creature — Insect 1/1 G, flying'."""
    from horde.engine.cards import COLOURS

    colours = "".join(c for c in COLOURS if c in token.colours) or "colorless"
    keywords = "".join(f", {k}" for k in sorted(token.keywords))
    return f"{token.name!r}: {token.type_line()} {token.power}/{token.toughness} {colours}{keywords}"


@cards.command("coverage", examples=(
    "horde cards coverage my-horde.txt",
    "horde cards coverage zombie-horde --approximate",
))
@click.argument("deck")
@cards_option
@click.option("--approximate", is_flag=True, help="show which cards --approximate would play approximated")
def cards_coverage(deck, cards, approximate):
    """For a decklist (a path or a bundled name), where each card's behaviour comes from: a card
    file (hand-written), the index and the compiler (compiled), its facts and the abilities read (approximated), or
    refused with the reason."""
    from horde.cards.catalogue import catalogue_for
    from horde.cards.decks import read_deck, resolve_path
    from horde.errors import DeckError

    catalogue = catalogue_for(cards, approximate)
    path = str(resolve_path(deck, None))
    decklist = read_deck(path)
    counts: dict = {}
    slots: dict = {}
    for entry in decklist.entries:  # every line, a name on several lines on each
        try:
            card = catalogue.get(entry.name, path, entry.line)
        except DeckError as error:
            kind, slot, detail = "refused", "refused", error.message
        else:
            origin = catalogue.origins.get(card.name)
            kind = origin.kind if origin else "hand-written"
            slot = origin.slot if origin else "exact"
            if slot == "blank":
                kind = "blank"  # approximated, with nothing of its text read
            detail = {"hand-written": origin.where if origin else card.source, "compiled": "index and compiler",
                      "approximated": "dropped " + "; ".join(repr(s) for s in origin.dropped) if origin else "",
                      "blank": "nothing read: dropped " + "; ".join(repr(s) for s in origin.dropped) if origin else "",
                      "described": f"a token of the list's description: {card.type_line()} "
                                   f"{card.power}/{card.toughness}",
                      "created": f"a token the text of '{origin.where}' creates" if origin else ""}[kind]
        counts[kind] = counts.get(kind, 0) + entry.count
        slots[slot] = slots.get(slot, 0) + entry.count
        click.echo(f"{entry.count:>3} {entry.name:32s} {kind:13s} {detail}")
    total = sum(counts.values())
    click.echo(f"{total} cards: " + ", ".join(f"{n} {kind}" for kind, n in sorted(counts.items())))
    click.echo(f"card slots: {slots.get('exact', 0)} exact, {slots.get('approximated', 0)} approximated, "
               f"{slots.get('blank', 0)} blank, {slots.get('refused', 0)} refused")


@cards.command("survey", examples=("horde cards survey", "horde cards survey --bundled --sample 20 --seed 1"))
@click.option("--bundled", is_flag=True, help="survey the bundled cards' own texts instead of the card index")
@click.option("--sample", type=click.IntRange(0, 10_000), default=0, show_default=True,
              help="also print this many exact cards drawn at random, for the precision audit (docs/audit)")
@click.option("--seed", type=click.IntRange(0, 2**63 - 1), default=1, show_default=True, help="the sample's seed")
def cards_survey(bundled, sample, seed):
    """Coverage of the whole card index (imported with 'horde cards import'): how many cards compile
    exactly, play only with --approximate, or are refused, by type and by refusal class."""
    from horde.cards.cardindex import open_index
    from horde.cards.catalogue import bundled_catalogue
    from horde.cards.survey import survey_index, survey_texts
    from horde.errors import HordeError

    catalogue = bundled_catalogue()
    if bundled:
        survey = survey_texts(catalogue.cards.values(), catalogue.tokens, "the bundled cards' own texts")
    else:
        index = open_index()
        if index is None:
            raise HordeError("no card index: import MTGJSON's AtomicCards with 'horde cards import FILE' (or survey "
                             "the bundled cards' texts with --bundled)")
        survey = survey_index(index, catalogue.tokens, catalogue.cache_key())
    click.echo(survey.describe())
    if sample:
        click.echo(f"\nprecision audit sample: {sample} exact cards, seed {seed} (docs/audit/README.md)")
        for n, card in enumerate(survey.sample(seed, sample), 1):
            click.echo(f"\n{n}. {card.name}\n   text: {' / '.join(card.text.splitlines())}")
            for line in card.lines:
                click.echo(f"   {line}")
    if not bundled and not survey.cached:
        click.echo("(the card index's texts were compiled by another version of the grammar, or not at import: "
                   "each was compiled now; import it again to keep them)", err=True)


@cards.command("recall", examples=("horde cards recall", "horde cards recall --verbose",))
@click.option("--verbose", is_flag=True, help="also list each refused card with the sentences not understood")
def cards_recall(verbose):
    """Compile every bundled card's Oracle text and compare it with its hand-written model: how many
    the compiler reproduces exactly (recall), and how many differ (must be none)."""
    from horde.cards.catalogue import bundled_catalogue, recall

    report = recall(bundled_catalogue())
    click.echo(report.describe())
    if verbose:
        for name, unread in report.refused.items():
            click.echo(f"  refused {name}: " + "; ".join(repr(s) for s in unread))
    for name in report.differ:
        click.echo(f"  DIFFERS {name}")


@cards.command("verbs", examples=("horde cards verbs", "horde cards verbs | grep -A1 create_tokens",))
def cards_verbs():
    """List the effect vocabulary: every verb with its arguments."""
    from horde.engine.cards import HOOKS
    from horde.engine.vocabulary import VERBS

    for name, verb in sorted(VERBS.items()):
        args = " ".join(f"{k}={'<' + a.kind + '>' if a.required else _default(a.default)}" for k, a in verb.args.items())
        click.echo(f"{name} {args}".rstrip())
        click.echo(f"    {verb.doc}")
    click.echo("\nhooks: " + ", ".join(HOOKS))


def _default(value) -> str:
    if isinstance(value, frozenset):
        return ",".join(sorted(value)) or "none"
    return "none" if value is None else str(value)

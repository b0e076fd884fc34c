"""Keyword abilities with a number or a cost (702), read into the card-file lines the engine
plays them by (``docs/cards.md``, "Keyword abilities"): a keyword that is a triggered ability
becomes that ability's lines (``Annihilator 2``: ``Attacks: annihilator count=2``; ``Bushido 1``:
``Blocks:`` and ``Blocked:`` pumps); a keyword with an alternative or additional cost becomes its
field (``Evoke {1}{G}``: ``Evoke: {1}{G}``; ``Suspend 4—{1}{R}``: ``Suspend: 4 {1}{R}``;
``Basic landcycling {1}``: ``Typecycling: {1} basic land``); and the keyword action
'Monstrosity N' of an activated ability is the ``monstrosity`` verb. The keywords the engine
knows by name (shadow, exalted, storm, ...) need nothing here: ``families/keywords.py`` writes them
on the ``Keywords:`` line. Reminder text is dropped by the lexer before any of this is read.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from horde.cards.grammar.ast import Effect, Keyword, Num, Trigger
from horde.cards.grammar.families.keywords import TRANSLATED
from horde.cards.grammar.nouns import number
from horde.cards.grammar.parser import Parser
from horde.cards.grammar.registry import effect, translates, trigger
from horde.cards.grammar.translate import Context, NotExpressible, mana_only
from horde.engine.filters import SUBTYPE_TERMS

Lines = tuple[list[str], list[str]]  # (card-file lines, keywords for the Keywords line)


def _number(node: Keyword) -> int:
    if not node.number.isdigit() or node.cost:
        raise NotExpressible(f"the keyword {node.text!r}")
    return int(node.number)


def _mana(node: Keyword) -> str:
    if not node.cost or node.number or not mana_only(node.cost):
        raise NotExpressible(f"{node.name} with a cost other than mana")
    return node.cost


def numbered(*lines: str) -> Callable[[Keyword, Context], Lines]:
    """A keyword 'NAME N' that is triggered abilities: its lines, N written where '{n}' is."""
    def translate(node: Keyword, ctx: Context) -> Lines:
        n = _number(node)
        return [line.format(n=n) for line in lines], []
    return translate


def costed(field: str) -> Callable[[Keyword, Context], Lines]:
    """A keyword 'NAME {cost}' with a mana cost: its field."""
    def translate(node: Keyword, ctx: Context) -> Lines:
        return [f"{field}: {_mana(node)}"], []
    return translate


def plain(*lines: str) -> Callable[[Keyword, Context], Lines]:
    """A keyword with neither number nor cost that is triggered abilities: its lines."""
    def translate(node: Keyword, ctx: Context) -> Lines:
        if node.number or node.cost:
            raise NotExpressible(f"the keyword {node.text!r}")
        return list(lines), []
    return translate


def afterlife(node: Keyword, ctx: Context) -> Lines:
    """'Afterlife N' (702.135a): when it dies, N 1/1 white and black Spirit tokens with flying."""
    from horde.cards.grammar.families.tokens import token_for
    from horde.cards.grammar.translate import quote

    n = _number(node)
    made = token_for("1/1 white and black Spirit creature token with flying", "", ctx)
    return [f"Dies: create_tokens token={quote(made)} count={n}"], []


def undaunted(node: Keyword, ctx: Context) -> Lines:
    """'Undaunted' (702.125a): it costs {1} less for each opponent (a team player has one, the
    Horde: H1)."""
    if node.number or node.cost:
        raise NotExpressible(f"the keyword {node.text!r}")
    return ["CostsLess: opponents"], []


def spell_keyword(node: Keyword, ctx: Context) -> Lines:
    """Storm (702.40) copies an instant or sorcery; a permanent spell's copies are beyond the engine."""
    if node.number or node.cost:
        raise NotExpressible(f"the keyword {node.text!r}")
    if not {"Instant", "Sorcery"} & ctx.facts.types:
        raise NotExpressible(f"{node.name} on a permanent spell (its copies would be tokens)")
    return [], [node.name]


def suspend(node: Keyword, ctx: Context) -> Lines:
    """'Suspend N—{cost}' (702.62a)."""
    if not node.number.isdigit() or int(node.number) < 1 or not node.cost or not mana_only(node.cost):
        raise NotExpressible(f"the keyword {node.text!r}")
    return [f"Suspend: {node.number} {node.cost}"], []


def typecycling(finds: str) -> Callable[[Keyword, Context], Lines]:
    """'Basic landcycling {1}', 'Plainscycling {2}' (702.29e-f): a search for ``finds`` instead of a draw."""
    def translate(node: Keyword, ctx: Context) -> Lines:
        return [f"Typecycling: {_mana(node)} {finds}"], []
    return translate


def _typecyclings() -> dict[str, Callable[[Keyword, Context], Lines]]:
    found = {"basic landcycling": typecycling("basic land"), "landcycling": typecycling("land")}
    for kind in ("plains", "island", "swamp", "mountain", "forest", "wizard", "sliver"):
        if kind in SUBTYPE_TERMS:
            found[f"{kind}cycling"] = typecycling(kind)
    return found


TRANSLATED.update({
    # Triggered abilities
    "annihilator": numbered("Attacks: annihilator count={n}"),  # 702.86
    "bushido": numbered("Blocks: pump on=self power={n} toughness={n}",
                        "Blocked: pump on=self power={n} toughness={n}"),  # 702.45
    "rampage": numbered("Blocked: rampage count={n}"),  # 702.23
    "renown": numbered("HitsPlayer: renown count={n}"),  # 702.112
    "fading": numbered("Enters: fading count={n}", "Upkeep: fading"),  # 702.32
    "vanishing": numbered("Enters: vanishing count={n}", "Upkeep: vanishing"),  # 702.63
    "modular": numbered("Enters: counters on=self count={n}", "Dies: modular may=true"),  # 702.43
    "devour": numbered("Enters: devour count={n}"),  # 702.82
    "soulshift": numbered('Dies: return_from_graveyard filter="spirit mv<={n}" to=hand count=1 may=true'),  # 702.46
    "myriad": plain("Attacks: myriad"),  # 702.116
    "extort": plain("SpellCast: extort when=yours"),  # 702.101
    "living weapon": plain("Enters: living_weapon"),  # 702.92
    "afterlife": afterlife,  # 702.135
    "undaunted": undaunted,  # 702.125
    # Keywords with a cost: fields
    "evoke": costed("Evoke"),  # 702.74
    "dash": costed("Dash"),  # 702.109
    "buyback": costed("Buyback"),  # 702.27
    "echo": costed("Echo"),  # 702.30
    "overload": costed("Overload"),  # 702.96: each of what the spell targets (resolve_overloaded)
    "suspend": suspend,  # 702.62
    # Keywords of spells the engine knows by name, on the spells they work on
    "storm": spell_keyword,  # 702.40
    **_typecyclings(),
})


@dataclass(frozen=True)
class Monstrosity(Effect):
    """'Monstrosity N' (701.37), the effect of an activated ability."""

    count: int


@effect(first=("monstrosity",))
def monstrosity(p: Parser) -> Monstrosity:
    p.expect("monstrosity")
    n = number(p)
    if not isinstance(n, Num):
        p.fail("a number")  # 'Monstrosity X' is beyond the vocabulary
    return Monstrosity(n.n)


@translates(Monstrosity)
def _(node: Monstrosity, ctx: Context) -> list[str]:
    if ctx.hook != "Activated":
        raise NotExpressible("monstrosity outside an activated ability")
    return [f"monstrosity count={node.count}"]


@dataclass(frozen=True)
class BecomesMonstrous(Trigger):
    """'~ becomes monstrous' (701.37b)."""


@trigger("~ becomes monstrous")
def _(m: dict[str, object], p: Parser) -> BecomesMonstrous:
    return BecomesMonstrous()


@translates(BecomesMonstrous)
def _(node: BecomesMonstrous, ctx: Context) -> tuple[list[str], str | None]:
    return ["Monstrous"], None


@dataclass(frozen=True)
class BecomesBlocked(Trigger):
    """'~ becomes blocked' (509.1h), or '~ blocks or becomes blocked' (bushido's own words)."""

    blocks: bool


@trigger("~ becomes blocked")
def _(m: dict[str, object], p: Parser) -> BecomesBlocked:
    return BecomesBlocked(False)


@trigger("~ blocks or becomes blocked")
def _(m: dict[str, object], p: Parser) -> BecomesBlocked:
    return BecomesBlocked(True)


@translates(BecomesBlocked)
def _(node: BecomesBlocked, ctx: Context) -> tuple[list[str], str | None]:
    return (["Blocks", "Blocked"] if node.blocks else ["Blocked"]), None

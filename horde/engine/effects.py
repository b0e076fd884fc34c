"""The closed verb vocabulary: every card behaviour is one of these verbs with checked arguments.

Each verb is a small function ``verb(game, ctx, **args)`` with a one-line docstring and a
declared argument spec; ``horde.cards.catalogue`` checks every verb and argument of every card at
load, so an unknown verb, a missing argument or a value of the wrong kind fails loudly there, and
stores the verb's function in the card's ``Effect.run``: the rules run effects without importing
this module. Filters and amounts are compiled by ``horde.engine.filters``. The AI that decides *whether*
to use a card lives in ``horde.team.policies``, never here.
"""

from __future__ import annotations

import ast
import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from horde import build
from horde.engine import rules
from horde.engine.cards import CardDef, Effect, ManaCost
from horde.engine.events import log
from horde.engine.filters import (
    Amount,
    Context,
    Filter,
    Known,
    card_matches,
    compile_amount,
    compile_filter,
    evaluate,
    known_permanent,
    their_player,
)
from horde.engine.shuffling import randbelow
from horde.engine.state import HORDE_CONTROLLER, Game, Permanent, Side, Winner

# Decision: the token cards of a Horde deck that are milled or discarded lie in the Horde's
# graveyard only as counts of what left the library; they are not cards for effects (a
# token is not a card), so nothing returns them and nothing counts them as Zombie cards.

# ---------------------------------------------------------------- argument kinds
@dataclass(frozen=True)
class Arg:
    kind: str  # "int", "amount", "bool", "filter", "cards" (a filter of cards, kept as text), "token", "choice", "keywords", "mana" (units as a Mana line writes them), "str"
    default: Any = ...
    choices: tuple = ()

    @property
    def required(self) -> bool:
        return self.default is ...


@dataclass(frozen=True)
class Verb:
    name: str
    run: Callable
    args: dict[str, Arg]
    doc: str
    targets: str | None = None  # the argument holding the target filter, for targeted verbs
    static: bool = False  # a continuous effect (Static, Equipped and Enchanted hooks)
    at: str | None = None  # a static verb's point: where the rules call its function (``POINTS``)


VERBS: dict[str, Verb] = {}

WHO = ("you", "each_opponent", "each_player", "that_player", "each_other_player", "caster", "target_player",
       "target_opponent", "target_controller", "target_owner",
       # A: schemes name these ("each of your other opponents", "the opponent with the highest life total")
       "other_opponents", "highest_life_opponent")
# 'target player (opponent) or planeswalker' (Which of You Burns Brightest?): targets only
# ``damage_all`` takes, as only damage reaches a planeswalker (120.3c).
WHO_OR_PLANESWALKER = ("target_player_or_planeswalker", "target_opponent_or_planeswalker")


VerbFunction = Callable[..., Any]  # a one-shot verb returns None; a static verb with a point, its value


@functools.cache
def _source_docs(module: str) -> dict[str, str]:
    """The docstrings of a verbs module's functions, read from its source (a compiled build drops them)."""
    tree = ast.parse((build.PACKAGE / "engine" / f"{module.rsplit('.', 1)[-1]}.py").read_text())
    return {node.name: ast.get_docstring(node) or "" for node in tree.body if isinstance(node, ast.FunctionDef)}


def _first_line(function: VerbFunction) -> str:
    """The first line of a verb's docstring: its one-line description (``horde verbs``)."""
    doc = function.__doc__ or _source_docs(function.__module__).get(function.__name__, "")
    return doc.strip().splitlines()[0]


# The points where the rules apply static verbs: each static verb with a point is a function
# ``f(game, source, value, *details, **args) -> value`` that the rules call there, for every
# source on the battlefield with such an effect (``horde.engine.characteristics.apply_statics``), or
# for the permanent itself (``own``). Anthems and */* (``anthem``, ``pt_equals``) are read where
# power, toughness and keywords are worked out (``horde.engine.characteristics``).
POINTS = {
    "gain_life": "the team would gain VALUE life (the Horde has no life to gain)",
    "spell_cost": "a team player casts a spell for VALUE generic mana (details: the card, the player)",
    "dealt_damage": "this permanent would be dealt VALUE damage (own: only the permanent's own statics)",
    "graveyard_abilities": "VALUE: whether a card in a graveyard has its abilities (details: the card)",
    "player_dealt_damage": "a player (the Horde: -1) would be dealt VALUE damage (details: the player, the "
                           "controller of the source)",
}


def verb(name: str, *, targets: str | None = None, static: bool = False, at: str | None = None,
         **args: Arg) -> Callable[[VerbFunction], VerbFunction]:
    """Register a verb of the vocabulary with its argument spec (and, for a static verb, the
    point of ``POINTS`` where the rules call it)."""

    def register(function: VerbFunction) -> VerbFunction:
        assert at is None or (static and at in POINTS), f"{name}: a point is for static verbs, one of POINTS"
        VERBS[name] = Verb(name, function, args, _first_line(function), targets, static, at)
        return function

    return register


# ---------------------------------------------------------------- the verbs
@verb("create_tokens", token=Arg("token"), count=Arg("amount", 1), tapped=Arg("bool", False),
      who=Arg("choice", None, WHO))
def create_tokens(game: Game, ctx: Context, token: str, count: Amount, tapped: bool, who: str | None = None) -> None:
    """Create COUNT copies of the named token under the controller's control (each player WHO
    names creates them under its own: 'its controller creates a 3/3 green Beast creature token')."""
    card = game.tokens[token]
    n = evaluate(game, ctx, count)
    for player in (ctx.controller,) if who is None else _players_for(game, ctx, who):
        for _ in range(n):
            rules.put_onto_battlefield(game, card, player, player, tapped=tapped, created=True)


@verb("counters", on=Arg("choice", "self", ("self", "target", "each")), count=Arg("amount", 1),
      filter=Arg("filter", None), kind=Arg("choice", None, ("plus", "minus", "charge", "storage")), targets="filter")
def counters(game: Game, ctx: Context, on: str, count: Amount, filter: Filter | None, kind: str | None = None
             ) -> None:
    """Put COUNT +1/+1 counters (KIND=minus: -1/-1 counters, 704.5q; KIND=charge or storage: counters its mana abilities read) on this permanent, on a target, or on each permanent matching FILTER."""
    n = evaluate(game, ctx, count)
    kind = kind or "plus"
    if on == "self":
        if ctx.permanent is not None and rules.on_battlefield(game, ctx.permanent):
            rules.add_counters(game, ctx.permanent, n, kind, ctx.controller)
    elif on == "target":
        if isinstance(ctx.target, Permanent):
            rules.add_counters(game, ctx.target, n, kind, ctx.controller)
    elif filter is not None:
        for p in rules.all_permanents(game):
            if filter(game, ctx, p):
                rules.add_counters(game, p, n, kind, ctx.controller)


@verb("anthem", static=True, filter=Arg("filter", None), power=Arg("int", 0), toughness=Arg("int", 0),
      keywords=Arg("keywords", frozenset()))
def anthem(game: Game, ctx: Context, filter: Filter | None, power: int, toughness: int, keywords:
           frozenset[str]) -> None:
    """Static: permanents matching FILTER (or the equipped creature) get +POWER/+TOUGHNESS and KEYWORDS."""


@verb("pt_equals", static=True, amount=Arg("amount", None), power=Arg("amount", None), toughness=Arg("amount", None))
def pt_equals(game: Game, ctx: Context, amount: Amount | None, power: Amount | None, toughness: Amount | None) -> None:
    """Static (604.3): this creature's * power and toughness are each AMOUNT, or its * power POWER and * toughness TOUGHNESS (a printed 1+* adds 1)."""


@verb("damage_removes_counters", static=True, at="dealt_damage")
def damage_removes_counters(game: Game, source: Permanent, amount: int) -> int:
    """Static: damage that would be dealt to this creature is prevented; remove a +1/+1 counter instead."""
    if source.plus > 0:
        rules.remove_counters(game, source, 1)  # Unbreathing Horde
    return 0


@verb("cant_gain_life", static=True, at="gain_life")
def cant_gain_life(game: Game, source: Permanent, amount: int) -> int:
    """Static: players can't gain life."""
    return 0


@verb("cost_reduction", static=True, at="spell_cost", filter=Arg("filter"), amount=Arg("int", 1))
def cost_reduction(game: Game, source: Permanent, generic: int, card: CardDef, player: int, filter: Filter,
                   amount: int) -> int:
    """Static: spells matching FILTER that you cast cost AMOUNT less generic mana."""
    if source.controller == player and card_matches(filter.text, card):
        return max(0, generic - amount)
    return generic


@verb("graveyards_lose_abilities", static=True, at="graveyard_abilities")
def graveyards_lose_abilities(game: Game, source: Permanent, works: bool, card: CardDef) -> bool:
    """Static: cards in graveyards lose all abilities (flashback, unearth, casting or returning itself from there)."""
    return False




def _players_for(game: Game, ctx: Context, who: str) -> list[int]:
    """The players WHO names, relative to the effect's controller; -1 stands for the Horde.
    'target player' and 'target opponent' are the player the ability targeted (the Horde's
    'target opponent' is a random team player: H9); 'target controller' is the controller of the
    permanent it targeted."""
    team = [p.index for p in game.players if not p.removed]  # Z4: a removed player is no longer a player
    if who in ("other_opponents", "highest_life_opponent"):
        return _opponents_for(game, ctx, who, team)
    if who == "you":
        return [ctx.controller]
    if who == "that_player":
        return [ctx.that_player] if ctx.that_player is not None else []
    if who == "caster":
        return [ctx.caster] if ctx.caster is not None else []
    if who in ("target_player", "target_opponent") or who in WHO_OR_PLANESWALKER:
        target = ctx.target  # a targeted planeswalker names no player
        if target == "horde":
            return [HORDE_CONTROLLER]
        return [target] if isinstance(target, int) else []
    if who == "target_controller":  # as it last existed, if it has left (608.2h)
        return [ctx.target.controller] if isinstance(ctx.target, Permanent) else []
    if who == "target_owner":
        return [ctx.target.owner] if isinstance(ctx.target, Permanent) else []
    if who == "each_opponent":
        return team if ctx.is_horde else [HORDE_CONTROLLER]
    if who == "each_other_player":
        return [i for i in team + [HORDE_CONTROLLER] if i != ctx.controller]
    if game.setup.opponent != "horde":
        return team  # each_player: a challenge deck's side is no player, 'each player' is the team's (G7)
    return team + [HORDE_CONTROLLER]  # each_player: the Horde counts as a player (H9)


def acted_on(game: Game, ctx: Context, p: Permanent) -> Known:
    """A verb acts on a permanent: the ability remembers it as it is now, for the verbs after it
    ('its controller', 'its power', 'that creature': 608.2h); returns what was remembered."""
    known = known_permanent(game, p)
    ctx.remember(known)
    return known


def reached(game: Game, ctx: Context, known: Known, zone: str) -> None:
    """A permanent a verb put into ``zone``: once it has left the battlefield, it was moved 'this
    way' ('for each creature destroyed this way': a token and a commander count, though the
    token ceases to exist, H6, and the commander may go to the command zone, C2; whoever returns
    'the cards exiled this way' finds only those still there)."""
    if known.permanent is None or not rules.on_battlefield(game, known.permanent):
        ctx.moved_card(known.card, known.owner, zone)


@verb("lose_life", who=Arg("choice", "each_opponent", WHO), amount=Arg("amount"))
def lose_life(game: Game, ctx: Context, who: str, amount: Amount) -> None:
    """Each player WHO names loses AMOUNT life: a team player's comes off the shared team life
    (H1), once per player named; the Horde mills when the team makes it lose life (H11)."""
    n = evaluate(game, ctx, amount)
    for player in _players_for(game, ctx, who):
        if player == HORDE_CONTROLLER:
            if not ctx.is_horde:
                rules.damage_horde(game, n, life_loss=True)  # H11: life the team makes the Horde lose
        else:
            rules.lose_life(game, n, player, ctx.controller, ctx.card.name if ctx.card is not None else None)


@verb("poison", who=Arg("choice", "each_opponent", WHO), count=Arg("amount", 1))
def poison(game: Game, ctx: Context, who: str, count: Amount) -> None:
    """Each player WHO names gets COUNT poison counters (a team player: H13's 15 lose, Z4's 10 with a life of its own; the Horde has none)."""
    n = evaluate(game, ctx, count)
    for player in _players_for(game, ctx, who):
        rules.give_poison(game, player, n)


@verb("gain_life", amount=Arg("amount"), who=Arg("choice", None, WHO))
def gain_life(game: Game, ctx: Context, amount: Amount, who: str | None) -> None:
    """Each player WHO names (default: the controller) gains AMOUNT life: a team player's goes to
    the team's shared total (H1); the Horde has none."""
    n = evaluate(game, ctx, amount)
    for player in _players_for(game, ctx, who or "you"):
        if player != HORDE_CONTROLLER:
            rules.gain_life(game, n, player)


@verb("destroy_all", filter=Arg("filter"), regenerate=Arg("bool", None), who=Arg("choice", None, WHO))
def destroy_all(game: Game, ctx: Context, filter: Filter, regenerate: bool | None, who: str | None) -> None:
    """Destroy every permanent matching FILTER (that a player WHO names controls: 'all nonland
    permanents target opponent controls'; REGENERATE=false: they can't be regenerated)."""
    doomed = [p for p in rules.all_permanents(game) if filter(game, ctx, p)]
    if who is not None:
        players = _players_for(game, ctx, who)
        doomed = [p for p in doomed if p.controller in players]
    for p in doomed:
        known = Known(p, p.card, p.controller, p.owner)
        if rules.destroy(game, p, ctx.controller, regenerate is not False):
            reached(game, ctx, known, "graveyard")  # 'for each creature destroyed this way


PERMANENT_TYPES = ("Artifact", "Creature", "Enchantment", "Land", "Planeswalker", "Battle")


@verb("each_player_sacrifices", who=Arg("choice", "each_player", WHO), filter=Arg("filter"),
      count=Arg("amount", 1), keep=Arg("choice", None, ("one_of_each_type", "one")))
def each_player_sacrifices(game: Game, ctx: Context, who: str, filter: Filter, count: Amount, keep: str | None
                           ) -> None:
    """Each player WHO names sacrifices COUNT permanents matching FILTER of its choice; with
    KEEP=one_of_each_type it chooses one of them of each permanent type and sacrifices the rest;
    with KEEP=one it chooses one of them and sacrifices the rest."""
    players = _players_for(game, ctx, who)
    n = evaluate(game, ctx, count) if keep is None else None
    players = _team_sacrifices(game, ctx, filter, players, n)
    if keep == "one_of_each_type":
        for player in players:
            _keep_one_of_each_type(game, ctx, player, filter)
        return
    if keep == "one":
        for player in players:
            _keep_one(game, ctx, player, filter)
        return
    assert n is not None
    for player in players:
        for _ in range(n):
            options = [p for p in rules.board_of(game, player) if p.controller == player and filter(game, ctx, p)]
            if not options:
                break
            victim = rules.choose_sacrifice(game, player, options)
            known = acted_on(game, ctx, victim)
            rules.sacrifice(game, victim, ctx.controller)  # L6: the effect forced it
            reached(game, ctx, known, "graveyard")  # 'for each creature sacrificed this way'


def _team_sacrifices(game: Game, ctx: Context, filter: Filter, players: list[int], n: int | None,
                     may: bool = False) -> list[int]:
    """At a table (``drivers.team_side``) the team's players say how many permanents matching
    FILTER each of them sacrifices (N, or all but those kept when None; MAY: whether it does),
    and their stand-ins are sacrificed (the Horde's abilities see them die); the players left
    (the Horde) sacrifice by the rules. Elsewhere, ``players`` unchanged."""
    team_side = game.drivers.team_side
    team = [p for p in players if p != HORDE_CONTROLLER]
    if team_side is None or not team:
        return players
    team_side.sacrifice(game, ctx, filter, team, n, may)
    return [p for p in players if p == HORDE_CONTROLLER]


def _keep_one(game: Game, ctx: Context, player: int, filter: Filter) -> None:
    mine = [p for p in rules.board_of(game, player) if p.controller == player and filter(game, ctx, p)]
    if not mine:
        return
    kept = rules.choose_card(game, player, "keep", mine)  # A1: No One Will Hear Your Cries
    for p in mine:
        if p is not kept and rules.on_battlefield(game, p):
            rules.sacrifice(game, p, ctx.controller)  # L6: the effect forced it


def _keep_one_of_each_type(game: Game, ctx: Context, player: int, filter: Filter) -> None:
    board = [p for p in rules.board_of(game, player) if p.controller == player and filter(game, ctx, p)]
    kept = []
    for kind in PERMANENT_TYPES:
        candidates = [p for p in board if kind in p.card.types]
        # The player gives up all but one of this type, one sacrifice choice at a time.
        while len(candidates) > 1:
            candidates.remove(rules.choose_sacrifice(game, player, candidates))
        if candidates and candidates[0] not in kept:
            kept.append(candidates[0])
    for p in board:
        if p not in kept and rules.on_battlefield(game, p):
            rules.sacrifice(game, p, ctx.controller)  # L6: the effect forced it


@verb("discard", who=Arg("choice", "each_opponent", WHO), count=Arg("amount", 1))
def discard(game: Game, ctx: Context, who: str, count: Amount) -> None:
    """Each player WHO names discards COUNT cards of its choice (the Horde: at random, H9)."""
    n = evaluate(game, ctx, count)
    for player in _players_for(game, ctx, who):
        for card in rules.discard(game, player, n):
            ctx.moved_card(card, player, "graveyard")  # 'for each card discarded this way'



@verb("mill", who=Arg("choice", "each_opponent", WHO), count=Arg("amount", 1))
def mill(game: Game, ctx: Context, who: str, count: Amount) -> None:
    """Each player WHO names mills COUNT cards."""
    n = evaluate(game, ctx, count)
    for player in _players_for(game, ctx, who):
        rules.mill(game, player, n)


@verb("draw", who=Arg("choice", "you", WHO), count=Arg("amount", 1))
def draw(game: Game, ctx: Context, who: str, count: Amount) -> None:
    """Each player WHO names draws COUNT cards (the Horde draws none: H4)."""
    n = evaluate(game, ctx, count)
    for player in _players_for(game, ctx, who):
        if player != HORDE_CONTROLLER:
            for _ in range(n):
                rules.draw(game, game.players[player])


@verb("reanimate_all", who=Arg("choice", "each_player", WHO), filter=Arg("cards", "creature"), tapped=Arg("bool", None))
def reanimate_all(game: Game, ctx: Context, who: str, filter: str, tapped: bool | None) -> None:
    """Each player WHO names returns all cards matching FILTER from its graveyard to the battlefield (TAPPED)."""
    for player in _players_for(game, ctx, who):
        graveyard = rules.graveyard_of(game, player)
        back = [c for c in graveyard if not c.is_token and card_matches(filter, c)]
        for card in back:
            if card in graveyard:  # an earlier one's enter trigger may have moved it
                graveyard.remove(card)
                rules.put_onto_battlefield(game, card, player, player, tapped=bool(tapped))


@verb("return_from_graveyard", filter=Arg("cards", "creature"), to=Arg("choice", "battlefield", ("battlefield", "hand")),
      count=Arg("int", 1), who=Arg("choice", None, WHO), at_random=Arg("bool", None))
def return_from_graveyard(game: Game, ctx: Context, filter: str, to: str, count: int, who: str | None,
                          at_random: bool | None) -> None:
    """Each player WHO names (default: the controller) returns up to COUNT cards matching FILTER from its graveyard to the battlefield or its hand, of its choice (AT_RANDOM: at random)."""
    for player in _players_for(game, ctx, who or "you"):
        graveyard = rules.graveyard_of(game, player)
        for _ in range(count):
            options = [c for c in graveyard if not c.is_token and card_matches(filter, c)]
            for card in ctx.paid:  # 601.2c: a card its costs put there was no card there to target
                if card in options:
                    options.remove(card)
            if not options:
                break
            if at_random and player != HORDE_CONTROLLER:  # the team player's deck stream; the Horde's is random anyway (H9)
                card = options[randbelow(game.players[player].rng, len(options))]
            else:
                card = rules.choose_card(game, player, "return", options)
            graveyard.remove(card)
            if to == "battlefield":
                rules.put_onto_battlefield(game, card, player, player)
            else:
                rules.hand_of(game, player).append(card)


@verb("return_self", to=Arg("choice", "battlefield", ("battlefield", "hand")), tapped=Arg("bool", None))
def return_self(game: Game, ctx: Context, to: str, tapped: bool | None) -> None:
    """Return this card from its owner's graveyard to the battlefield (TAPPED) or to its hand (a GraveyardActivated ability; a Dies one: 'return it to its owner's hand')."""
    card = ctx.card
    owner = ctx.permanent.owner if ctx.permanent is not None else ctx.controller  # a Dies ability: its owner's
    graveyard = rules.graveyard_of(game, owner)
    if card is None or card not in graveyard:
        return
    graveyard.remove(card)
    if to == "battlefield":
        rules.put_onto_battlefield(game, card, owner, owner, tapped=bool(tapped))
    else:
        rules.hand_of(game, owner).append(card)


@verb("destroy", target=Arg("filter"), regenerate=Arg("bool", None), targets="target")
def destroy(game: Game, ctx: Context, target: Filter, regenerate: bool | None) -> None:
    """Destroy target permanent matching TARGET (REGENERATE=false: it can't be regenerated)."""
    if isinstance(ctx.target, Permanent):
        known = acted_on(game, ctx, ctx.target)
        if rules.destroy(game, ctx.target, ctx.controller, regenerate is not False):
            reached(game, ctx, known, "graveyard")


@verb("regenerate", on=Arg("choice", "self", ("self", "target")), target=Arg("filter", None), targets="target")
def regenerate(game: Game, ctx: Context, on: str, target: Filter | None) -> None:
    """The next time this creature (or target creature) would be destroyed this turn, instead tap it, remove all damage from it and remove it from combat."""
    p = ctx.permanent if on == "self" else ctx.target
    if isinstance(p, Permanent) and rules.on_battlefield(game, p):
        p.regeneration += 1


@verb("exile", target=Arg("filter"), targets="target")
def exile(game: Game, ctx: Context, target: Filter) -> None:
    """Exile target permanent matching TARGET."""
    if isinstance(ctx.target, Permanent) and rules.on_battlefield(game, ctx.target):
        known = acted_on(game, ctx, ctx.target)
        rules.exile(game, ctx.target, ctx.controller)
        reached(game, ctx, known, "exile")


@verb("bounce", on=Arg("choice", "target", ("target", "self")), target=Arg("filter", None), targets="target")
def bounce(game: Game, ctx: Context, on: str, target: Filter | None) -> None:
    """Return target permanent matching TARGET (ON=self: this permanent) to its owner's hand (a token ceases to exist: H6)."""
    p = ctx.permanent if on == "self" else ctx.target
    if isinstance(p, Permanent) and rules.on_battlefield(game, p):
        known = acted_on(game, ctx, p)
        rules.bounce(game, p, ctx.controller)
        reached(game, ctx, known, "hand")


@verb("damage", amount=Arg("amount"), target=Arg("filter"), regenerate=Arg("bool", None), targets="target")
def damage(game: Game, ctx: Context, amount: Amount, target: Filter, regenerate: bool | None) -> None:
    """Deal AMOUNT damage to one target: a creature matching TARGET, or with 'any' also a player or the Horde (REGENERATE=false: a creature dealt damage this way can't be regenerated this turn)."""
    n = evaluate(game, ctx, amount)
    chosen = ctx.target
    if chosen is None:
        return
    if regenerate is False and isinstance(chosen, Permanent):
        chosen.no_regen = True
    if chosen == "horde":
        rules.damage_horde(game, n)  # H11
    elif isinstance(chosen, int):
        rules.damage_player(game, ctx.permanent, ctx.controller, chosen, n)
    elif isinstance(chosen, Permanent):
        rules.damage_permanent(game, ctx.permanent, ctx.controller, chosen, n, source_card=ctx.card)


@verb("damage_all", amount=Arg("amount"), filter=Arg("filter", None),
      who=Arg("choice", None, WHO + WHO_OR_PLANESWALKER), players=Arg("bool", False))
def damage_all(game: Game, ctx: Context, amount: Amount, filter: Filter | None, who: str | None, players: bool
               ) -> None:
    """Deal AMOUNT damage to each permanent matching FILTER and to each player WHO names ('each
    creature and each player'); PLAYERS=true is WHO=each_opponent. Damage to the Horde mills it
    (H11), a team player's comes off the shared life (H1). An amount about 'that player' (``theirs``)
    with no player targeted is counted for each player in turn ('damage to each opponent equal to
    the number of cards in that player's hand'). WHO=target_opponent_or_planeswalker (or
    target_player_or_planeswalker) may target a planeswalker: it is dealt the damage with the
    permanents, and ``theirs`` is its controller ('that player or that planeswalker's controller')."""
    n = evaluate(game, ctx, amount)
    walker = ctx.target if who in WHO_OR_PLANESWALKER and isinstance(ctx.target, Permanent) else None
    if walker is not None:
        ctx = Context(ctx.card, ctx.permanent, ctx.controller, x=ctx.x, that_player=walker.controller)
        who = None  # no player is dealt damage
    if filter is not None or walker is not None:
        hits = [p for p in rules.all_permanents(game) if filter(game, ctx, p)] if filter is not None else []
        if walker is not None and walker not in hits:
            hits.insert(0, walker)
        rules.damage_many(game, ctx.permanent, ctx.controller, hits, n, source_card=ctx.card)
    if players and who is None:
        who = "each_opponent"
    if who is not None:
        each = not isinstance(amount, int) and their_player(ctx) is None and "theirs" in amount.text
        for player in _players_for(game, ctx, who):
            if each:
                n = evaluate(game, Context(ctx.card, ctx.permanent, ctx.controller, x=ctx.x, that_player=player),
                             amount)
            if player == HORDE_CONTROLLER:
                rules.damage_horde(game, n)  # H11
            else:
                rules.damage_player(game, ctx.permanent, ctx.controller, player, n)


@verb("counter_spell", filter=Arg("cards", "any"))
def counter_spell(game: Game, ctx: Context, filter: str) -> None:
    """Counter target spell matching FILTER (a countered Horde card goes to its graveyard: H10)."""
    # The casting rules ask this verb's card when a spell is cast; the spell is countered there.


@verb("choose_player")
def choose_player(game: Game, ctx: Context) -> None:
    """As this permanent enters, its controller chooses a player (a team player's policy: decision
    'player', the Horde among the team's players at random: H9); 'the chosen player' is that one."""
    p = ctx.permanent
    if p is None:
        return
    team = [pl.index for pl in game.players if not pl.removed]
    if ctx.is_horde:
        chosen = team[randbelow(game.horde_rng, len(team))] if team else HORDE_CONTROLLER
    else:
        answer = rules.ask(game, "player", ctx.controller, ["horde"] + team, subject=ctx.card)
        chosen = HORDE_CONTROLLER if answer == "horde" else answer
    if p.marks is None:
        p.marks = {}
    p.marks["player"] = chosen


@verb("fog")
def fog(game: Game, ctx: Context) -> None:
    """Prevent all combat damage that would be dealt this turn."""
    rules.prevent_combat_damage(game)


@verb("pump", on=Arg("choice", "self", ("self", "target")), power=Arg("int", 0), toughness=Arg("int", 0),
      keywords=Arg("keywords", frozenset()), target=Arg("filter", None), targets="target")
def pump(game: Game, ctx: Context, on: str, power: int, toughness: int, keywords: frozenset[str],
         target: Filter | None) -> None:
    """This creature (or target creature) gets +POWER/+TOUGHNESS and KEYWORDS until end of turn."""
    p = ctx.permanent if on == "self" else ctx.target
    if isinstance(p, Permanent) and rules.on_battlefield(game, p):
        rules.pump(game, p, power, toughness, keywords, ctx.controller)


@verb("pump_all", filter=Arg("filter"), power=Arg("int", 0), toughness=Arg("int", 0),
      keywords=Arg("keywords", frozenset()))
def pump_all(game: Game, ctx: Context, filter: Filter, power: int, toughness: int, keywords: frozenset[str]
) -> None:
    """Each permanent matching FILTER gets +POWER/+TOUGHNESS and KEYWORDS until end of turn."""
    for p in [p for p in rules.all_permanents(game) if filter(game, ctx, p)]:
        rules.pump(game, p, power, toughness, keywords, ctx.controller)


@verb("tap_all", filter=Arg("filter"))
def tap_all(game: Game, ctx: Context, filter: Filter) -> None:
    """Tap every permanent matching FILTER."""
    for p in rules.all_permanents(game):
        if filter(game, ctx, p):
            p.tapped = True


@verb("ramp", count=Arg("int", 1), tapped=Arg("bool", True), to_hand=Arg("int", 0))
def ramp(game: Game, ctx: Context, count: int, tapped: bool, to_hand: int) -> None:
    """Search for up to COUNT basic lands onto the battlefield (and TO_HAND more into hand), then shuffle."""
    if not ctx.is_horde:
        rules.search_basic_lands(game, game.players[ctx.controller], count, tapped, to_hand)


@verb("sacrifice_self")
def sacrifice_self(game: Game, ctx: Context) -> None:
    """Sacrifice this permanent."""
    if ctx.permanent is not None and rules.on_battlefield(game, ctx.permanent):
        rules.sacrifice(game, ctx.permanent)




@verb("zombie_army")
def zombie_army(game: Game, ctx: Context) -> None:
    """R2 (the Zombie Army token's own rule): ``counters on=each filter="zombie yours" count="count:zombie army yours"``, repeated once per Army with the option army_trigger = "per_army"."""
    armies = evaluate(game, ctx, _ARMIES)
    # R2 Decision: one trigger per entering Army; option army_trigger = "per_army" repeats it per Army.
    times = armies if game.setup.army_trigger == "per_army" else 1
    for _ in range(times):
        counters(game, ctx, "each", armies, _ZOMBIES_YOURS)


_ARMIES = compile_amount("count:zombie army yours")
_ZOMBIES_YOURS = compile_filter("zombie yours")


@verb("any_player_exiles_from_graveyard", count=Arg("amount", 1))
def any_player_exiles_from_graveyard(game: Game, ctx: Context, count: Amount) -> None:
    """Any player may exile COUNT cards from its graveyard (the team is asked first, then the Horde
    decides by a coin: H9); ``if=done`` on a later verb: 'if a player does'."""
    ctx.done = rules.any_player_exiles_from_graveyard(game, ctx.controller, evaluate(game, ctx, count))


@verb("destroy_that_source")
def destroy_that_source(game: Game, ctx: Context) -> None:
    """Destroy the creature that dealt the damage (ControllerDamaged)."""
    if ctx.target is not None and not isinstance(ctx.target, int | str):
        rules.destroy(game, ctx.target, ctx.controller)


# ---------------------------------------------------------------- aliases of earlier card files
# Verbs named after one card, kept so that card files written with them still load; each is
# the general verb (or verbs) its docstring names, and the bundled cards use those.


@verb("damage_each_opponent", amount=Arg("amount"))
def damage_each_opponent(game: Game, ctx: Context, amount: Amount) -> None:
    """Alias of ``damage_all amount=AMOUNT who=each_opponent``: AMOUNT damage to each opponent."""
    damage_all(game, ctx, amount, None, "each_opponent", False)


@verb("sacrifice_self_if_no_creatures")
def sacrifice_self_if_no_creatures(game: Game, ctx: Context) -> None:
    """Alias of ``sacrifice_self unless=count:creature``: sacrifice this permanent if no creatures are on the battlefield."""
    if not any(p.card.is_creature for p in rules.all_permanents(game)):
        sacrifice_self(game, ctx)


@verb("lose_life_if_spell", amount=Arg("amount"))
def lose_life_if_spell(game: Game, ctx: Context, amount: Amount) -> None:
    """Alias of ``lose_life who=caster`` on the TargetedBySpell hook: when it is targeted by a spell, that spell's controller loses AMOUNT life."""
    if ctx.spell is not None:
        lose_life(game, ctx, "caster", amount)


@verb("graveyard_exile_stops_damage", count=Arg("int", 3))
def graveyard_exile_stops_damage(game: Game, ctx: Context, count: int) -> None:
    """Alias of ``any_player_exiles_from_graveyard count=COUNT ; pump on=self keywords="assigns no combat damage" if=done``, asked only while this creature is on the battlefield."""
    if ctx.permanent is None or not rules.on_battlefield(game, ctx.permanent):
        return
    any_player_exiles_from_graveyard(game, ctx, count)
    if ctx.done:
        rules.pump(game, ctx.permanent, 0, 0, frozenset({"assigns no combat damage"}))


@verb("target_controller_loses_life", amount=Arg("amount"))
def target_controller_loses_life(game: Game, ctx: Context, amount: Amount) -> None:
    """Alias of ``lose_life who=target_controller``: the controller of the permanent this ability targeted loses AMOUNT life."""
    lose_life(game, ctx, "target_controller", amount)


@verb("target_opponent_loses_life_per_card", per=Arg("int", 1), filter=Arg("cards", "creature"))
def target_opponent_loses_life_per_card(game: Game, ctx: Context, per: int, filter: str) -> None:
    """Alias of ``lose_life who=target_opponent amount="PER*graveyard:FILTER theirs"``: target opponent loses PER life for each card matching FILTER in its graveyard."""
    if ctx.is_horde:
        options = [pl.index for pl in game.players]
        if not options:
            return
        player = rules.choose_card(game, HORDE_CONTROLLER, "target", options)  # H9: a random team player
    else:
        player = HORDE_CONTROLLER  # the team's only opponent
    cards = sum(1 for c in rules.graveyard_of(game, player) if not c.is_token and card_matches(filter, c))
    sub = Context(ctx.card, ctx.permanent, ctx.controller, that_player=player)
    lose_life(game, sub, "that_player", per * cards)


@verb("keep_one_of_each_type", who=Arg("choice", "each_opponent", WHO))
def keep_one_of_each_type(game: Game, ctx: Context, who: str) -> None:
    """Alias of ``each_player_sacrifices who=WHO filter=permanent keep=one_of_each_type``."""
    for player in _team_sacrifices(game, ctx, _ANY_PERMANENT, _players_for(game, ctx, who), None):
        _keep_one_of_each_type(game, ctx, player, _ANY_PERMANENT)


_ANY_PERMANENT = compile_filter("permanent")


# ---------------------------------------------------------------- verbs for the published automated opponents
EMBLEM_ID = -2  # emblems are stand-ins watched by the battlefield (ids -2, -3, ...), never on it
# General verbs that the challenge decks (Face the Hydra, Battle the Horde, Defeat a God), the
# bosses and the community variants need: who, what and how many are arguments.


@verb("emblem", filter=Arg("filter"), power=Arg("int", 0), toughness=Arg("int", 0),
      keywords=Arg("keywords", frozenset()))
def emblem(game: Game, ctx: Context, filter: Filter, power: int, toughness: int, keywords: frozenset[str]) -> None:
    """The controller gets an emblem: permanents matching FILTER get +POWER/+TOUGHNESS and KEYWORDS for the rest of the game."""
    effect = Effect("anthem", {"filter": filter, "power": power, "toughness": toughness, "keywords": keywords},
                    anthem)
    name = f"Emblem ({ctx.card.name})" if ctx.card is not None else "Emblem"
    card = CardDef(name, ManaCost(), frozenset({"Emblem"}), hooks={"Static": (effect,)}, anthems=(effect,))
    emblems = sum(1 for p in game.battlefield.statics if p.id <= EMBLEM_ID)
    game.battlefield.watch(Permanent(EMBLEM_ID - emblems, card, ctx.controller, ctx.controller))


@verb("players_gain_life", who=Arg("choice", "each_player", WHO), amount=Arg("amount"))
def players_gain_life(game: Game, ctx: Context, who: str, amount: Amount) -> None:
    """Each player WHO names gains AMOUNT life (the team's shared total; the Horde has none)."""
    n = evaluate(game, ctx, amount)
    for player in _players_for(game, ctx, who):
        if player != HORDE_CONTROLLER:
            rules.gain_life(game, n, player)


@verb("reveal_and_cast", count=Arg("amount", 1), unless_at_least=Arg("int", 0), filter=Arg("filter", None))
def reveal_and_cast(game: Game, ctx: Context, count: Amount, unless_at_least: int, filter: Filter | None) -> None:
    """The Horde reveals the top COUNT cards of its library and casts them (not when UNLESS_AT_LEAST permanents match FILTER)."""
    if not ctx.is_horde:
        return  # only the Horde casts the cards it reveals (H7)
    if filter is not None and unless_at_least and _matching(game, ctx, filter) >= unless_at_least:
        return
    rules.reveal_and_cast_top(game, evaluate(game, ctx, count))


def _matching(game: Game, ctx: Context, filter: Filter) -> int:
    return sum(1 for p in rules.all_permanents(game) if filter(game, ctx, p))


@verb("tap_some", filter=Arg("filter"), count=Arg("amount", 1), stays_tapped=Arg("bool", False),
      at_least=Arg("int", 0))
def tap_some(game: Game, ctx: Context, filter: Filter, count: Amount, stays_tapped: bool, at_least: int) -> None:
    """Tap up to COUNT untapped permanents matching FILTER, chosen by the controller (only when AT_LEAST match); with STAYS_TAPPED they skip their controller's next untap step."""
    if at_least and _matching(game, ctx, filter) < at_least:
        return
    for _ in range(evaluate(game, ctx, count)):
        options = [p for p in rules.all_permanents(game) if filter(game, ctx, p) and not p.tapped]
        if not options:
            return
        p = rules.choose_card(game, ctx.controller, "tap", options)
        p.tapped = True
        if stays_tapped:
            p.skip_untaps += 1


@verb("keywords_until_next_turn", filter=Arg("filter"), keywords=Arg("keywords"))
def keywords_until_next_turn(game: Game, ctx: Context, filter: Filter, keywords: frozenset[str]) -> None:
    """Each permanent matching FILTER gains KEYWORDS until the end of the Horde's next turn."""
    for p in rules.all_permanents(game):
        if filter(game, ctx, p):
            rules.pump(game, p, 0, 0, keywords)
            p.kept_keywords = p.kept_keywords | keywords
            p.kept_until = game.horde_turns + 1


@verb("players_cant_cast")
def players_cant_cast(game: Game, ctx: Context) -> None:
    """Players (the team) can't cast spells until the Horde's next turn."""
    game.spells_locked = True


@verb("sacrifice_or_suffer", who=Arg("choice", "each_opponent", WHO), filter=Arg("filter"),
      filter2=Arg("filter", None), lose_life=Arg("int", 0), damage=Arg("int", 0), tap=Arg("filter", None))
def sacrifice_or_suffer(game: Game, ctx: Context, who: str, filter: Filter, filter2: Filter | None, lose_life: int,
                        damage: int, tap: Filter | None) -> None:
    """Each player WHO names may sacrifice a permanent matching FILTER (or FILTER2); each who does taps one of the controller's permanents matching TAP; each who doesn't loses LOSE_LIFE life and is dealt DAMAGE damage."""
    team_side = game.drivers.team_side
    players = [p for p in _players_for(game, ctx, who) if p != HORDE_CONTROLLER]
    said: list[int] = []
    if team_side is not None:  # at a table: the players say at once who sacrifices one
        either = filter if filter2 is None else compile_filter(f"{filter.text} | {filter2.text}")
        said = team_side.sacrifice(game, ctx, either, players, 1, True)
    for i, player in enumerate(players):
        if team_side is not None:
            sacrificed = said[i] > 0
            victim = None
        else:
            options = [p for p in rules.board_of(game, player) if filter(game, ctx, p)
                       or (filter2 is not None and filter2(game, ctx, p))]
            victim = rules.ask(game, "may_sacrifice", player, options + [None], subject=lose_life + damage) \
                if options else None
            sacrificed = victim is not None
        if victim is not None:
            rules.sacrifice(game, victim)
        if sacrificed:
            untapped = [p for p in rules.board_of(game, ctx.controller) if tap is not None and tap(game, ctx, p)
                        and not p.tapped]
            if untapped:
                rules.ask(game, "tap", player, untapped).tapped = True
        else:
            rules.lose_life(game, lose_life, player, ctx.controller, ctx.card.name if ctx.card is not None else None)
            rules.damage_player(game, ctx.permanent, ctx.controller, player, damage)


@verb("return_exactly_or_reveal", filter=Arg("str"), count=Arg("int", 2), reveal=Arg("str"))
def return_exactly_or_reveal(game: Game, ctx: Context, filter: str, count: int, reveal: str) -> None:
    """Put exactly COUNT cards matching FILTER from the controller's graveyard onto the battlefield; if it can't, reveal cards from the top of its library until one matches REVEAL, put that one onto the battlefield and the rest into the graveyard."""
    graveyard = rules.graveyard_of(game, ctx.controller)
    found = [c for c in graveyard if not c.is_token and card_matches(filter, c)]
    if len(found) >= count:
        for card in found[:count]:
            graveyard.remove(card)
            rules.put_onto_battlefield(game, card, ctx.controller, ctx.controller)
        return
    library = game.horde.library if ctx.is_horde else game.players[ctx.controller].library
    while library:
        card = library.pop()
        if card_matches(reveal, card):
            rules.put_onto_battlefield(game, card, ctx.controller, ctx.controller)
            return
        graveyard.append(card)


@verb("extra_turn_if_target", filter=Arg("str"))
def extra_turn_if_target(game: Game, ctx: Context, filter: str) -> None:
    """If the permanent this ability targeted (with an earlier verb) matched FILTER, the Horde takes an extra turn after this one."""
    target = ctx.target
    if ctx.is_horde and isinstance(target, Permanent) and card_matches(filter, target.card):
        game.extra_turns += 1


@verb("exile_until_leaves", who=Arg("choice", "each_opponent", WHO), filter=Arg("filter"), until=Arg("filter"))
def exile_until_leaves(game: Game, ctx: Context, who: str, filter: Filter, until: Filter) -> None:
    """Each player WHO names exiles a permanent matching FILTER it controls; until the Horde's next turn, when a permanent matching UNTIL leaves the battlefield, the exiled cards return under their owners' control."""
    for player in _players_for(game, ctx, who):
        if player == HORDE_CONTROLLER:
            continue
        options = [p for p in rules.board_of(game, player) if filter(game, ctx, p)]
        if not options:
            continue
        p = rules.ask(game, "exile", player, options)
        rules.exile(game, p, ctx.controller)
        if p.card in game.players[p.owner].exile:  # a token ceased to exist, a commander went home (C2)
            game.held.append((p.card, p.owner, until))


@verb("destroy_self")
def destroy_self(game: Game, ctx: Context) -> None:
    """Destroy this permanent."""
    if ctx.permanent is not None:
        rules.destroy(game, ctx.permanent, ctx.controller)


@verb("at_beginning_of_combat")
def at_beginning_of_combat(game: Game, ctx: Context) -> None:
    """At the beginning of combat this turn, this card's ThisCombat effects resolve."""
    if ctx.card is not None and "ThisCombat" in ctx.card.hooks:
        game.delayed.append((ctx, ctx.card.hooks["ThisCombat"]))


@verb("each_deals", filter=Arg("filter"), amount=Arg("amount"), target=Arg("filter"), players=Arg("bool", True))
def each_deals(game: Game, ctx: Context, filter: Filter, amount: Amount, target: Filter, players: bool) -> None:
    """Each permanent matching FILTER deals AMOUNT damage to each creature matching TARGET (and with PLAYERS to each opponent)."""
    n = evaluate(game, ctx, amount)
    for source in [p for p in rules.all_permanents(game) if filter(game, ctx, p)]:
        sub = Context(source.card, source, source.controller)
        hits = [p for p in rules.all_permanents(game) if target(game, sub, p)]
        rules.damage_many(game, source, source.controller, hits, n)
        if players:
            damage_each_opponent(game, sub, n)


@verb("return_named", card=Arg("str"), count=Arg("int", 1), to=Arg("choice", "battlefield", ("battlefield", "hand")))
def return_named(game: Game, ctx: Context, card: str, count: int, to: str) -> None:
    """Return up to COUNT cards named CARD from the controller's graveyard to the battlefield or hand."""
    graveyard = rules.graveyard_of(game, ctx.controller)
    for found in [c for c in graveyard if c.name == card][:count]:
        graveyard.remove(found)
        if to == "battlefield":
            rules.put_onto_battlefield(game, found, ctx.controller, ctx.controller)
        else:
            rules.hand_of(game, ctx.controller).append(found)


@verb("each_returns", who=Arg("choice", "each_player", WHO), filter=Arg("str", "creature"))
def each_returns(game: Game, ctx: Context, who: str, filter: str) -> None:
    """Each player WHO names returns a card matching FILTER of its choice from its graveyard to the battlefield."""
    for player in _players_for(game, ctx, who):
        graveyard = rules.graveyard_of(game, player)
        options = [c for c in graveyard if not c.is_token and card_matches(filter, c)]
        if options:
            card = rules.choose_card(game, player, "return", options)
            graveyard.remove(card)
            rules.put_onto_battlefield(game, card, player, player)


@verb("opponents_win")
def opponents_win(game: Game, ctx: Context) -> None:
    """The controller's opponents win the game (the team, when the Horde's card says so)."""
    if ctx.is_horde and game.winner is None:
        game.winner = Winner.TEAM


@verb("cant_leave_while", static=True, filter=Arg("filter"))
def cant_leave_while(game: Game, ctx: Context, filter: Filter) -> None:
    """Static: this permanent can't leave the battlefield as long as another permanent matching FILTER is on it."""


@verb("must_attack_while", static=True, filter=Arg("filter", None), count=Arg("filter"), at_least=Arg("int", 1),
      haste=Arg("bool", False))
def must_attack_while(game: Game, ctx: Context, filter: Filter | None, count: Filter, at_least: int,
                      haste: bool) -> None:
    """Static: as long as AT_LEAST permanents matching COUNT are on the battlefield, this creature (or each matching FILTER) attacks each combat if able (and with HASTE has haste)."""


# ---------------------------------------------------------------- verbs for schemes (RULES.md A1)
# General verbs that the Archenemy schemes need; "you" on a scheme is the Horde (H9 for its
# choices, H11 for its life), its opponents the team's players.


def _opponents_for(game: Game, ctx: Context, who: str, team: list[int]) -> list[int]:
    """'Each of your other opponents' (every opponent but ``that_player``), 'the opponent with the
    highest life total' (ties at random: H9)."""
    if not ctx.is_horde:
        return [HORDE_CONTROLLER] if who != "other_opponents" else []
    if who == "other_opponents":
        return [i for i in team if i != ctx.that_player]
    if not team:
        return []
    best = max(game.players[i].life for i in team) if rules.individual(game) else None
    highest = [i for i in team if best is None or game.players[i].life == best]
    return [rules.horde_pick(game, "target", highest, ctx.card)]


@verb("abandon", damaged_at_least=Arg("int", 0), graveyard_at_least=Arg("int", 0), no_spells=Arg("bool", False))
def abandon(game: Game, ctx: Context, damaged_at_least: int, graveyard_at_least: int, no_spells: bool) -> None:
    """Abandon this scheme (only if the Horde was dealt DAMAGED_AT_LEAST damage this turn, had GRAVEYARD_AT_LEAST cards put into its graveyard this turn, or with NO_SPELLS the team cast no spell since its last turn)."""
    schemes = game.schemes
    if schemes is None or ctx.permanent is None:
        return
    if damaged_at_least and schemes.damage_this_turn < damaged_at_least:
        return
    if graveyard_at_least and len(game.horde.graveyard) - schemes.graveyard_at_start < graveyard_at_least:
        return
    if no_spells and schemes.spells_since:
        return
    rules.abandon(game, ctx.permanent)


@verb("abandon_if_sacrificed", filter=Arg("filter"), count=Arg("int", 2))
def abandon_if_sacrificed(game: Game, ctx: Context, filter: Filter, count: int) -> None:
    """The controller's opponents may sacrifice COUNT permanents matching FILTER between them; if they do, abandon this scheme."""
    if not ctx.is_horde or ctx.permanent is None:
        return
    options = [p for p in game.battlefield.team if filter(game, ctx, p)]
    if len(options) < count:
        return
    chosen = rules.ask(game, "abandon_scheme", -1, options, subject=ctx.card, count=count,
                       is_legal=lambda choice: len(choice) in (0, count))
    if chosen:
        for p in chosen:
            rules.sacrifice(game, p)
        rules.abandon(game, ctx.permanent)


@verb("self_or_others", who=Arg("choice", "target_opponent", ("target_opponent",)))
def self_or_others(game: Game, ctx: Context, who: str) -> None:
    """Target opponent chooses self or others (its team policy answers); this card's ChoosesSelf or ChoosesOthers effects then resolve, 'that player' being the chosen opponent."""
    card = ctx.card
    if card is None or not ctx.is_horde:
        return
    targeted = _players_for(game, ctx, who)
    if not targeted:
        return
    player = targeted[0]
    choice = rules.self_or_others(game, player, card)
    if game.drivers.trace is not None:
        log(game, "self_or_others", Side.TEAM, player=player + 1, card=card.name, choice=choice)
    sub = Context(card, ctx.permanent, ctx.controller, x=ctx.x, that_player=player)
    rules.resolve(game, card.hooks.get("ChoosesSelf" if choice == "self" else "ChoosesOthers", ()), sub)


@verb("destroy_up_to", filter=Arg("filter"), count=Arg("int", 1))
def destroy_up_to(game: Game, ctx: Context, filter: Filter, count: int) -> None:
    """Destroy up to COUNT target permanents matching FILTER, chosen one by one (the Horde takes as many as it can: H9)."""
    chosen: list[Permanent] = []
    probe = Effect("destroy", {}, None, target=filter)
    for _ in range(count):
        options = [p for p in rules.legal_targets(game, ctx, probe) if isinstance(p, Permanent) and p not in chosen]
        if not options:
            break
        if ctx.is_horde:
            target = rules.horde_pick(game, "harm", options, ctx.card)  # H9
        else:
            target = rules.ask(game, "target", ctx.controller, options, subject=ctx.card)
        if game.drivers.trace is not None:
            log(game, "target", rules.side_name(ctx.controller), card=ctx.card.name if ctx.card else None,
                **rules.target_fields(target))
        rules.became_target(game, target, ctx)
        chosen.append(target)
    for p in chosen:
        if rules.on_battlefield(game, p):
            rules.destroy(game, p, ctx.controller)


@verb("choose_discard", who=Arg("choice", "each_opponent", WHO), filter=Arg("str", "nonland"))
def choose_discard(game: Game, ctx: Context, who: str, filter: str) -> None:
    """Each player WHO names reveals its hand; the controller chooses a card matching FILTER from each (the Horde: H9); those players discard them."""
    for player in _players_for(game, ctx, who):
        if player == HORDE_CONTROLLER:
            continue
        hand = game.players[player].hand
        options = [c for c in hand if card_matches(filter, c)]
        if not options:
            continue
        card = rules.horde_pick(game, "return", options, ctx.card) if ctx.is_horde else rules.ask(
            game, "discard", ctx.controller, options)  # H9s: 'return' takes the most expensive card
        hand.remove(card)
        game.players[player].graveyard.append(card)
        if game.drivers.trace is not None:
            log(game, "discard", Side.TEAM, card=card.name, player=player + 1)


@verb("tokens_for_each_opponent", token=Arg("token"), count=Arg("int", 1))
def tokens_for_each_opponent(game: Game, ctx: Context, token: str, count: int) -> None:
    """For each opponent, create COUNT of the named token that attack that player each combat if able."""
    card = game.tokens[token]
    for player in _players_for(game, ctx, "each_opponent"):
        for _ in range(count):
            p = rules.put_onto_battlefield(game, card, ctx.controller, ctx.controller, created=True)
            if player != HORDE_CONTROLLER:
                p.sworn = player


@verb("sacrifice_else_discard", who=Arg("choice", "each_opponent", WHO), filter=Arg("filter"),
      count=Arg("int", 1), discard=Arg("int", 2))
def sacrifice_else_discard(game: Game, ctx: Context, who: str, filter: Filter, count: int, discard: int) -> None:
    """Each player WHO names sacrifices COUNT permanents matching FILTER; then each who sacrificed none discards DISCARD cards."""
    spared = []
    players = _players_for(game, ctx, who)
    team_side = game.drivers.team_side
    if team_side is not None:  # at a table: the team's players say who sacrifices
        team = [p for p in players if p != HORDE_CONTROLLER]
        sacrificed = team_side.sacrifice(game, ctx, filter, team, count)
        spared = [p for i, p in enumerate(team) if not sacrificed[i]]
        players = [p for p in players if p == HORDE_CONTROLLER]
    for player in players:
        options = [p for p in rules.board_of(game, player) if p.controller == player and filter(game, ctx, p)]
        if not options:
            spared.append(player)
        for _ in range(count):
            if not options:
                break
            victim = rules.choose_sacrifice(game, player, options)
            options.remove(victim)
            rules.sacrifice(game, victim, ctx.controller)  # L6: the effect forced it
    for player in spared:
        rules.discard(game, player, discard)


@verb("gain_control", target=Arg("filter"), untap=Arg("bool", False), until_end_of_turn=Arg("bool", False),
      power=Arg("int", 0), toughness=Arg("int", 0), keywords=Arg("keywords", frozenset()), targets="target")
def gain_control(game: Game, ctx: Context, target: Filter, untap: bool, until_end_of_turn: bool, power: int,
                 toughness: int, keywords: frozenset[str]) -> None:
    """Gain control of target permanent matching TARGET (until end of turn), untap it (UNTAP), and it gets +POWER/+TOUGHNESS and KEYWORDS until end of turn."""
    p = ctx.target
    if not isinstance(p, Permanent) or not rules.on_battlefield(game, p):
        return
    before = p.controller
    if before != ctx.controller:
        game.battlefield.change_control(p, ctx.controller)
        p.sick = not (ctx.is_horde and game.horde_haste)  # 302.6 (haste is asked when it attacks); H8
        if until_end_of_turn:
            game.borrowed.append((p, before))
    if untap:
        p.tapped = False
    if power or toughness or keywords:
        rules.pump(game, p, power, toughness, keywords)


@verb("prevent_damage_this_turn", filter=Arg("filter"))
def prevent_damage_this_turn(game: Game, ctx: Context, filter: Filter) -> None:
    """Prevent all damage that would be dealt this turn to permanents matching FILTER."""
    game.prevented.append((filter, ctx))


@verb("prevent_damage_to_you", static=True, at="player_dealt_damage", amount=Arg("int", 1))
def prevent_damage_to_you(game: Game, source: Permanent, n: int, player: int, by: int, amount: int) -> int:
    """Static: if a source an opponent controls would deal damage to the controller, prevent AMOUNT of it."""
    if player == source.controller and by != source.controller:
        return max(0, n - amount)
    return n


@verb("untap_during_opponents_untap", static=True)
def untap_during_opponents_untap(game: Game, ctx: Context) -> None:
    """Static: untap all permanents the controller controls during each opponent's untap step."""


@verb("one_spell_each_turn", static=True)
def one_spell_each_turn(game: Game, ctx: Context) -> None:
    """Static: each opponent can't cast more than one spell each turn."""


"""Abilities resolving, and the team's choices: triggered abilities trigger (``trigger``: those that
wait for the state-based actions, H13a) or run at once (``run_hook``),
effects resolve in order with their targets chosen first, a modal spell's mode is picked, and
every team choice is asked of the policy and checked (``ask``). The Horde's choices are made at
random with its own stream (H9).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import combinations
from typing import Any, TypeVar

from horde.engine.cards import CardDef, Effect
from horde.engine.characteristics import (
    PROTECTION_KEYWORDS,
    all_permanents,
    keywords,
    on_battlefield,
    protected,
    protected_from,
    side_name,
)
from horde.engine.decisions import Decision, check_choice
from horde.engine.events import log
from horde.engine.filters import Context, Filter, Known, Target, Terms
from horde.engine.rules.mana import can_pay, pay
from horde.engine.rules.zombies import may_target
from horde.engine.shuffling import randbelow
from horde.engine.state import HORDE_CONTROLLER, Game, GameAborted, Permanent, board_units, spend
from horde.limits import BOARD_UNIT, DEPTH_MAX

T = TypeVar("T")


def run_hook(game: Game, p: Permanent, hook: str, **extra: Any) -> None:
    """Run the effects a permanent attaches to ``hook`` (a triggered ability resolving at once)."""
    effects = p.card.hooks.get(hook)
    if effects:
        ctx = Context(p.card, p, p.controller)
        if p.kicked:
            ctx.kicked = p.kicked
        for key, value in extra.items():
            setattr(ctx, key, value)
        resolve(game, effects, ctx)
        if ctx.moved is not None:
            p.linked = ctx.moved  # 607.2a: what it moved, for its linked ability ('the exiled card')


class Trigger:
    """A triggered ability that has triggered and waits to be put on the stack (H13a, 603.3): its
    effects and context, or an ``action`` of the rules themselves (undying, persist)."""

    __slots__ = ("controller", "effects", "ctx", "action")

    def __init__(self, controller: int, effects: Sequence[Effect], ctx: Context | None,
                 action: Callable[[Game], None] | None = None) -> None:
        self.controller = controller
        self.effects = effects
        self.ctx = ctx
        self.action = action

    def key(self) -> tuple[int, ...]:
        """What makes two triggers different abilities (their order is a choice only then)."""
        return tuple(id(e) for e in self.effects) if self.action is None else (id(self.action),)

    def resolve(self, game: Game) -> None:
        if self.action is not None:
            self.action(game)
        elif self.ctx is not None:
            resolve(game, self.effects, self.ctx)


def trigger(game: Game, controller: int, effects: Sequence[Effect], ctx: Context | None,
            action: Callable[[Game], None] | None = None) -> None:
    """A triggered ability triggers (H13a): while an event is being carried out (a spell or an
    ability resolving, state-based actions being performed) it waits in ``game.waiting`` until
    ``check_state`` puts it on the stack; a rule applied on its own (a test's board) resolves it
    at once."""
    waiting = Trigger(controller, effects, ctx, action)
    if game.depth or game.checking:
        game.waiting.append(waiting)
    else:
        waiting.resolve(game)


def trigger_hook(game: Game, p: Permanent, hook: str, it: Known | None = None,
                 moved: list[tuple[CardDef, int, str]] | None = None) -> None:
    """The abilities a permanent attaches to ``hook`` trigger (``trigger``), in its context
    (``it`` and ``moved``: what they refer back to, 'that creature', 'the exiled card')."""
    effects = p.card.hooks.get(hook)
    if effects:
        ctx = Context(p.card, p, p.controller)
        if p.kicked:
            ctx.kicked = p.kicked
        ctx.it = it
        ctx.moved = None if moved is None else list(moved)
        trigger(game, p.controller, effects, ctx)


def resolve(game: Game, effects: Sequence[Effect], ctx: Context) -> None:
    """Resolve a list of effects; a targeted effect picks its target first (the team's policy,
    or at random for the Horde: H9). With no legal target, the targeted effects do nothing.
    Each effect spends a unit of the game's work (H15), and abilities resolve inside one another
    at most ``DEPTH_MAX`` deep (a loop of triggers that never ends is aborted). Once the game is
    over nothing resolves (H13a)."""
    if game.over():
        return
    game.depth += 1
    try:
        if game.depth > DEPTH_MAX:
            raise GameAborted(f"triggered abilities nested more than {DEPTH_MAX} deep")
        for effect in effects:
            if game.over():
                break  # H13a: the game ended inside this resolution (a rule checked it there)
            spend(game, 1 + board_units(game))
            condition = effect.condition
            if condition is not None and not condition(game, ctx):
                continue  # 'if ...', 'unless ...', 'if you do'
            if effect.tax is not None and pays_tax(game, ctx, effect):
                continue  # 'unless that player pays {1}'
            if effect.target is not None and ctx.target is None:
                ctx.target = choose_target(game, ctx, effect)
                if ctx.target is None:
                    continue
                if not target_still_legal(game, ctx.target):
                    continue
            if effect.optional:  # 'you may': chosen as it resolves, its target already chosen (603.3d, 608.2d)
                ctx.done = may(game, ctx, effect)
                if not ctx.done:
                    continue
            effect.run(game, ctx, **effect.args)
    finally:
        game.depth -= 1


def resolve_spell(game: Game, card: CardDef, ctx: Context) -> None:
    """An instant or sorcery resolves: its Cast effects, or for a modal spell the mode ('choose
    one') or modes ('choose two', 'choose one or more') its controller picks (the Horde at
    random: H9) among the modes it can carry out; each mode has its own target."""
    if "Mode" not in card.hooks:
        resolve(game, card.hooks.get("Cast", ()), ctx)
        return
    modes = [mode for mode in card.abilities("Mode")
             if all(e.target is None or legal_targets(game, ctx, e) for e in mode)]
    if not modes:
        return
    least, most = card.choose
    if most == 1:
        if ctx.controller == HORDE_CONTROLLER:
            chosen = [horde_pick(game, "mode", modes, card)]  # H9
        else:
            chosen = [ask(game, "mode", ctx.controller, modes, subject=card)]
    else:
        least, most = min(least, len(modes)), min(most, len(modes))
        if ctx.controller == HORDE_CONTROLLER:
            # H9: uniformly among the legal choices: every set of modes of an allowed size
            choices = [list(c) for n in range(least, most + 1) for c in combinations(modes, n)]
            chosen = horde_pick(game, "modes", choices, card)
        else:
            chosen = list(ask(game, "modes", ctx.controller, modes, subject=card, count=least,
                              is_legal=lambda picked: least <= len(picked) <= most))
            chosen.sort(key=modes.index)  # modes resolve in the order printed
    for mode in chosen:
        if game.drivers.trace is not None:
            log(game, "mode", side_name(ctx.controller), card=card.name, mode=" ; ".join(e.describe() for e in mode))
        ctx.target = None  # each mode its own target
        resolve(game, mode, ctx)


def legal_targets(game: Game, ctx: Context, effect: Effect) -> list[Target]:
    """Legal targets of a targeted effect: permanents matching its filter, and for 'any' also the
    opposing players or the Horde. Lieutenants are protected (L5: from either side's spells and
    abilities); shroud, hexproof and protection from the source's card apply."""
    flt: Filter = effect.target
    controller = ctx.controller
    options: list = []
    if controller >= 0 and not may_target(game, controller):
        return options  # Z3: a zombie whose master is the Horde may not target
    protections = game.battlefield.protections
    # A permanent's keywords matter only if it may have one that stops targeting: printed, until
    # end of turn, or given by an anthem, equipment or Aura on the battlefield.
    given = _keywords_given(game)
    given_stops = not UNTARGETABLE.isdisjoint(given)
    # One alternative of card terms alone (no state, 'other' or relation): its card's answer is
    # the filter's, and the filter need not be asked at all.
    card_alone = isinstance(flt, Terms) and flt.card_only and flt.relation is None
    answers = flt.answers  # the card terms' answers the filter keeps (``Filter.card_answer``)
    horde_side = controller == HORDE_CONTROLLER
    for p in all_permanents(game):
        card = p.card
        ok = answers.get(card)
        if ok is None:
            ok = flt.card_answer(card)
        if not ok or not card_alone and not flt(game, ctx, p):
            continue
        kw = keywords(game, p) if given_stops or p.temp_keywords else card.keywords
        if protections and not PROTECTION_KEYWORDS.isdisjoint(kw) and protected_from(game, p, ctx.card):
            continue  # 702.16b: protection from the source's card
        if (p.controller == HORDE_CONTROLLER) != horde_side:
            if "shroud" in kw or "hexproof" in kw:
                continue
        elif "shroud" in kw:
            continue
        if p.lieutenant is not None and protected(game, p):
            continue  # L5: a protected lieutenant can't be targeted, by the Horde's own spells and abilities too
        options.append(p)
    team_side = game.drivers.team_side
    if team_side is not None and horde_side and flt.relation != "yours" and not _players_only(flt):
        # H9 at a table: the team's, as its players count them (H9s: or name the most valuable)
        options.extend(team_side.targets(game, ctx, flt, effect.verb in HARMFUL_VERBS, options))
    players = flt.players
    if players == "opponent":  # 'any target', 'target opponent': the other side's players
        if controller == HORDE_CONTROLLER:
            options.extend(pl.index for pl in game.players if not pl.removed)  # Z4: a removed player is gone
        else:
            options.append("horde")
    elif players == "player":  # 'target player': each team player and the Horde (H9: it is a player)
        options.extend(pl.index for pl in game.players if not pl.removed)
        options.append("horde")
    return options


def _players_only(flt: Filter) -> bool:
    """Whether a target filter names only players ('target player', 'target opponent'), no permanent."""
    return all(word in ("player", "opponent") for word in flt.text.lower().split())


# The keywords that keep a permanent from being targeted (shroud, hexproof, protection: 702.16b).
UNTARGETABLE = PROTECTION_KEYWORDS | {"shroud", "hexproof"}

def _keywords_given(game: Game) -> frozenset[str]:
    """Every keyword an anthem, equipment or Aura on the battlefield may give a permanent."""
    given: frozenset[str] = frozenset()
    for source in game.battlefield.statics:
        card = source.card
        for effect in card.anthems:
            given |= effect.args["keywords"]
        for effect in card.equipped:
            given |= effect.args["keywords"]
    return given


def has_legal_target(game: Game, ctx: Context, ability: Sequence[Effect]) -> bool:
    """602.2b, 601.2c: an ability that targets is activated only with a legal target for it (its
    first targeted effect chooses the target the others share), and one whose verb chooses N
    targets itself (``target_count``, ``filter`` their kind) only with N of them,
    unless it says "up to" (``up_to``; 'up to one target' is an optional effect: zero targets
    may be chosen). True for one with no target."""
    targeted = next((e for e in ability if e.target is not None), None)
    if targeted is not None and not targeted.optional and not legal_targets(game, ctx, targeted):
        return False
    for e in ability:
        needed = e.args.get("target_count")
        if needed is not None and not e.args.get("up_to"):
            probe = Effect(e.verb, {}, None, target=e.args["filter"])
            if len(legal_targets(game, ctx, probe)) < needed:
                return False
    return True


def choose_target(game: Game, ctx: Context, effect: Effect) -> Target | None:
    options = legal_targets(game, ctx, effect)
    if not options:
        return None
    if ctx.controller == HORDE_CONTROLLER:
        target = horde_pick(game, "harm" if effect.verb in HARMFUL_VERBS else "help", options, ctx.card)  # H9
    else:
        target = ask(game, "target", ctx.controller, options, subject=ctx.card)
    if game.drivers.trace is not None:
        log(game, "target", side_name(ctx.controller), card=ctx.card.name if ctx.card else None,
            **target_fields(target))
    if isinstance(target, Permanent):
        became_target(game, target, ctx)
    return target


def target_fields(target: Target) -> dict[str, str | int | None]:
    """A target as every event shows one: ``target`` (a card, 'player N' or 'the Horde') with
    ``target_id`` (a permanent) or ``target_player`` (a team player, from 1)."""
    if isinstance(target, Permanent):
        return {"target": target.card.name, "target_id": target.id, "target_player": None}
    if isinstance(target, int):
        return {"target": f"player {target + 1}", "target_id": None, "target_player": target + 1}
    return {"target": "the Horde", "target_id": None, "target_player": None}


def target_still_legal(game: Game, target: Target) -> bool:
    return not isinstance(target, Permanent) or on_battlefield(game, target)


def became_target(game: Game, target: Permanent, ctx: Context) -> None:
    """A permanent became the target of a spell or ability (Skulking Knight, Forsaken Wastes)."""
    hooks = target.card.hooks
    if "Targeted" in hooks or "TargetedBySpell" in hooks:
        spell = ctx.card if ctx.permanent is None and ctx.card is not None else None  # a spell, not an ability
        run_hook(game, target, "Targeted", spell=spell, caster=ctx.controller)
        if spell is not None:
            run_hook(game, target, "TargetedBySpell", spell=spell, caster=ctx.controller)


def ask(game: Game, kind: str, player: int, options: Any, subject: Any = None, count: int = 1,
        is_legal: Callable[[Any], bool] | None = None) -> Any:
    """Offer a team decision to the policy and check the answer (the policy never changes state);
    each decision spends a unit of the game's work (H15)."""
    spend(game, 1 + len(options) // BOARD_UNIT)
    decision = Decision(kind, player, options, subject, count, is_legal)
    drivers = game.drivers
    choice = drivers.policy.choose(decision, drivers.view)
    check_choice(decision, choice)
    return choice


def may(game: Game, ctx: Context, effect: Effect) -> bool:
    """Whether an optional effect is done ('you may', 608.2d): the player it names decides ('its
    controller may search', 'that player may': ``decider``), else its controller; a team player's
    policy decides (``may``); the Horde does it, as it takes every free option (H7), unless it
    would harm one of its own permanents, which no player chooses (H9 leaves it no choice worth
    chance)."""
    player = decider(ctx, effect)
    if player != HORDE_CONTROLLER:
        return ask(game, "may", player, (True, False), subject=(ctx.card, effect, ctx.target))
    target = ctx.target
    return not (isinstance(target, Permanent) and target.controller == HORDE_CONTROLLER and harms(effect))


def pays_tax(game: Game, ctx: Context, effect: Effect) -> bool:
    """'EFFECT unless that player pays {N}' (Rhystic Study): whether the player asked pays, so the
    effect does not happen. The player asked is 'that player' (the one who cast the spell, for a
    SpellCast ability), else the controller of the permanent the ability targets. A team player
    pays when its policy says so (``pay``) and it can; the Horde pays as the option
    ``horde_pays`` says: never (the default: H7 gives it the mana of its own spells, not a pool to
    answer an opponent's card with), always, or on a coin (H9)."""
    tax = effect.tax
    assert tax is not None
    player = ctx.that_player
    if player is None:
        target = ctx.target
        player = target.controller if isinstance(target, Permanent) else None
    if player is None or player == ctx.controller:
        return False
    if player == HORDE_CONTROLLER:
        mode = game.setup.horde_pays
        return mode == "always" or mode == "coin" and bool(randbelow(game.horde_rng, 2))  # H9
    generic, pips = tax.generic, tax.pips
    if game.players[player].generic_mana:
        generic, pips = generic + len(pips), ()  # C4
    if not can_pay(game, player, generic, pips):
        return False
    if not ask(game, "pay", player, (True, False), subject=(ctx.card, effect, tax)):
        return False
    pay(game, player, generic, pips)
    if game.drivers.trace is not None:
        log(game, "tax_paid", side_name(player), player=player + 1, card=ctx.card.name if ctx.card else None,
            cost=str(tax))
    return True


def decider(ctx: Context, effect: Effect) -> int:
    """Who makes an effect's choice (608.2d: the player the effect names): the one player its
    ``who`` names when that is not its controller ('its controller may search their library',
    'that player may'), else its controller."""
    who = effect.args.get("who")
    target = ctx.target
    if who == "target_controller" and isinstance(target, Permanent):
        return target.controller
    if who == "target_owner" and isinstance(target, Permanent):
        return target.owner
    if who == "that_player" and ctx.that_player is not None:
        return ctx.that_player
    if who in ("target_player", "target_opponent") and target is not None and not isinstance(target, Permanent):
        return HORDE_CONTROLLER if target == "horde" else int(target)
    return ctx.controller


def harms(effect: Effect) -> bool:
    """Whether an effect hurts what it targets (a smart Horde aims it at the team: H9s)."""
    return effect.verb in HARMFUL_VERBS or effect.verb == "counters" and effect.args.get("kind") == "minus"


def choose_sacrifice(game: Game, controller: int, options: list[Permanent]) -> Permanent:
    if controller == HORDE_CONTROLLER:
        return horde_pick(game, "sacrifice", options)  # H9
    return ask(game, "sacrifice", controller, options)


def choose_card(game: Game, controller: int, kind: str, options: list[T]) -> T:
    if controller == HORDE_CONTROLLER:
        return horde_pick(game, kind, options)  # H9
    return ask(game, kind, controller, options)


# The verbs that hurt what they target (a smart Horde aims them at the team's best: H9s).
HARMFUL_VERBS = frozenset({"destroy", "exile", "bounce", "damage", "gain_control", "shuffle_into_library"})


def horde_pick(game: Game, kind: str, options: list[T], card: CardDef | None = None) -> T:
    """A choice the Horde faces (H9): at random with its own stream, unless the setup gives its
    choices to a heuristic (H9s) or to the team (F7), wired by the engine in ``drivers.horde_choice``.
    ``kind`` says what is chosen: 'harm' or 'help' (a target), 'sacrifice', 'mode', 'discard',
    'return', 'target' (a player), 'tap', 'face' (the face of a card of two faces it casts)."""
    chooser = game.drivers.horde_choice
    if chooser is None:
        return options[randbelow(game.horde_rng, len(options))]  # H9
    return chooser(game, kind, list(options), card)

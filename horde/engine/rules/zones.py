"""Zone changes: permanents entering and leaving the battlefield (with their Enters, Dies and
undying triggers), destruction and shield counters (L4), counters and until-end-of-turn changes;
and cards moving between library, hand and graveyard (drawing with the R3 banlist, discarding,
milling, searching).
"""

from __future__ import annotations

from horde.engine.cards import COLOURS, LOCKED, CardDef, Effect, ManaCost
from horde.engine.characteristics import (
    PROTECTION_KEYWORDS,
    apply_statics,
    board_of,
    graveyard_of,
    hand_of,
    has_keyword,
    on_battlefield,
    protected_from,
    side_name,
    watchers,
)
from horde.engine.events import log
from horde.engine.filters import Context, Known, Target, known_permanent
from horde.engine.rules.abilities import (
    ask,
    horde_pick,
    resolve,
    run_hook,
    target_fields,
    trigger,
    trigger_hook,
)
from horde.engine.rules.mana import can_pay, pay, pay_life
from horde.engine.rules.zombies import individual
from horde.engine.shuffling import randbelow, shuffle
from horde.engine.state import (
    HORDE_CONTROLLER,
    NO_CONTROLLER,
    Game,
    GameAborted,
    Lieutenant,
    Permanent,
    Side,
    TeamPlayer,
    spend,
)
from horde.limits import BATTLEFIELD_MAX


def put_onto_battlefield(game: Game, card: CardDef, controller: int, owner: int, tapped: bool = False,
                         commander: bool = False, created: bool = False, lieutenant: Lieutenant | None = None,
                         shields: int = 0, triggers: bool = True, attach: Target | None = None,
                         kicked: int = 0, plus: int = 0) -> Permanent:
    """A card or token enters the battlefield (a lieutenant with its shield counters: L3; an Aura
    attached to ``attach``, the permanent or player it enchants; ``plus`` +1/+1 counters); its Enters hooks resolve at
    once, unless ``triggers`` is False (a board set up by a test). It spends a unit of the game's
    work, and the battlefield holds at most ``BATTLEFIELD_MAX`` permanents (H15)."""
    spend(game)
    battlefield = game.battlefield
    if len(battlefield.team) + len(battlefield.horde) >= BATTLEFIELD_MAX:
        raise GameAborted(f"more than {BATTLEFIELD_MAX:,} permanents on the battlefield")  # H15
    p = battlefield.enter(card, controller, owner)
    p.is_commander = commander
    p.deck_card = card.is_token and not created  # a token card of the Horde deck, not a created token
    p.lieutenant = lieutenant
    p.shields = shields
    p.kicked = kicked
    p.plus = plus  # 'enters with N additional +1/+1 counters' (614.1c: Opal Palace's commander)
    if card.echo is not None:
        p.marks = {"echo": 1}  # 702.30a: its echo cost is due at its controller's next upkeep
    if lieutenant is not None:
        lieutenant.permanent = p
    # 302.6: summoning sick until its controller's next turn begins; whether it has haste is asked
    # when it would attack or tap (``summoning_sick``: a haste an anthem gives counts). H8: every
    # Horde creature has haste.
    p.sick = not (controller == HORDE_CONTROLLER and game.horde_haste)
    if card.choose_colour:  # 'As ~ enters, choose a color' (614.12)
        p.chosen = choose_colour(game, controller, card)
    if tapped or has_keyword(game, p, "enters tapped") or (  # 614.12: as it would be on the battlefield
            card.enters_tapped is not None and card.enters_tapped(game, Context(card, p, controller))) or (
            card.enters_pay_life and not pays_life_to_enter_untapped(game, controller, card)):
        p.tapped = True
    if card.is_planeswalker:
        p.loyalty = card.loyalty or 0  # 306.5b: it enters with its printed loyalty
    if game.drivers.trace is not None:
        log(game, "enters", side_name(controller), card=card.name, id=p.id,
            player=None if controller == HORDE_CONTROLLER else controller + 1, tapped=p.tapped)
    if attach is not None:
        enchant(game, p, attach)
    if triggers and "AsEnters" in card.hooks:
        run_hook(game, p, "AsEnters")  # 614.12: 'As ~ enters, ...' (Sutured Ghoul's exile)
    if triggers and "Enters" in card.hooks:
        run_hook(game, p, "Enters")
    if triggers and "PermanentEnters" in game.battlefield.hooked and game.battlefield.hooked["PermanentEnters"]:
        _enters_triggers(game, p)
    return p


def _enters_triggers(game: Game, entered: Permanent) -> None:
    """'Whenever a FILTER enters' abilities (PermanentEnters), the one that entered included."""
    for watcher in watchers(game):
        if "PermanentEnters" not in watcher.card.hooks or not on_battlefield(game, watcher):
            continue
        for ability in watcher.card.abilities("PermanentEnters"):
            ctx = Context(watcher.card, watcher, watcher.controller)
            effects = [e for e in ability if e.when is None or e.when(game, ctx, entered)]
            if effects:
                resolve(game, effects, ctx)


def pays_life_to_enter_untapped(game: Game, controller: int, card: CardDef) -> bool:
    """A shock land's 'As ~ enters, you may pay 2 life. If you don't, it enters tapped' (614.12):
    a team player's policy chooses (``pay_life``), never with the team's last life (119.4, as
    for mana: docs/decisions.md); the Horde, which pays no mana (H7), never pays."""
    if controller == HORDE_CONTROLLER:
        return False
    amount = card.enters_pay_life
    life = game.players[controller].life if individual(game) else game.team_life
    if life <= amount or not ask(game, "pay_life", controller, (True, False), subject=(card, amount)):
        return False
    pay_life(game, controller, amount)
    return True


def choose_colour(game: Game, controller: int, card: CardDef) -> str:
    """The colour chosen as a permanent enters (Coldsteel Heart, a Thriving land): a team player's
    policy chooses (``colour``); the Horde pays no mana (H7), so its choice is the first allowed
    colour in WUBRG order, which spends none of its randomness."""
    options = [c for c in COLOURS if c in card.choose_colour]
    if controller == HORDE_CONTROLLER:
        return options[0]
    choice: str = ask(game, "colour", controller, options, subject=card)
    return choice


def enchant(game: Game, aura: Permanent, target: Target) -> None:
    """An Aura becomes attached to the permanent or player it enchants (one that takes control of
    it or changes what it is applies at once: ``auras_apply``)."""
    game.battlefield.enchant(aura, HORDE_CONTROLLER if isinstance(target, str) else target)
    if game.drivers.trace is not None:
        log(game, "enchant", side_name(aura.controller), card=aura.card.name, id=aura.id, **target_fields(target))
    if isinstance(target, Permanent) and not TAKING.isdisjoint(aura.card.verbs):
        auras_apply(game, target)


# The static verbs of an Aura's Enchanted hook that the rules apply to the permanent itself, as
# it is attached and when it falls off: control (613.1b, layer 2) and what it is (613.1c-f).
TAKING = frozenset({"you_control", "becomes"})


def auras_apply(game: Game, p: Permanent) -> None:
    """What the Auras attached to ``p`` make of it, in the order they were attached (613.7
    timestamps, the latest last): 'You control enchanted permanent' (``you_control``: layer 2;
    with none left, it returns to the controller it had before the first, 613.1b); 'Enchanted
    permanent is a colorless Forest land' (``becomes``: layers 4-6, the verb's function making
    the card it becomes from its own)."""
    controller = NO_CONTROLLER
    becomes: Effect | None = None
    for aura in p.auras:
        for effect in aura.card.hooks.get("Enchanted", ()):
            if effect.verb == "you_control":
                controller = aura.controller
            elif effect.verb == "becomes":
                becomes = effect
    if controller != NO_CONTROLLER:
        if p.base_controller == NO_CONTROLLER:
            p.base_controller = p.controller
        change_control(game, p, controller)
    elif p.base_controller != NO_CONTROLLER:
        base = p.base_controller
        p.base_controller = NO_CONTROLLER
        change_control(game, p, base)
    printed = p.card if p.printed is None else p.printed
    card = printed if becomes is None else becomes.run(game, printed, **becomes.args)
    if card is not p.card:
        p.printed = None if card is printed else printed
        game.battlefield.become(p, card)
        if not card.is_creature:
            remove_from_combat(game, p)  # 506.4: it is no longer a creature


def change_control(game: Game, p: Permanent, controller: int) -> None:
    """A permanent changes controller: it has summoning sickness under its new one (302.6; the
    Horde's creatures have haste: H8) and leaves combat (506.4); an Aura that gives control of
    what it enchants takes it along (613.1b)."""
    if p.controller == controller or not on_battlefield(game, p):
        return
    game.battlefield.change_control(p, controller)
    p.sick = not (controller == HORDE_CONTROLLER and game.horde_haste)  # haste is asked when it attacks or taps
    remove_from_combat(game, p)
    if game.drivers.trace is not None:
        log(game, "control", side_name(controller), card=p.card.name, id=p.id,
            player=None if controller == HORDE_CONTROLLER else controller + 1)
    attached = p.attached_to
    if attached is not None and p.card.enchant is not None and "you_control" in p.card.verbs:
        auras_apply(game, attached)


def aura_is_legal(game: Game, aura: Permanent) -> bool:
    """704.5m: an Aura must be attached to a permanent still on the battlefield that its Enchant
    allows and that has no protection from it, or to a player."""
    target = aura.attached_to
    if target is None:
        return aura.attached_player is not None
    enchant = aura.card.enchant
    return (on_battlefield(game, target) and (enchant is None or enchant.target(game, aura, target))
            and not protected_from(game, target, aura.card))


def leave_battlefield(game: Game, p: Permanent, to: str, by: int = -2) -> None:
    """Move a permanent from the battlefield to ``to`` (graveyard, exile, hand, library); ``by``
    is the controller of what removed it (L6)."""
    if not on_battlefield(game, p):
        return
    if "cant_leave_while" in p.card.static_flags and held_in_place(game, p):
        return  # G2: Xenagos Ascended can't leave while a Reveler is on the battlefield
    if p.unearthed and to != "exile":
        to = "exile"  # unearth: if it would leave the battlefield, it is exiled instead
    battlefield = game.battlefield
    if p.lieutenant is not None:
        equipment = list(p.equipment)
        battlefield.leave(p)
        lieutenant_leaves = game.drivers.lieutenant_leaves
        if lieutenant_leaves is None:
            raise RuntimeError("a lieutenant left the battlefield, but no lieutenant rules are wired (engine.new_game)")
        lieutenant_leaves(game, p, by, equipment)  # L6: exiled with time counters instead
        battlefield.anthems_changed()  # its equipment changed hands
        return
    if p.is_commander and not p.extra and to in ("graveyard", "exile", "library"):
        # C2 (903.11-12 of the rule book's text): its owner puts it into the command zone
        # *instead*, a replacement: it never reaches the graveyard, so it does not die (no "dies"
        # trigger, no undying or persist), and it is not exiled or shuffled away
        commander_to = to
        to = "command"
    else:
        commander_to = ""
    dies = to == "graveyard" and p.card.is_creature and not p.card.is_token
    undying = dies and p.plus == 0 and has_keyword(game, p, "undying")
    persist = dies and not undying and p.minus == 0 and has_keyword(game, p, "persist")
    attached = p.attached_to  # what an Aura or Equipment was attached to: its Leaves ability's 'it'
    carried = _carried_abilities(game, p) if (p.equipment or p.auras) and to == "graveyard" and p.card.is_creature \
        else None
    battlefield.leave(p)
    if p.printed is not None:  # 400.7: it is its own card again in the zone it goes to
        p.card = p.printed
        p.printed = None
    card = p.card
    if game.drivers.trace is not None:
        log(game, "leaves", side_name(p.controller), card=card.name, id=p.id, to=commander_to or to)
    whole = card.whole_card  # a face on the battlefield is its whole card anywhere else (712.8, 715.4)
    if p.extra:
        if game.lieutenants is not None:
            game.lieutenants.equipment.append(card)  # Decision: a lieutenant's equipment goes back to the list
    elif not card.is_token:
        if commander_to:
            game.players[p.owner].command.append(whole)  # C2: 903.9b, 903.11-12, the owner always chooses so
            if game.drivers.trace is not None:
                log(game, "command_zone", Side.TEAM, player=p.owner + 1, card=card.name, instead_of=commander_to)
        elif p.owner == HORDE_CONTROLLER:
            {"graveyard": game.horde.graveyard, "exile": game.horde.exile, "hand": game.horde.hand,
             "library": game.horde.library}[to].append(whole)
        else:
            owner = game.players[p.owner]
            if to == "library":
                owner.library.insert(0, whole)
            else:
                {"graveyard": owner.graveyard, "exile": owner.exile, "hand": owner.hand}[to].append(whole)
    elif p.deck_card:
        game.horde.tokens_gone += 1  # H6: a token that leaves the battlefield ceases to exist
    if attached is not None and card.enchant is not None and not TAKING.isdisjoint(card.verbs):
        auras_apply(game, attached)  # what the Aura made of it ends (613.1b-f)
    if to == "graveyard" and card.is_creature:
        died(game, p)
    if "CreatureDies" in card.hooks and (game.depth or game.checking):
        # 603.10a: it sees the creatures that die later in this event die, whether it died or left
        # otherwise (a commander to the command zone instead, C2)
        game.left_together.append(p)
    if carried is not None:
        _attached_dies(game, carried)
    if "Leaves" in card.hooks:
        # F4, G5: Hero's Reward; 'it' is what it was attached to (603.10a: Animate Dead's 'that creature');
        # 'the exiled card' is what its linked ability exiled (607.2a: Oblivion Ring)
        trigger_hook(game, p, "Leaves", None if attached is None else known_permanent(game, attached), p.linked)
    if to == "graveyard" and "ToGraveyard" in card.hooks and not card.is_token:
        went_to_graveyard(game, card, p.owner)
    if game.held:
        return_held(game, p)
    if p.owner == HORDE_CONTROLLER and game.drivers.permanent_left is not None:
        game.drivers.permanent_left(game, p)  # F3: a Head left
    if undying or persist:
        returner = p.owner
        kind = "plus" if undying else "minus"

        def returns(game: Game) -> None:
            """Undying (persist), a triggered ability: back under its owner's control with a
            +1/+1 (-1/-1) counter, if the card is still in its owner's graveyard."""
            graveyard = game.horde.graveyard if returner == HORDE_CONTROLLER else game.players[returner].graveyard
            if whole in graveyard:
                graveyard.remove(whole)
                back = put_onto_battlefield(game, whole, returner, returner)  # 712.14: front face up
                add_counters(game, back, 1, kind)

        trigger(game, p.controller, (), None, returns)


def graveyard_abilities_work(game: Game, card: CardDef) -> bool:
    """Whether a card in a graveyard has its abilities (not while cards in graveyards lose all
    abilities: Yixlid Jailer)."""
    return not game.battlefield.points or bool(apply_statics(game, "graveyard_abilities", True, card))


def unearth(game: Game, card: CardDef, controller: int) -> Permanent:
    """Unearth (702.84): the card returns from its owner's graveyard to the battlefield with haste;
    it is exiled at the beginning of the next end step, or if it would leave the battlefield."""
    graveyard_of(game, controller).remove(card)
    if game.drivers.trace is not None:
        log(game, "unearth", side_name(controller), card=card.name,
            player=None if controller == HORDE_CONTROLLER else controller + 1)
    p = put_onto_battlefield(game, card, controller, controller)
    if on_battlefield(game, p):
        game.battlefield.unearth(p)
    p.sick = False  # it gains haste
    return p


def return_held(game: Game, left: Permanent) -> None:
    """Cards exiled 'until a FILTER leaves the battlefield' return under their owners' control
    when one does (F: Swallow the Hero Whole)."""
    ctx = Context(None, None, HORDE_CONTROLLER)
    if not any(flt(game, ctx, left) for _, _, flt in game.held):
        return
    held, game.held = game.held, []
    for card, owner, _ in held:
        exiled = game.players[owner].exile
        if card in exiled:
            exiled.remove(card)
            put_onto_battlefield(game, card, owner, owner)


def _carried_abilities(game: Game, p: Permanent) -> list[tuple[Permanent, Known]] | None:
    """The Equipment and Auras attached to a creature about to die that have 'whenever equipped
    (enchanted) creature dies' abilities, each with the creature as it last existed (603.10a)."""
    sources = [a for a in p.equipment + p.auras if "AttachedDies" in a.card.hooks]
    if not sources:
        return None
    known = known_permanent(game, p)
    return [(source, known) for source in sources]


def _attached_dies(game: Game, carried: list[tuple[Permanent, Known]]) -> None:
    """'Whenever equipped creature dies' (Skullclamp) and 'when enchanted creature dies' trigger:
    each source's AttachedDies abilities, 'it' being the creature that died."""
    for source, dead in carried:
        ctx = Context(source.card, source, source.controller)
        ctx.it = dead
        trigger(game, source.controller, source.card.hooks["AttachedDies"], ctx)


def died(game: Game, p: Permanent) -> None:
    """Dies and CreatureDies abilities trigger. 603.10a: they look back in time: the dying creature
    sees itself die, and creatures that die in the same event (state-based actions performed at
    once, one spell resolving: H13a) see each other die, whichever left first."""
    if "Dies" in p.card.hooks:
        trigger_hook(game, p, "Dies")
    together = game.left_together
    for earlier in together:
        _creature_dies_trigger(game, earlier, p)  # it died earlier in this event, and sees this one die
    if "CreatureDies" in p.card.hooks:
        _creature_dies_trigger(game, p, p)  # leave_battlefield keeps it in left_together for the rest of the event
    if not game.battlefield.hooked.get("CreatureDies"):
        return
    for watcher in watchers(game):
        if "CreatureDies" in watcher.card.hooks:
            _creature_dies_trigger(game, watcher, p)


def _creature_dies_trigger(game: Game, watcher: Permanent, dead: Permanent) -> None:
    """A watcher's 'whenever a FILTER dies' abilities, each line one ability with one context."""
    for ability in watcher.card.abilities("CreatureDies"):
        ctx = Context(watcher.card, watcher, watcher.controller, that_player=dead.controller)
        if len(ability) == 1:
            when = ability[0].when
            if when is None or when(game, ctx, dead):
                trigger(game, watcher.controller, ability, ctx)
            continue
        effects = [e for e in ability if e.when is None or e.when(game, ctx, dead)]
        if effects:
            trigger(game, watcher.controller, effects, ctx)


def destroy(game: Game, p: Permanent, by: int = -2, regenerate: bool = True) -> bool:
    """Destroy a permanent: indestructible ignores it; a shield counter is removed instead (L4);
    a regeneration shield replaces it unless it can't be regenerated (``regenerate`` False)."""
    if not on_battlefield(game, p):
        return False
    if has_keyword(game, p, "indestructible"):
        return False
    if p.shields:
        remove_shield(game, p)
        return False
    if regenerate and not p.no_regen and (p.regeneration or "Activated" in p.card.hooks) and regenerates(game, p):
        return False
    if p.lieutenant is not None:
        p.last_hit_by = by
    leave_battlefield(game, p, "graveyard", by)
    return True


def regenerates(game: Game, p: Permanent) -> bool:
    """A permanent about to be destroyed regenerates: with a shield made earlier this turn, or by
    activating its regeneration ability now: the Horde always (H7: it has all the mana it
    needs), a team player when it can pay and its policy says so. Regenerating taps it, removes
    its damage and removes it from combat."""
    paid = None
    if p.regeneration:
        p.regeneration -= 1
    else:
        ability = regeneration_ability(p.card)
        if ability is None or has_keyword(game, p, LOCKED):
            return False  # Faith's Fetters: its regeneration ability can't be activated
        cost = ability[0].costs[0] if ability[0].costs else ManaCost()
        assert isinstance(cost, ManaCost)
        if p.controller != HORDE_CONTROLLER:  # H7: the Horde pays any mana
            if not can_pay(game, p.controller, cost.generic, cost.pips):
                return False
            if ask(game, "regenerate", p.controller, [ability, None], subject=p) is None:
                return False
            pay(game, p.controller, cost.generic, cost.pips)
        paid = str(cost)
    p.tapped = True
    p.damage = 0
    p.deathtouched = False
    remove_from_combat(game, p)
    if game.drivers.trace is not None:
        log(game, "regenerate", side_name(p.controller), card=p.card.name, id=p.id, paid=paid)
    return True


_REGENERATION: dict[CardDef, tuple[Effect, ...] | None] = {}


def regeneration_ability(card: CardDef) -> tuple[Effect, ...] | None:
    """A card's activated ability that only regenerates itself for mana ('{B}: Regenerate ~')."""
    if card not in _REGENERATION:
        found = None
        for ability in card.abilities("Activated"):
            if (all(e.verb == "regenerate" and e.args["on"] == "self" for e in ability)
                    and len(ability[0].costs) <= 1 and all(isinstance(c, ManaCost) for c in ability[0].costs)):
                found = ability
                break
        _REGENERATION[card] = found
    return _REGENERATION[card]


def remove_from_combat(game: Game, p: Permanent) -> None:
    """A creature leaves combat: it no longer attacks or blocks (what it blocked stays blocked)."""
    p.attacking = False
    if p.blocked:
        p.blocked = False
        for attacker in game.battlefield.horde + game.battlefield.team:
            if p in attacker.blockers:
                attacker.blockers.remove(p)


def sacrifice(game: Game, p: Permanent, by: int = -2) -> None:
    """Sacrifice: not a destruction, so neither indestructible nor a shield counter stops it.
    ``by``: the controller of the effect that forced it (L6), -2 when its controller chose to."""
    leave_battlefield(game, p, "graveyard", by)


def exile(game: Game, p: Permanent, by: int = -2) -> None:
    leave_battlefield(game, p, "exile", by)


def bounce(game: Game, p: Permanent, by: int = -2) -> None:
    """Return to its owner's hand; a Horde card waits there and is cast next Horde turn (H6).
    ``by``: the controller of the spell or ability that returned it (L6)."""
    leave_battlefield(game, p, "hand", by)


def remove_shield(game: Game, p: Permanent) -> None:
    p.shields -= 1
    if game.drivers.trace is not None:
        log(game, "shield_removed", side_name(p.controller), card=p.card.name, id=p.id, shields=p.shields)


def add_counters(game: Game, p: Permanent, n: int, kind: str = "plus", by: int = -2) -> None:
    """Put ``n`` +1/+1 counters (``kind`` "plus"), -1/-1 counters ("minus"), charge counters
    ("charge") or storage counters ("storage") on a permanent;
    704.5q: as many of each kind as it has of the other are removed at once. ``by``: the
    controller of the spell or ability that put them (L6: -1/-1 counters may be a killing blow)."""
    if n <= 0:
        return
    if kind == "charge":
        p.charge += n  # charge counters change nothing but what counts them
        return
    if kind == "storage":  # a storage land's, for 'Remove X storage counters: Add X mana'
        if p.marks is None:
            p.marks = {}
        p.marks["storage"] = p.marks.get("storage", 0) + n
        return
    if kind == "plus":
        p.plus += n
    else:
        p.minus += n
        if by != -2:
            p.last_hit_by = by  # L6
        game.battlefield.unsettle()  # its toughness fell
    if p.plus and p.minus:
        both = min(p.plus, p.minus)
        p.plus -= both
        p.minus -= both
    if game.drivers.trace is not None:
        log(game, "counters", side_name(p.controller), card=p.card.name, id=p.id, kind=COUNTER_NAMES[kind],
            added=n, total=p.plus if kind == "plus" else p.minus)


COUNTER_NAMES = {"plus": "+1/+1", "minus": "-1/-1"}


def remove_counters(game: Game, p: Permanent, n: int) -> None:
    """Remove up to ``n`` +1/+1 counters from a permanent."""
    n = min(n, p.plus)
    if n > 0:
        p.plus -= n
        game.battlefield.unsettle()


def pump(game: Game, p: Permanent, dp: int, dt: int, keywords: frozenset[str] = frozenset(), by: int = -2
         ) -> None:
    """+``dp``/+``dt`` and ``keywords`` until end of turn; ``by``: the controller of the spell or
    ability (L6: -N/-N may be a killing blow)."""
    p.temp_power += dp
    p.temp_toughness += dt
    if dt < 0:
        if by != -2:
            p.last_hit_by = by  # L6
        game.battlefield.unsettle()
    if keywords:
        p.temp_keywords = p.temp_keywords | keywords
        if not PROTECTION_KEYWORDS.isdisjoint(keywords):
            game.battlefield.protections += 1  # until the game ends: a stale count only costs a look


def scry_cards(game: Game, controller: int, count: int, card: CardDef | None) -> None:
    """701.22: the controller looks at the top ``count`` cards of its library and puts any number
    of them on the bottom (a team player's policy chooses: decision 'scry'; the Horde at random,
    each card a coin: H9), the rest back on top in the order they were in (701.22a)."""
    library = game.horde.library if controller == HORDE_CONTROLLER else game.players[controller].library
    n = min(count, len(library))
    if n <= 0:
        return
    seen = library[-n:][::-1]  # the top first (the top of a library is the end of its list)
    if controller == HORDE_CONTROLLER:
        bottom = [c for c in seen if randbelow(game.horde_rng, 2)]
    else:
        bottom = ask(game, "scry", controller, seen, subject=card)
    kept = [c for c in seen if not any(c is b for b in bottom)]
    del library[-n:]
    library.extend(reversed(kept))
    for c in bottom:
        library.insert(0, c)


def draw(game: Game, player: TeamPlayer) -> None:
    """Draw a card; drawing from an empty library loses the game (H13, 704.5b).
    R3: a card of the banlist leaves the game (no zone holds it: nothing returns it) and another
    is drawn in its place."""
    while True:
        if not player.library:
            player.drew_from_empty = True
            return
        card = player.library.pop()
        if card.name in player.banned:
            player.out_of_game.append(card)  # R3: thrown away, not discarded
            if game.drivers.trace is not None:
                log(game, "banned_removed", Side.TEAM, player=player.index + 1, card=card.name)
            continue
        player.hand.append(card)
        if game.drivers.trace is not None and game.turn > 0:
            log(game, "draw", Side.TEAM, player=player.index + 1, card=card.name)
        return


def discard(game: Game, controller: int, n: int) -> list[CardDef]:
    """Discard ``n`` cards: the Horde at random (H9), a team player by its policy; returns them."""
    hand = hand_of(game, controller)
    discarded: list[CardDef] = []
    for _ in range(min(n, len(hand))):
        if controller == HORDE_CONTROLLER and game.drivers.horde_choice is not None:
            card = horde_pick(game, "discard", hand)  # H9s, F7
            hand.remove(card)
        elif controller == HORDE_CONTROLLER:
            card = hand.pop(randbelow(game.horde_rng, len(hand)))
        else:
            card = ask(game, "discard", controller, list(hand))
            hand.remove(card)
        graveyard_of(game, controller).append(card)
        discarded.append(card)
        if game.drivers.trace is not None:
            log(game, "discard", side_name(controller), card=card.name,
                player=None if controller == HORDE_CONTROLLER else controller + 1)
    return discarded


def mill(game: Game, controller: int, n: int) -> None:
    if controller == HORDE_CONTROLLER:
        library = game.horde.library
    else:
        library = game.players[controller].library
    for _ in range(n):
        if not library:
            return
        card = library.pop(0) if game.unknown_order else library.pop()  # a fair copy's (Game.unknown_order)
        graveyard_of(game, controller).append(card)
        if "ToGraveyard" in card.hooks:
            went_to_graveyard(game, card, controller)


def went_to_graveyard(game: Game, card: CardDef, owner: int) -> None:
    """'When this is put into a graveyard from anywhere' abilities trigger (M3: an artifact's
    Hero's Reward), the card's owner controlling them."""
    trigger(game, owner, card.hooks["ToGraveyard"], Context(card, None, owner))


def held_in_place(game: Game, p: Permanent) -> bool:
    """G2: a permanent that can't leave the battlefield while a permanent matching its
    ``cant_leave_while`` filter is on the battlefield."""
    for effect in p.card.hooks.get("Static", ()):
        if effect.verb == "cant_leave_while":
            flt = effect.args["filter"]
            if any(flt(game, p, q) for q in game.battlefield.horde + game.battlefield.team if q is not p):
                return True
    return False


def any_player_exiles_from_graveyard(game: Game, controller: int, count: int) -> bool:
    """'Any player may exile COUNT cards from its graveyard': the team is asked first (a player
    with enough cards), then the Horde decides at random (H9). Returns whether one did."""
    table = game.drivers.team_side is not None  # at a table the players know their graveyards: all are asked
    options = [pl.index for pl in game.players if (not pl.removed if table else len(pl.graveyard) >= count)]
    if options:
        player = ask(game, "exile_graveyard", -1, options + [None], subject=count)
        if player is not None:
            graveyard = game.players[player].graveyard
            for card in ask(game, "exile_cards", player, list(graveyard), count=count) if not table else ():
                graveyard.remove(card)
                game.players[player].exile.append(card)
            if game.drivers.trace is not None:
                log(game, "graveyard_exiled", Side.TEAM, player=player + 1, cards=count)
            return True
    cards = [c for c in game.horde.graveyard]
    if len(cards) >= count and randbelow(game.horde_rng, 2):  # H9: the Horde's choice is a coin
        for _ in range(count):
            game.horde.exile.append(game.horde.graveyard.pop(randbelow(game.horde_rng, len(game.horde.graveyard))))
        if game.drivers.trace is not None:
            log(game, "graveyard_exiled", Side.HORDE, player=None, cards=count)
        return True
    return False


def sacrifice_options(game: Game, p: Permanent, cost: str) -> list[Permanent]:
    """What a 'sacrifice another creature' (or 'another zombie') cost of ``p`` may sacrifice; for
    'sacrifice this' (602.1: 'Sacrifice ~'), ``p`` itself."""
    if cost == "sacrifice this":
        return [p] if on_battlefield(game, p) else []
    wanted = "Zombie" if cost.endswith("zombie") else "Creature"
    return [q for q in board_of(game, p.controller)
            if q is not p and (wanted in q.card.types or wanted in q.card.subtypes)]


def search_basic_lands(game: Game, player: TeamPlayer, count: int, tapped: bool, to_hand: int) -> None:
    """Ramp: basic lands from the library onto the battlefield (and into hand), then shuffle."""
    for n, to_battlefield in ((count, True), (to_hand, False)):
        for _ in range(n):
            lands = []
            for c in player.library:
                if "Basic" in c.supertypes and c.is_land and c not in lands:
                    lands.append(c)
            if not lands:
                break
            card = ask(game, "search", player.index, lands, subject=to_battlefield)
            player.library.remove(card)
            if to_battlefield:
                put_onto_battlefield(game, card, player.index, player.index, tapped=tapped)
            else:
                player.hand.append(card)
    shuffle(player.rng, player.library)

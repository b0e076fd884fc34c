"""The rules of the Horde format: characteristics, zone changes, damage, casting, combat, state checks.

Every function takes the ``Game`` and changes it by the rule book (RULES.md); comments cite the
rule IDs. Randomness comes only from the game's own streams (``game.horde_rng`` for the Horde's
choices, H9). Team choices are asked of the policy through ``ask``; the policy only chooses and
the engine checks the choice. Boss and lieutenant rules live in ``horde.boss`` and are called
through the few hooks marked L*/B* here.

Simplifications of ordinary Magic, applied the same way everywhere: triggered abilities resolve
at once, in the order they trigger, and state-based actions are checked when the event that
caused them has finished; the team casts instants in the Horde's turn only to counter a Horde
spell or to prevent combat damage.
"""

from __future__ import annotations

from horde.decisions import Decision, check_choice
from horde.state import HORDE_CONTROLLER, Game, Permanent, TeamPlayer

HORDE = HORDE_CONTROLLER

# ---------------------------------------------------------------- trace


def log(game: Game, event: str, side: str, **fields) -> None:
    """Record one event of the trace (only called when ``game.trace`` is not None)."""
    game.trace.append({"turn": game.turn, "side": side, "event": event, **fields})


# ---------------------------------------------------------------- where things are


def board_of(game: Game, controller: int) -> list[Permanent]:
    """The permanents a controller controls (the Horde's, or one team player's)."""
    if controller == HORDE:
        return game.horde_board
    return [p for p in game.team_board if p.controller == controller]


def all_permanents(game: Game) -> list[Permanent]:
    return game.team_board + game.horde_board


def watchers(game: Game) -> list[Permanent]:
    """Everything whose triggered abilities can trigger: the permanents, and the boss (B5)."""
    found = game.horde_board + game.team_board
    if game.boss is not None and game.boss.stand_in is not None:
        found.append(game.boss.stand_in)
    return found


def on_battlefield(game: Game, p: Permanent) -> bool:
    return p in (game.horde_board if p.controller == HORDE else game.team_board)


def graveyard_of(game: Game, controller: int) -> list:
    return game.horde.graveyard if controller == HORDE else game.players[controller].graveyard


def hand_of(game: Game, controller: int) -> list:
    return game.horde.hand if controller == HORDE else game.players[controller].hand


def side_name(controller: int) -> str:
    return "horde" if controller == HORDE else "team"


# ---------------------------------------------------------------- characteristics


def power(game: Game, p: Permanent) -> int:
    """Power with counters, until-end-of-turn changes, anthems and equipment applied."""
    card = p.card
    if card.power is None:
        return 0  # not a creature
    value = (card.power if card.pt_amount is None else _pt_amount(game, p)) + p.plus + p.temp_power
    if game.statics or p.equipment:
        if p.bonus_version == game.version and not game.volatile:
            return value + p.bonus[0]
        value += static_bonus(game, p)[0]
    return value


def toughness(game: Game, p: Permanent) -> int:
    card = p.card
    if card.toughness is None:
        return 0  # not a creature
    value = (card.toughness if card.pt_amount is None else _pt_amount(game, p)) + p.plus + p.temp_toughness
    if game.statics or p.equipment:
        if p.bonus_version == game.version and not game.volatile:
            return value + p.bonus[1]
        value += static_bonus(game, p)[1]
    return value


def has_keyword(game: Game, p: Permanent, keyword: str) -> bool:
    if keyword in p.card.keywords or keyword in p.temp_keywords:
        return True
    if not (game.statics or p.equipment):
        return False
    if p.bonus_version == game.version and not game.volatile:
        return keyword in p.bonus[2]
    return keyword in static_bonus(game, p)[2]


def keywords(game: Game, p: Permanent) -> frozenset:
    """Every keyword a permanent has now: printed, until end of turn, and from anthems and
    equipment. For code that asks about several keywords of one permanent at once."""
    extra = p.temp_keywords
    if game.statics or p.equipment:
        given = p.bonus[2] if p.bonus_version == game.version and not game.volatile else static_bonus(game, p)[2]
        if given:
            extra = extra | given
    return p.card.keywords | extra if extra else p.card.keywords


NO_BONUS = (0, 0, frozenset())


def static_bonus(game: Game, p: Permanent) -> tuple:
    """(power, toughness, keywords) that anthems and equipment give a permanent. Kept until the
    battlefield changes (``game.version``), unless some anthem looks at changing states."""
    if p.bonus_version == game.version and not game.volatile:
        return p.bonus
    p.bonus_version = game.version
    p.bonus = NO_BONUS
    dp = dt = 0
    keywords = frozenset()
    for source in game.statics:
        for effect in source.card.anthems:
            args = effect.args
            if args["filter"](game, source, p):
                dp += args["power"]
                dt += args["toughness"]
                keywords |= args["keywords"]
    for equipment in p.equipment:
        for effect in equipment.card.equipped:
            args = effect.args
            dp += args["power"]
            dt += args["toughness"]
            keywords |= args["keywords"]
    p.bonus = (dp, dt, keywords) if dp or dt or keywords else NO_BONUS
    return p.bonus


def track(game: Game, card, change: int) -> None:
    """Count what is on the battlefield that the rules must look for: the triggers by hook (so a
    trigger nobody has costs no search) and the creatures whose toughness counts things; and
    note that state-based actions have something to look at."""
    hooked = game.hooked
    for hook in card.hooks:
        hooked[hook] = hooked.get(hook, 0) + change
    if card.pt_amount is not None:
        game.counting += change
    game.unsettled = True


def board_changed(game: Game) -> None:
    """An anthem entered or left, equipment moved, or a permanent changed control: every cached
    bonus is stale. (A permanent that enters has no cached bonus yet.)"""
    game.version += 1
    game.unsettled = True
    game.volatile = any(getattr(effect.args["filter"], "volatile", False)
                        for source in game.statics for effect in source.card.anthems)


def _pt_amount(game: Game, p: Permanent) -> int:
    amount = p.card.pt_amount
    return amount if isinstance(amount, int) else amount(game, p)


def static_active(game: Game, flag: str) -> bool:
    """Whether any permanent on the battlefield has the rule-level static ``flag``."""
    for source in game.statics:
        if flag in source.card.static_flags:
            return True
    return False


def creatures(board: list[Permanent]) -> list[Permanent]:
    return [p for p in board if p.card.is_creature]


def horde_power(game: Game) -> int:
    """Total power of the Horde's creatures (what its next attack could deal)."""
    return sum(max(0, power(game, p)) for p in game.horde_board if p.card.is_creature)


# ---------------------------------------------------------------- hooks


def run_hook(game: Game, p: Permanent, hook: str, **extra) -> None:
    """Run the effects a permanent attaches to ``hook`` (a triggered ability resolving at once)."""
    effects = p.card.hooks.get(hook)
    if effects:
        from horde.effects import Context  # the vocabulary depends on these rules, not the reverse

        ctx = Context(p.card, p, p.controller)
        for key, value in extra.items():
            setattr(ctx, key, value)
        resolve(game, effects, ctx)


def resolve(game: Game, effects, ctx) -> None:
    """Resolve a list of effects; a targeted effect picks its target first (the team's policy,
    or at random for the Horde: H9). With no legal target, the targeted effects do nothing."""
    for effect in effects:
        if effect.target is not None and ctx.target is None:
            ctx.target = choose_target(game, ctx, effect)
            if ctx.target is None:
                continue
            if not target_still_legal(game, ctx.target):
                continue
        effect.run(game, ctx, **effect.args)


def resolve_spell(game: Game, card, ctx) -> None:
    """An instant or sorcery resolves: its Cast effects, or for a modal spell the one mode its
    controller picks (the Horde at random: H9) among the modes it can carry out."""
    if "Mode" not in card.hooks:
        resolve(game, card.hooks.get("Cast", ()), ctx)
        return
    modes = [mode for mode in card.abilities("Mode")
             if all(e.target is None or legal_targets(game, ctx, e) for e in mode)]
    if not modes:
        return
    if ctx.controller == HORDE:
        mode = modes[game.horde_rng.randrange(len(modes))]  # H9
    else:
        mode = ask(game, "mode", ctx.controller, modes, subject=card)
    if game.trace is not None:
        log(game, "mode", side_name(ctx.controller), card=card.name, mode=" ; ".join(e.describe() for e in mode))
    resolve(game, mode, ctx)


def legal_targets(game: Game, ctx, effect) -> list:
    """Legal targets of a targeted effect: permanents matching its filter, and for 'any' also the
    opposing players or the Horde. Lieutenants are protected (L5); shroud and hexproof apply."""
    from horde import boss

    flt = effect.target
    controller = ctx.controller
    options: list = []
    for p in all_permanents(game):
        if not flt(game, ctx, p):
            continue
        kw = keywords(game, p)
        if (p.controller == HORDE) != (controller == HORDE):
            if "shroud" in kw or "hexproof" in kw:
                continue
            if p.lieutenant is not None and boss.protected(game, p):
                continue  # L5: a lieutenant can't be targeted while protected
        elif "shroud" in kw:
            continue
        options.append(p)
    if getattr(flt, "text", "") == "any":
        if controller == HORDE:
            options.extend(pl.index for pl in game.players)
        else:
            options.append("horde")
    return options


def choose_target(game: Game, ctx, effect):
    options = legal_targets(game, ctx, effect)
    if not options:
        return None
    if ctx.controller == HORDE:
        target = options[game.horde_rng.randrange(len(options))]  # H9
    else:
        target = ask(game, "target", ctx.controller, options, subject=ctx.card)
    if game.trace is not None:
        shown = target.card.name if isinstance(target, Permanent) else (
            "the Horde" if target == "horde" else f"player {target + 1}")
        log(game, "target", side_name(ctx.controller), card=ctx.card.name, target=shown)
    if isinstance(target, Permanent):
        became_target(game, target, ctx)
    return target


def target_still_legal(game: Game, target) -> bool:
    return not isinstance(target, Permanent) or on_battlefield(game, target)


def became_target(game: Game, target: Permanent, ctx) -> None:
    """A permanent became the target of a spell or ability (Skulking Knight, Forsaken Wastes)."""
    if target.card.hooks.get("Targeted"):
        spell = ctx.card if ctx.permanent is None and ctx.card is not None else None  # a spell, not an ability
        run_hook(game, target, "Targeted", spell=spell, caster=ctx.controller)


def ask(game: Game, kind: str, player: int, options, subject=None, count: int = 1, is_legal=None):
    """Offer a team decision to the policy and check the answer (the policy never changes state)."""
    decision = Decision(kind, player, options, subject, count, is_legal)
    choice = game.policy.choose(decision, game.view)
    check_choice(decision, choice)
    return choice


# ---------------------------------------------------------------- zone changes


def put_onto_battlefield(game: Game, card, controller: int, owner: int, tapped: bool = False,
                         commander: bool = False, created: bool = False, lieutenant=None,
                         shields: int = 0) -> Permanent:
    """A card or token enters the battlefield (a lieutenant with its shield counters: L3); its
    Enters hooks resolve at once."""
    p = Permanent(game.next_id, card, controller, owner)
    game.next_id += 1
    p.is_commander = commander
    p.deck_card = card.is_token and not created  # a token card of the Horde deck, not a created token
    p.lieutenant = lieutenant
    p.shields = shields
    if lieutenant is not None:
        lieutenant.permanent = p
    if controller == HORDE:
        p.sick = False  # H8: every Horde creature has haste
        game.horde_board.append(p)
    else:
        p.sick = "haste" not in card.keywords
        game.team_board.append(p)
    if tapped or "enters tapped" in card.keywords:
        p.tapped = True
    if card.anthems or card.equipped or card.static_flags:
        game.statics.append(p)
        if card.anthems:
            board_changed(game)  # a new anthem: every cached bonus is stale
    track(game, card, 1)
    if game.trace is not None:
        log(game, "enters", side_name(controller), card=card.name, id=p.id, controller=controller,
            tapped=p.tapped)
    if "Enters" in card.hooks:
        run_hook(game, p, "Enters")
    return p


def leave_battlefield(game: Game, p: Permanent, to: str, by: int = -2) -> None:
    """Move a permanent from the battlefield to ``to`` (graveyard, exile, hand, library)."""
    from horde import boss

    board = game.horde_board if p.controller == HORDE else game.team_board
    if p not in board:
        return
    if p.lieutenant is not None:
        board.remove(p)
        track(game, p.card, -1)
        equipment = list(p.equipment)
        _detach_all(game, p)
        boss.defeat(game, p, by, equipment)  # L6: exiled with time counters instead
        board_changed(game)
        return
    undying = (to == "graveyard" and p.card.is_creature and not p.card.is_token and p.plus == 0
               and has_keyword(game, p, "undying"))
    board.remove(p)
    track(game, p.card, -1)
    if p.card.anthems or p.equipment or p.attached_to is not None:
        board_changed(game)
    if p in game.statics:
        game.statics.remove(p)
    _detach_all(game, p)
    card = p.card
    if game.trace is not None:
        log(game, "leaves", side_name(p.controller), card=card.name, id=p.id, to=to)
    if p.extra:
        if game.lieutenants is not None:
            game.lieutenants.equipment.append(card)  # Decision: a lieutenant's equipment goes back to the list
    elif not card.is_token:
        if p.is_commander and to in ("graveyard", "exile"):
            game.players[p.owner].command.append(card)  # C2: 903.11-12, the owner always chooses so
        elif p.owner == HORDE:
            {"graveyard": game.horde.graveyard, "exile": game.horde.exile, "hand": game.horde.hand,
             "library": game.horde.library}[to].append(card)
        else:
            owner = game.players[p.owner]
            if to == "library":
                owner.library.insert(0, card)
            else:
                {"graveyard": owner.graveyard, "exile": owner.exile, "hand": owner.hand}[to].append(card)
    elif p.deck_card:
        game.horde.tokens_gone += 1  # H6: a token that leaves the battlefield ceases to exist
    if to == "graveyard" and card.is_creature:
        died(game, p)
    if undying:
        graveyard = game.horde.graveyard if p.owner == HORDE else game.players[p.owner].graveyard
        if card in graveyard:
            graveyard.remove(card)  # undying: back under its owner's control with a +1/+1 counter
            back = put_onto_battlefield(game, card, p.owner, p.owner)
            add_counters(game, back, 1)


def _detach_all(game: Game, p: Permanent) -> None:
    for equipment in p.equipment:
        equipment.attached_to = None
    p.equipment = []
    if p.attached_to is not None:
        p.attached_to.equipment.remove(p)
        p.attached_to = None
    p.attacking = False
    p.blockers = []


def died(game: Game, p: Permanent) -> None:
    """Dies and CreatureDies triggers (the dying creature looks back in time for its own)."""
    if "Dies" in p.card.hooks:
        run_hook(game, p, "Dies")
    if "CreatureDies" in p.card.hooks:
        _creature_dies_trigger(game, p, p)
    if not game.hooked.get("CreatureDies"):
        return
    for watcher in watchers(game):
        if "CreatureDies" in watcher.card.hooks:
            _creature_dies_trigger(game, watcher, p)


def _creature_dies_trigger(game: Game, watcher: Permanent, dead: Permanent) -> None:
    from horde.effects import Context

    for effect in watcher.card.hooks["CreatureDies"]:
        when = effect.when
        if when is not None and not when(game, Context(watcher.card, watcher, watcher.controller), dead):
            continue
        ctx = Context(watcher.card, watcher, watcher.controller)
        resolve(game, (effect,), ctx)


def destroy(game: Game, p: Permanent, by: int = -2) -> bool:
    """Destroy a permanent: indestructible ignores it; a shield counter is removed instead (L4)."""
    if not on_battlefield(game, p):
        return False
    if has_keyword(game, p, "indestructible"):
        return False
    if p.shields:
        remove_shield(game, p)
        return False
    if p.lieutenant is not None:
        p.last_hit_by = by
    leave_battlefield(game, p, "graveyard", by)
    return True


def sacrifice(game: Game, p: Permanent) -> None:
    """Sacrifice: not a destruction, so neither indestructible nor a shield counter stops it."""
    leave_battlefield(game, p, "graveyard", p.last_hit_by)


def exile(game: Game, p: Permanent, by: int = -2) -> None:
    leave_battlefield(game, p, "exile", by)


def bounce(game: Game, p: Permanent) -> None:
    """Return to its owner's hand; a Horde card waits there and is cast next Horde turn (H6)."""
    leave_battlefield(game, p, "hand")


def remove_shield(game: Game, p: Permanent) -> None:
    p.shields -= 1
    if game.trace is not None:
        log(game, "shield_removed", side_name(p.controller), card=p.card.name, id=p.id, shields=p.shields)


def add_counters(game: Game, p: Permanent, n: int) -> None:
    p.plus += n
    if game.trace is not None and n:
        log(game, "counters", side_name(p.controller), card=p.card.name, id=p.id, added=n, total=p.plus)


def pump(game: Game, p: Permanent, dp: int, dt: int, keywords=frozenset()) -> None:
    p.temp_power += dp
    p.temp_toughness += dt
    if dt < 0:
        game.unsettled = True
    if keywords:
        p.temp_keywords = p.temp_keywords | keywords


# ---------------------------------------------------------------- damage and life


def damage_permanent(game: Game, source: Permanent | None, by: int, p: Permanent, n: int,
                     deathtouch: bool | None = None) -> int:
    """Deal ``n`` damage to a permanent; returns the damage dealt after shields and prevention."""
    from horde import boss

    if n <= 0 or not on_battlefield(game, p):
        return 0
    if p.lieutenant is not None and boss.protected(game, p) and (p.controller == HORDE) != (by == HORDE):
        return 0  # L5: a protected lieutenant can't be dealt damage
    if p.shields or (game.shielded is not None and p in game.shielded):
        # L4: one shield counter absorbs all damage dealt at the same time.
        if game.shielded is None or p not in game.shielded:
            remove_shield(game, p)
            if game.shielded is not None:
                game.shielded.add(p)
        return 0
    if "damage_removes_counters" in p.card.static_flags:
        if p.plus > 0:
            p.plus -= 1  # Unbreathing Horde: prevent the damage, remove a +1/+1 counter
            game.unsettled = True
        return 0
    p.damage += n
    p.last_hit_by = by
    game.unsettled = True
    if deathtouch is None:
        deathtouch = source is not None and has_keyword(game, source, "deathtouch")
    if deathtouch:
        p.deathtouched = True
    if game.trace is not None:
        log(game, "damage", side_name(by), source=source.card.name if source else None,
            target=p.card.name, id=p.id, amount=n)
    if source is not None and by != HORDE and has_keyword(game, source, "lifelink"):
        gain_life(game, n)
    if "DealtDamage" in p.card.hooks:
        run_hook(game, p, "DealtDamage")
    return n


def damage_many(game: Game, source: Permanent | None, by: int, targets, n: int) -> None:
    """Damage dealt to several permanents at the same time (one event for shields, L4)."""
    game.shielded = set()
    try:
        for p in targets:
            damage_permanent(game, source, by, p, n)
    finally:
        game.shielded = None


def damage_player(game: Game, source: Permanent | None, by: int, player: int, n: int,
                  combat: bool = False) -> int:
    """Damage to a team player comes off the shared team life (H1)."""
    from horde import boss

    if n <= 0:
        return 0
    game.team_life -= n
    game.damage_taken += n
    if game.trace is not None:
        log(game, "damage", side_name(by), source=source.card.name if source else None,
            target=f"player {player + 1}", amount=n, team_life=game.team_life, combat=combat)
    if by == HORDE and source is not None and source.card.is_creature and game.lieutenants is not None:
        boss.creature_damaged_player(game)  # L7
    if source is not None:
        controller_damaged(game, player, source)
    return n


def damage_horde(game: Game, n: int, source: Permanent | None = None) -> int:
    """H11: each point of damage to the Horde mills the top card of its library."""
    if n <= 0:
        return 0
    library = game.horde.library
    milled = min(n, len(library))
    for _ in range(milled):
        game.horde.graveyard.append(library.pop())
    game.horde_milled += milled
    if game.trace is not None:
        log(game, "mill", "team", amount=n, milled=milled, library=len(library))
    if source is not None and has_keyword(game, source, "lifelink"):
        gain_life(game, n)
    if source is not None:
        controller_damaged(game, HORDE, source)
    return milled


def controller_damaged(game: Game, player: int, source: Permanent) -> None:
    """'Whenever a source matching `when` deals damage to you' abilities of ``player``'s permanents."""
    from horde.effects import Context

    if not game.hooked.get("ControllerDamaged"):
        return
    for watcher in [w for w in watchers(game) if "ControllerDamaged" in w.card.hooks]:
        if watcher.controller != player:
            continue
        for effect in watcher.card.hooks["ControllerDamaged"]:
            ctx = Context(watcher.card, watcher, watcher.controller, target=source)
            when = effect.when
            if when is None or when(game, ctx, source):
                effect.run(game, ctx, **effect.args)


def lose_life(game: Game, n: int) -> None:
    if n > 0:
        game.team_life -= n
        game.life_lost += n
        if game.trace is not None:
            log(game, "life_lost", "team", amount=n, team_life=game.team_life)


def gain_life(game: Game, n: int) -> None:
    if n > 0 and not static_active(game, "cant_gain_life"):
        game.team_life += n
        game.life_gained += n
        if game.trace is not None:
            log(game, "life_gained", "team", amount=n, team_life=game.team_life)


def prevent_combat_damage(game: Game) -> None:
    game.fogged = True


# ---------------------------------------------------------------- cards in hand and library


def draw(game: Game, player: TeamPlayer) -> None:
    """Draw a card; drawing from an empty library loses the game (H13, 704.5b).
    R3: a card of the banlist is discarded and another drawn in its place."""
    while True:
        if not player.library:
            player.drew_from_empty = True
            return
        card = player.library.pop()
        if card.name in player.banned:
            player.graveyard.append(card)
            if game.trace is not None:
                log(game, "banned_discarded", "team", player=player.index + 1, card=card.name)
            continue
        player.hand.append(card)
        return


def discard(game: Game, controller: int, n: int) -> None:
    """Discard ``n`` cards: the Horde at random (H9), a team player by its policy."""
    hand = hand_of(game, controller)
    for _ in range(min(n, len(hand))):
        if controller == HORDE:
            card = hand.pop(game.horde_rng.randrange(len(hand)))
        else:
            card = ask(game, "discard", controller, list(hand))
            hand.remove(card)
        graveyard_of(game, controller).append(card)
        if game.trace is not None:
            log(game, "discard", side_name(controller), card=card.name,
                player=None if controller == HORDE else controller + 1)


def mill(game: Game, controller: int, n: int) -> None:
    if controller == HORDE:
        damage_horde(game, 0)
        library = game.horde.library
    else:
        library = game.players[controller].library
    for _ in range(min(n, len(library))):
        graveyard_of(game, controller).append(library.pop())


def any_player_exiles_from_graveyard(game: Game, controller: int, count: int) -> bool:
    """'Any player may exile COUNT cards from its graveyard': the team is asked first (a player
    with enough cards), then the Horde decides at random (H9). Returns whether one did."""
    options = [pl.index for pl in game.players if len(pl.graveyard) >= count]
    if options:
        player = ask(game, "exile_graveyard", -1, options + [None], subject=count)
        if player is not None:
            graveyard = game.players[player].graveyard
            for card in ask(game, "exile_cards", player, list(graveyard), count=count):
                graveyard.remove(card)
                game.players[player].exile.append(card)
            if game.trace is not None:
                log(game, "graveyard_exiled", "team", player=player + 1, cards=count)
            return True
    cards = [c for c in game.horde.graveyard]
    if len(cards) >= count and game.horde_rng.randrange(2):  # H9: the Horde's choice is a coin
        for _ in range(count):
            game.horde.exile.append(game.horde.graveyard.pop(game.horde_rng.randrange(len(game.horde.graveyard))))
        if game.trace is not None:
            log(game, "graveyard_exiled", "horde", cards=count)
        return True
    return False


def sacrifice_options(game: Game, p: Permanent, cost: str) -> list[Permanent]:
    """What a 'sacrifice another creature' (or 'another zombie') cost of ``p`` may sacrifice."""
    wanted = "Zombie" if cost.endswith("zombie") else "Creature"
    return [q for q in board_of(game, p.controller)
            if q is not p and (wanted in q.card.types or wanted in q.card.subtypes)]


def choose_sacrifice(game: Game, controller: int, options: list[Permanent]) -> Permanent:
    if controller == HORDE:
        return options[game.horde_rng.randrange(len(options))]  # H9
    return ask(game, "sacrifice", controller, options)


def choose_card(game: Game, controller: int, kind: str, options: list):
    if controller == HORDE:
        return options[game.horde_rng.randrange(len(options))]  # H9
    return ask(game, kind, controller, options)


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
    player.rng.shuffle(player.library)


# ---------------------------------------------------------------- mana (C4)


def available_mana(game: Game, player: int) -> int:
    """How much mana the player could make now (floating mana included)."""
    total = len(game.players[player].pool)
    for p in game.team_board:
        if p.controller == player and p.card.mana and not p.tapped and not (p.sick and p.card.is_creature):
            total += len(p.card.mana)
    return total


def spell_cost(game: Game, card, player: int, origin: str):
    """The generic amount and coloured pips a team player pays for a card (C2 commander tax,
    cost reductions); None when it can't be cast from there at all."""
    cost = card.cost
    generic = cost.generic + (card.horde_x if cost.x else 0)
    if origin == "command":
        pl = game.players[player]
        limit = game.setup.commander_casts
        if limit is not None and pl.commander_casts >= limit:
            return None
        generic += 2 * pl.commander_casts  # C2: 903.10
    if game.statics:
        generic = max(0, generic - _cost_reduction(game, card, player))
    pips = cost.pips
    if game.players[player].generic_mana:
        generic += len(pips)  # C4
        pips = ()
    return generic, pips


def can_pay(game: Game, player: int, generic: int, pips: tuple, units: list | None = None,
            colours: tuple | None = None) -> bool:
    """Whether the player's untapped sources and floating mana can pay the cost (``units`` and
    their ``colour_counts``, when given, are the player's mana as it is now)."""
    if units is None:
        units = mana_units(game, player)
    if len(units) < generic + len(pips):
        return False
    if not pips:
        return True
    counts, wild = colour_counts(units) if colours is None else colours
    if counts is not None:
        # Exact without a search when every unit makes one colour or any colour: each colour's
        # shortfall must be covered by 'any' units.
        short = 0
        for c in set(pips):
            short += max(0, pips.count(c) - counts.get(c, 0))
        return short <= wild
    return _plan_payment(game, player, generic, pips, units) is not None


def colour_counts(units: list) -> tuple:
    """(units per colour, units of any colour) of a player's mana; (None, 0) when some unit
    makes a choice of two or more colours (then only a search can tell what a cost takes)."""
    wild = 0
    counts: dict = {}
    for colours, _, _ in units:
        if "*" in colours:
            wild += 1
        elif len(colours) == 1:
            for c in colours:
                counts[c] = counts.get(c, 0) + 1
        else:
            return None, 0
    return counts, wild


def mana_units(game: Game, player: int) -> list[tuple]:
    """Every mana the player could make now: (colours, pool index or -1, source)."""
    pool = game.players[player].pool
    units: list[tuple] = [(colours, i, None) for i, colours in enumerate(pool)] if pool else []
    for p in game.team_board:
        if p.controller == player and not p.tapped:
            card = p.card
            if card.mana and not (p.sick and card.is_creature):
                for colours in card.mana:
                    units.append((colours, -1, p))
    return units


def pay(game: Game, player: int, generic: int, pips: tuple) -> bool:
    """Tap sources to pay a cost; surplus mana of a tapped source floats in the player's pool."""
    plan = _plan_payment(game, player, generic, pips)
    if plan is None:
        return False
    pool_used, sources = plan
    pl = game.players[player]
    for unit in sorted(pool_used, reverse=True):
        pl.pool.pop(unit)
    needed = generic + len(pips) - len(pool_used)
    for p in sources:
        p.tapped = True
        made = len(p.card.mana)
        use = min(made, needed)
        needed -= use
        pl.pool.extend(p.card.mana[use:])
    return True


def _plan_payment(game: Game, player: int, generic: int, pips: tuple, units: list | None = None):
    """Choose which floating mana and which sources pay a cost: each coloured pip takes the unit
    with the fewest colours that can pay it, generic mana the least flexible units left."""
    if units is None:
        units = mana_units(game, player)
    if len(units) < generic + len(pips):
        return None
    used = [False] * len(units)
    flexibility = [_flexibility(unit[0]) for unit in units]
    if len(pips) > 1:
        pips = sorted(pips, key=lambda c: sum(1 for u in units if c in u[0]))
    for pip in pips:
        best = -1
        for i, unit in enumerate(units):
            if not used[i] and (pip in unit[0] or "*" in unit[0]):
                if best < 0 or flexibility[i] < flexibility[best]:
                    best = i
        if best < 0:
            return None
        used[best] = True
    need = generic
    order = sorted(range(len(units)), key=lambda i: (units[i][1] < 0, flexibility[i]))
    for i in order:
        if need == 0:
            break
        if not used[i]:
            used[i] = True
            need -= 1
    if need:
        return None
    pool_used = [units[i][1] for i in range(len(units)) if used[i] and units[i][1] >= 0]
    sources: list = []
    for i in range(len(units)):
        if used[i] and units[i][2] is not None and units[i][2] not in sources:
            sources.append(units[i][2])
    return pool_used, sources


def _flexibility(colours: frozenset) -> int:
    """How many colours a mana unit can be ('any' is all five): spend the least flexible first."""
    return 5 if "*" in colours else len(colours)


def empty_pools(game: Game) -> None:
    for pl in game.players:
        pl.pool.clear()


# ---------------------------------------------------------------- casting


def castable(game: Game, player: int, sorcery_speed: bool = True) -> list[tuple]:
    """The (card, origin) pairs a team player can cast now: from hand, and its commander from the
    command zone (C2). Counterspells are cast only in answer to a spell."""
    pl = game.players[player]
    options = []
    candidates = []
    seen = set()
    for card in pl.hand:
        if card.is_land or card.counters is not None or card.name in seen:
            continue
        if not sorcery_speed and "Instant" not in card.types:
            continue
        seen.add(card.name)
        candidates.append(card)
    if not candidates and not pl.command:
        return options
    units = mana_units(game, player)
    if not units:
        return options
    colours = colour_counts(units)
    for card in candidates:
        cost = spell_cost(game, card, player, "hand")
        if cost is not None and can_pay(game, player, *cost, units, colours):
            options.append((card, "hand"))
    for card in pl.command:
        cost = spell_cost(game, card, player, "command")
        if cost is not None and can_pay(game, player, *cost, units, colours):
            options.append((card, "command"))
    return options


def team_cast(game: Game, player: int, card, origin: str) -> None:
    """A team player casts a card: pay, leave its zone, cast triggers, then resolve."""
    from horde.effects import Context

    pl = game.players[player]
    pay(game, player, *spell_cost(game, card, player, origin))
    if origin == "command":
        pl.command.remove(card)
        pl.commander_casts += 1
    else:
        pl.hand.remove(card)
    if game.trace is not None:
        log(game, "cast", "team", player=player + 1, card=card.name, origin=origin)
    spell_cast_triggers(game, card)
    if card.is_permanent:
        put_onto_battlefield(game, card, player, player, commander=(origin == "command" or card is pl.commander))
    else:
        ctx = Context(card, None, player, x=card.horde_x if card.cost.x else 0)
        resolve_spell(game, card, ctx)
        if card is pl.commander:
            pl.command.append(card)  # C2
        else:
            pl.graveyard.append(card)
    check_state(game)


def _cost_reduction(game: Game, card, player: int) -> int:
    total = 0
    for source in game.statics:
        if source.controller == player and "cost_reduction" in source.card.static_flags:
            for effect in source.card.hooks.get("Static", ()):
                if effect.verb == "cost_reduction" and _card_filter(effect.args["filter"], card):
                    total += effect.args["amount"]
    return total


def _card_filter(flt, card) -> bool:
    return card_matches(flt.text, card)


def card_matches(filter_text: str, card) -> bool:
    from horde.effects import card_matches as matches

    return matches(filter_text, card)


def spell_cast_triggers(game: Game, card) -> None:
    """'Whenever a player casts a spell' abilities (Blind Creeper)."""
    if not game.hooked.get("SpellCast"):
        return
    for p in watchers(game):
        if "SpellCast" in p.card.hooks:
            run_hook(game, p, "SpellCast", spell=card)


def horde_cast(game: Game, card) -> None:
    """The Horde casts a card for free (H7); the team may counter it (H10)."""
    from horde.effects import Context

    game.stats.cast_this_turn += 1
    if game.trace is not None:
        log(game, "cast", "horde", card=card.name, token=card.is_token)
    spell_cast_triggers(game, card)
    if counter_window(game, card):
        if card.is_token:
            game.horde.tokens_gone += 1
        else:
            game.horde.graveyard.append(card)  # H10
        check_state(game)
        return
    if card.is_permanent:
        put_onto_battlefield(game, card, HORDE, HORDE)
    else:
        ctx = Context(card, None, HORDE, x=card.horde_x)  # H7: X is the card's horde_x
        resolve_spell(game, card, ctx)
        game.horde.graveyard.append(card)
    check_state(game)


def counter_window(game: Game, card) -> bool:
    """H10: the team may answer a Horde spell with a counterspell it can pay for."""
    options = []
    for pl in game.players:
        seen = set()
        for held in pl.hand:
            effect = held.counters
            if effect is None or held.name in seen:
                continue
            seen.add(held.name)
            if not card_matches(effect.args["filter"], card):
                continue
            cost = spell_cost(game, held, pl.index, "hand")
            if cost is not None and can_pay(game, pl.index, *cost):
                options.append((pl.index, held))
    if not options:
        return False
    options.append(None)
    choice = ask(game, "counter", -1, options, subject=card)
    if choice is None:
        return False
    player, counterspell = choice
    pl = game.players[player]
    pay(game, player, *spell_cost(game, counterspell, player, "hand"))
    pl.hand.remove(counterspell)
    pl.graveyard.append(counterspell)
    if game.trace is not None:
        log(game, "counter", "team", player=player + 1, card=counterspell.name, countered=card.name)
    return True


# ---------------------------------------------------------------- state-based checks


def check_state(game: Game) -> None:
    """State-based actions: creatures with lethal damage or no toughness die; then the ends of
    the game: the team loses (H13), the team wins (H12)."""
    if game.unsettled or game.volatile or game.counting:
        shrinking = False  # an anthem lowers toughness: creatures may die without damage
        for source in game.statics:
            if source.card.shrinks:
                shrinking = True
                break
        while True:
            game.unsettled = False
            dead = []
            for board in (game.horde_board, game.team_board):
                for p in board:
                    card = p.card
                    if not card.is_creature:
                        continue
                    if (not p.damage and card.pt_amount is None and not shrinking
                            and card.toughness + p.plus + p.temp_toughness > 0):
                        continue  # undamaged, and nothing can make its toughness 0 or less
                    t = toughness(game, p)
                    if t <= 0:
                        dead.append((p, False))
                    elif ((p.damage >= t or (p.deathtouched and p.damage > 0))
                          and not has_keyword(game, p, "indestructible")):
                        dead.append((p, True))
            for p, destroyed in dead:
                if destroyed:
                    p.damage = 0
                    p.deathtouched = False
                    destroy(game, p, p.last_hit_by)
                else:
                    leave_battlefield(game, p, "graveyard", p.last_hit_by)
            if not dead:
                break
    if game.winner is None:
        if game.team_life <= 0 or _a_player_lost(game):
            game.winner = "horde"  # H13
        elif not game.horde.library and not game.horde.hand and not game.horde.revealed and not any(
                p.card.is_creature for p in game.horde_board):
            game.winner = "team"  # H12
            if game.boss is not None and game.trace is not None:
                log(game, "boss_vanishes", "horde")  # B6


def _a_player_lost(game: Game) -> bool:
    """H13: a team player drew from an empty library or has 15 poison counters (the team loses)."""
    for pl in game.players:
        if pl.drew_from_empty or pl.poison >= 15:
            return True
    return False


# ---------------------------------------------------------------- combat


LANDWALK = {"swampwalk": "Swamp", "islandwalk": "Island", "forestwalk": "Forest"}


def _attack_profile(game: Game, a: Permanent) -> tuple | None:
    """What limits who can block an attacker; None when nobody can (unblockable, landwalk)."""
    kw = keywords(game, a)
    if "unblockable" in kw:
        return None
    defenders = game.horde_board if a.controller != HORDE else game.team_board
    for keyword, land in LANDWALK.items():
        if keyword in kw and any(land in p.card.subtypes for p in defenders):
            return None
    return ("flying" in kw, "fear" in kw, "intimidate" in kw, a.card.colours)


def _block_profile(game: Game, b: Permanent) -> tuple | None:
    """What a creature can block; None when it can't block at all."""
    if b.tapped or not b.card.is_creature:
        return None
    kw = keywords(game, b)
    if "can't block" in kw:
        return None
    card = b.card
    artifact = "Artifact" in card.types
    return ("flying" in kw or "reach" in kw, artifact or "B" in card.colours, artifact, card.colours)


def _may_block(attack: tuple, block: tuple) -> bool:
    flying, fear, intimidate, colours = attack
    reaches, fear_ok, artifact, blocker_colours = block
    if flying and not reaches:
        return False
    if fear and not fear_ok:
        return False
    return not intimidate or artifact or bool(blocker_colours & colours)


def can_block(game: Game, blocker: Permanent, attacker: Permanent) -> bool:
    """Whether ``blocker`` may block ``attacker``: flying and reach, fear, intimidate, landwalk,
    unblockable, can't block."""
    attack = _attack_profile(game, attacker)
    block = _block_profile(game, blocker)
    return attack is not None and block is not None and _may_block(attack, block)


def legal_blocks(game: Game, blockers, attackers, allowed=None) -> list[tuple]:
    """Every (blocker, attacker) pair that may be declared, each profile computed once;
    ``allowed(blocker, attacker)`` can narrow it further (the blocking option of H8)."""
    attacks = [(a, _attack_profile(game, a)) for a in attackers]
    attacks = [(a, profile) for a, profile in attacks if profile is not None]
    pairs = []
    if not attacks:
        return pairs
    for b in blockers:
        block = _block_profile(game, b)
        if block is None:
            continue
        for a, attack in attacks:
            if _may_block(attack, block) and (allowed is None or allowed(b, a)):
                pairs.append((b, a))
    return pairs


def combat_damage(game: Game, attackers: list[Permanent], defender_is_horde: bool) -> None:
    """Deal combat damage in a first-strike step and a regular step (H8 for the Horde's attack)."""
    if game.fogged:
        if game.trace is not None:
            log(game, "damage_prevented", "team", reason="fog")
        return
    any_first = any(_strikes_first(game, a) for a in attackers) or any(
        _strikes_first(game, b) for a in attackers for b in a.blockers)
    steps = (True, False) if any_first else (False,)
    for first in steps:
        _damage_step(game, attackers, defender_is_horde, first, any_first)
        check_state(game)
        if game.winner is not None:
            return


def _strikes_first(game: Game, p: Permanent) -> bool:
    kw = keywords(game, p)
    return "first strike" in kw or "double strike" in kw


def _deals_in_step(game: Game, p: Permanent, first: bool, any_first: bool) -> bool:
    if "assigns no combat damage" in p.temp_keywords:
        return False
    if not any_first:
        return True
    kw = keywords(game, p)
    if "double strike" in kw:
        return True
    return ("first strike" in kw) == first


def _damage_step(game: Game, attackers, defender_is_horde: bool, first: bool, any_first: bool) -> None:
    game.shielded = set()  # L4: one combat damage step is one event
    try:
        assignments: list[tuple] = []  # (source, target, amount, deathtouch)
        for a in attackers:
            if not on_battlefield(game, a):
                continue
            if a.blocked:
                for b in a.blockers:
                    if on_battlefield(game, b) and _deals_in_step(game, b, first, any_first):
                        assignments.append((b, a, max(0, power(game, b))))
            if not _deals_in_step(game, a, first, any_first):
                continue
            amount = max(0, power(game, a))
            if not a.blocked:
                assignments.append((a, "defender", amount))
                continue
            living = [b for b in a.blockers if on_battlefield(game, b)]
            kw = keywords(game, a)
            trample = "trample" in kw
            if not living:
                if trample:
                    assignments.append((a, "defender", amount))
                continue
            deathtouch = "deathtouch" in kw
            for i, b in enumerate(living):
                if amount <= 0:
                    break
                lethal = 1 if deathtouch else max(0, toughness(game, b) - b.damage)
                if i == len(living) - 1 and not trample:
                    lethal = amount
                give = min(amount, lethal)
                assignments.append((a, b, give))
                amount -= give
            if amount > 0 and trample:
                assignments.append((a, "defender", amount))
        for source, target, amount in assignments:
            if amount <= 0:
                continue
            if target == "defender":
                if defender_is_horde:
                    damage_horde(game, amount, source)  # H11
                else:
                    damage_player(game, source, source.controller, source.defender, amount, combat=True)
            else:
                damage_permanent(game, source, source.controller, target, amount)
    finally:
        game.shielded = None


def end_combat(game: Game, attackers: list[Permanent]) -> None:
    for a in attackers:
        a.attacking = False
        a.blocked = False
        a.blockers = []
    for board in (game.team_board, game.horde_board):
        for p in board:
            p.blocked = False

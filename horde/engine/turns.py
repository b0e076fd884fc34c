"""The turn structure: the team's shared turn and the Horde's turn (H2, H4-H8), and the opening
hands (C3). Each step calls ``horde.engine.rules``; the boss and lieutenants come in through
``horde.engine.boss`` at the points H4 names.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from horde.engine import boss, rules, schemes
from horde.engine.cards import LOCKED, CardDef, Effect, ability_text
from horde.engine.events import log
from horde.engine.filters import Context
from horde.engine.rules import ask, check_state, has_keyword, power
from horde.engine.shuffling import randbelow, shuffle
from horde.engine.state import HORDE_CONTROLLER, Game, Permanent, Side
from horde.limits import ACTIVATIONS_MAX

HAND_SIZE = 7


# ---------------------------------------------------------------- opening hands (C3)


def opening_hands(game: Game) -> None:
    """C3: each player draws seven; London mulligan with the first one free (or partial Paris)."""
    for player in game.players:
        shuffle(player.rng, player.library)
        for _ in range(HAND_SIZE):
            rules.draw(game, player)
        mulligans = 0
        while len(player.hand) and mulligans < HAND_SIZE:
            if game.setup.mulligan == "partial_paris":
                # 903.8 (older rule): exile any number, draw one fewer, shuffle them back at the end.
                exiled = ask(game, "paris_exile", player.index, list(player.hand), subject=tuple(player.hand))
                if not exiled:
                    break
                for card in exiled:
                    player.hand.remove(card)
                mulligans += 1
                for _ in range(len(exiled) - 1):
                    rules.draw(game, player)
                player.library.extend(exiled)
                shuffle(player.rng, player.library)
                continue
            choice = ask(game, "mulligan", player.index, ("keep", "mulligan"), subject=tuple(player.hand),
                         count=mulligans)
            if choice == "keep":
                break
            mulligans += 1
            player.library.extend(player.hand)
            player.hand.clear()
            shuffle(player.rng, player.library)
            for _ in range(HAND_SIZE):
                rules.draw(game, player)
        bottom = max(0, mulligans - 1) if game.setup.mulligan == "london" else 0  # C3: first one free
        bottom = min(bottom, len(player.hand))
        if bottom:
            cards = ask(game, "bottom", player.index, list(player.hand), count=bottom)
            for card in cards:
                player.hand.remove(card)
                player.library.insert(0, card)
        if game.drivers.trace is not None:
            log(game, "opening_hand", Side.TEAM, player=player.index + 1, mulligans=mulligans,
                cards=len(player.hand))


# ---------------------------------------------------------------- the team's turn


def run_steps(game: Game, steps: Iterable[Callable[[Game], None]]) -> None:
    """Run a turn's steps in order; state-based actions are checked after each (704.3: at the
    latest when a player would receive priority, so equipment or an aura moved anywhere in a step
    never leaves a creature alive with lethal damage), then the invariant check (tests), and the
    turn stops as soon as the game is over."""
    for step in steps:
        step(game)
        check_state(game)
        if game.drivers.check is not None:
            game.drivers.check(game)
        if game.over():
            return


def team_turn(game: Game) -> None:
    """The team's shared turn (H1): untap, upkeep, draw, main, combat, main, end."""
    game.active = Side.TEAM
    run_steps(game, (team_beginning, team_draw, main_phase, team_combat, second_main_phase, end_step))


def team_beginning(game: Game) -> None:
    """Untap (502.3: but a permanent that skips its next untap step) and upkeep."""
    for p in game.battlefield.team:
        if p.skip_untaps:
            p.skip_untaps -= 1
        else:
            p.tapped = False
        p.sick = False
    for player in game.players:
        player.land_played = False
        player.spells_cast = 0
    game.spells_this_turn = 0
    if game.schemes is not None:
        schemes.opponents_untap(game)  # A: I Know All, I See All
    upkeep(game, [pl.index for pl in game.players if not pl.removed], game.battlefield.team)


def team_draw(game: Game) -> None:
    """Each player draws; as in Two-Headed Giant, the team that goes first skips its first draw
    step. Then 'at the beginning of each player's draw step' abilities, once for each player
    (after its draw: the order a player of the shared turn would pick; the Horde has no draw
    step, H4)."""
    if game.turn > 1:
        for player in game.players:
            if not player.removed:  # Z4
                rules.draw(game, player)
        check_state(game)
        if game.battlefield.hooked.get("EachDrawStep") and not game.over():
            for player in game.players:
                if player.removed:
                    continue
                for p in rules.watchers(game):
                    if "EachDrawStep" in p.card.hooks and _has_abilities(game, p):
                        rules.run_hook(game, p, "EachDrawStep", that_player=player.index)
            check_state(game)


def second_main_phase(game: Game) -> None:
    main_phase(game, second=True)


def upkeep(game: Game, players: list[int], board: list[Permanent]) -> None:
    """'Your upkeep' abilities of the active side, 'each upkeep' abilities once, then 'each
    player's upkeep' abilities for each player whose upkeep it is (the Horde counts as a player: H9); echo (702.30), suspend
    (702.62) and rebound (702.88) of the players whose upkeep it is."""
    if game.keyword_state is not None:
        rules.exile_upkeep(game, players)
    rules.echo(game, board)
    for p in list(board):
        if "Upkeep" in p.card.hooks and rules.on_battlefield(game, p):
            rules.run_hook(game, p, "Upkeep")
    hooked = game.battlefield.hooked
    if hooked.get("UpkeepStep") and players:  # 'each upkeep': the shared turn has one upkeep step (H1)
        for p in rules.watchers(game):
            if "UpkeepStep" in p.card.hooks and _has_abilities(game, p):
                rules.run_hook(game, p, "UpkeepStep", that_player=players[0])
    if not hooked.get("EachUpkeep") and not hooked.get("OpponentUpkeep"):
        players = []
    for player in players:
        for p in rules.watchers(game):
            if "EachUpkeep" in p.card.hooks and _has_abilities(game, p):
                rules.run_hook(game, p, "EachUpkeep", that_player=player)
            if ("OpponentUpkeep" in p.card.hooks and (p.controller == HORDE_CONTROLLER) != (player == HORDE_CONTROLLER)
                    and _has_abilities(game, p)):
                rules.run_hook(game, p, "OpponentUpkeep", that_player=player)
    check_state(game)


def _has_abilities(game: Game, p: Permanent) -> bool:
    """A watcher's abilities work: any permanent, a lieutenant only on the battlefield (L6: exiled
    with time counters, it has none)."""
    return p.lieutenant is None or rules.on_battlefield(game, p)


def main_phase(game: Game, second: bool = False) -> None:
    """Each player in turn plays a land, casts spells, equips and activates abilities, as its
    policy chooses."""
    for player in game.players:
        i = player.index
        if player.removed:
            continue  # Z4: it left the game
        if not player.land_played:
            lands = []
            for held in player.hand:
                for card in held.land_faces:  # a land, or a modal double-faced card's land face (712.12)
                    if card not in lands:
                        lands.append(card)
            if lands:
                land = ask(game, "land", i, lands + [None])
                if land is not None:
                    player.hand.remove(land.whole_card)
                    player.land_played = True
                    if game.drivers.trace is not None:
                        log(game, "land_played", Side.TEAM, player=i + 1, card=land.name)
                    rules.put_onto_battlefield(game, land, i, i)
        if not second:
            cycle_step(game, i)
        while not game.over():
            options = rules.castable(game, i)
            if not options:
                break
            choice = ask(game, "cast", i, options + [None])
            if choice is None:
                break
            card, origin = choice
            rules.team_cast(game, i, card, origin)
        if not second and not game.over():
            graveyard_step(game, i)
        if not game.over():
            loyalty_step(game, i)
        if game.over():
            return
        equip_step(game, i)
        activate_step(game, i, "second_main" if second else "first_main")
        if game.over():
            return
    rules.empty_pools(game)


def cycle_step(game: Game, i: int) -> None:
    """The team player cycles cards from its hand as its policy chooses (the Horde never cycles:
    its only hand is bounced cards, which it casts, H6)."""
    for card in game.players[i].hand:
        if card.cycling is not None:
            break
    else:
        return  # nothing to cycle
    while not game.over():
        options = rules.cyclable(game, i)
        if not options:
            return
        choice = ask(game, "cycle", i, options + [None])  # not `card`: that is a CardDef, never None
        if choice is None:
            return
        rules.cycle(game, i, choice)


def graveyard_step(game: Game, i: int) -> None:
    """The team player unearths cards and activates abilities of cards in its graveyard (sorcery
    speed, before combat so an unearthed creature can attack), as its policy chooses."""
    while not game.over():
        for card in game.players[i].graveyard:
            if card.graveyard_ability:
                break
        else:
            return  # no card there does anything
        options = rules.graveyard_uses(game, i)
        if not options:
            return
        choice = ask(game, "graveyard", i, options + [None])
        if choice is None:
            return
        rules.use_graveyard(game, i, *choice)


def flash_window(game: Game, attackers: list[Permanent]) -> None:
    """After the Horde's attackers are declared and before blocks, each team player may cast
    instants and flash cards it can pay for (flash creatures cast now can block), as its policy
    chooses (at a table, what its players do then)."""
    if game.drivers.team_side is not None:
        game.drivers.team_side.respond(game, "attackers")
        return
    for player in game.players:
        i = player.index
        while not game.over():
            now = [card for held in player.hand for card in held.hand_spells  # a face too (an instant Adventure)
                   if ("flash" in card.keywords or "Instant" in card.types) and card.counters is None and not card.is_fog]
            if not now:
                break  # nothing it could cast now
            if not rules.available_mana(game, i) and all(card.mana_value for card in now):
                break  # no mana to cast any of them with
            options = [(card, origin) for card, origin in rules.castable(game, i, sorcery_speed=False)
                       if not card.is_fog]
            if not options:
                break
            choice = ask(game, "flash", i, options + [None], subject=tuple(attackers))
            if choice is None:
                break
            if game.drivers.trace is not None:
                log(game, "flash", Side.TEAM, player=i + 1, card=choice[0].name)
            card, origin = choice
            rules.team_cast(game, i, card, origin)


def loyalty_options(game: Game, i: int) -> list[tuple[Permanent, tuple[Effect, ...]]]:
    """The loyalty abilities team player ``i`` may activate now (606.3: sorcery speed, once a turn
    for each of its planeswalkers; 606.6: a minus ability only with enough loyalty; 601.2c: a
    targeted one only with a legal target, none for a zombie whose master is the Horde; Z3: none
    that would harm a zombie or its master)."""
    options = []
    zombie = game.players[i].zombie
    for p in game.battlefield.planeswalkers:
        if p.controller != i or p.loyalty_turn == game.turn or rules.has_keyword(game, p, LOCKED):
            continue  # 606.3; a loyalty ability is an activated ability (Faith's Fetters)
        for hook in ("Plus", "Minus", "Ultimate"):
            for ability in p.card.abilities(hook):
                if p.loyalty + (ability[0].cost or 0) < 0:
                    continue
                if not rules.has_legal_target(game, Context(p.card, p, i), ability):
                    continue  # 602.2b, 601.2c; Z3: a zombie of the Horde's finds no legal target
                if zombie and rules.ability_harms(game, i, ability):
                    continue  # Z3
                options.append((p, ability))
    return options


def loyalty_step(game: Game, i: int) -> None:
    """The team player activates its planeswalkers' loyalty abilities as its policy chooses, one
    for each planeswalker a turn, in either main phase (606.3); the cost adds or removes loyalty
    counters (606.4) before the ability resolves."""
    if not game.battlefield.planeswalkers:
        return
    while not game.over():
        options = loyalty_options(game, i)
        if not options:
            return
        choice = ask(game, "loyalty", i, options + [None])
        if choice is None:
            return
        p, ability = choice
        change = ability[0].cost or 0
        before = p.loyalty
        p.loyalty += change
        p.loyalty_turn = game.turn
        game.battlefield.unsettle()  # 704.5i: a planeswalker left with no loyalty goes
        if game.drivers.trace is not None:
            log(game, "loyalty_ability", Side.TEAM, player=i + 1, card=p.card.name, id=p.id, change=change,
                effects=" ; ".join(e.describe() for e in ability), text=ability_text(p.card, ability),
                loyalty_before=before, loyalty_after=p.loyalty)
        rules.resolve(game, ability, Context(p.card, p, i))
        check_state(game)


# The moments a team player may activate abilities (602.2: whenever it has priority), as the
# ``activate`` decision's subject: its first and second main phases ("first_main",
# "second_main", the only ones for an ability activated only as a sorcery: 602.5b); the
# beginning of its combat, before attackers ("attack"); after the Horde's blocks in its combat
# ("blocked"); in the Horde's combat after its attackers are declared ("horde_attacks": flying
# to block a flier) and after the team's blocks ("blocks").
ACTIVATION_MOMENTS = ("first_main", "attack", "blocked", "second_main", "horde_attacks", "blocks")
MAIN_PHASES = ("first_main", "second_main")


def activation_window(game: Game, moment: str) -> None:
    """Each team player in turn may activate abilities now (``activate_step``); at a table the
    players act themselves (the fog window asks them after blocks)."""
    if game.drivers.team_side is not None or not game.battlefield.hooked.get("Activated"):
        return  # at a table, or nothing on the battlefield has an activated ability
    for player in game.players:
        if not player.removed:
            activate_step(game, player.index, moment)
            if game.over():
                return


def activate_step(game: Game, i: int, moment: str = "second_main") -> None:
    """The team player activates abilities it can pay for, as its policy chooses, any number of
    times (602.2), within its limits (602.5b: 'Activate only once each turn', 'only as a
    sorcery', 'only during your turn') and at most ``ACTIVATIONS_MAX`` times each in one window
    (H15)."""
    if not game.battlefield.hooked.get("Activated"):
        return
    times: dict[tuple[int, int], int] = {}
    while not game.over():
        options = []
        for p in game.battlefield.team:
            if p.controller != i or "Activated" not in p.card.hooks or rules.has_keyword(game, p, LOCKED):
                continue
            for ability in p.card.abilities("Activated"):
                if ability[0].verb == "regenerate" and ability[0].args.get("on") == "self" and len(ability) == 1:
                    continue  # offered when the creature would be destroyed (the 'regenerate' decision)
                if times.get((p.id, ability[0].line), 0) < ACTIVATIONS_MAX and may_activate(game, p, ability, moment) \
                        and _can_pay_activation(game, p, ability):
                    options.append((p, ability))
        if not options:
            return
        choice = ask(game, "activate", i, options + [None], subject=moment)
        if choice is None:
            return
        p, ability = choice
        line = ability[0].line
        times[p.id, line] = times.get((p.id, line), 0) + 1
        if "once each turn" in ability[0].limit:
            if p.marks is None:
                p.marks = {}
            p.marks[f"activated {line}"] = game.turn
        paid: list[CardDef] = []
        if "tap" in ability[0].costs:
            p.tapped = True  # {T} first: a mana source that taps for its own ability pays none of its mana
        for cost in ability[0].costs:
            if cost == "tap":
                continue
            elif cost == "exile this":
                paid.append(p.card.whole_card)
                rules.exile(game, p, i)
            elif cost == "discard a card":
                rules.discard(game, i, 1)  # its policy chooses the card
            elif isinstance(cost, str) and cost.startswith("pay "):
                rules.lose_life(game, int(cost.split()[1]), i, i)  # 119.4: paying life is losing it (H1)
            elif isinstance(cost, str):
                victim = ask(game, "sacrifice", i, rules.sacrifice_options(game, p, cost))
                paid.append(victim.card.whole_card)
                rules.sacrifice(game, victim)
            else:
                rules.pay(game, i, cost.generic, cost.pips)
        if game.drivers.trace is not None:
            log(game, "activate", Side.TEAM, player=i + 1, card=p.card.name,
                effects=" ; ".join(e.describe() for e in ability), text=ability_text(p.card, ability))
        ctx = Context(p.card, p, i)
        ctx.paid = tuple(paid)
        rules.resolve(game, ability, ctx)
        check_state(game)


def may_activate(game: Game, p: Permanent, ability: tuple[Effect, ...], moment: str) -> bool:
    """Whether its limits let the ability be activated now (602.5b), and it has a legal target
    (602.2b, 601.2c)."""
    limit = ability[0].limit
    if limit:
        if "as a sorcery" in limit and moment not in MAIN_PHASES:
            return False
        if "during your turn" in limit and game.active != Side.TEAM:
            return False
        if "once each turn" in limit and p.marks is not None and p.marks.get(f"activated {ability[0].line}") == game.turn:
            return False
    return rules.has_legal_target(game, Context(p.card, p, p.controller), ability)


def _can_pay_activation(game: Game, p: Permanent, ability: tuple[Effect, ...]) -> bool:
    """Whether the ability's costs can be paid now; its mana without the source's own when the
    ability taps it (Rogue's Passage's {4} from four other lands)."""
    costs = ability[0].costs
    if "tap" in costs:
        if p.tapped or rules.summoning_sick(game, p):
            return False
        p.tapped = True  # asked as if tapped: its own mana can't pay the rest
        try:
            return _can_pay_costs(game, p, costs)
        finally:
            p.tapped = False
    return _can_pay_costs(game, p, costs)


def _can_pay_costs(game: Game, p: Permanent, costs: tuple) -> bool:
    for cost in costs:
        if cost == "tap":
            continue
        elif cost == "exile this":
            continue
        elif cost == "discard a card":
            if not game.players[p.controller].hand:
                return False
        elif isinstance(cost, str) and cost.startswith("pay "):
            player = game.players[p.controller]
            if (player.life if rules.individual(game) else game.team_life) < int(cost.split()[1]):
                return False  # 119.4: a player can pay life only up to its life total
        elif isinstance(cost, str):
            if not rules.sacrifice_options(game, p, cost):
                return False
        elif not rules.can_pay(game, p.controller, cost.generic, cost.pips):
            return False
    return True


def equip_step(game: Game, i: int) -> None:
    """The player may pay equip costs to attach its equipment to its creatures."""
    owned = [p for p in game.battlefield.team if p.controller == i and p.card.equip is not None
             and not rules.has_keyword(game, p, LOCKED)]  # equip is an activated ability (Faith's Fetters)
    while owned:
        options = []
        for equipment in owned:
            cost = equipment.card.equip
            if cost is None or not rules.can_pay(game, i, cost.generic, cost.pips):
                continue
            for creature in game.battlefield.team:
                if (creature.controller == i and creature.card.is_creature and equipment.attached_to is not creature
                        and not rules.protected_from(game, creature, equipment.card)):  # 702.16d
                    options.append((equipment, creature))
        if not options:
            return
        choice = ask(game, "equip", i, options + [None])
        if choice is None:
            return
        equipment, creature = choice
        rules.pay(game, i, equipment.card.equip.generic, equipment.card.equip.pips)
        game.battlefield.attach(equipment, creature)
        if game.drivers.trace is not None:
            log(game, "equip", Side.TEAM, player=i + 1, equipment=equipment.card.name, creature=creature.card.name)
        # 704.5f, 704.5g: the creature it left may now have lethal damage or no toughness.
        check_state(game)
        if game.over():
            return


def can_attack(game: Game, p: Permanent) -> bool:
    return (p.card.is_creature and not p.tapped and not rules.summoning_sick(game, p)
            and not has_keyword(game, p, "defender")
            and not has_keyword(game, p, "can't attack")
            and (not game.players[p.controller].zombie or rules.may_attack(game, p.controller)))  # Z3


def team_combat(game: Game) -> None:
    """The team attacks the Horde; unblocked damage mills it (H11). Only untapped Horde creatures
    block (H8); each blocks a random attacker it can block (H9)."""
    activation_window(game, "attack")  # the beginning of combat (507): before attackers are declared
    if game.over():
        return
    options = [p for p in game.battlefield.team if can_attack(game, p)]
    if not options:
        return
    attackers = ask(game, "attackers", -1, options, count=len(options))
    if not attackers:
        return
    for a in attackers:
        a.attacking = True
        if not has_keyword(game, a, "vigilance"):
            a.tapped = True
        if game.drivers.trace is not None:
            log(game, "attack", Side.TEAM, card=a.card.name, id=a.id, power=power(game, a), target="the Horde",
                target_id=None, target_player=None)
    rules.exalted(game, attackers)
    for a in attackers:
        if "Attacks" in a.card.hooks:
            rules.run_hook(game, a, "Attacks")
    if game.battlefield.hooked.get("CreatureAttacks"):
        creature_attacks(game, attackers)  # 'Whenever a creature you control attacks'
    check_state(game)
    if game.over():
        return
    attackers = [a for a in attackers if rules.on_battlefield(game, a)]
    # H8/H9: each untapped Horde creature blocks a random attacker it can legally block.
    by_blocker: dict = {}
    for b, a in rules.legal_blocks(game, game.battlefield.horde, attackers):
        by_blocker.setdefault(b, []).append(a)
    for blocker, legal in by_blocker.items():
        if legal:
            a = legal[randbelow(game.horde_rng, len(legal))]
            a.blocked = True
            a.blockers.append(blocker)
            blocker.blocked = True
    for a in attackers:
        if a.blocked and has_keyword(game, a, "menace") and len(a.blockers) < 2:
            for b in a.blockers:
                b.blocked = False
            a.blocked, a.blockers = False, []
    declare_blocks_effects(game, attackers)
    activation_window(game, "blocked")  # 509.6: the declare blockers step, before damage
    if game.over():
        return
    attackers = [a for a in attackers if rules.on_battlefield(game, a)]
    if game.setup.burn_bodies:
        burn = ask(game, "burn", -1, [False, True], subject=(len(game.horde.library), len(game.horde.graveyard)))
        game.burning = bool(burn)  # V5: all or nothing for this combat
        if game.drivers.trace is not None:
            log(game, "burn_bodies", Side.TEAM, burn=game.burning)
    rules.combat_damage(game, attackers, defender_is_horde=True)
    game.burning = False
    rules.end_combat(game, attackers)
    check_state(game)


def declare_blocks_effects(game: Game, attackers: list[Permanent]) -> None:
    """Flanking (the blocker without flanking gets -1/-1), 'whenever it blocks' and 'whenever it
    becomes blocked' triggers."""
    for a in attackers:
        if has_keyword(game, a, "flanking"):
            for b in a.blockers:
                if not has_keyword(game, b, "flanking"):
                    rules.pump(game, b, -1, -1)
        if game.drivers.trace is not None and a.blockers:
            log(game, "block", Side.HORDE if a.is_horde else Side.TEAM, attacker=a.card.name,
                blockers=[b.card.name for b in a.blockers])
        for b in a.blockers:
            if "Blocks" in b.card.hooks:
                rules.run_hook(game, b, "Blocks")
        if a.blockers and "Blocked" in a.card.hooks and rules.on_battlefield(game, a):
            rules.run_hook(game, a, "Blocked")  # 'whenever it becomes blocked' (bushido, rampage)
    check_state(game)


def _no_maximum_hand_size(game: Game, player: int) -> bool:
    """402.2: a permanent of the player's says it has no maximum hand size (Reliquary Tower)."""
    for source in game.battlefield.statics:
        if source.controller == player and "no_maximum_hand_size" in source.card.static_flags:
            return True
    return False


def end_step(game: Game) -> None:
    """End step triggers (unearthed permanents are exiled first: 702.84), then cleanup: hand size
    (team), damage and 'until end of turn' end."""
    for p in list(game.battlefield.unearthed):
        rules.exile(game, p)
    rules.dash_end_step(game)  # 702.109a
    if game.schemes is not None:
        schemes.end_step(game)  # A: the schemes' "your end step" and "your opponents' end step"
        if game.over():
            return
    for p in rules.watchers(game) if game.battlefield.hooked.get("EndStep") else ():
        # A permanent an earlier trigger removed does not trigger; the boss (id -1) always can.
        if "EndStep" in p.card.hooks and (p.id < 0 or rules.on_battlefield(game, p)):
            rules.run_hook(game, p, "EndStep")
    check_state(game)
    if game.over():
        return
    if game.active == Side.TEAM:
        for player in game.players:
            if len(player.hand) > HAND_SIZE and not _no_maximum_hand_size(game, player.index):
                rules.discard(game, player.index, len(player.hand) - HAND_SIZE)
    lowered = False  # an 'until end of turn' +N/+N ended: a creature with -1/-1 counters may have no toughness left
    for board in (game.battlefield.team, game.battlefield.horde):
        for p in board:
            p.damage = 0
            p.deathtouched = False
            if p.temp_toughness > 0:
                lowered = True
            p.temp_power = p.temp_toughness = 0
            if p.temp_keywords:
                p.temp_keywords = kept_keywords(game, p)
            p.regeneration = 0
            p.no_regen = False
    game.fogged = False
    if game.borrowed or game.prevented:
        rules.end_of_turn_effects(game)  # A: control "until end of turn" ends, prevention ends
    if game.schemes is not None:
        schemes.turn_ends(game)
    rules.empty_pools(game)
    if lowered:
        game.battlefield.unsettle()
        check_state(game)  # 514.3a: state-based actions in the cleanup step


def kept_keywords(game: Game, p: Permanent) -> frozenset[str]:
    """The keywords a permanent keeps past this turn's end: those given 'until the end of the
    Horde's next turn' (F), until that turn ends."""
    if p.kept_keywords and (game.active == Side.TEAM or game.horde_turns < p.kept_until):
        return p.kept_keywords
    p.kept_keywords = frozenset()
    return p.kept_keywords


# ---------------------------------------------------------------- the Horde's turn (H4)


def horde_turn(game: Game) -> None:
    """H4: untap; beginning (L2, L7); reveal and cast (H5, H6); boss (B3); lieutenants (L8);
    combat (H8); end of turn."""
    game.active = Side.HORDE
    game.horde_turns += 1
    game.drivers.stats.cast_this_turn = 0
    game.spells_this_turn = 0
    acted: set = set()

    def lieutenants(game: Game) -> None:
        acted.update(boss.lieutenants_act(game))

    run_steps(game, (horde_beginning, reveal_and_cast, schemes.set_in_motion, boss_step, lieutenants,
                     lambda game: horde_combat(game, acted), end_step))


def horde_beginning(game: Game) -> None:
    """Untap; the boss arrives, the entry roll, time counters (B1, L2, L7); upkeep."""
    for p in game.battlefield.horde:
        p.tapped = False
    boss.beginning_of_horde_turn(game)
    upkeep(game, [HORDE_CONTROLLER], game.battlefield.horde)
    if game.schemes is not None and not game.over():
        schemes.upkeep(game)  # A: the schemes' "your upkeep" (I Bask in Your Silent Awe)


def boss_step(game: Game) -> None:
    """B3: the boss activates one loyalty ability."""
    if game.boss is not None:
        boss.boss_acts(game)


def reveal_and_cast(game: Game) -> None:
    """H5: reveal until a nontoken card (or H5e: a growing number), cast the tokens first, then
    the nontoken card (H5o); H6: then cast the cards that were bounced to the Horde's hand."""
    library = game.horde.library
    setup = game.setup
    stats = game.drivers.stats
    waiting = list(game.horde.hand)  # H6: bounced before this turn
    game.horde.hand.clear()
    revealed = []
    if setup.reveal == "escalating":
        n = setup.reveal_base + game.horde_turns - 1  # H5e
        for _ in range(min(n, len(library))):
            revealed.append(library.pop())
    elif setup.reveal == "emblems":
        nontoken = 0  # V3: until as many nontoken cards as the Horde has emblems
        while library and nontoken < game.emblems:
            card = library.pop()
            revealed.append(card)
            if not (card.is_token and card.is_creature):
                nontoken += 1
    else:
        while library:
            card = library.pop()
            revealed.append(card)
            if not (card.is_token and card.is_creature):
                break
    for card in revealed:
        stats.cards_revealed += 1
        if card.is_token:
            stats.streak += 1
            stats.longest_streak = max(stats.longest_streak, stats.streak)
        else:
            stats.streak = 0
            stats.revealed.append((card.name, game.horde_turns))
    if game.drivers.trace is not None:
        log(game, "reveal", Side.HORDE, cards=[c.name for c in revealed], library=len(library))
    if setup.cast_order == "revealed":
        order = revealed
    else:
        order = [c for c in revealed if c.is_token] + [c for c in revealed if not c.is_token]
    # H6: cards bounced before this turn are cast right after the revealed ones.
    pending = game.horde.revealed
    pending.extend(order + waiting)
    while pending:
        card = pending.pop(0)
        if card.is_token and setup.token_entry == "put" and card not in waiting:
            stats.cast_this_turn += 1
            rules.put_onto_battlefield(game, card, HORDE_CONTROLLER, HORDE_CONTROLLER)  # H5t
            check_state(game)
        else:
            rules.horde_cast(game, card, "hand" if any(card is w for w in waiting) else None)  # H6
        if game.over():
            break
    if not game.over():
        rules.horde_graveyard(game)  # Decision (H6, H7): then its graveyard's abilities, once per card
    stats.biggest_turn = max(stats.biggest_turn, stats.cast_this_turn)


def horde_combat(game: Game, acted: set) -> None:
    """H8: every Horde creature attacks if able, each a random team player or planeswalker
    (``attack_targets``); the team blocks
    (any team creature may block any attacker, as in Two-Headed Giant; option: only the attacked
    player's), may cast a fog, then damage."""
    attackers = [p for p in game.battlefield.horde if p.card.is_creature and not p.tapped
                 and not has_keyword(game, p, "defender") and not has_keyword(game, p, "can't attack")
                 and p.id not in acted]
    if not attackers:
        return
    choose_target = attack_targets(game, attackers)
    for a in attackers:
        a.attacking = True
        if a.sworn >= 0 and not game.players[a.sworn].removed:
            a.defender = a.sworn  # A: it attacks that player each combat if able
        else:
            choose_target(a)  # H8: a random team player (Z: one still in the game) or planeswalker
        if not has_keyword(game, a, "vigilance"):
            a.tapped = True
        if game.drivers.trace is not None:
            walker = a.attacked
            if walker is None:
                log(game, "attack", Side.HORDE, card=a.card.name, id=a.id, power=power(game, a),
                    target=f"player {a.defender + 1}", target_id=None, target_player=a.defender + 1)
            else:
                log(game, "attack", Side.HORDE, card=a.card.name, id=a.id, power=power(game, a),
                    target=walker.card.name, target_id=walker.id, target_player=None)
    rules.exalted(game, attackers)
    for a in attackers:
        if "Attacks" in a.card.hooks and rules.on_battlefield(game, a):
            rules.run_hook(game, a, "Attacks")
            if game.over():
                return
    if game.battlefield.hooked.get("CreatureAttacks"):
        creature_attacks(game, attackers)
    check_state(game)
    if game.over():
        return
    attackers = [a for a in attackers if rules.on_battlefield(game, a)]
    if game.keyword_state is not None and game.keyword_state.myriad:
        attackers += [p for p in game.keyword_state.myriad if p.attacking and p not in attackers]  # 702.116a
    flash_window(game, attackers)
    if not game.over():
        activation_window(game, "horde_attacks")  # 508.8: the declare attackers step, before blocks
    if game.over():
        return
    attackers = [a for a in attackers if rules.on_battlefield(game, a) and a.attacking]
    if game.drivers.team_side is not None:
        game.drivers.team_side.blockers(game, attackers)  # H8 at a table: the players' blockers enter
    only_defender = game.setup.blocking == "defender"
    pairs = rules.legal_blocks(game, game.battlefield.team, attackers,
                               (lambda b, a: b.controller == a.defender) if only_defender else None)
    if pairs:
        def legal(blocks: list[tuple[Permanent, Permanent]]) -> bool:
            for a in attackers:
                if has_keyword(game, a, "menace"):
                    n = sum(1 for _, x in blocks if x is a)
                    if n == 1:
                        return False
            return rules.blocks_allowed(game, attackers, blocks)

        blocks = ask(game, "blocks", -1, pairs, subject=tuple(attackers), count=len(pairs), is_legal=legal)
        if any(has_keyword(game, a, "must be blocked") for a in attackers):
            blocks = required_blocks(game, attackers, pairs, list(blocks))
        for b, a in blocks:
            a.blocked = True
            a.blockers.append(b)
            b.blocked = True
        declare_blocks_effects(game, attackers)
        if game.over():
            return
        activation_window(game, "blocks")  # 509.6: the declare blockers step, before damage
        if game.over():
            return
    fog_window(game, attackers)
    rules.combat_damage(game, attackers, defender_is_horde=False)
    rules.end_combat(game, attackers)
    if game.over():
        return  # H13a: nothing follows the game's end
    rules.end_of_combat(game)
    for a in attackers:
        if has_keyword(game, a, "destroyed after combat") and rules.on_battlefield(game, a):
            rules.destroy(game, a, HORDE_CONTROLLER)  # M4: Consuming Rage
    check_state(game)


def attack_targets(game: Game, attackers: list[Permanent]) -> Callable[[Permanent], None]:
    """H8: what each Horde attacker attacks, as ``horde_attacks`` says: ``random`` (the original
    article's rule) uniformly among the team's players still in the game (Z4: a removed player is
    gone; a zombie is still in it) and the team's planeswalkers, so with no team planeswalker
    exactly the draw of a random player; ``players`` only the players; ``planeswalkers`` (a house
    rule) a random team planeswalker whose loyalty the attackers already sent at it don't cover
    yet, then random players, and only the players when the attackers' power could win the game
    (``lethal_life``). Returns the function that sets one attacker's ``defender`` (and
    ``attacked``), called in the order they attack."""
    rng = game.horde_rng
    players = [pl.index for pl in rules.in_game(game)]  # with a shared life: every player (H1)
    mode = game.setup.horde_attacks
    walkers = [] if mode == "players" else [w for w in game.battlefield.planeswalkers if not w.is_horde]
    if mode == "planeswalkers" and walkers and sum(max(0, power(game, a)) for a in attackers) >= lethal_life(game):
        walkers = []  # the players: this attack can win
    aimed: dict[int, int] = {}  # planeswalker id -> the power sent at it so far

    def at_random(a: Permanent) -> None:
        k = randbelow(rng, len(players) + len(walkers))
        if k < len(players):
            a.defender = players[k]
        else:
            aim(a, walkers[k - len(players)])

    def aim(a: Permanent, walker: Permanent) -> None:
        a.attacked = walker
        a.defender = walker.controller  # 506.2: the planeswalker's controller is the defending player

    def walkers_first(a: Permanent) -> None:
        open_walkers = [w for w in walkers if aimed.get(w.id, 0) < w.loyalty]
        if not open_walkers:
            a.defender = players[randbelow(rng, len(players))]
            return
        walker = open_walkers[randbelow(rng, len(open_walkers))]
        aimed[walker.id] = aimed.get(walker.id, 0) + max(0, power(game, a))
        aim(a, walker)

    return walkers_first if mode == "planeswalkers" else at_random


def lethal_life(game: Game) -> int:
    """The damage an attack must deal to the players to win (H8p): the team's life (H13), or with
    a life for each player the lives of the players still in the game who are no zombies (Z5: the
    team loses when none is left; a zombie's fall ends nothing)."""
    if not rules.individual(game):
        return game.team_life
    return sum(pl.life for pl in rules.in_game(game) if not pl.zombie)


def creature_attacks(game: Game, attackers: list[Permanent]) -> None:
    """'Whenever a FILTER attacks' abilities (G6: Dance of Flame), once for each attacker."""
    for a in attackers:
        for watcher in rules.watchers(game):
            for effect in watcher.card.hooks.get("CreatureAttacks", ()):
                ctx = Context(watcher.card, watcher, watcher.controller)
                if effect.when is None or effect.when(game, ctx, a):
                    rules.resolve(game, (effect,), ctx)


def required_blocks(game: Game, attackers: list[Permanent], pairs: list[tuple[Permanent, Permanent]],
                    blocks: list[tuple[Permanent, Permanent]]) -> list[tuple[Permanent, Permanent]]:
    """M4: an attacker that 'must be blocked if able' and is not is blocked by a creature not
    blocking yet that can block it, the team choosing which; when none is free, by one taken from
    an attacker that stays lawful without it (509.1c: as many requirements as possible obeyed)."""
    for a in attackers:
        if not has_keyword(game, a, "must be blocked") or any(x is a for _, x in blocks):
            continue
        used = {id(b) for b, _ in blocks}
        free = [b for b, x in pairs if x is a and id(b) not in used]
        if not free:
            free = [b for b, x in pairs if x is a and id(b) in used and spare(game, blocks, b)]
            if free:
                chosen = ask(game, "must_block", -1, free, subject=a)
                blocks = [(b, x) for b, x in blocks if b is not chosen]
                blocks.append((chosen, a))
            continue
        blocks.append((ask(game, "must_block", -1, free, subject=a), a))
    return blocks


def spare(game: Game, blocks: list[tuple[Permanent, Permanent]], b: Permanent) -> bool:
    """Whether blocker ``b`` could leave its block and the attacker it blocks stay lawful: it need not
    be blocked or another creature blocks it too (M4), and menace is not left with one blocker."""
    blocked = next(x for c, x in blocks if c is b)
    left = sum(1 for _, x in blocks if x is blocked) - 1
    if left == 1 and has_keyword(game, blocked, "menace"):
        return False
    return not has_keyword(game, blocked, "must be blocked") or left > 0


def fog_window(game: Game, attackers: list[Permanent], expected: int | None = None) -> None:
    """After blocks, the team may cast a fog it can pay for (the damage it expects is the subject:
    the unblocked attackers' power, or ``expected`` when the damage comes from elsewhere: F2); at a
    table, what its players do then."""
    if game.drivers.team_side is not None:
        game.drivers.team_side.respond(game, "fog")
        return
    if game.spells_locked:
        return  # F: Disorienting Glower
    options = []
    for pl in game.players:
        if pl.removed or rules.one_spell_cast(game, pl.index):
            continue  # Z4; A: I Bask in Your Silent Awe
        for card in pl.hand:
            if card.is_fog:
                cost = rules.spell_cost(game, card, pl.index, "hand")
                if cost is not None and rules.can_pay(game, pl.index, *cost):
                    options.append((pl.index, card))
                    break
        else:
            for card, origin in rules.graveyard_casts(game, pl.index, sorcery_speed=False):
                if card.is_fog:  # flashback (Moment's Peace)
                    cost = rules.spell_cost(game, card, pl.index, origin)
                    if cost is not None and rules.can_pay(game, pl.index, *cost):
                        options.append((pl.index, card))
                        break
    if not options:
        return
    if expected is None:
        expected = sum(max(0, power(game, a)) for a in attackers if rules.on_battlefield(game, a) and not a.blocked)
    choice = ask(game, "fog", -1, options + [None], subject=expected)
    if choice is not None:
        player, card = choice
        rules.team_cast(game, player, card, "hand" if card in game.players[player].hand else "flashback")

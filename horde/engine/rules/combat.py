"""Combat: who may block whom (flying, reach, fear, intimidate, landwalk, shadow, horsemanship;
menace is the caller's),
combat damage in a first-strike and a regular step (H8, H11: to a player, the Horde or an attacked
planeswalker), the end of combat.
"""

from __future__ import annotations

from collections.abc import Callable

from horde.engine.cards import CardDef
from horde.engine.characteristics import (
    PROTECTION_KEYWORDS,
    keywords,
    on_battlefield,
    power,
    protected,
    toughness,
)
from horde.engine.events import log
from horde.engine.filters import Context
from horde.engine.rules.abilities import trigger
from horde.engine.rules.checks import check_state
from horde.engine.rules.damage import DamageEvent, damage_horde, damage_permanent, damage_player
from horde.engine.state import HORDE_CONTROLLER, Game, Permanent, Side

# (flying, fear, intimidate, colours, protection keywords, shadow, horsemanship) of an attacker;
# (flying or reach, may block fear, artifact, colours, shadow, horsemanship) of a blocker.
AttackProfile = tuple[bool, bool, bool, frozenset[str], frozenset[str], bool, bool]
BlockProfile = tuple[bool, bool, bool, frozenset[str], bool, bool]
NONE: frozenset[str] = frozenset()

# 702.14: landwalk, unblockable while the defending player controls a land of the kind it names.
LANDWALK: dict[str, Callable[[CardDef], bool]] = {
    "swampwalk": lambda card: "Swamp" in card.subtypes,
    "islandwalk": lambda card: "Island" in card.subtypes,
    "forestwalk": lambda card: "Forest" in card.subtypes,
    "mountainwalk": lambda card: "Mountain" in card.subtypes,
    "plainswalk": lambda card: "Plains" in card.subtypes,
    "desertwalk": lambda card: "Desert" in card.subtypes,
    "nonbasic landwalk": lambda card: card.is_land and "Basic" not in card.supertypes,
    "legendary landwalk": lambda card: card.is_land and card.is_legendary,
    "snow landwalk": lambda card: card.is_land and "Snow" in card.supertypes,
}


def _attack_profile(game: Game, a: Permanent) -> AttackProfile | None:
    """What limits who can block an attacker; None when nobody can (unblockable, landwalk)."""
    kw = keywords(game, a)
    if "unblockable" in kw:
        return None
    defenders = game.battlefield.horde if a.controller != HORDE_CONTROLLER else game.battlefield.team
    for keyword, land in LANDWALK.items():
        if keyword in kw and any(land(p.card) for p in defenders):
            return None
    protection = NONE if not game.battlefield.protections or PROTECTION_KEYWORDS.isdisjoint(kw) else \
        kw & PROTECTION_KEYWORDS
    return ("flying" in kw, "fear" in kw, "intimidate" in kw, a.card.colours, protection, "shadow" in kw,
            "horsemanship" in kw)


def _block_profile(game: Game, b: Permanent) -> BlockProfile | None:
    """What a creature can block; None when it can't block at all."""
    if b.tapped or not b.card.is_creature:
        return None
    kw = keywords(game, b)
    if "can't block" in kw:
        return None
    card = b.card
    artifact = "Artifact" in card.types
    return ("flying" in kw or "reach" in kw, artifact or "B" in card.colours, artifact, card.colours,
            "shadow" in kw, "horsemanship" in kw)


def _may_block(attack: AttackProfile, block: BlockProfile) -> bool:
    flying, fear, intimidate, colours, protection, shadow, horsemanship = attack
    reaches, fear_ok, artifact, blocker_colours, blocker_shadow, blocker_horsemanship = block
    if flying and not reaches:
        return False
    if fear and not fear_ok:
        return False
    if shadow != blocker_shadow:
        return False  # 702.28b: shadow blocks and is blocked only by shadow
    if horsemanship and not blocker_horsemanship:
        return False  # 702.31b
    if protection and _protected_from_blocker(protection, artifact, blocker_colours):
        return False  # 702.16c: it can't be blocked by creatures it has protection from
    return not intimidate or artifact or bool(blocker_colours & colours)


def _protected_from_blocker(protection: frozenset[str], artifact: bool, colours: frozenset[str]) -> bool:
    for keyword in protection:
        if keyword in ("protection from creatures", "protection from everything"):
            return True
        if keyword == "protection from artifacts" and artifact:
            return True
        colour = PROTECTION_COLOURS.get(keyword)
        if colour is not None and colour in colours:
            return True
    return False


PROTECTION_COLOURS = {f"protection from {word}": letter for word, letter in
                      (("white", "W"), ("blue", "U"), ("black", "B"), ("red", "R"), ("green", "G"))}


def can_block(game: Game, blocker: Permanent, attacker: Permanent) -> bool:
    """Whether ``blocker`` may block ``attacker``: flying and reach, fear, intimidate, landwalk,
    unblockable, can't block."""
    attack = _attack_profile(game, attacker)
    block = _block_profile(game, blocker)
    return attack is not None and block is not None and _may_block(attack, block) and (
        "skulk" not in keywords(game, attacker) or power(game, blocker) <= power(game, attacker))  # 702.118b


def legal_blocks(game: Game, blockers: list[Permanent], attackers: list[Permanent],
                 allowed: Callable[[Permanent, Permanent], bool] | None = None) -> list[tuple[Permanent, Permanent]]:
    """Every (blocker, attacker) pair that may be declared, each profile computed once;
    ``allowed(blocker, attacker)`` can narrow it further (the blocking option of H8)."""
    attacks: list[tuple[Permanent, AttackProfile]] = []
    skulking: dict[int, int] = {}  # 702.118b: an attacker with skulk -> its power
    for a in attackers:
        profile = _attack_profile(game, a)
        if profile is not None:
            attacks.append((a, profile))
            if "skulk" in keywords(game, a):
                skulking[id(a)] = power(game, a)
    pairs: list[tuple[Permanent, Permanent]] = []
    if not attacks:
        return pairs
    for b in blockers:
        block = _block_profile(game, b)
        if block is None:
            continue
        strength = power(game, b) if skulking else 0
        for a, attack in attacks:
            if _may_block(attack, block) and (allowed is None or allowed(b, a)) and (
                    not skulking or strength <= skulking.get(id(a), strength)):
                pairs.append((b, a))
    return pairs


def blocks_allowed(game: Game, attackers: list[Permanent], blocks: list[tuple[Permanent, Permanent]]) -> bool:
    """L5 for blocking: a protected lieutenant may be blocked only if every other attacking Horde
    creature is blocked in the same declaration."""
    blocked = {id(a) for _, a in blocks}
    for _, attacker in blocks:
        if attacker.lieutenant is not None and protected(game, attacker):
            if any(id(a) not in blocked for a in attackers if a is not attacker):
                return False
    return True


def combat_damage(game: Game, attackers: list[Permanent], defender_is_horde: bool) -> None:
    """Deal combat damage in a first-strike step and a regular step (H8 for the Horde's attack)."""
    if game.fogged:
        if game.drivers.trace is not None:
            log(game, "damage_prevented", Side.TEAM, reason="fog")
        return
    any_first = any(_strikes_first(game, a) for a in attackers) or any(
        _strikes_first(game, b) for a in attackers for b in a.blockers)
    steps = (True, False) if any_first else (False,)
    for first in steps:
        _damage_step(game, attackers, defender_is_horde, first, any_first)
        check_state(game)
        if game.over():
            return


def _strikes_first(game: Game, p: Permanent) -> bool:
    kw = keywords(game, p)
    return "first strike" in kw or "double strike" in kw


def _deals_in_step(game: Game, p: Permanent, first: bool, any_first: bool) -> bool:
    kw = keywords(game, p)
    if "assigns no combat damage" in kw:
        return False
    if not any_first:
        return True
    if "double strike" in kw:
        return True
    return ("first strike" in kw) == first


def _damage_step(game: Game, attackers: list[Permanent], defender_is_horde: bool, first: bool,
                 any_first: bool) -> None:
    event: DamageEvent = set()  # L4: one combat damage step is one event
    assignments: list[tuple] = []  # (source, target, amount, deathtouch)
    for a in attackers:
        if not a.attacking or not on_battlefield(game, a):
            continue  # removed from combat (regenerated) or gone
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
    # CR 510.2: the step's combat damage is dealt at once. The abilities it triggers (a lieutenant's
    # time counter, L7; "whenever ~ deals combat damage", "whenever ~ is dealt damage") wait until
    # all of it is dealt (H13a: the next time a player would get priority, ``check_state``).
    game.depth += 1
    try:
        for source, target, amount in assignments:
            if amount <= 0:
                continue
            if target == "defender":
                if defender_is_horde:
                    damage_horde(game, amount, source)  # H11
                elif source.attacked is not None:
                    # H8: it attacks a planeswalker (120.3c: its damage removes loyalty); none if it has left (506.4)
                    damage_permanent(game, source, source.controller, source.attacked, amount, event=event,
                                     combat=True)
                    continue
                else:
                    damage_player(game, source, source.controller, source.defender, amount, combat=True)
                effects = source.card.hooks.get("HitsPlayer")
                if effects and on_battlefield(game, source):
                    ctx = Context(source.card, source, source.controller, kicked=source.kicked)
                    ctx.that_player = HORDE_CONTROLLER if defender_is_horde else source.defender
                    trigger(game, source.controller, effects, ctx)
            else:
                damage_permanent(game, source, source.controller, target, amount, event=event, combat=True)
    finally:
        game.depth -= 1


def end_combat(game: Game, attackers: list[Permanent]) -> None:
    for a in attackers:
        a.attacking = False
        a.attacked = None
        a.blocked = False
        a.blockers = []
    for board in (game.battlefield.team, game.battlefield.horde):
        for p in board:
            p.blocked = False

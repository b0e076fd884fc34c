"""What a permanent is now, and where things are: power, toughness and keywords with counters,
until-end-of-turn changes, anthems and equipment applied; the L5 protection of lieutenants; and
the small look-ups of boards, graveyards and hands every rule uses.

These functions only read the game. They sit below the filters (a filter such as
``creature with-flying`` asks for keywords) and below the rules package, which re-exports them
(``rules.power``). What anthems and equipment give a permanent is kept on the permanent until the
battlefield changes (its version), unless an anthem looks at a state that changes without a
zone change (attacking, tapped).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from horde.engine.cards import CardDef
from horde.engine.state import HORDE_CONTROLLER, Game, Permanent, Side

# ---------------------------------------------------------------- where things are


def board_of(game: Game, controller: int) -> list[Permanent]:
    """The permanents a controller controls (the Horde's, or one team player's)."""
    if controller == HORDE_CONTROLLER:
        return game.battlefield.horde
    return [p for p in game.battlefield.team if p.controller == controller]


def all_permanents(game: Game) -> list[Permanent]:
    return game.battlefield.team + game.battlefield.horde


def watchers(game: Game) -> list[Permanent]:
    """Everything whose triggered abilities can trigger: the permanents, and the boss (B5)."""
    found = game.battlefield.horde + game.battlefield.team
    if game.boss is not None and game.boss.stand_in is not None:
        found.append(game.boss.stand_in)
    if game.schemes is not None and game.schemes.face_up:
        found.extend(game.schemes.face_up)  # 904.8: an ongoing scheme's abilities work from the command zone
    return found


def on_battlefield(game: Game, p: Permanent) -> bool:
    """Whether a permanent is on the battlefield (a flag the battlefield keeps: no list is searched)."""
    return p.present


def graveyard_of(game: Game, controller: int) -> list[CardDef]:
    return game.horde.graveyard if controller == HORDE_CONTROLLER else game.players[controller].graveyard


def hand_of(game: Game, controller: int) -> list[CardDef]:
    return game.horde.hand if controller == HORDE_CONTROLLER else game.players[controller].hand


def side_name(controller: int) -> Side:
    return Side.HORDE if controller == HORDE_CONTROLLER else Side.TEAM


# ---------------------------------------------------------------- characteristics


def power(game: Game, p: Permanent) -> int:
    """Power with counters, until-end-of-turn changes, anthems and equipment applied."""
    card = p.card
    if card.power is None:
        return 0  # not a creature
    value = card.power + p.plus - p.minus + p.temp_power  # 613.4a-d: printed, then the sums of 7c and 7d
    if card.power_amount is not None:
        value += _cda(game, p, card.power_amount)  # 613.4a: the characteristic-defining ability's *
    battlefield = game.battlefield
    if battlefield.statics or p.equipment:
        if p.bonus_version == battlefield.version and not battlefield.volatile:
            return value + p.bonus[0]
        value += static_bonus(game, p)[0]
    return value


def toughness(game: Game, p: Permanent) -> int:
    card = p.card
    if card.toughness is None:
        return 0  # not a creature
    value = card.toughness + p.plus - p.minus + p.temp_toughness
    if card.toughness_amount is not None:
        value += _cda(game, p, card.toughness_amount)
    battlefield = game.battlefield
    if battlefield.statics or p.equipment:
        if p.bonus_version == battlefield.version and not battlefield.volatile:
            return value + p.bonus[1]
        value += static_bonus(game, p)[1]
    return value


def has_keyword(game: Game, p: Permanent, keyword: str) -> bool:
    if keyword in p.card.keywords or keyword in p.temp_keywords:
        return True
    battlefield = game.battlefield
    if not (battlefield.statics or p.equipment):
        return False
    if p.bonus_version == battlefield.version and not battlefield.volatile:
        return keyword in p.bonus[2]
    return keyword in static_bonus(game, p)[2]


def summoning_sick(game: Game, p: Permanent) -> bool:
    """302.6: a creature can't attack, nor pay a {T} cost, unless it has been under its
    controller's control continuously since the start of that player's most recent turn
    (``Permanent.sick`` says it has not) or it has haste now: printed, until end of turn, or
    given by an anthem, equipment or Aura (Fervor's "Creatures you control have haste": 702.10)."""
    return p.sick and p.card.is_creature and not has_keyword(game, p, "haste")


def keywords(game: Game, p: Permanent) -> frozenset[str]:
    """Every keyword a permanent has now: printed, until end of turn, and from anthems and
    equipment. For code that asks about several keywords of one permanent at once."""
    battlefield = game.battlefield
    if battlefield.statics or p.equipment:
        if p.bonus_version != battlefield.version or battlefield.volatile:
            static_bonus(game, p)
        # The printed keywords with those given, joined when the bonus was worked out (none
        # given while an anthem's condition asks about this permanent: ``static_bonus``).
        known = p.all_keywords if p.bonus_version == battlefield.version else p.card.keywords
    else:
        known = p.card.keywords
    extra = p.temp_keywords
    return known | extra if extra else known


NO_BONUS: tuple[int, int, frozenset[str]] = (0, 0, frozenset())


def static_bonus(game: Game, p: Permanent) -> tuple[int, int, frozenset[str]]:
    """(power, toughness, keywords) that anthems and equipment give a permanent. Kept until the
    battlefield changes (its ``version``), unless some anthem looks at changing states."""
    battlefield = game.battlefield
    if p.bonus_version == battlefield.version and not battlefield.volatile:
        return p.bonus
    working = -1 - battlefield.version
    if p.bonus_version == working:
        # An anthem's own condition asks about this permanent ("creatures with infect", "power
        # 4 or greater") while its bonus is being worked out: decided without anthems, as 613.8
        # would order a dependency, rather than in a loop.
        return NO_BONUS
    p.bonus_version = working
    p.bonus = NO_BONUS
    if battlefield.by_card and not p.card.anthems:
        # Every anthem asks only the card and its controller, and p is no anthem's source.
        key = (p.card, p.controller)
        given = battlefield.bonuses.get(key)
        if given is None:
            given = battlefield.bonuses[key] = _anthems_give(game, p)
        dp, dt, keywords = given
    else:
        dp, dt, keywords = _anthems_give(game, p)
    for equipment in p.equipment:
        for effect in equipment.card.equipped:
            args = effect.args
            dp += args["power"]
            dt += args["toughness"]
            keywords |= args["keywords"]
    for aura in p.auras:
        for effect in aura.card.equipped:
            args = effect.args
            dp += args["power"]
            dt += args["toughness"]
            keywords |= args["keywords"]
    p.bonus = (dp, dt, keywords) if dp or dt or keywords else NO_BONUS
    p.all_keywords = p.card.keywords | keywords if keywords else p.card.keywords
    p.bonus_version = battlefield.version
    return p.bonus


def _anthems_give(game: Game, p: Permanent) -> tuple[int, int, frozenset[str]]:
    """(power, toughness, keywords) the anthems on the battlefield give a permanent."""
    dp = dt = 0
    keywords: frozenset[str] = frozenset()
    for source in game.battlefield.statics:
        for effect in source.card.anthems:
            args = effect.args
            if args["filter"](game, source, p):
                dp += args["power"]
                dt += args["toughness"]
                keywords |= args["keywords"]
    return dp, dt, keywords


# What each protection keyword protects from: the qualities of a source's card (702.16). Protection
# stops damage, enchanting or equipping, blocking, and targeting from such sources (DEBT).
PROTECTION: dict[str, Callable[[CardDef], bool]] = {
    "protection from white": lambda card: "W" in card.colours,
    "protection from blue": lambda card: "U" in card.colours,
    "protection from black": lambda card: "B" in card.colours,
    "protection from red": lambda card: "R" in card.colours,
    "protection from green": lambda card: "G" in card.colours,
    "protection from creatures": lambda card: card.is_creature,
    "protection from artifacts": lambda card: "Artifact" in card.types,
    "protection from everything": lambda card: True,
}
PROTECTION_KEYWORDS = frozenset(PROTECTION)


def protected_from(game: Game, p: Permanent, card: CardDef | None) -> bool:
    """Whether a permanent has protection from a source (its card): 702.16."""
    if card is None or not game.battlefield.protections:
        return False
    kw = keywords(game, p)
    if PROTECTION_KEYWORDS.isdisjoint(kw):
        return False
    for keyword in kw:
        quality = PROTECTION.get(keyword)
        if quality is not None and quality(card):
            return True
    return False


def protected(game: Game, p: Permanent) -> bool:
    """L5: a lieutenant can't be targeted, blocked or dealt damage unless the Horde controls no
    other creature (blocking has a second way out: ``horde.engine.rules.blocks_allowed``)."""
    for other in game.battlefield.horde:
        if other is not p and other.card.is_creature:
            return True
    return False


def _cda(game: Game, p: Permanent, amount: Any) -> int:
    """What a characteristic-defining ability's amount is now, for the permanent (its own context)."""
    return amount if isinstance(amount, int) else int(amount(game, p))


def apply_statics(game: Game, point: str, value: Any, *details: Any) -> Any:
    """``value`` changed by every static verb on the battlefield applied at ``point`` (each
    source's effects in turn: ``horde.engine.effects.POINTS``)."""
    for source in game.battlefield.points.get(point, ()):
        for effect in source.card.points[point]:
            value = effect.run(game, source, value, *details, **effect.args)
    return value


def apply_own_statics(game: Game, p: Permanent, point: str, value: Any, *details: Any) -> Any:
    """``value`` changed by the permanent's own static verbs applied at ``point`` ('if this
    creature would be dealt damage')."""
    for effect in p.card.points.get(point, ()):
        value = effect.run(game, p, value, *details, **effect.args)
    return value


def static_active(game: Game, flag: str) -> bool:
    """Whether any permanent on the battlefield has the rule-level static ``flag``."""
    for source in game.battlefield.statics:
        if flag in source.card.static_flags:
            return True
    return False


def creatures(board: list[Permanent]) -> list[Permanent]:
    return [p for p in board if p.card.is_creature]


def horde_power(game: Game) -> int:
    """Total power of the Horde's creatures (what its next attack could deal)."""
    return sum(max(0, power(game, p)) for p in game.battlefield.horde if p.card.is_creature)

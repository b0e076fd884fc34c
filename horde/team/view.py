"""The read-only view of the game a team policy decides from (``TeamView``): the team's own
cards, both boards, the Horde's library size, and the characteristics the rules compute.

The policies (``horde.team.policies``, which users subclass in Python) ask it hundreds of times a game,
so it sits apart from them with the engine: ``horde.build`` compiles it with mypyc, and a policy
calls it compiled. ``horde.team.policies.TeamView`` is this class.
"""

from __future__ import annotations

from typing import Any

from horde.engine import rules, turns
from horde.engine.cards import ANY, IDENTITY, OPPONENTS_LANDS, CardDef
from horde.engine.filters import Context, evaluate
from horde.engine.fork import Snapshot
from horde.engine.state import Game, Permanent, Side


class TeamView:
    """What a policy may see of the game, read-only: the team's own cards, both boards, the
    Horde's library size, and the characteristics the rules compute."""

    __slots__ = ("_game",)

    def __init__(self, game: Game):
        self._game = game

    @property
    def team_life(self) -> int:
        return self._game.team_life

    @property
    def start_life(self) -> int:
        return self._game.start_life

    @property
    def turn(self) -> int:
        return self._game.turn

    @property
    def players(self) -> int:
        return len(self._game.players)

    @property
    def horde_library(self) -> int:
        return len(self._game.horde.library)

    def library(self, player: int) -> int:
        """How many cards a team player's library holds (a number every player may know)."""
        return len(self._game.players[player].library)

    def amount(self, card: CardDef, value: Any, player: int) -> int:
        """An amount of a card's effect as it would be worked out now, with ``player`` its controller."""
        return evaluate(self._game, Context(card, None, player), value)

    def hand(self, player: int) -> tuple:
        return tuple(self._game.players[player].hand)

    def team_creatures(self, player: int | None = None) -> list:
        return [p for p in self._game.battlefield.team if p.card.is_creature and (player is None or p.controller == player)]

    def horde_creatures(self) -> list:
        return [p for p in self._game.battlefield.horde if p.card.is_creature]

    def horde_permanents(self) -> list:
        """Every permanent the Horde controls (creatures, equipment, Auras, enchantments, its boss)."""
        return list(self._game.battlefield.horde)

    def lands(self, player: int) -> int:
        return sum(1 for p in self._game.battlefield.team if p.controller == player and p.card.is_land)

    def power(self, p: Permanent) -> int:
        return rules.power(self._game, p)

    def toughness(self, p: Permanent) -> int:
        return rules.toughness(self._game, p)

    def has(self, p: Permanent, keyword: str) -> bool:
        return rules.has_keyword(self._game, p, keyword)

    def horde_power(self) -> int:
        return rules.horde_power(self._game)

    def can_leave(self, p: Permanent) -> bool:
        """Whether the permanent could leave the battlefield now (G2: not Xenagos Ascended while a
        Reveler is on the battlefield)."""
        return "cant_leave_while" not in p.card.static_flags or not rules.held_in_place(self._game, p)

    def horde_attackers(self) -> list:
        """The Horde creatures expected in its next attack as the board stands: every creature (H8),
        or the opponent's own estimate where a card must tell its creatures to attack (G4)."""
        estimate = self._game.drivers.horde_attackers
        return self.horde_creatures() if estimate is None else estimate(self._game)

    def horde_attack_power(self) -> int:
        """The total power of ``horde_attackers()``: what the next Horde attack could deal."""
        return sum(max(0, self.power(p)) for p in self.horde_attackers())

    def planeswalker_threat(self, p: Permanent) -> float:
        """The power the next Horde attack is expected to send at team planeswalker ``p`` (H8):
        its share of ``horde_attack_power()`` under ``horde_attacks`` (``random``: one in players
        still in the game plus team planeswalkers; ``players``: none; ``planeswalkers``: all of it)."""
        mode = self._game.setup.horde_attacks
        if mode == "players":
            return 0.0
        power = self.horde_attack_power()
        if mode == "planeswalkers":
            return float(power)
        walkers = sum(1 for w in self._game.battlefield.planeswalkers if not w.is_horde)
        return power / (len(rules.in_game(self._game)) + walkers)

    def available_mana(self, player: int) -> int:
        return rules.available_mana(self._game, player)

    def cost(self, card: CardDef, player: int, origin: str = "hand") -> int:
        """The mana a card would cost this player now (commander tax included)."""
        cost = rules.spell_cost(self._game, card, player, origin)
        return 10**6 if cost is None else cost[0] + len(cost[1])

    def is_lieutenant(self, p: Permanent) -> bool:
        return p.lieutenant is not None

    def graveyard(self, player: int) -> tuple:
        return tuple(self._game.players[player].graveyard)

    def matching(self, flt: Any, player: int) -> list[Permanent]:
        """The permanents a filter of one of ``player``'s effects matches now."""
        ctx = Context(None, None, player)
        return [p for p in rules.all_permanents(self._game) if flt(self._game, ctx, p)]

    def matches(self, flt: Any, p: Permanent) -> bool:
        """Whether a permanent matches a compiled filter, seen from the Horde's side."""
        return bool(flt(self._game, Context(None, None, -1), p))

    # ---- the variants (RULES.md Z): who has fallen, to whom, and each player's own life
    def life(self, player: int) -> int:
        """The player's own life with a life for each player (Z); the team's life otherwise."""
        game = self._game
        return game.players[player].life if game.setup.life == "individual" else game.team_life

    def zombie(self, player: int) -> bool:
        """Whether the player has fallen and fights on as a zombie (Z1)."""
        return self._game.players[player].zombie

    def master(self, player: int) -> int | None:
        """A zombie's master (Z2): -1 the Horde, or a teammate's index; None for a player who is no zombie."""
        pl = self._game.players[player]
        return pl.master if pl.zombie else None

    def in_game(self, player: int) -> bool:
        """Whether the player is still in the game (Z4 removes a player who lost otherwise)."""
        return not self._game.players[player].removed

    def may_attack(self, player: int) -> bool:
        """Z3: whether the player's creatures may attack (not a zombie whose master is the Horde)."""
        return rules.may_attack(self._game, player)

    def colours(self, player: int) -> set[str]:
        """The colours the player's lands and mana sources can make ('*': any)."""
        return {c for p in self._game.battlefield.team if p.controller == player for c in p.card.mana_colours}

    # ---- added for the puzzles' fixes and the look-ahead policy
    def snapshot(self) -> Snapshot:
        """The game as it stands, kept for a policy that searches to play forward on exact
        copies of it, random streams included (``horde.engine.fork.Snapshot``); the game itself
        is untouched."""
        return Snapshot(self._game, self._game.drivers.policy)

    @property
    def horde_turns(self) -> int:
        """How many Horde turns have begun (H5e: k)."""
        return self._game.horde_turns

    def can_attack(self, p: Permanent) -> bool:
        """Whether a creature could attack now: untapped, not summoning sick, no defender."""
        return turns.can_attack(self._game, p)

    def summoning_sick(self, p: Permanent) -> bool:
        """302.6: whether a creature can't attack nor pay {T} for want of time under its controller."""
        return rules.summoning_sick(self._game, p)

    def anthem_bonus(self, source: Permanent, p: Permanent) -> int:
        """The power (and one per keyword) the anthems of ``source`` give ``p``."""
        ctx = Context(source.card, source, source.controller)
        return sum(effect.args.get("power", 0) + len(effect.args.get("keywords", ()))
                   for effect in source.card.anthems if effect.args["filter"](self._game, ctx, p))

    # ---- what the decision core reads of mana, targets and combat (issue 23)
    def mana(self, player: int) -> int:
        """All the mana the player's sources make when untapped (a creature only once it is no
        longer summoning sick): what it could keep open for the Horde's next turn."""
        total = 0
        for p in self._game.battlefield.mana_sources.get(player, ()):
            if not rules.summoning_sick(self._game, p):
                total += p.card.mana_yield
        return total

    @property
    def is_horde_turn(self) -> bool:
        """Whether it is the Horde's turn (the team decides in its combat: blocks, flash, fogs)."""
        return self._game.active == Side.HORDE

    def targets(self, card: CardDef, player: int) -> list:
        """The legal targets of an Aura's Enchant, or else of the first targeted effect of
        ``card`` cast by ``player`` now (protection, shroud, hexproof and L5 applied); empty for
        a card that targets nothing."""
        if card.enchant is not None:
            return rules.legal_targets(self._game, Context(card, None, player), card.enchant)
        for effects in card.hooks.values():
            for effect in effects:
                if effect.target is not None:
                    return rules.legal_targets(self._game, Context(card, None, player), effect)
        return []

    def ability_targets(self, source: Permanent, effect: Any) -> list:
        """The legal targets of one effect of ``source``'s ability now (601.2c)."""
        return rules.legal_targets(self._game, Context(source.card, source, source.controller), effect)

    def ability_mana(self, ability: tuple) -> int:
        """The mana an activated ability's costs ask (its generic amount and coloured pips)."""
        return sum(cost.value for cost in ability[0].costs if not isinstance(cost, str))

    def can_block(self, blocker: Permanent, attacker: Permanent) -> bool:
        """Whether ``blocker`` could block ``attacker`` as the board stands (flying, reach, menace
        aside: one blocker's own legality)."""
        return bool(rules.legal_blocks(self._game, [blocker], [attacker]))

    def protected(self, p: Permanent) -> bool:
        """L5: a lieutenant the team can't target, block or deal damage to now."""
        return p.lieutenant is not None and rules.protected(self._game, p)

    def regenerates(self, p: Permanent) -> bool:
        """Whether a Horde permanent would regenerate if destroyed now: a regeneration shield, or
        an ability to make one (H7: the Horde pays any mana)."""
        return not p.no_regen and (p.regeneration > 0 or (p.is_horde and rules.regeneration_ability(p.card) is not None))

    # ---- what the decision core reads of the cards' behaviour (horde.team.reading)
    def watchers(self) -> list:
        """Everything whose triggered abilities can trigger now: the permanents of both sides and
        the boss (B5)."""
        return rules.watchers(self._game)

    def hooked(self, hook: str) -> bool:
        """Whether some permanent (or the boss) has an ability of that hook ('CreatureDies', ...)."""
        return self._game.battlefield.hooked.get(hook, 0) > 0

    def token(self, name: str) -> CardDef | None:
        """The token a card's effect creates by that name (None if the game knows no such token)."""
        return self._game.tokens.get(name)

    def matches_from(self, flt: Any, source: Permanent, p: Permanent) -> bool:
        """Whether ``p`` matches a filter of ``source``'s abilities ('other', 'yours' seen from
        ``source`` and its controller): a trigger condition such as Grave Pact's 'a creature you
        control'."""
        return bool(flt(self._game, Context(source.card, source, source.controller), p))

    def protected_from(self, p: Permanent, source: CardDef) -> bool:
        """702.16: whether ``p`` has protection from ``source`` (damage it would deal ``p`` is prevented)."""
        return rules.protected_from(self._game, p, source)

    @property
    def fogged(self) -> bool:
        """Whether all combat damage this turn is prevented (a fog has resolved)."""
        return self._game.fogged

    def sources(self, player: int) -> list[frozenset[str]]:
        """The colours each of the player's mana sources makes, one entry per mana (a creature only
        once it is no longer summoning sick): which pips the mana it keeps open can pay."""
        units: list[frozenset[str]] = []
        for p in self._game.battlefield.mana_sources.get(player, ()):
            if not rules.summoning_sick(self._game, p):
                if p.card.mana_dynamic:  # as ``mana_colours`` reads it: the commander's colours any, the opponents' lands' none
                    units.extend(frozenset(ANY if c == IDENTITY else c for c in u if c != OPPONENTS_LANDS)
                                 for u in p.card.mana)
                else:
                    units.extend(p.card.mana)
        return units

    def controls_named(self, player: int, name: str) -> bool:
        """Whether the player controls a permanent of that name (the legend rule, 704.5j)."""
        for p in self._game.battlefield.team:
            if p.controller == player and p.card.name == name:
                return True
        return False

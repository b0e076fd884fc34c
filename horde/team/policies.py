"""Team policies: the policy interface, the bundled policies, and the search the look-ahead
policies share (``SearchPolicy``: candidates played forward on copies the engine forks,
``horde.engine.fork``; the fair ``expert`` is in ``horde.team.expert``).

The engine never lets a policy change the game: at each decision it builds a ``Decision`` (its
kind, the deciding player, the legal options; ``horde.engine.decisions``) and passes a read-only
``TeamView`` (``horde.team.view``, compiled with the engine; imported here too); the policy returns one option (or, for attackers, blocks and cards to put on the
bottom, a selection of them) and the engine checks it with ``check_choice``. A policy has its
own random stream (``self.rng``, set by the engine for each game), so its choices never shift
the Horde's shuffle or dice.

A custom policy is any class with ``choose(decision, view)``; load it with
``--policy package.module:ClassName``. Loading it imports its module, which runs the module's
code: the spec is checked first (the module is found without importing it, and its source must
define the class), so a wrong spec fails before any of that code runs.
"""

from __future__ import annotations

import ast
import gc
import importlib
import importlib.util
import inspect
import math
import random
import re
from collections.abc import Callable
from typing import Any

from horde.engine import opponents, rules
from horde.engine.cards import CardDef
from horde.engine.decisions import KINDS, SELECTIONS, Decision, PolicyError, check_choice  # noqa: F401 (the policy API)
from horde.engine.fork import Snapshot
from horde.engine.fork import fork as engine_fork
from horde.engine.state import (
    HORDE_CONTROLLER,
    Game,
    GameAborted,
    Permanent,
    Winner,
)
from horde.errors import HordeError, match_name
from horde.files import read_text
from horde.limits import POLICY_NUMBER_MAX, quoted
from horde.team import reading, tactics, tricks
from horde.team.tactics import (  # noqa: F401 (card roles, imported from here too)
    HARMFUL,
    HELPFUL,
    HINDERING,
    MASS_REMOVAL,
    aura_helps,
    flash_blocker,
    harms_on_entering,
    mass_removal,
    role,
    shrink_amount,
)
from horde.team.view import TeamView  # noqa: F401 (the policy API: the view a policy decides from)


class Policy:
    """The interface: ``choose(decision, view)`` returns one of ``decision.options`` (or a
    selection of them). ``self.rng`` is the policy's own stream, set for every game."""

    name = "policy"
    description = ""

    def __init__(self, **params: Any):
        self.rng = random.Random(0)
        for key, value in params.items():
            setattr(self, key, value)

    def choose(self, decision: Decision, view: TeamView) -> Any:
        raise NotImplementedError


# ---------------------------------------------------------------- what cards do, for the AI
# The card roles the hot decisions read (``role``, ``HARMFUL`` ...) live in ``horde.team.tactics``,
# compiled with the engine, and are imported above.


def card_verbs(card: CardDef) -> frozenset[str]:
    return card.verbs


def targets_player(card: CardDef) -> frozenset[str]:
    """The verbs of a card that are about a target player ('target player draws ...')."""
    return frozenset(e.verb for effects in card.hooks.values() for e in effects
                     if e.args.get("who") in ("target_player", "target_opponent"))


def shrinks_target(card: CardDef) -> bool:
    """Whether a card's targeted effect makes its target smaller (-N/-N, -1/-1 counters)."""
    for effects in card.hooks.values():
        for e in effects:
            if e.target is None:
                continue
            if e.verb == "counters" and e.args.get("kind") == "minus":
                return True
            if e.verb == "pump" and e.args.get("toughness", 0) < 0:
                return True
    return False


def damage_amount(card: CardDef) -> int | None:
    """The damage a card's targeted damage effect deals (None: it deals none, or X)."""
    return next((e.args["amount"] for effects in card.hooks.values() for e in effects
                 if e.verb == "damage" and isinstance(e.args["amount"], int)), None)


def replaced_on_dying(card: CardDef) -> bool:
    """A creature that leaves something behind when it dies (Doomed Traveler's Spirit)."""
    return any(e.verb in HELPFUL for e in card.hooks.get("Dies", ()))


UNTAPS = frozenset({"untap", "untap_targets"})  # the verbs that untap a target (701.21b)


def counterspell_breadth(card: CardDef) -> int:
    """0 for a counterspell that counters only some spells (Negate, Essence Scatter), 1 for one
    that counters any: the narrower one is spent first."""
    effect = card.counters
    text = "any" if effect is None else getattr(effect.args.get("filter"), "text", effect.args.get("filter"))
    return 1 if text in (None, "", "any") else 0


BIG_THREAT = 5  # a Horde creature spell worth a counterspell: its power and the life its triggers drain


def spell_threat(card: CardDef, view: TeamView) -> int:
    """What a Horde creature spell would bring to the battlefield, read from its card: its power,
    one more for each evasion keyword (menace, flying, trample, deathtouch, intimidate), the
    life its attack and its recurring triggers take from each team player (Plague Belcher:
    'whenever another Zombie you control dies, each opponent loses 1 life') and what its anthems
    give; 0 for a noncreature spell."""
    if not card.is_creature:
        return 0
    value = max(0, card.power or 0)
    value += sum(1 for k in ("menace", "flying", "trample", "deathtouch", "intimidate", "undying", "persist")
                 if k in card.keywords)
    for hook in ("Attacks", "Upkeep", "EachUpkeep", "UpkeepStep", "EndStep", "CreatureDies", "HitsPlayer"):
        for e in card.hooks.get(hook, ()):
            if e.verb in ("lose_life", "damage_each_opponent", "damage", "each_player_sacrifices", "discard"):
                value += 2 * view.players if e.args.get("who", "each_opponent") in ("each_opponent", "each_player") else 2
    for e in card.anthems:
        value += max(0, e.args["power"]) * max(1, len(view.horde_creatures()))
    return value


def is_bomb(card: CardDef) -> bool:
    """A Horde spell worth a counterspell: mass removal, a big token maker, a permanent whose
    recurring triggers cost the team or grow the Horde's board every turn (Grave Pact, Endless
    Ranks of the Dead: ``tactics.lasting_threat``), or mana value 5+."""
    if mass_removal(card) or "reanimate_all" in card_verbs(card):
        return True
    if card.is_permanent and not card.is_creature and tactics.lasting_threat(card) > 0:
        return True
    return not card.is_token and card.mana_value >= 5


class RandomPolicy(Policy):
    """Uniformly random legal choices: the floor every other policy should beat."""

    name = "random"
    description = "uniformly random legal choices"

    def choose(self, decision: Decision, view: TeamView) -> Any:
        rng = self.rng
        options = decision.options
        kind = decision.kind
        if kind == "attackers":
            return [a for a in options if rng.random() < 0.5]
        if kind in ("bottom", "exile_cards"):
            return rng.sample(list(options), decision.count)
        if kind == "divide":  # each point of damage to a random target among at most subject[2] of them
            picked = rng.sample(list(options), rng.randint(1, decision.subject[2]))
            return [picked[rng.randrange(len(picked))] for _ in range(decision.count)]
        if kind == "modes":
            picked = rng.sample(list(options), rng.randint(decision.count, len(options)))
            while decision.is_legal is not None and not decision.is_legal(picked):
                picked.pop()
            return picked
        if kind in ("paris_exile", "devour", "exile_with"):
            return [c for c in options if rng.random() < 0.5]
        if kind == "abandon_scheme":
            return rng.sample(list(options), decision.count) if rng.random() < 0.5 else []
        if kind == "blocks":
            chosen: list[tuple[Permanent, Permanent]] = []
            used: set[int] = set()
            for pair in rng.sample(list(options), len(options)):
                if id(pair[0]) not in used and rng.random() < 0.5:
                    trial = chosen + [pair]
                    if decision.is_legal is None or decision.is_legal(trial):
                        chosen = trial
                        used.add(id(pair[0]))
            if decision.is_legal is not None and not decision.is_legal(chosen):
                return []
            return chosen
        return options[rng.randrange(len(options))]


LANDS_ENOUGH = 6  # lands out past which a card that only makes more mana is the one to discard


class BaselinePolicy(Policy):
    """Plays as a careful table does. In its main phase it casts by curve: mana rocks and elves
    first while short of lands (during the grace turns too), removal only when there is a Horde
    permanent it really takes away, a wrath once the Horde's board power reaches
    ``wrath_threshold`` and passes the team's, and no creature while its own wrath is coming.
    It keeps open the mana for the cheapest fog, counterspell or flash blocker it can actually
    pay in the Horde's next turn (a flashback fog in its graveyard counts), none before the
    Horde's first turn. It attacks with every creature the next Horde attack does not need at
    home, except one an untapped Horde creature (a lieutenant that acts instead of attacking)
    would block and kill for nothing. It blocks so the team survives first, with the creatures
    it misses least, chumps with a token an attacker that would take half its life, then trades
    and blocks for free, never into an attacker that regenerates or can't die. Removal goes at
    the worst Horde permanent it takes away (Grave Pact before an equipment), never the team's
    own nor a Horde Aura that helps a team creature; it counters bombs and the enchantments that
    feed the Horde every turn.

    Parameters: ``safety`` (extra life it wants left after the next expected attack, default 5),
    ``wrath_threshold`` (Horde board power that makes it cast a wrath, default 10)."""

    name = "baseline"
    description = "curve out, keep enough blockers back, attack with the rest, answer bombs"
    safety = 5
    wrath_threshold = 10

    # ---- dispatch
    _trick: tuple[CardDef, Any] | None = None  # the target an activated ability was chosen for

    def choose(self, decision: Decision, view: TeamView) -> Any:
        trick = self._trick
        if trick is not None and decision.kind == "target":
            self._trick = None
            if decision.subject is trick[0] and trick[1] in decision.options:
                return trick[1]
        return getattr(self, "_" + decision.kind)(decision, view)

    # ---- opening hand (C3)
    def _mulligan(self, decision: Decision, view: TeamView) -> Any:
        lands = sum(1 for c in decision.subject if c.is_land)
        return "keep" if 2 <= lands <= 5 or decision.count >= 2 else "mulligan"

    def _bottom(self, decision: Decision, view: TeamView) -> Any:
        hand = list(decision.options)
        lands = [c for c in hand if c.is_land]
        spells = sorted((c for c in hand if not c.is_land), key=lambda c: -c.mana_value)
        order = lands + spells if len(lands) > 3 else spells + lands
        return order[:decision.count]

    def _paris_exile(self, decision: Decision, view: TeamView) -> Any:
        hand = list(decision.options)
        lands = [c for c in hand if c.is_land]
        if len(lands) > 5:
            return lands
        if len(lands) < 2:
            return [c for c in hand if not c.is_land]
        return []

    # ---- main phase
    def _land(self, decision: Decision, view: TeamView) -> Any:
        """The land that lets it cast the most of its hand this turn (an untapped land making the
        colour a spell it can now afford lacks: the Forest that casts Llanowar Elves), then one
        making a colour the hand needs and the board lacks, else any; never a land that would
        leave at once (a bounce land with no other land to return, Rupture Spire with no mana to
        pay its {1}) while another will do."""
        lands = [o for o in decision.options if o is not None]
        if not lands:
            return None
        player = decision.player
        have = view.colours(player)
        hand = [card for card in view.hand(player) if not card.is_land]
        needed = {pip for card in hand for pip in card.cost.pips}
        others = view.lands(player)
        units = view.sources(player)
        mana = view.available_mana(player)

        def stays(land: CardDef) -> bool:
            for effect in land.hooks.get("Enters", ()):
                if effect.verb == "return_own" and not others or (
                        effect.verb == "sacrifice_unless_paid" and mana < effect.args["generic"]):
                    return False
            return True

        def score(land: CardDef) -> tuple[bool, int, bool, bool, int]:
            makes = set(land.mana_colours)
            untapped = "enters tapped" not in land.keywords
            stay = stays(land)
            enabled = 0
            if untapped and stay:
                more = units + list(land.mana)
                for card in hand:
                    cost = view.cost(card, player)
                    if cost <= mana + len(land.mana) and reading.payable_with(card.cost.pips, more) \
                            and not (cost <= mana and reading.payable_with(card.cost.pips, units)):
                        enabled = max(enabled, card.mana_value + 1)
            wanted = "*" in makes or bool(makes & (needed - have))
            return (stay, enabled, wanted, untapped, len(makes))

        return max(lands, key=score)

    def _cast(self, decision: Decision, view: TeamView) -> Any:
        """The spell to cast now (``horde.team.tactics.cast``, compiled): a wrath once the Horde's
        board power reaches ``wrath_threshold`` and passes the team's, else by role and cost."""
        return tactics.cast(decision, view, self.wrath_threshold)

    def _target(self, decision: Decision, view: TeamView) -> Any:
        options = decision.options
        card = decision.subject
        verbs = card_verbs(card)
        if card.enchant is not None:  # an Aura: on its own best creature, or the Horde's worst threat
            return self._enchant(decision, view, aura_helps(card))
        player_verbs = targets_player(card)
        chosen = getattr(self, "_loyalty_ability", None)
        if card.is_planeswalker and chosen is not None and chosen[0] is card:  # the loyalty ability chosen
            verbs = frozenset(e.verb for e in chosen[1])
            player_verbs = frozenset(e.verb for e in chosen[1] if e.args.get("who") in ("target_player",
                                                                                         "target_opponent"))
        if player_verbs:  # 'target player': itself for what helps, the Horde for what harms
            if player_verbs & {"draw", "gain_life"} and decision.player in options:
                return decision.player
            if "horde" in options:
                return "horde"
        horde = [o for o in options if not isinstance(o, int | str) and o.is_horde]
        if len(horde) > 1:
            horde = [p for p in horde if view.can_leave(p)] or horde  # G2: not Xenagos behind his Revelers
        if verbs & HARMFUL or role(card) == "removal" or shrinks_target(card):
            amount = damage_amount(card) if "damage" in verbs else shrink_amount(card)
            library = view.horde_library
            if "horde" in options and amount is not None and 0 < library <= amount:
                return "horde"  # H11, H12: it mills the Horde's last cards
            # What it takes away (not what regenerates, is indestructible or shielded: L4, nor
            # what comes back: undying, persist, a Horde card bounced: H6), and is worth taking
            # (not a Horde Aura that helps a team creature), worst first.
            removed = [p for p in horde if tactics.removes(card, p, view) and tactics.permanent_threat(p, view) >= 0]
            if removed:
                return max(removed, key=lambda p: (tactics.permanent_threat(p, view), view.toughness(p)))
            if "horde" in options and amount is not None and library > 0:
                return "horde"  # H11: damage mills; none is dealt to an empty library
            # Nothing it takes away: a shield or a regeneration spent on the worst, never a
            # creature that comes back bigger (undying).
            worth = [p for p in horde if tactics.permanent_threat(p, view) >= 0 and not reading.returns_bigger(p, view)]
            if worth:
                return max(worth, key=lambda p: (tactics.permanent_threat(p, view), view.toughness(p)))
            if "horde" in options:
                return "horde"  # nothing of the Horde worth it: an empty library loses nothing (H11), a team creature would
            ours = [o for o in options if not isinstance(o, int | str) and not o.is_horde]
            if ours:  # the least the team loses: a creature that survives it, then the weakest
                return min(ours, key=lambda p: (amount is not None and view.toughness(p) <= amount, view.power(p)))
            return horde[0] if horde else options[0]
        ours = [o for o in options if not isinstance(o, int | str) and not o.is_horde]
        if ours:
            if verbs & UNTAPS:  # 701.21b: a tapped permanent of its own first, then a teammate's
                return max(ours, key=lambda p: (p.tapped, p.controller == decision.player, view.power(p)))
            if "pump" in verbs:
                if view.is_horde_turn:  # in the Horde's combat: on the creature about to block
                    return max(ours, key=lambda p: (not p.tapped, view.power(p) + view.toughness(p)))
                return max(ours, key=lambda p: (view.can_attack(p), view.power(p)))  # on one that attacks
            return max(ours, key=view.power)
        return options[0]

    def _threat(self, p: Permanent, view: TeamView) -> int:
        """What a Horde creature is worth removing: its power, plus what its anthems give the
        Horde's other creatures (Death Baron; ``horde.team.tactics.threat``)."""
        return tactics.threat(p, view)

    def _answers(self, card: CardDef, horde: list, view: TeamView, player: int) -> bool:
        """Whether a removal spell has a Horde permanent to answer (``horde.team.tactics.answers``)."""
        return tactics.answers(card, horde, view, player)

    def _enchant(self, decision: Decision, view: TeamView, helps: bool) -> Any:
        options = decision.options
        if helps:
            ours = [o for o in options if isinstance(o, Permanent) and not o.is_horde and o.controller == decision.player]
            ours = ours or [o for o in options if isinstance(o, Permanent) and not o.is_horde]
            if ours:
                return max(ours, key=lambda p: (view.power(p) + view.toughness(p), -len(p.auras)))
            return decision.player if decision.player in options else options[0]
        horde = [o for o in options if isinstance(o, Permanent) and o.is_horde]
        if horde:
            return max(horde, key=lambda p: (view.power(p), view.toughness(p)))
        return "horde" if "horde" in options else options[0]

    def _equip(self, decision: Decision, view: TeamView) -> Any:
        pairs = [o for o in decision.options if o is not None and o[0].attached_to is None]
        bare = [pair for pair in pairs if not pair[1].equipment]
        if not bare:
            return None
        return max(bare, key=lambda pair: (view.can_attack(pair[1]), view.power(pair[1])))

    def _loyalty(self, decision: Decision, view: TeamView) -> Any:
        """Loyalty abilities (606), each weighed as a mode is (``_worth``): for the first
        planeswalker with one worth using, a minus ability when the next Horde attack threatens
        its loyalty anyway (use it before losing it), or when it is worth at least twice the best
        plus ability and leaves the planeswalker some loyalty (an ultimate, a wrath of the Horde's
        big creatures); else the best plus ability. Nothing worth nothing (a wrath that costs the
        team more than the Horde)."""
        player = decision.player
        walkers: dict[int, tuple[Permanent, list]] = {}
        for option in decision.options:
            if option is not None:
                walkers.setdefault(id(option[0]), (option[0], []))[1].append(option[1])
        for walker, abilities in walkers.values():
            worth = {id(a): self._worth(a, view, player) for a in abilities}
            plus = [a for a in abilities if (a[0].cost or 0) >= 0 and worth[id(a)] > 0]
            minus = [a for a in abilities if (a[0].cost or 0) < 0 and worth[id(a)] > 0]
            best_plus = max(plus, key=lambda a: worth[id(a)], default=None)
            grown = walker.loyalty + (best_plus[0].cost or 0 if best_plus is not None else 0)
            if minus and view.planeswalker_threat(walker) >= grown:
                return self._chose(walker, max(minus, key=lambda a: worth[id(a)]))
            floor = 2 * worth[id(best_plus)] if best_plus is not None else 0
            big = [a for a in minus if walker.loyalty + (a[0].cost or 0) >= 1 and worth[id(a)] >= floor]
            if big:
                return self._chose(walker, max(big, key=lambda a: worth[id(a)]))
            if best_plus is not None:
                return self._chose(walker, best_plus)
        return None

    def _chose(self, walker: Permanent, ability: tuple) -> tuple:
        """Remember the loyalty ability chosen: its target decision follows, with the card as subject."""
        self._loyalty_ability = (walker.card, ability)
        return walker, ability

    def _worth(self, effects: tuple, view: TeamView, player: int) -> float:
        """What an ability or a mode is worth against the Horde (``horde.team.tactics.effects_worth``):
        mass removal by the Horde's power it takes less the team's, targeted harm by the worst
        Horde creature it takes away, milling the Horde, then what helps the team."""
        return tactics.effects_worth(effects, None, view, player)

    def _activate(self, decision: Decision, view: TeamView) -> Any:
        """Abilities as a player uses them (``horde.team.tricks``): what lasts in the second main
        phase, an evasion or haste before attacking, a combat trick after blocks when it wins a fight or
        mills more; never a sacrifice, a second legend (704.5j) or the mana kept for an answer.
        The target it was chosen for is remembered for the target decision that follows."""
        found = tricks.choose(list(decision.options), decision.subject or "second_main", view, decision.player)
        if found is None:
            return None
        option, target = found
        self._trick = (option[0].card, target) if target is not None else None
        return option

    # ---- combat
    def _empties_the_library(self, creatures: list, view: TeamView) -> bool:
        """Whether attacking with every creature wins now (H12): it mills the Horde's whole library
        (H11) even if its untapped creatures block the biggest attackers (H8: they block at
        random), and every Horde creature is such a blocker, which dies blocking any attacker."""
        powers = sorted((max(0, view.power(c)) for c in creatures), reverse=True)
        horde = view.horde_creatures()
        if not powers or any(p.tapped or view.toughness(p) - p.damage > powers[-1] for p in horde):
            return False
        return sum(powers[len(horde):]) >= view.horde_library > 0

    def _attackers(self, decision: Decision, view: TeamView) -> Any:
        creatures = list(decision.options)
        if self._empties_the_library(creatures, view):
            return [c for c in creatures if view.power(c) > 0]
        threat = view.horde_attack_power() + 4  # what the Horde could swing next turn, plus a reveal
        life = view.team_life
        if threat < life - self.safety or tactics.fog_kept(view):  # a fog kept: its attack deals no damage
            return self._unblocked_deaths([c for c in creatures if view.power(c) > 0], view)
        # Keep the best blockers back until the expected damage leaves us alive; the creatures
        # that can't attack now but can block (summoning sick, walls) stay home anyway.
        keep: list[Permanent] = []
        rest = sorted(creatures, key=lambda c: (view.toughness(c), view.power(c)), reverse=True)
        attackers_by_power = sorted((view.power(p) for p in view.horde_attackers()), reverse=True)
        home = min(len(tactics.home_blockers(creatures, view)), len(attackers_by_power))
        blocked = sum(attackers_by_power[:home])
        while rest and threat - blocked >= life - self.safety and home + len(keep) < len(attackers_by_power):
            keep.append(rest.pop(0))
            blocked += attackers_by_power[home + len(keep) - 1]
        return self._unblocked_deaths([c for c in rest if view.power(c) > 0 and not view.has(c, "vigilance")] + [
            c for c in creatures if view.has(c, "vigilance") and view.power(c) > 0 and c not in rest], view)

    def _unblocked_deaths(self, attackers: list, view: TeamView) -> list:
        """The attackers less those the Horde destroys for dealing it damage (Mikaeus, the
        Unhallowed and a Human), none at all when the Horde's library is empty (its damage mills
        nothing: H11), and less those an untapped Horde creature would block and kill for
        nothing (a lieutenant that acts instead of attacking, L8, stays untapped), unless they
        are worth sending anyway: each untapped Horde creature blocks one attacker at random
        (H8, H9), so against few blockers many attackers lose one creature now and then and mill
        the rest of their power every time (``tactics.worth_the_blockers``)."""
        if view.horde_library == 0:
            return []
        sent = [c for c in attackers if not reading.punished_for_damage(c, view)]
        risky = [c for c in sent if tactics.dies_attacking(c, view)]
        if risky and not tactics.worth_the_blockers(sent, risky, view):
            return [c for c in sent if c not in risky]
        return sent

    def _blocks(self, decision: Decision, view: TeamView) -> Any:
        """Trade where a blocker kills its attacker (best: and survives; against deathtouch only
        a blocker worth no more than the attacker), block for free where a blocker survives, chump
        the biggest attackers while the rest would be lethal, and block a lieutenant with a spare
        creature once every other attacker is blocked (L5): ``horde.team.tactics.blocks``, compiled."""
        return tactics.blocks(decision, view)

    def _counter(self, decision: Decision, view: TeamView) -> Any:
        spell = decision.subject
        if (is_bomb(spell) or spell_threat(spell, view) >= BIG_THREAT) and not self._helps_the_team(spell, view):
            return self._narrowest(decision)
        return None

    def _narrowest(self, decision: Decision) -> Any:
        """The counterspell that counters the fewest kinds of spell (Negate before Counterspell)."""
        return min((o for o in decision.options if o is not None), key=lambda o: counterspell_breadth(o[1]))

    def _helps_the_team(self, spell: CardDef, view: TeamView) -> bool:
        """A Horde wrath that destroys more of the Horde's board than of the team's."""
        wipes = [e for e in spell.hooks.get("Cast", ()) if e.verb == "destroy_all"]
        if not wipes:
            return False

        def loss(creatures: list) -> int:
            return sum(view.power(p) + view.toughness(p) for p in creatures
                       if any(view.matches(e.args["filter"], p) for e in wipes))

        return loss(view.team_creatures()) < loss(view.horde_creatures())

    def _fog(self, decision: Decision, view: TeamView) -> Any:
        expected = decision.subject
        if expected >= view.team_life or expected >= max(8, view.team_life // 3):
            return next(o for o in decision.options if o is not None)
        return None

    def _search(self, decision: Decision, view: TeamView) -> Any:
        """The basic land making the colour its hand and board need most and have least."""
        have = view.colours(decision.player)
        needed = [pip for card in view.hand(decision.player) if not card.is_land for pip in card.cost.pips]

        def score(land: CardDef) -> tuple[int, int]:
            makes = set(land.mana_colours)
            return (sum(1 for pip in needed if pip in makes and pip not in have), sum(1 for pip in needed if pip in makes))

        return max(decision.options, key=score)

    def _tutor(self, decision: Decision, view: TeamView) -> Any:
        """What a search fetches: a land by the colours its hand needs (``_search``) when it finds
        only lands; onto the battlefield the biggest permanent; into its graveyard the biggest
        creature (to return it); into its hand or on top the most expensive spell it can cast by
        next turn (mana value at most its lands plus one), else the cheapest."""
        options = list(decision.options)
        _, to = decision.subject
        if all(card.is_land for card in options):
            return self._search(decision, view)
        spells = [card for card in options if not card.is_land] or options
        if to == "battlefield":
            return max(spells, key=lambda c: (c.is_creature, c.mana_value))
        if to == "graveyard":
            return max(spells, key=lambda c: (c.is_creature, (c.power or 0) + (c.toughness or 0), c.mana_value))
        soon = [card for card in spells if card.mana_value <= view.lands(decision.player) + 1]
        return max(soon, key=lambda c: c.mana_value) if soon else min(spells, key=lambda c: c.mana_value)

    def _reanimate(self, decision: Decision, view: TeamView) -> Any:
        """The biggest creature (power plus toughness, then mana value) of any graveyard, else the
        most expensive card."""
        return max(decision.options, key=lambda o: (o[1].is_creature, (o[1].power or 0) + (o[1].toughness or 0),
                                                    o[1].mana_value))

    def _divide(self, decision: Decision, view: TeamView) -> Any:
        """Damage divided as it chooses (601.2d): the Horde creatures it can kill, the most
        threatening first, each dealt just what kills it; the rest to the Horde, where each point
        mills a card (H11), else to the last creature chosen (or the biggest Horde creature)."""
        options = list(decision.options)
        _, left, most = decision.subject
        horde = [o for o in options if isinstance(o, Permanent) and o.is_horde and o.card.is_creature
                 and not view.has(o, "indestructible")]
        points: list[Any] = []
        chosen = 0
        for p in sorted(horde, key=lambda q: -tactics.permanent_threat(q, view)):
            need = max(1, view.toughness(p) - p.damage)
            if need <= left and chosen < most:
                points += [p] * need
                left -= need
                chosen += 1
        if left:
            if "horde" in options and chosen < most:
                rest: Any = "horde"
            elif points:
                rest = points[-1]
            else:
                rest = max(horde, key=view.power) if horde else options[0]
            points += [rest] * left
        return points

    def _pay(self, decision: Decision, view: TeamView) -> Any:
        """Pay so the effect does not happen, unless it does nothing: the Horde draws no card (H4)."""
        _, effect, _ = decision.subject
        return effect.verb != "draw"

    def _mode(self, decision: Decision, view: TeamView) -> Any:
        """A mode that hurts the Horde if one can, else the first."""
        for mode in decision.options:
            if any(e.verb in HARMFUL for e in mode):
                return mode
        return decision.options[0]

    def _modes(self, decision: Decision, view: TeamView) -> Any:
        """The modes worth most against the Horde: mass removal by the Horde's power it takes
        less the team's, targeted harm, then what helps the team; as many as pay off."""
        player = decision.player

        def worth(mode: tuple) -> float:
            return self._worth(mode, view, player)

        ranked = sorted(decision.options, key=worth, reverse=True)
        chosen = ranked[:max(decision.count, sum(1 for m in ranked if worth(m) > 0))]
        while decision.is_legal is not None and not decision.is_legal(chosen) and len(chosen) > decision.count:
            chosen.pop()
        return chosen

    def _exile_graveyard(self, decision: Decision, view: TeamView) -> Any:
        """Stop a Horde creature's combat damage (Carrion Wurm) whenever a player can."""
        return next(o for o in decision.options if o is not None)

    def _exile_with(self, decision: Decision, view: TeamView) -> Any:
        """Sutured Ghoul: every card but those that still do something from the graveyard (flashback, unearth)."""
        return [card for card in decision.options if not card.graveyard_ability]

    def _exile_cards(self, decision: Decision, view: TeamView) -> Any:
        cards = sorted(decision.options, key=lambda c: (not c.is_land, c.mana_value))
        return cards[:decision.count]

    # ---- losing things
    def _sacrifice(self, decision: Decision, view: TeamView) -> Any:
        """A token, or a creature that leaves one behind, before anything else; the commander last."""
        def worth(p: Permanent) -> tuple[bool, bool, int]:
            value = view.power(p) + view.toughness(p) if p.card.is_creature else 0
            replaced = replaced_on_dying(p.card)
            return (not (p.card.is_token or replaced), p.is_commander, value - 2 * replaced)

        return min(decision.options, key=worth)

    def _discard(self, decision: Decision, view: TeamView) -> Any:
        """The card it misses least: a land once it has lands enough for its hand (or more lands in
        hand than it will play), else the spell it can use least (a legendary permanent it already
        has; one it can't pay the colours of; a mana rock with six lands out; an edict that takes
        more from the team than from the Horde; then the cheapest to replace); an answer (a fog,
        removal, a counterspell) last of the spells; never the big spell its lands are growing
        toward."""
        return min(decision.options, key=lambda c: self._keep_worth(c, view, decision.player))

    def _keep_worth(self, card: CardDef, view: TeamView, player: int) -> tuple[int, int]:
        """How much a player wants to keep a card of its hand (less: discarded first)."""
        hand = view.hand(player)
        lands = view.lands(player)
        if card.is_land:
            needed = max((c.mana_value for c in hand if not c.is_land), default=0)
            in_hand = sum(1 for c in hand if c.is_land)
            short = lands < min(needed, 7) or lands < 4
            return (3 if short and in_hand <= 2 else 0, -in_hand)
        if reading.duplicate_legend(card, player, view):
            return (0, card.mana_value)
        colours = view.colours(player)
        if "*" not in colours and any(pip not in colours for pip in card.cost.pips if "/" not in pip and pip != "C"):
            return (1, card.mana_value)  # it can't pay the colours yet
        kind = tactics.role(card)
        if kind in ("fog", "removal", "counter"):
            return (3, card.mana_value)  # an answer: what the Horde's next turn may ask for
        if kind == "ramp" and lands >= LANDS_ENOUGH:
            return (1, card.mana_value)  # more mana, once it has mana enough
        balance = reading.edict_balance(card, player, view)
        if balance is not None and balance < 0:
            return (1, card.mana_value)  # each player sacrifices: the team loses more
        return (2, card.mana_value)  # a spell it can cast: the bigger, the harder to replace

    def _return(self, decision: Decision, view: TeamView) -> Any:
        return max(decision.options, key=lambda c: c.mana_value)

    def _return_own(self, decision: Decision, view: TeamView) -> Any:
        """A bounce land returns a land whose mana was already spent (tapped) and that comes back
        simply (a basic), never the land that entered while another will do; never sacrifices."""
        lands = [o for o in decision.options if o is not None]
        return max(lands, key=lambda p: (p is not decision.subject, p.tapped, "Basic" in p.card.supertypes,
                                         not p.card.mana_options), default=None)

    def _pay_life(self, decision: Decision, view: TeamView) -> Any:
        """Pay life for an untapped land in the team's own turn when a card in hand costs exactly
        the mana it would then have, and the life left stays above ``safety`` twice over."""
        _, amount = decision.subject
        if view.is_horde_turn or view.life(decision.player) - amount <= 2 * self.safety:
            return False
        mana = view.available_mana(decision.player)  # the land that enters counts, untapped
        return any(view.cost(card, decision.player) == mana for card in view.hand(decision.player) if not card.is_land)

    def _player(self, decision: Decision, view: TeamView) -> Any:
        """'Choose a player' as a permanent enters: the Horde, the team's one opponent (what such a
        card hurts or counts is the other side's: Sewer Nemesis grows with the Horde's graveyard
        and mills it)."""
        return "horde" if "horde" in decision.options else decision.options[0]

    def _colour(self, decision: Decision, view: TeamView) -> Any:
        """A colour its hand's costs ask for and its mana sources can't make yet, the one asked most
        often first; else the one asked most; else one it can't make; then WUBRG order."""
        made = view.colours(decision.player)
        asked = {c: sum(pip.split("/").count(c) for card in view.hand(decision.player) for pip in card.cost.pips)
                 for c in decision.options}
        unmade = {c: c not in made and "*" not in made for c in decision.options}
        return max(decision.options, key=lambda c: (asked[c] > 0 and unmade[c], asked[c], unmade[c],
                                                    -decision.options.index(c)))

    def _scry(self, decision: Decision, view: TeamView) -> Any:
        """Bottom a land once it has six lands (in play and in hand), a spell while it has fewer
        than three lands and the spell costs more than two beyond them."""
        lands = view.lands(decision.player) + sum(1 for c in view.hand(decision.player) if c.is_land)
        return [c for c in decision.options if (lands >= 6 if c.is_land else lands < 3 and c.mana_value > lands + 2)]

    def _flash(self, decision: Decision, view: TeamView) -> Any:
        """Flash in a blocker: the flash creature with the most toughness, when attackers come;
        else an instant worth casting now (``horde.team.tactics.flash_cast``: removal for what the
        Horde revealed, a modal spell, card draw), keeping the mana of the team's fog."""
        creatures = [o for o in decision.options if o is not None and o[0].is_creature]
        if creatures and decision.subject:
            return max(creatures, key=lambda o: (o[0].toughness or 0, o[0].power or 0))
        return tactics.flash_cast(decision, view, self.wrath_threshold)

    def _cycle(self, decision: Decision, view: TeamView) -> Any:
        """Cycle a dead card: a land once it has six, a spell its mana can't make the colours of."""
        player = decision.player
        have = view.colours(player)
        for card in decision.options:
            if card is None:
                continue
            if card.is_land and view.lands(player) >= 6:
                return card
            if not card.is_land and "*" not in have and any(pip not in have for pip in card.cost.pips
                                                            if pip != "C") and view.lands(player) >= 3:
                return card
        return None

    def _graveyard(self, decision: Decision, view: TeamView) -> Any:
        """Unearth and return what it can: it costs the graveyard nothing."""
        return next((o for o in decision.options if o is not None), None)

    def _kick(self, decision: Decision, view: TeamView) -> Any:
        """Kick as often as it can pay, unless the mana the kicker takes would cast another spell
        of its hand this turn (the unkicked spell, and that one, do more)."""
        card = decision.subject
        player = decision.player
        left = view.available_mana(player) - view.cost(card, player)
        others = list(view.hand(player))
        if card in others:
            others.remove(card)
        if any(not c.is_land and role(c) not in ("fog", "counter") and view.cost(c, player) <= left for c in others):
            return min(decision.options)
        return max(decision.options)

    def _buyback(self, decision: Decision, view: TeamView) -> Any:
        """Buy back as a kicker is paid: unless the mana would cast another spell of its hand."""
        return self._kick(Decision("kick", decision.player, (0, 1), decision.subject), view) == 1

    def _cast_free(self, decision: Decision, view: TeamView) -> Any:
        """Cast what costs nothing, unless it is a wrath while the team's board is the bigger one."""
        card = decision.subject
        if role(card) == "wrath":
            return (sum(max(0, view.power(p)) for p in view.horde_creatures())
                    > sum(max(0, view.power(p)) for p in view.team_creatures()))
        return True

    def _echo(self, decision: Decision, view: TeamView) -> Any:
        """Pay echo: the permanent was worth casting."""
        return True

    def _devour(self, decision: Decision, view: TeamView) -> Any:
        """Devour its creature tokens that are worth less than the counters they give (power and
        toughness below twice the devour number)."""
        return [p for p in decision.options
                if p.card.is_token and view.power(p) + view.toughness(p) < 2 * decision.count]

    def _regenerate(self, decision: Decision, view: TeamView) -> Any:
        """Regenerate: it saves a creature that would be destroyed now."""
        return next(o for o in decision.options if o is not None)


    # ---- the published automated opponents (RULES.md F, M, G, V)
    def _redirect(self, decision: Decision, view: TeamView) -> Any:
        """Damage to the opponent goes to one of its creatures (F6, G3): kill the most dangerous one
        it can (an elite Head, the biggest Reveler), never Xenagos while something else is there;
        else wear down the one closest to dying."""
        n = decision.subject
        options = list(decision.options)
        live = [p for p in options if not view.has(p, "indestructible") and p.card.name != "Xenagos Ascended"]
        pool = live or options

        def left(p: Permanent) -> int:
            return view.toughness(p) - p.damage

        killable = [p for p in pool if left(p) <= n]
        if killable:
            return max(killable, key=lambda p: ("Elite" in p.card.supertypes, view.power(p), left(p)))
        return min(pool, key=left)

    def _horde_choice(self, decision: Decision, view: TeamView) -> Any:
        """The team makes the Hydra's choices (F7) and takes the option least bad for it: its
        harmful effects on the Hydra's own non-elite Heads (no extra turn) or the team's least
        valuable permanent, its Heads tapped elite first, the mode that hurts the team least."""
        kind, card = decision.subject
        options = list(decision.options)
        permanents = [o for o in options if isinstance(o, Permanent)]
        ours = [p for p in permanents if not p.is_horde]
        theirs = [p for p in permanents if p.is_horde]

        def worth(p: Permanent) -> tuple[bool, int]:
            return (not p.card.is_token, view.power(p) + view.toughness(p) if p.card.is_creature else 0)

        if kind == "harm":
            if theirs:
                return max(theirs, key=lambda p: ("Elite" not in p.card.supertypes, view.toughness(p)))
            return min(ours, key=worth) if ours else options[0]
        if kind == "tap":
            if theirs:
                return max(theirs, key=lambda p: ("Elite" in p.card.supertypes, view.toughness(p)))
            return min(ours, key=worth) if ours else options[0]
        if kind == "help":
            return max(ours, key=worth) if ours else min(theirs, key=worth) if theirs else options[0]
        if kind == "sacrifice":
            return max(theirs, key=worth) if theirs else min(ours, key=worth) if ours else options[0]
        if kind == "mode":
            return min(options, key=lambda mode: self._mode_harm(mode, view))
        if kind == "face":  # a card of two faces: the face whose spell hurts the team least
            return min(options, key=lambda face: self._mode_harm(face.hooks.get("Cast", ()), view))
        if kind == "return":
            return min(options, key=lambda c: c.mana_value)
        return options[0]

    def _mode_harm(self, mode: tuple, view: TeamView) -> int:
        """What a mode of the opponent's spell costs the team, roughly in life points."""
        harm = 0
        for effect in mode:
            if effect.verb == "damage_each_opponent" and isinstance(effect.args["amount"], int):
                harm += effect.args["amount"] * view.players
            elif effect.verb == "destroy_all":
                flt = effect.args["filter"]
                harm += sum(3 + view.power(p) for p in view.team_creatures() if view.matches(flt, p))
            else:
                harm += 1
        return harm

    def _may(self, decision: Decision, view: TeamView) -> Any:
        """Do what it may, unless it hurts one of the team's own permanents."""
        _, effect, target = decision.subject
        return not (target is not None and not isinstance(target, int | str) and not target.is_horde
                    and rules.harms(effect))

    def _may_sacrifice(self, decision: Decision, view: TeamView) -> Any:
        """Sacrifice a token or a creature worth less than the life it saves, or when the life would kill."""
        options = [o for o in decision.options if o is not None]
        cost = decision.subject
        cheapest = min(options, key=lambda p: (not p.card.is_token, view.power(p) + view.toughness(p)))
        if cheapest.card.is_token or view.power(cheapest) + view.toughness(cheapest) <= cost or view.team_life <= cost:
            return cheapest
        return None

    def _exile(self, decision: Decision, view: TeamView) -> Any:
        return min(decision.options, key=lambda p: (not p.card.is_token, p.is_commander,
                                                    view.power(p) + view.toughness(p)))

    def _tap(self, decision: Decision, view: TeamView) -> Any:
        """The Head that bites hardest: an elite one first."""
        return max(decision.options, key=lambda p: ("Elite" in p.card.supertypes, view.toughness(p)))

    def _must_block(self, decision: Decision, view: TeamView) -> Any:
        return max(decision.options, key=lambda p: (view.toughness(p), -view.power(p)))

    def _burn(self, decision: Decision, view: TeamView) -> Any:
        """V5: mill while the Horde has a library; once it is empty, burn its graveyard."""
        library, _ = decision.subject
        return library == 0

    # ---- the variants (RULES.md A)
    def _self_or_others(self, decision: Decision, view: TeamView) -> Any:
        """A 'self or others' scheme hurts the chosen player twice as much as each other one: 'others'
        while there are at most two others (and always when it has fewer life than any other with
        a life for each player), 'self' from three others on."""
        others = [i for i in range(view.players) if i != decision.player and view.in_game(i)]
        if len(others) <= 2:
            return "others"
        return "others" if view.life(decision.player) < min(view.life(i) for i in others) else "self"

    def _abandon_scheme(self, decision: Decision, view: TeamView) -> Any:
        """Sacrifice the two least valuable creatures to abandon the scheme when each is a token or
        small (power plus toughness 4 or less): the scheme makes a 3/3 every Horde turn."""
        options = sorted(decision.options, key=lambda p: (not p.card.is_token, view.power(p) + view.toughness(p)))
        chosen = options[:decision.count]
        if all(p.card.is_token or view.power(p) + view.toughness(p) <= 4 for p in chosen):
            return chosen
        return []

    def _keep(self, decision: Decision, view: TeamView) -> Any:
        """Keep the biggest creature (power plus toughness, then mana value)."""
        return max(decision.options, key=lambda p: (view.power(p) + view.toughness(p), p.card.mana_value))


class AggroPolicy(BaselinePolicy):
    """Races: attacks with every creature that does not have to stay back to prevent lethal
    (but not into an untapped Horde blocker that kills it for nothing), casts its biggest
    creature before anything else (keeping the mana for an answer it can pay, and not into its
    own coming wrath), and points burn at the Horde's library. The rest as ``baseline``.

    Parameters: ``margin`` (life it keeps above the next expected attack before it holds any
    blocker back, default 0)."""

    name = "aggro"
    description = "race: attack with all but the blockers needed to prevent lethal"
    margin = 0

    def _attackers(self, decision: Decision, view: TeamView) -> Any:
        creatures = list(decision.options)
        if self._empties_the_library(creatures, view):
            return [c for c in creatures if view.power(c) > 0]
        threat = view.horde_attack_power()
        life = view.team_life
        keep: list = []
        rest = sorted(creatures, key=lambda c: (view.toughness(c), -view.power(c)), reverse=True)
        attackers_by_power = sorted((view.power(p) for p in view.horde_attackers()), reverse=True)
        blocked = 0
        while rest and threat - blocked >= life - self.margin and len(keep) < len(attackers_by_power):
            keep.append(rest.pop(0))
            blocked += attackers_by_power[len(keep) - 1]
        return self._unblocked_deaths([c for c in rest if view.power(c) > 0], view)

    def _cast(self, decision: Decision, view: TeamView) -> Any:
        """Its biggest creature first, as long as it leaves the mana for the answer it keeps
        for the Horde's next turn (``tactics.answer_reserve``) and its own wrath is not coming
        (``tactics.wrath_coming``); else as ``baseline``; else a burn spell at the Horde's
        library, which ``baseline`` keeps for a creature."""
        player = decision.player
        options = [o for o in decision.options if o is not None]
        left = view.available_mana(player) - tactics.answer_reserve(view, player)
        creatures = [o for o in options if o[0].is_creature and view.cost(o[0], player, o[1]) <= left
                     and not (harms_on_entering(o[0]) and not view.horde_creatures())]
        if creatures and not tactics.wrath_coming(view, player, self.wrath_threshold):
            return max(creatures, key=lambda o: view.cost(o[0], player, o[1]))
        choice = super()._cast(decision, view)
        if choice is None:  # H11: burn that kills nothing still mills the Horde
            for option in options:
                card = option[0]
                if (not card.is_permanent and "damage" in card_verbs(card) and view.cost(card, player, option[1]) <= left
                        and "horde" in view.targets(card, player)):
                    return option
        return choice

    def _target(self, decision: Decision, view: TeamView) -> Any:
        if "horde" in decision.options and "damage" in card_verbs(decision.subject):
            return "horde"  # H11: every point mills a card
        return super()._target(decision, view)


class DefensivePolicy(BaselinePolicy):
    """Keeps enough blockers back to survive the next expected Horde attack (its board plus an
    expected reveal), chump-blocks to keep ``safety`` life above the attack, attacks only with
    the surplus, and fogs early (an attack of a quarter of its life). The rest as ``baseline``.

    Parameters: ``safety`` (life it wants left after the expected attack, default 10),
    ``reveal_allowance`` (power it expects the next reveal to add, default 6)."""

    name = "defensive"
    description = "hold blockers for the next attack, chump to stay alive, attack with the surplus"
    safety = 10
    reveal_allowance = 6

    def _attackers(self, decision: Decision, view: TeamView) -> Any:
        creatures = list(decision.options)
        if self._empties_the_library(creatures, view):
            return [c for c in creatures if view.power(c) > 0]
        threat = view.horde_attack_power() + self.reveal_allowance
        life = view.team_life
        rest = sorted(creatures, key=lambda c: (view.toughness(c), view.power(c)), reverse=True)
        horde = sorted((view.power(p) for p in view.horde_attackers()), reverse=True)
        horde += [self.reveal_allowance // 2] * 2  # the creatures the next reveal may bring
        kept = 0
        while rest and threat >= life - self.safety and kept < len(horde):
            rest.pop(0)
            threat -= horde[kept]
            kept += 1
        return self._unblocked_deaths([c for c in rest if view.power(c) > 0], view)

    def _blocks(self, decision: Decision, view: TeamView) -> Any:
        chosen = super()._blocks(decision, view)
        used = {id(b) for b, _ in chosen}
        blocked = {id(a) for _, a in chosen}
        incoming = sum(max(0, view.power(a)) for a in decision.subject if id(a) not in blocked and a.attacked is None)
        for b, a in sorted(decision.options, key=lambda pair: -view.power(pair[1])):
            if incoming < view.team_life - self.safety:
                break
            if id(b) in used or id(a) in blocked or a.attacked is not None:
                continue
            trial = chosen + [(b, a)]
            if decision.is_legal is None or decision.is_legal(trial):
                chosen = trial
                used.add(id(b))
                blocked.add(id(a))
                incoming -= max(0, view.power(a))
        return chosen

    def _fog(self, decision: Decision, view: TeamView) -> Any:
        if decision.subject >= max(4, view.team_life // 4):
            return next(o for o in decision.options if o is not None)
        return None


class ControlPolicy(BaselinePolicy):
    """Holds spot removal for a bomb: a lieutenant, or a Horde permanent worth ``bomb_power``
    (a big creature, Grave Pact, an anthem), casts a wrath when the Horde's board power passes
    a higher threshold, and counters every Horde spell of ``counter_value`` mana or more (and
    every one ``baseline`` counters). The rest as ``baseline``.

    Parameters: ``wrath_threshold`` (Horde board power that triggers a wrath, default 12),
    ``bomb_power`` (what makes a Horde permanent worth spot removal: a creature's power, default 5),
    ``counter_value`` (mana value from which a Horde spell is worth a counterspell, default 4)."""

    name = "control"
    description = "removal for bombs and lieutenants, wrath past a power threshold, counter the worst"
    wrath_threshold = 12
    bomb_power = 5
    counter_value = 4

    def _cast(self, decision: Decision, view: TeamView) -> Any:
        worthy = [p for p in view.horde_permanents()
                  if tactics.permanent_threat(p, view) >= self.bomb_power or view.is_lieutenant(p)]
        options = []
        for option in decision.options:
            if option is None:
                continue
            verbs = card_verbs(option[0])
            if verbs & HARMFUL and not option[0].is_permanent and "damage" not in verbs and not worthy:
                continue  # hold spot removal for a bomb or a lieutenant
            options.append(option)
        return super()._cast(Decision(decision.kind, decision.player, options + [None], decision.subject,
                                      decision.count, decision.is_legal), view)

    def _counter(self, decision: Decision, view: TeamView) -> Any:
        spell = decision.subject
        if self._helps_the_team(spell, view):
            return None
        if is_bomb(spell) or spell_threat(spell, view) >= BIG_THREAT \
                or (not spell.is_token and spell.mana_value >= self.counter_value):
            return self._narrowest(decision)  # a cheap threat (Plague Belcher) too, as baseline counters it
        return None


# ---------------------------------------------------------------- looking ahead (issue 16)


def fork(game: Game | Snapshot, policy: Any) -> Game:
    """A copy of ``game`` (or of a kept ``Snapshot``) that plays on exactly as it would, chosen
    for by ``policy`` (``horde.engine.fork``, compiled with the engine), with its own view."""
    clone = game.fork(policy) if isinstance(game, Snapshot) else engine_fork(game, policy)
    clone.drivers.view = TeamView(clone)
    return clone


class _Diverged(Exception):
    """A replayed game did not offer the decision recorded (it can't happen in a deterministic
    engine; the candidate is then dropped rather than trusted)."""


def _index(options: Any, item: Any) -> int:
    for i, option in enumerate(options):
        if option is item:
            return i
    return list(options).index(item)


def encode(decision: Decision, choice: Any) -> tuple[str, Any]:
    """A choice as positions in the decision's options, which a copy of the game offers alike."""
    if decision.kind in SELECTIONS:
        return decision.kind, tuple(_index(decision.options, item) for item in choice)
    return decision.kind, _index(decision.options, choice)


class _Replay:
    """Answers a copied game's decisions: first the ones recorded (by position), then as the
    rollout policy would."""

    def __init__(self, answers: list[tuple[str, Any]], rollout: Policy):
        self.answers = answers
        self.rollout = rollout
        self.rng = rollout.rng
        self.done = 0
        self.game: Game | None = None  # the copy it answers for

    def choose(self, decision: Decision, view: TeamView) -> Any:
        if self.done < len(self.answers):
            kind, code = self.answers[self.done]
            self.done += 1
            if kind != decision.kind:
                raise _Diverged
            options = list(decision.options)
            return [options[i] for i in code] if kind in SELECTIONS else options[code]
        return self.rollout.choose(decision, view)


KEEP = object()  # what a search returns to keep baseline's answer (None is an answer: no spell, no fog)


class SearchPolicy(BaselinePolicy):
    """What the searching policies share: ``baseline``, but at its important decisions (blocks,
    targets, fogs, attackers, counterspells) a few candidate answers are played forward on copies
    of the game (``_look_ahead``, the subclass's), ``baseline`` choosing for the team in the
    copies. A copy can't start in the middle of a turn: at each turn's start (``start``) an exact
    copy is kept, and each copy replays this turn's answers so far from it."""

    _IMPORTANT = frozenset({"blocks", "target", "fog", "attackers", "counter"})

    def __init__(self, **params: Any):
        super().__init__(**params)
        self._searched = self._IMPORTANT  # the kinds of decision played forward
        self._snapshot: Snapshot | None = None
        self._rest: Callable[[Game], Any] | None = None
        self._answered: list[tuple[str, Any]] = []
        self._peers: tuple[Policy, ...] = (DefensivePolicy(), AggroPolicy())

    def width(self) -> int:
        """The most candidate answers played forward at one decision (0: none, as baseline)."""
        return 0

    def start(self, view: TeamView, rest: Callable[[Game], Any]) -> None:
        """A turn begins (in a puzzle: a step): keep a copy of the game to replay it from, and
        ``rest``, which plays the turn from there."""
        self._answered = []
        self._snapshot = view.snapshot() if self.width() > 0 else None
        self._rest = rest

    def choose(self, decision: Decision, view: TeamView) -> Any:
        choice: Any = KEEP
        if self._snapshot is not None and decision.kind in self._searched:
            collecting = gc.isenabled()
            gc.disable()  # its copies' cycles are collected after the search, all at once, not during it
            try:
                choice = self._look_ahead(decision, view)  # None is an answer too: no spell, no fog
            finally:
                if collecting:
                    gc.enable()
        if choice is KEEP:
            choice = super().choose(decision, view)
        self._answered.append(encode(decision, choice))
        return choice

    def note(self, decision: Decision, choice: Any) -> None:
        """An answer another policy gave in this game (a table between two skill levels takes some
        decisions at the other level): the copies replay it too."""
        if self._snapshot is not None:
            self._answered.append(encode(decision, choice))

    def _look_ahead(self, decision: Decision, view: TeamView) -> Any:
        """The answer the search finds, or ``KEEP`` for ``baseline``'s."""
        raise NotImplementedError

    def _candidates(self, decision: Decision, view: TeamView) -> list[Any]:
        """Baseline's answer first, then the others worth a look, each once, at most ``width()``."""
        kind = decision.kind
        found = [super().choose(decision, view)]
        if kind in ("blocks", "attackers"):
            found += [peer.choose(decision, view) for peer in self._peers]
            if kind == "attackers":
                found += [[c for c in decision.options if view.power(c) > 0]]
            found.append([])
        else:
            found += [o for o in decision.options if o is not None]
            if None in decision.options:
                found.append(None)
        unique, seen = [], set()
        for choice in found:
            kind, code = encode(decision, choice)
            if kind in SELECTIONS:
                code = tuple(sorted(code))  # the same selection in another order is the same answer
            if code not in seen:
                seen.add(code)
                unique.append(choice)
        return unique[:self.width()]

    def _play_forward(self, replay: _Replay, until: int, turns: int = 4) -> float:
        """The value of the position a copy of the turn's start reaches, its decisions answered
        by ``replay``, at the end of Horde turn ``until`` (at most ``turns`` turns after this one)."""
        assert self._snapshot is not None and self._rest is not None
        game = fork(self._snapshot, replay)
        replay.game = game
        procedure = opponents.procedure(game.setup)
        try:
            self._rest(game)
            for _ in range(turns):  # the turns up to the next opponent's turn, at most 4 (H2: grace turns)
                if game.over() or game.horde_turns >= until or not opponents.play_turn(game, procedure):
                    break
        except (_Diverged, PolicyError, GameAborted, RecursionError):
            return -float("inf")  # a copy that ran away (H15) is no answer to take
        return self._value(game)

    def _value(self, game: Game) -> float:
        """How good a copy's position is for the team (``position_value``)."""
        return position_value(game)

    def rollout(self) -> BaselinePolicy:
        """The policy that plays the team's side in a copy once the answers run out."""
        return BaselinePolicy(safety=self.safety, wrath_threshold=self.wrath_threshold)


class LookaheadPolicy(SearchPolicy):
    """Plays as ``baseline``, but at its important decisions (blocks, targets, fogs, attackers,
    counterspells) it plays each of a few candidate answers forward on exact copies of the game
    to the end of the next Horde turn, with ``baseline`` choosing for the team in the copies,
    and takes the answer that leaves the best position: a win, else team life plus half the
    team's board, and the team's cards in hand, minus the Horde's library and half its board.
    The engine is deterministic, so each copy shows exactly what that answer leads to against
    the Horde's actual next reveals and dice, which a table can't know: it is clairvoyant, and
    its win rate is the upper bound of what a good table reaches (``expert`` is the fair one).

    Parameters: ``budget`` (the most candidate answers played forward at one decision, default
    4; 0 plays as baseline) and those of ``baseline``."""

    name = "lookahead"
    description = ("clairvoyant (an upper bound): baseline, but plays each important decision's candidates forward "
                   "to the next Horde turn's end against the real next reveals and dice")
    budget = 4

    def width(self) -> int:
        return self.budget

    def _look_ahead(self, decision: Decision, view: TeamView) -> Any:
        candidates = self._candidates(decision, view)
        if len(candidates) < 2:
            return KEEP
        until = view.horde_turns + 1  # to the end of the next Horde turn
        best, best_value = None, -float("inf")
        for choice in candidates:
            value = self._play_forward(_Replay(self._answered + [encode(decision, choice)], self.rollout()), until)
            if value > best_value:
                best, best_value = choice, value
        return best


def position_value(game: Game, life_weight: float = 1.0, permanents: bool = False,
                   life_cap: float | None = None) -> float:
    """How good a position is for the team: a win above everything, a loss below; else team
    life (times ``life_weight``) plus half the team's board (power and toughness) and 3 for each
    card in the team's hands or command zones (a fog or a counterspell kept is worth something),
    minus the Horde's library and half its board. With ``permanents``, each nonland permanent card the
    team has on the battlefield is worth 3 as well, as in a hand (a card cast is never worth
    less than the card held), and each mana the team's permanents make 1 more. Life above
    ``life_cap`` counts for nothing (life to spare)."""
    if game.winner == Winner.TEAM:
        return 1e9
    if game.winner == Winner.HORDE:
        return -1e9
    board = 0.0
    for p in game.battlefield.team:
        if p.card.is_creature:
            board += max(0, rules.power(game, p)) + rules.toughness(game, p)
    for p in game.battlefield.horde:
        if p.card.is_creature:
            board -= max(0, rules.power(game, p)) + rules.toughness(game, p)
    cards = sum(len(player.hand) + len(player.command) for player in game.players)  # a commander waits as a card in hand
    mana = 0
    if permanents:
        cards += sum(1 for p in game.battlefield.team if not p.card.is_token and not p.card.is_land)
        mana = sum(p.card.mana_yield for player, sources in game.battlefield.mana_sources.items()
                   if player != HORDE_CONTROLLER for p in sources)
    life = game.team_life if life_cap is None else min(game.team_life, life_cap)
    return mana + life_weight * life - len(game.horde.library) + board / 2 + 3 * cards


POLICIES: dict[str, type[Policy]] = {"baseline": BaselinePolicy, "aggro": AggroPolicy, "defensive": DefensivePolicy,
                             "control": ControlPolicy, "lookahead": LookaheadPolicy, "random": RandomPolicy}
# ``expert`` (horde.team.expert, a search on fair copies) registers itself here when the package loads.


_DOTTED_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*")


def policy_class(spec: str) -> type:
    """A registered policy by name, or a class by dotted path ``package.module:ClassName``.

    Before the module is imported (which runs its code) the spec is checked: both parts must be
    Python names, the module must be found (``importlib.util.find_spec``; finding
    ``package.module`` imports ``package``), and when its source is a Python file, the file must
    define ``ClassName`` at its top level (``_defines``). A PolicyError names what is wrong."""
    if spec in POLICIES:
        return POLICIES[spec]
    if ":" in spec:
        module_name, _, class_name = spec.partition(":")
        cls = attribute_by_path(spec, "policy", PolicyError)
        if cls is None or not callable(getattr(cls, "choose", None)):
            raise PolicyError(f"policy '{spec}': module '{module_name}' has no policy class '{class_name}'"
                              f" with a choose(decision, view) method")
        return cls
    name = match_name(spec, POLICIES, "policy", error=PolicyError, more=", or module:Class")  # forgives case, or says the closest
    return POLICIES[name]


def _defines(source: str, name: str) -> bool:
    """Whether a module's source file may bind ``name`` at its top level (a class, an assignment,
    an import), read without running it; a source that can't be read or parsed may (the import
    says what is wrong), and so may one with a star import or a module ``__getattr__``."""
    try:
        tree = ast.parse(read_text(source, "policy module"))
    except (HordeError, SyntaxError, ValueError, RecursionError, MemoryError):
        return True
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name == "__getattr__":
            return True
        if isinstance(node, ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef) and node.name == name:
            return True
        if isinstance(node, ast.Name) and node.id == name and isinstance(node.ctx, ast.Store):
            return True
        if isinstance(node, ast.ImportFrom | ast.Import):
            for alias in node.names:
                if alias.name == "*" or (alias.asname or alias.name.split(".")[0]) == name:
                    return True
    return False


def attribute_by_path(spec: str, what: str, error: type[HordeError]) -> Any:
    """The attribute ``Name`` of the module of ``package.module:Name`` (None if it has none). A spec
    that is not ``module:Name``, a module that can't be found or imported, or a module source that
    plainly defines no ``Name`` (read without running it) is an ``error`` naming ``what``."""
    module_name, _, name = spec.partition(":")
    if not _DOTTED_RE.fullmatch(module_name) or not name.isidentifier():
        raise error(f"{what} {quoted(spec)}: expected module:Class, like my_group:MyClass (a Python "
                    "module on the path and the name of a class in it)")
    try:
        found = importlib.util.find_spec(module_name)
    except (ImportError, ValueError) as problem:
        raise error(f"{what} '{spec}': cannot find module '{module_name}': {problem}") from None
    if found is None:
        raise error(f"{what} '{spec}': no module '{module_name}' on the Python path (run horde from its "
                    "folder, or set PYTHONPATH)")
    if found.origin and found.origin.endswith(".py") and not _defines(found.origin, name):
        raise error(f"{what} '{spec}': module '{module_name}' ({found.origin}) defines no class "
                    f"'{name}' (it was not imported)")
    try:
        module = importlib.import_module(module_name)
    except ImportError as problem:
        raise error(f"{what} '{spec}': cannot import module '{module_name}': {problem}") from None
    return getattr(module, name, None)


def parameters(cls: type) -> dict[str, Any]:
    """The parameters a policy class takes, with their defaults: its public plain class
    attributes and those it inherits (a subclass's value wins)."""
    found: dict[str, Any] = {}
    for klass in reversed(cls.__mro__):
        if klass in (object, Policy):
            continue
        for key, value in vars(klass).items():
            if key.startswith("_") or key in ("name", "description") or callable(value):
                continue
            if isinstance(value, property | staticmethod | classmethod) or inspect.isdatadescriptor(value):
                continue
            found[key] = value
    return found


def policy_factory(spec: str, **params: Any) -> Callable[[], Any]:
    """Check a policy and its parameters once; returns a function that makes a fresh policy each
    time it is called. A parameter it does not take is a PolicyError naming the ones it does."""
    cls = policy_class(spec)
    known = parameters(cls)
    for key in params:
        if key not in known:
            raise PolicyError(f"policy '{spec}' takes no parameter {quoted(key)} (it takes: "
                              f"{', '.join(known) or 'none'})")
        params[key] = parameter_value(spec, key, known[key], params[key])

    def make() -> Any:
        policy = cls(**params) if issubclass(cls, Policy) else cls()
        if not issubclass(cls, Policy):
            for key, value in params.items():
                setattr(policy, key, value)
        if not hasattr(policy, "rng"):
            setattr(policy, "rng", random.Random(0))  # noqa: B010 (a class that is no Policy)
        return policy

    return make


def parameter_value(spec: str, key: str, default: Any, value: Any) -> Any:
    """A policy parameter's value checked against the type of its default (its declaration): a
    whole number for an int (``2.7`` is refused, not played as 2), a finite number for a float,
    true or false for a bool, text for a str; numbers at most ``POLICY_NUMBER_MAX`` either way.
    The value recorded is the value played."""
    kind = type(default)
    if kind is bool:
        ok = isinstance(value, bool)
        expected = "true or false"
    elif kind is int:
        ok = isinstance(value, int) and not isinstance(value, bool) and abs(value) <= POLICY_NUMBER_MAX
        expected = f"a whole number from {-POLICY_NUMBER_MAX:,} to {POLICY_NUMBER_MAX:,}"
    elif kind is float:
        ok = (isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)
              and abs(value) <= POLICY_NUMBER_MAX)
        expected = f"a finite number from {-POLICY_NUMBER_MAX:,} to {POLICY_NUMBER_MAX:,}"
        value = float(value) if ok else value
    elif kind is str:
        ok = isinstance(value, str)
        expected = "a text value"
    else:
        raise PolicyError(f"policy '{spec}' parameter '{key}' can't be set: its default is a {kind.__name__}, and "
                          "only numbers, true or false and text values can be given")
    if not ok:
        raise PolicyError(f"policy '{spec}' parameter '{key}' = {quoted(value)}: expected {expected} (its default is "
                          f"{default!r})")
    return value


def make_policy(spec: str, **params: Any) -> Any:
    """Build a policy; a parameter it does not take is a PolicyError naming the ones it does."""
    return policy_factory(spec, **params)()

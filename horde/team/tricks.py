"""Activated abilities as a player uses them: when and on what the team activates an ability
(the ``activate`` decision, in the moments of ``horde.engine.turns.ACTIVATION_MOMENTS``).

An ability whose effect lasts (a token, a card drawn, a counter) is used in the second main
phase, with the mana the player does not keep for an answer (``tactics.answer_reserve``). One
whose effect ends this turn (a pump, a keyword until end of turn, a regeneration shield) or
that harms one creature (damage, destroy, exile, bounce) is a combat trick: it is weighed on
the fights of the combat under way (``combat_value``: the creatures each side loses, the cards
the team's unblocked damage mills (H11), the life the Horde's takes) with and without it, and
activated when it gains. Before the team's attackers are declared (in the first main phase for
one activated only as a sorcery), an evasion ("can't be blocked", flying) goes on the creature
it lets past the Horde's untapped blockers, and haste on one that arrived this turn; when the
Horde attacks, flying or reach on a creature that then can block a flier nothing else blocks. Nothing here
knows a card by name: it reads the verbs and their arguments.
"""

from __future__ import annotations

from typing import Any

from horde.engine.state import Permanent
from horde.team import reading, tactics
from horde.team.view import TeamView

# Verbs whose whole effect ends this turn (514.2), or that only shield a creature this turn.
THIS_TURN = frozenset({"pump", "pump_all", "fog", "prevent_damage_this_turn", "regenerate"})
# Verbs that take one creature away now.
REMOVAL = frozenset({"destroy", "exile", "bounce"})
# Keywords that let an attacker past blockers that lack an answer to them.
EVASION = frozenset({"unblockable", "flying", "menace", "shadow", "fear", "intimidate", "horsemanship"})
# Pump keywords the fight model reads.
FIGHT_KEYWORDS = ("first strike", "double strike", "deathtouch", "trample", "indestructible")

Bonus = dict[int, tuple[int, int, frozenset[str]]]  # id(creature) -> (+power, +toughness, keywords)


def choose(options: list[Any], moment: str, view: TeamView, player: int) -> tuple[Any, Any] | None:
    """The ability to activate now and its target (None: no target), or None to stop: the best
    gain among those worth activating, the cheapest first on a tie."""
    mana = view.available_mana(player)
    reserve = tactics.answer_reserve(view, player, ("fog",) if moment == "blocks" else ("counter", "fog"))
    best: tuple[float, int, Any, Any] | None = None
    base: float | None = None
    for option in options:
        if option is None:
            continue
        source, ability = option
        cost = view.ability_mana(ability)
        if mana - cost < reserve or _sacrifices(ability) or reading.makes_redundant_legend(ability, player, view):
            continue
        if moment == "second_main":
            found = _lasting(source, ability, view)
        elif moment == "attack" or moment == "first_main" and "as a sorcery" in ability[0].limit:
            found = _evasion(source, ability, view)  # one activated only as a sorcery: before combat, or never
        elif moment == "first_main":
            continue  # what lasts waits for the second main phase, the spells' mana spent first
        elif moment == "horde_attacks":
            found = _reach(source, ability, view)
        else:
            if base is None:
                base = combat_value(view, moment, {}, set())
            found = _trick(source, ability, moment, view, base)
        if found is not None and found[0] > 0 and (best is None or (found[0], -cost) > (best[0], best[1])):
            best = (found[0], -cost, option, found[1])
    return None if best is None else (best[2], best[3])


def _sacrifices(ability: tuple) -> bool:
    return any(isinstance(c, str) and c.startswith("sacrifice") for c in ability[0].costs)


def this_turn_only(ability: tuple) -> bool:
    """Whether every effect of the ability ends this turn (a pump, a shield, a fog)."""
    return all(e.verb in THIS_TURN or e.args.get("until_end_of_turn") for e in ability)


def _targets(source: Permanent, ability: tuple, view: TeamView) -> tuple[Any, list[Any]] | None:
    """The ability's one targeted effect and its legal targets ((None, []) for none; None when
    more than one effect targets)."""
    targeted = [e for e in ability if e.target is not None]
    if not targeted:
        return None, []
    if len(targeted) > 1:
        return None
    return targeted[0], view.ability_targets(source, targeted[0])


# ---------------------------------------------------------------- the second main phase
def _lasting(source: Permanent, ability: tuple, view: TeamView) -> tuple[float, Any] | None:
    """An ability whose effects last and only help the team (tokens, cards, counters, life), or
    damage that kills a Horde creature or mills the Horde (H11)."""
    verbs = {e.verb for e in ability}
    if "draw" in verbs:
        player = source.controller
        drawn = sum(view.amount(source.card, e.args.get("count", 1), player) for e in ability
                    if e.verb == "draw" and e.args.get("who", "you") == "you")
        if len(view.hand(player)) + drawn > reading.HAND_SIZE or drawn > view.library(player):
            return None  # 402.2: discarded at the end of the turn; 704.5b: a draw from an empty library loses
    if verbs <= tactics.HELPFUL and not this_turn_only(ability):
        found = _targets(source, ability, view)
        if found is None:
            return None
        effect, targets = found
        if effect is None:
            return 1.0, None
        own = [t for t in targets if isinstance(t, Permanent) and not t.is_horde]
        if own:
            return 1.0, max(own, key=lambda t: (view.power(t), view.toughness(t)))
        if not any(isinstance(t, Permanent) for t in targets) and targets:
            return 1.0, targets[0] if not isinstance(targets[0], str) or targets[0] != "horde" else None
        return None
    if verbs == {"damage"}:
        return _damage_now(source, ability, view)
    return None


def _damage_now(source: Permanent, ability: tuple, view: TeamView) -> tuple[float, Any] | None:
    found = _targets(source, ability, view)
    if found is None or found[0] is None:
        return None
    effect, targets = found
    amount = view.amount(source.card, effect.args.get("amount"), source.controller)
    killed = [t for t in targets if isinstance(t, Permanent) and t.is_horde and t.card.is_creature
              and _dies_to_damage(t, amount, source, view)]
    if killed:
        best = max(killed, key=lambda t: tactics.threat(t, view))
        return tactics.threat(best, view) + 1.0, best
    if "horde" in targets and view.horde_library > 0:
        return float(min(amount, view.horde_library)), "horde"
    return None


def _dies_to_damage(p: Permanent, amount: int, source: Permanent, view: TeamView) -> bool:
    return (amount > 0 and amount >= view.toughness(p) - p.damage and not view.has(p, "indestructible")
            and not view.regenerates(p) and not p.shields and not view.protected_from(p, source.card))


# ---------------------------------------------------------------- before the team attacks
def _evasion(source: Permanent, ability: tuple, view: TeamView) -> tuple[float, Any] | None:
    """A keyword until end of turn that lets one of the team's creatures past the Horde's
    untapped creatures: on the one with most power that can attack."""
    if len(ability) != 1 or ability[0].verb != "pump" or view.horde_library <= 0:
        return None
    effect = ability[0]
    keywords = effect.args.get("keywords") or frozenset()
    if "haste" in keywords:
        return _haste(source, ability, view)
    if not keywords & EVASION:
        return None
    blockers = [h for h in view.horde_creatures() if not h.tapped]
    if not blockers:
        return None
    if effect.args.get("on") == "self":
        candidates = [source]
    else:
        found = _targets(source, ability, view)
        if found is None:
            return None
        candidates = [t for t in found[1] if isinstance(t, Permanent) and not t.is_horde]
    worth = []
    for c in candidates:
        if not view.can_attack(c) or view.power(c) <= 0 or view.has(c, "unblockable"):
            continue
        if "flying" in keywords and "unblockable" not in keywords and \
                any(view.has(h, "flying") or view.has(h, "reach") for h in blockers):
            continue
        worth.append(c)
    if not worth:
        return None
    best = max(worth, key=view.power)
    if effect.args.get("on") == "self":
        return float(view.power(best)), None
    return float(view.power(best)), best


def _haste(source: Permanent, ability: tuple, view: TeamView) -> tuple[float, Any] | None:
    """Haste until end of turn on the team's summoning-sick creature of most power (702.10):
    one more attacker."""
    found = _targets(source, ability, view)
    if found is None or found[0] is None:
        return None
    sick = [t for t in found[1] if isinstance(t, Permanent) and not t.is_horde and t.card.is_creature
            and not t.tapped and view.power(t) > 0 and not view.can_attack(t) and view.summoning_sick(t)]
    if not sick:
        return None
    best = max(sick, key=view.power)
    return float(view.power(best)), best


# ---------------------------------------------------------------- the Horde attacks, before blocks
def _reach(source: Permanent, ability: tuple, view: TeamView) -> tuple[float, Any] | None:
    """Flying or reach until end of turn on an untapped team creature, when a flying Horde
    attacker no team creature can block now (702.9b) would get through: its power saved."""
    if len(ability) != 1 or ability[0].verb != "pump":
        return None
    effect = ability[0]
    keywords = effect.args.get("keywords") or frozenset()
    if not keywords & {"flying", "reach"}:
        return None
    team = [c for c in view.team_creatures() if not c.tapped and not view.has(c, "can't block")]
    fliers = [a for a in view.horde_creatures() if a.attacking and view.has(a, "flying")
              and not any(view.can_block(b, a) for b in team)]
    if not fliers:
        return None
    if effect.args.get("on") == "self":
        candidates = [source] if source in team else []
    else:
        found = _targets(source, ability, view)
        if found is None:
            return None
        candidates = [t for t in found[1] if isinstance(t, Permanent) and t in team]
    if not candidates:
        return None
    biggest = max(fliers, key=view.power)
    best = max(candidates, key=lambda c: (view.toughness(c), view.power(c)))
    return float(max(0, view.power(biggest))), None if effect.args.get("on") == "self" else best


# ---------------------------------------------------------------- in combat
def _trick(source: Permanent, ability: tuple, moment: str, view: TeamView, base: float
           ) -> tuple[float, Any] | None:
    """The gain of the ability on this combat's fights, on its best target."""
    if not all(e.verb in THIS_TURN | REMOVAL | {"damage"} for e in ability) or \
            any(e.verb in ("fog", "prevent_damage_this_turn") for e in ability):
        return None
    found = _targets(source, ability, view)
    if found is None:
        return None
    effect, targets = found
    choices: list[Any] = [None] if effect is None else [t for t in targets if isinstance(t, Permanent)]
    best: tuple[float, Any] | None = None
    for target in choices:
        bonus: Bonus = {}
        removed: set[int] = set()
        shielded: set[int] = set()
        for e in ability:
            on = target if e.target is not None else source
            if e.verb == "pump":
                if e.args.get("on") == "self":
                    on = source
                _add(bonus, on, e.args.get("power", 0), e.args.get("toughness", 0), e.args.get("keywords"))
            elif e.verb == "pump_all":
                for c in view.team_creatures() + view.horde_creatures():
                    if view.matches_from(e.args["filter"], source, c):
                        _add(bonus, c, e.args.get("power", 0), e.args.get("toughness", 0), e.args.get("keywords"))
            elif e.verb == "regenerate":
                if e.args.get("on") == "self":
                    on = source
                if on is not None:
                    shielded.add(id(on))
            elif e.verb in REMOVAL:
                if on is None or not on.is_horde or view.has(on, "indestructible") and e.verb == "destroy" \
                        or e.verb == "destroy" and view.regenerates(on):
                    break
                removed.add(id(on))
            elif e.verb == "damage":
                amount = view.amount(source.card, e.args.get("amount"), source.controller)
                if on is None or not on.is_horde or not on.card.is_creature or not _dies_to_damage(on, amount, source, view):
                    break
                removed.add(id(on))
        else:
            gain = combat_value(view, moment, bonus, removed, shielded) - base
            if best is None or gain > best[0]:
                best = (gain, target)
    return best


def _add(bonus: Bonus, p: Any, power: int, toughness: int, keywords: Any) -> None:
    if not isinstance(p, Permanent):
        return
    dp, dt, kw = bonus.get(id(p), (0, 0, frozenset()))
    bonus[id(p)] = (dp + (power or 0), dt + (toughness or 0), kw | (keywords or frozenset()))


def combat_value(view: TeamView, moment: str, bonus: Bonus, removed: set[int],
                 shielded: frozenset[int] | set[int] = frozenset()) -> float:
    """What the combat under way comes to for the team, its attackers and blockers as they stand
    with ``bonus`` and without the creatures ``removed``: each Horde creature that dies is worth
    its threat (``tactics.threat``) and one more, a team creature that dies costs its power and
    toughness (``shielded`` ones regenerate), the team's unblocked damage mills the Horde's cards
    (H11) and the Horde's takes the team's life, a point each."""
    team_attacks = moment == "blocked"
    attackers = view.team_creatures() if team_attacks else view.horde_creatures()
    value = 0.0
    through = 0
    for a in attackers:
        if not a.attacking:
            continue
        if id(a) in removed:
            value += _worth(a, view) if a.is_horde else -_worth(a, view)
            continue
        blockers = [b for b in a.blockers if id(b) not in removed]
        for b in a.blockers:
            if id(b) in removed:
                value += _worth(b, view) if b.is_horde else -_worth(b, view)
        a_dead, dead, hit = fight(view, a, blockers, a.blocked, bonus)
        through += hit
        for p in ([a] if a_dead else []) + dead:
            if p.is_horde:
                value += _worth(p, view)
            elif id(p) not in shielded:
                value -= _worth(p, view)
    if team_attacks:
        value += min(through, max(0, view.horde_library))
    else:
        value -= through
    return value


def _worth(p: Permanent, view: TeamView) -> float:
    if p.is_horde:
        return tactics.threat(p, view) + (0.5 if reading.comes_back(p, view) else 1.0)
    return float(max(0, view.power(p)) + max(0, view.toughness(p)))


class _Fighter:
    __slots__ = ("p", "power", "toughness", "first", "double", "deathtouch", "trample", "indestructible", "hit", "touched")

    def __init__(self, p: Permanent, view: TeamView, bonus: Bonus) -> None:
        dp, dt, kw = bonus.get(id(p), (0, 0, frozenset()))
        self.p = p
        self.power = max(0, view.power(p) + dp) if reading.deals_combat_damage(p, view) else 0
        self.toughness = view.toughness(p) + dt
        has = {k: k in kw or view.has(p, k) for k in FIGHT_KEYWORDS}
        self.double = has["double strike"]
        self.first = has["first strike"] or self.double
        self.deathtouch = has["deathtouch"]
        self.trample = has["trample"]
        self.indestructible = has["indestructible"]
        self.hit = p.damage  # damage marked on it (this turn's so far)
        self.touched = False  # dealt damage by a source with deathtouch

    def strikes(self, step: str) -> bool:
        return self.first if step == "first" else not self.first or self.double

    def lethal_need(self) -> int:
        """The damage that is still lethal to it (702.2c: 1 from a source with deathtouch)."""
        return max(0, self.toughness - self.hit)

    def dead(self) -> bool:
        """704.5f: no toughness; 704.5g-h: lethal damage, or any from deathtouch (not indestructible)."""
        if self.toughness <= 0:
            return True
        return not self.indestructible and (self.hit >= self.toughness or self.touched)


def fight(view: TeamView, a: Permanent, blockers: list[Permanent], blocked: bool, bonus: Bonus
          ) -> tuple[bool, list[Permanent], int]:
    """One attacker's fight (510, 702.7 first strike, 702.4 double strike, 702.2 deathtouch,
    702.19 trample, 702.12 indestructible, 702.16 protection): whether the attacker dies, the
    blockers that die, and the damage it deals the defending player. Its damage goes to its
    blockers in order, each getting lethal damage before the next (510.1c), the rest to the
    player with trample."""
    if view.fogged:
        return False, [], 0
    att = _Fighter(a, view, bonus)
    if att.toughness <= 0:
        return True, [], 0  # 704.5f: no toughness left: it dies before damage
    if blocked and not blockers:
        return False, [], att.power if att.trample else 0  # 506.4: still blocked; trample assigns all (702.19e)
    if not blocked:
        return False, [], att.power * (2 if att.double else 1)
    defenders = [_Fighter(b, view, bonus) for b in blockers]
    alive = [d for d in defenders if d.toughness > 0]
    through = 0
    for step in ("first", "regular"):
        if att.strikes(step) and not att.dead():
            left = att.power
            for d in alive:
                if left <= 0:
                    break
                if view.protected_from(d.p, a.card):
                    continue
                need = 1 if att.deathtouch else d.lethal_need()
                give = min(left, need)
                d.hit += give
                d.touched = d.touched or (att.deathtouch and give > 0)
                left -= give
            if left > 0:
                if att.trample:
                    through += left
                elif alive and not view.protected_from(alive[0].p, a.card):
                    alive[0].hit += left
        for d in alive:
            if d.strikes(step) and d.power > 0 and not view.protected_from(a, d.p.card):
                att.hit += d.power
                att.touched = att.touched or d.deathtouch
        alive = [d for d in alive if not d.dead()]
        if att.dead():
            break
    dead = [d.p for d in defenders if d.dead()]
    return att.dead(), dead, through

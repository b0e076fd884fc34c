"""The baseline policy's hot decisions as plain functions: what to cast in a main phase and how
to block (H8), with what they read of the cards (a card's role for the team) and of the board
(a Horde creature's threat, whether a removal spell has something to answer).

The policy classes (``horde.team.policies``) stay interpreted, since users subclass them and set
their parameters as class attributes; they call these functions with the view and their
parameters, so the loops of a decision run compiled with the engine (``horde.build``). The
choices are exactly the baseline's: ties go to the first option, as ``min``, ``max`` and
``sorted`` give them; no closures (mypyc builds an object for each).
"""

from __future__ import annotations

from typing import Any

from horde.engine.cards import CardDef
from horde.engine.decisions import Decision
from horde.engine.state import Permanent
from horde.team.view import TeamView

# ---------------------------------------------------------------- what cards do, for the AI
HARMFUL = {"destroy", "exile", "bounce", "damage", "shuffle_into_library"}
HELPFUL = {"create_tokens", "draw", "gain_life", "counters", "ramp", "return_from_graveyard", "search", "reanimate"}
MASS_REMOVAL = {"destroy_all", "damage_all", "each_player_sacrifices", "sacrifice_all"}
HINDERING = {"can't attack", "can't block", "defender", "assigns no combat damage"}


def aura_helps(card: CardDef) -> bool:
    """Whether an Aura helps what it enchants (+N/+N, good keywords) rather than hinders it
    (-N/-N, can't attack or block, a curse on a player's creatures, or one that takes control of it
    or makes it something else: Control Magic, Song of the Dryads)."""
    if "you_control" in card.verbs or "becomes" in card.verbs:
        return False
    for effect in card.equipped:
        args = effect.args
        if args["power"] + args["toughness"] < 0 or args["keywords"] & HINDERING:
            return False
    for effect in card.anthems:
        if effect.args["power"] + effect.args["toughness"] < 0:
            return False
    return True


def flash_blocker(card: CardDef) -> bool:
    """A creature with flash: held for the Horde's turn, to be flashed in as a blocker."""
    return card.is_creature and "flash" in card.keywords


def mass_removal(card: CardDef) -> bool:
    """Whether a card removes many creatures at once (damage to players alone is not)."""
    for effects in card.hooks.values():
        for e in effects:
            if e.verb in MASS_REMOVAL and (e.verb != "damage_all" or e.args.get("filter") is not None):
                return True
    return False


def _shrinks_on_pump(card: CardDef) -> bool:
    """Whether one of a card's pumps takes toughness away (-N/-N, for one creature or all)."""
    for effects in card.hooks.values():
        for e in effects:
            if e.verb in ("pump", "pump_all") and e.args.get("toughness", 0) < 0:
                return True
    return False


_ROLES: dict[CardDef, str] = {}


def role(card: CardDef) -> str:
    """What a card does for the team, read from its verbs once: 'wrath', 'removal', 'pump',
    'ramp', 'fog', 'counter', 'creature', 'permanent' or 'spell'."""
    found = _ROLES.get(card)
    if found is None:
        verbs = card.verbs
        shrink = _shrinks_on_pump(card)
        if card.is_fog:
            found = "fog"
        elif card.enchant is not None and card.enchant.args["zone"] == "graveyard":
            found = "permanent"  # Animate Dead: the card it returns is chosen as it enters
        elif card.enchant is not None:
            found = "aura" if aura_helps(card) else "removal"
        elif card.counters is not None:
            found = "counter"
        elif mass_removal(card) or ("pump_all" in verbs and shrink):
            found = "wrath"
        elif not card.is_permanent and (verbs & HARMFUL or ("pump" in verbs and shrink)):
            found = "removal"
        elif not card.is_permanent and verbs & {"pump", "pump_all"}:
            found = "pump"
        elif "ramp" in verbs or (card.makes_mana and not card.is_land):
            found = "ramp"
        elif card.is_creature:
            found = "creature"
        elif card.is_permanent:
            found = "permanent"
        else:
            found = "spell"
        _ROLES[card] = found
    return found


def shrink_amount(card: CardDef) -> int | None:
    """How much toughness a card's targeted -N/-N (or -1/-1 counters) takes away (Disfigure: 2);
    None: none."""
    for effects in card.hooks.values():
        for e in effects:
            if e.verb == "pump" and e.args.get("on") == "target" and e.args.get("toughness", 0) < 0:
                return -e.args["toughness"]
            if (e.verb == "counters" and e.args.get("kind") == "minus" and e.target is not None
                    and isinstance(e.args["count"], int)):
                return e.args["count"]  # -1/-1 counters
    return None


def harms_on_entering(card: CardDef) -> bool:
    """A permanent whose Enters ability harms a target creature (Flametongue Kavu): with no Horde
    creature to target it would hit one of the team's own."""
    for e in card.hooks.get("Enters", ()):
        if e.verb in HARMFUL and e.target is not None:
            return True
    return False


_HARMS: dict[CardDef, Any] = {}


def harm(card: CardDef) -> Any:
    """A card's first targeted effect that takes a permanent away or shrinks it (destroy, exile,
    bounce, damage, -N/-N, -1/-1 counters), or None."""
    if card in _HARMS:
        return _HARMS[card]
    found = None
    for effects in card.hooks.values():
        for e in effects:
            if e.target is None:
                continue
            if (e.verb in HARMFUL or (e.verb == "pump" and e.args.get("toughness", 0) < 0)
                    or (e.verb == "counters" and e.args.get("kind") == "minus")):
                found = e
                break
        if found is not None:
            break
    _HARMS[card] = found
    return found


def wipes_own(card: CardDef) -> bool:
    """A wrath that kills its caster's creatures too (Damnation, Languish), not one that spares
    them (Massacre Wurm: 'creatures your opponents control')."""
    for effects in card.hooks.values():
        for e in effects:
            flt = e.args.get("filter")
            text = getattr(flt, "text", "") or ""
            if e.verb in ("destroy_all", "damage_all", "pump_all") and flt is not None and "opponent" not in text \
                    and "theirs" not in text and (e.verb != "pump_all" or e.args.get("toughness", 0) < 0):
                return True
    return False


# ---------------------------------------------------------------- what the board holds


def threat(p: Permanent, view: TeamView) -> int:
    """What a Horde creature is worth removing: its power, plus what its anthems give the
    Horde's other creatures (Death Baron)."""
    value = max(0, view.power(p))
    if p.card.anthems:
        for q in view.horde_creatures():
            if q is not p:
                value += view.anthem_bonus(p, q)
    return value


def removes(card: CardDef, p: Permanent, view: TeamView) -> bool:
    """Whether a removal spell's harm takes permanent ``p`` away now: exile and bounce always;
    -N/-N and -1/-1 counters when they take its last toughness; destroy and lethal damage
    unless it is indestructible, has a shield counter (L4: the shield goes instead) or
    regenerates (H7: the Horde always pays), or the card says it can't be regenerated."""
    e = harm(card)
    if e is None:
        return False
    verb = e.verb
    if verb in ("exile", "bounce", "shuffle_into_library"):
        return True
    left = view.toughness(p) - p.damage
    if verb in ("pump", "counters"):
        shrink = shrink_amount(card)
        return shrink is not None and left <= shrink
    if view.has(p, "indestructible") or p.shields:
        return False
    if view.regenerates(p) and e.args.get("regenerate") is not False:
        return False
    if verb == "damage":
        dealt: Any = e.args["amount"]  # a number, or an amount worked out as it resolves (X)
        if view.protected(p):
            return False  # L5: no damage to a protected lieutenant
        return not isinstance(dealt, int) or left <= dealt
    return True


def permanent_threat(p: Permanent, view: TeamView) -> int:
    """What a Horde permanent is worth removing. A creature: ``threat``. An Aura on a team
    creature: what it takes from that creature (an Aura that helps it is worth nothing to
    remove: -1). Equipment and Auras on the Horde's creatures: what they give. Anthems: what
    they give the Horde's creatures. An enchantment or artifact whose triggers hurt the team
    (Grave Pact: each other player sacrifices a creature whenever one of the Horde's dies)
    outranks them all, one that grows the Horde's board comes next."""
    card = p.card
    if card.is_creature:
        return threat(p, view)
    host = p.attached_to
    if host is not None and not host.is_horde:
        return -1 if aura_helps(card) else view.power(host) + view.toughness(host)
    value = 0
    if host is not None:
        for effect in card.equipped:
            args = effect.args
            value += max(0, args["power"]) + max(0, args["toughness"]) + len(args["keywords"])
    if card.anthems:
        for q in view.horde_creatures():
            value += view.anthem_bonus(p, q)
    return value + lasting_threat(card)


# The effects of a Horde permanent's recurring triggers that cost the team, or grow the Horde's
# board; and the hooks that recur (every upkeep, every creature that dies, every attack ...).
TEAM_LOSSES = {"each_player_sacrifices", "destroy", "destroy_all", "damage_all", "damage", "lose_life",
               "discard", "damage_each_opponent", "exile"}
HORDE_GAINS = {"create_tokens", "return_from_graveyard", "reanimate_all", "counters", "pump_all", "draw", "reanimate",
               "search"}
RECURRING = {"Upkeep", "EachUpkeep", "OpponentUpkeep", "CreatureDies", "Dies", "EndStep", "YourEndStep",
             "OpponentsEndStep", "Attacks", "CreatureAttacks", "SpellCast", "PermanentEnters", "HitsPlayer",
             "MainPhase", "ControllerDamaged", "DealtDamage", "Blocks"}
_LASTING: dict[CardDef, int] = {}


def lasting_threat(card: CardDef) -> int:
    """What a Horde permanent's recurring triggers are worth to the Horde: 20 for each that
    costs the team (Grave Pact makes each other player sacrifice a creature whenever one of the
    Horde's dies: it wins the game), 8 for each that grows the Horde's board (Endless Ranks of
    the Dead); 0 for none."""
    found = _LASTING.get(card)
    if found is None:
        found = 0
        for hook, effects in card.hooks.items():
            if hook in RECURRING:
                for e in effects:
                    if e.verb in TEAM_LOSSES:
                        found += 20
                    elif e.verb in HORDE_GAINS:
                        found += 8
        _LASTING[card] = found
    return found


def answers(card: CardDef, horde: list[Permanent], view: TeamView, player: int) -> bool:
    """Whether a removal spell has a Horde permanent to answer: one of its legal targets that
    the Horde controls, that it would take away (``removes``) and that is worth removing (not
    an Aura of the Horde's that helps a team creature); a damage spell whose damage mills the
    Horde's last cards has one too (H11, H12). An Aura that hinders, or harm without a target,
    has one while the Horde has a creature (``horde``)."""
    e = harm(card)
    if e is None or card.enchant is not None:
        return bool(horde) or "damage" in card.verbs
    text = getattr(e.target, "text", "") or ""
    if e.verb == "damage" and "any" not in text and "creature" not in text:
        return True  # damage only a player takes (Lava Axe): the Horde's, which mills it (H11)
    for target in view.targets(card, player):
        if target == "horde":
            amount = e.args.get("amount")
            if isinstance(amount, int) and amount >= view.horde_library:
                return True
        elif isinstance(target, Permanent) and target.is_horde and removes(card, target, view) \
                and permanent_threat(target, view) >= 0:
            return True
    return False


def _most_power(horde: list[Permanent], view: TeamView) -> int:
    """The greatest power among creatures (0 for none)."""
    best = 0
    for i, p in enumerate(horde):
        power = view.power(p)
        if i == 0 or power > best:
            best = power
    return best


def _total_power(creatures: list[Permanent], view: TeamView) -> int:
    """The power creatures would deal, each at least 0."""
    total = 0
    for p in creatures:
        total += max(0, view.power(p))
    return total


# ---------------------------------------------------------------- the main phase: what to cast


# The power a Horde turn's reveal is expected to add to its board (a token or two): a wrath in
# hand is "coming" once the Horde's board power plus this reaches the wrath threshold.
REVEAL_POWER = 4


def payable(pips: tuple[str, ...], colours: set[str]) -> bool:
    """Whether mana of these colours ('*': any) can pay these coloured pips."""
    if "*" in colours:
        return True
    for pip in pips:
        if pip != "C" and pip not in colours:
            return False
    return True


def answer_reserve(view: TeamView, player: int) -> int:
    """The mana a player keeps open for the Horde's next turn: the cost of its cheapest answer
    (a counterspell, a fog or a flash blocker in hand, a fog it can flash back from its
    graveyard) that its mana can pay then, in amount and colours; 0 when it has none it can
    pay, and 0 before the Horde's first turn (H2: the grace turns are for building)."""
    if view.horde_turns == 0:
        return 0
    most = view.mana(player)
    colours = view.colours(player)
    reserve = 0
    held = False
    for c in view.hand(player):
        if c.counters is not None or c.is_fog or flash_blocker(c):
            cost = view.cost(c, player)
            if cost <= most and payable(c.cost.pips, colours) and (not held or cost < reserve):
                reserve, held = cost, True
    for c in view.graveyard(player):
        if c.is_fog and c.flashback is not None:
            cost = view.cost(c, player, "flashback")
            if cost <= most and payable(c.flashback.pips, colours) and (not held or cost < reserve):
                reserve, held = cost, True
    return reserve


def wrath_coming(view: TeamView, player: int, wrath_threshold: float) -> bool:
    """Whether the player holds a wrath that kills its own creatures too and will cast it this
    turn or the next: it can pay for it with one more land, and the Horde's board power plus a
    reveal reaches ``wrath_threshold`` and passes the team's. A creature cast now would die to it."""
    horde_power = -1
    most = view.mana(player)
    for c in view.hand(player):
        if role(c) == "wrath" and wipes_own(c) and view.cost(c, player) <= most + 1:
            if horde_power < 0:
                horde_power = _total_power(view.horde_creatures(), view) + REVEAL_POWER
            if horde_power >= wrath_threshold and horde_power > _total_power(view.team_creatures(), view):
                return True
    return False


def cast(decision: Decision, view: TeamView, wrath_threshold: float) -> Any:
    """The baseline's spell to cast now, or None: the best scored of a wrath (when the Horde's
    board power reaches ``wrath_threshold`` and passes the team's), removal with something to
    answer (``answers``), ramp while short of lands, creatures (none while its own wrath is
    coming: ``wrath_coming``), Auras and other permanents by cost; never a fog, a counterspell
    or a flash creature (held for the Horde's turn), nor a spell that would leave too little
    mana for the answer it keeps for the Horde's next turn (``answer_reserve``)."""
    player = decision.player
    options = [o for o in decision.options if o is not None]
    if not options:
        return None
    reserve = answer_reserve(view, player)
    mana = view.available_mana(player)
    horde = view.horde_creatures()
    horde_power = team_power = 0
    for option in options:
        if role(option[0]) == "wrath" or option[1] == "overload":
            horde_power = _total_power(horde, view)
            team_power = _total_power(view.team_creatures(), view)
            break
    coming = -1  # whether the player's own wrath is coming (worked out once, when a creature is an option)
    best: Any = None
    best_score = 0
    card: CardDef
    origin: str
    for card, origin in options:
        kind = "wrath" if origin == "overload" else role(card)  # 702.96: overloaded, it hits each one
        cost = view.cost(card, player, origin)
        if kind in ("fog", "counter") or flash_blocker(card):
            continue  # answers for the Horde's turn (a flash creature blocks best when flashed in)
        if kind == "pump" and not _any_can_attack(view):
            continue  # a trick helps an attack; the team's spells have no window in combat
        if kind == "removal" and not answers(card, horde, view, player):
            continue  # nothing it would take away: keep it (burn is not thrown at the library)
        if harms_on_entering(card) and not horde:
            continue  # its Enters damage would hit the team's own creature
        if "return_from_graveyard" in card.verbs and not card.is_permanent and not _nonland_in(view.graveyard(player)):
            continue  # nothing worth returning yet
        if kind == "wrath":
            if not (horde_power >= wrath_threshold and horde_power > team_power):
                continue
            score = 100 + horde_power
        elif kind == "removal":
            score = 50 + _most_power(horde, view)
        elif kind == "ramp":
            score = 40 if view.lands(player) < 7 else 5
        elif kind == "pump":
            score = 12
        elif kind == "creature":
            if coming < 0:
                coming = 1 if wrath_coming(view, player, wrath_threshold) else 0
            if coming:
                continue  # it would die to the player's own wrath
            score = 20 + cost
        elif kind == "aura":
            if not _team_creature_for(card, player, view):
                continue  # an Aura that helps has no team creature to go on (it would help the Horde's)
            score = 16 + cost
        elif kind == "permanent":
            score = 15 + cost
        else:
            score = 10 + cost
        if mana - cost < reserve and score < 100:
            continue  # hold mana for a counterspell or a fog
        if score > best_score:
            best, best_score = (card, origin), score
    return best


def dies_attacking(c: Permanent, view: TeamView) -> bool:
    """Whether an untapped Horde creature (one that did not attack: a lieutenant that acts
    instead, L8; defender; vigilance) could block team creature ``c`` (H8: it blocks a random
    attacker it can) and kill it while surviving: it deals at least ``c``'s toughness (or has
    deathtouch) and ``c`` can't kill it (too little power, indestructible, a shield counter:
    L4, regeneration: H7, or L5: a protected lieutenant is dealt no damage)."""
    left = view.toughness(c) - c.damage
    power = view.power(c)
    for h in view.horde_creatures():
        if h.tapped or not view.can_block(h, c):
            continue
        hits = view.power(h)
        if not (hits >= left or (hits > 0 and view.has(h, "deathtouch"))):
            continue
        if (power <= 0 or view.protected(h) or view.has(h, "indestructible") or h.shields or view.regenerates(h)
                or (power < view.toughness(h) - h.damage and not view.has(c, "deathtouch"))):
            return True
    return False


def _team_creature_for(card: CardDef, player: int, view: TeamView) -> bool:
    """Whether an Aura that helps has a team creature among the permanents it may enchant."""
    for target in view.targets(card, player):
        if isinstance(target, Permanent) and not target.is_horde and target.card.is_creature:
            return True
    return False


def _any_can_attack(view: TeamView) -> bool:
    for p in view.team_creatures():
        if view.can_attack(p):
            return True
    return False


def _nonland_in(cards: tuple) -> bool:
    for c in cards:
        if not c.is_land:
            return True
    return False


# ---------------------------------------------------------------- blocking (H8)


class _Blocks:
    """The blocks being chosen against one Horde attack: each creature's power and toughness
    left (ids of attackers and blockers), the blockers each attacker may have, and what is
    chosen so far with the damage still coming at the players and at each team planeswalker."""

    def __init__(self, decision: Decision, view: TeamView) -> None:
        attackers: list[Permanent] = list(decision.subject)
        self.attackers = attackers
        self.power: dict[int, int] = {}
        self.toughness: dict[int, int] = {}
        self.candidates: dict[int, list[Permanent]] = {}
        self.deathtouch: set[int] = set()
        self.menace: set[int] = set()
        for a in attackers:
            self.power[id(a)] = view.power(a)
        for a in attackers:
            self.toughness[id(a)] = view.toughness(a) - a.damage
        for a in attackers:
            self.candidates[id(a)] = []
        for a in attackers:
            if view.has(a, "deathtouch"):
                self.deathtouch.add(id(a))
        b: Permanent
        for b, a in decision.options:
            if id(b) not in self.power:
                self.power[id(b)] = view.power(b)
                self.toughness[id(b)] = view.toughness(b) - b.damage
                if view.has(b, "deathtouch"):
                    self.deathtouch.add(id(b))
            self.candidates[id(a)].append(b)
        self.chosen: list[tuple[Permanent, Permanent]] = []
        self.used: set[int] = set()
        self.blocked: set[int] = set()
        self.incoming = 0  # the power attacking the players (H8)
        for a in attackers:
            if a.attacked is None:
                self.incoming += max(0, self.power[id(a)])
        for a in attackers:
            if view.has(a, "menace"):
                self.menace.add(id(a))
        self.lasting: set[int] = set()  # attackers no blocker kills: they regenerate (H7), are indestructible, shielded (L4) or protected (L5)
        for a in attackers:
            if view.regenerates(a) or view.has(a, "indestructible") or a.shields or view.protected(a):
                self.lasting.add(id(a))
        self.aimed: dict[int, int] = {}  # team planeswalker id -> the power attacking it (H8)
        for a in attackers:
            if a.attacked is not None:
                self.aimed[a.attacked.id] = self.aimed.get(a.attacked.id, 0) + max(0, self.power[id(a)])

    def block(self, a: Permanent, blockers: list[Permanent]) -> None:
        """Block attacker ``a`` with ``blockers``: its power no longer comes at its target."""
        for b in blockers:
            self.chosen.append((b, a))
            self.used.add(id(b))
        self.blocked.add(id(a))
        if a.attacked is None:
            self.incoming -= max(0, self.power[id(a)])
        else:
            self.aimed[a.attacked.id] -= max(0, self.power[id(a)])

    def value(self, p: Permanent) -> int:
        """Power plus toughness left: what a creature is worth in a trade."""
        return self.power[id(p)] + self.toughness[id(p)]

    def free(self, a: Permanent) -> list[Permanent]:
        """The creatures that may block ``a`` and block nothing yet."""
        return [b for b in self.candidates[id(a)] if id(b) not in self.used]

    def by_power(self, creatures: list[Permanent], descending: bool) -> list[Permanent]:
        """Creatures by power (ties in their order, as ``sorted`` keeps them)."""
        keyed = [(-self.power[id(p)] if descending else self.power[id(p)], i) for i, p in enumerate(creatures)]
        keyed.sort()
        return [creatures[i] for _, i in keyed]

    def by_value(self, creatures: list[Permanent]) -> list[Permanent]:
        """Creatures from the least worth to the most (ties in their order)."""
        keyed = [(self.value(p), i) for i, p in enumerate(creatures)]
        keyed.sort()
        return [creatures[i] for _, i in keyed]

    def least_power(self, creatures: list[Permanent]) -> Permanent:
        """The first creature of least power (``min``'s choice)."""
        best = creatures[0]
        for p in creatures:
            if self.power[id(p)] < self.power[id(best)]:
                best = p
        return best

    def most_power(self, creatures: list[Permanent]) -> Permanent:
        """The first creature of most power (``max``'s choice)."""
        best = creatures[0]
        for p in creatures:
            if self.power[id(p)] > self.power[id(best)]:
                best = p
        return best


def blocks(decision: Decision, view: TeamView) -> list[tuple[Permanent, Permanent]]:
    """The baseline's blocks (H8). Lethal first: while the attackers left unblocked would deal
    the team's life or more, the biggest of them is blocked by the blocker that costs the
    team least (one that kills it and survives, one that survives, a trade worth no more than
    the attacker, else the least valuable creature: a chump block); and a token blocks an
    attacker that would take half the team's life. Then trades where a
    blocker kills its attacker (best: and survives; against deathtouch only a blocker worth no
    more than the attacker; never into an attacker no blocker kills: it regenerates, is
    indestructible, shielded or protected), free blocks where a blocker survives, an attacker
    aimed at a team planeswalker when it is cheap, and a lieutenant by a spare creature once
    every other attacker is blocked (L5)."""
    plan = _Blocks(decision, view)
    power, toughness = plan.power, plan.toughness
    deathtouch, menace, blocked, lasting = plan.deathtouch, plan.menace, plan.blocked, plan.lasting
    attackers = plan.attackers
    life = view.team_life
    by_power = plan.by_power(attackers, True)
    for a in by_power:  # lethal first: the cheapest blocks that keep the team alive
        if plan.incoming < life:
            break
        if id(a) in blocked or view.is_lieutenant(a) or a.attacked is not None or power[id(a)] <= 0:
            continue
        need = 2 if id(a) in menace else 1
        free = plan.free(a)
        if len(free) < need:
            continue
        if need == 1:
            plan.block(a, [_cheapest_block(plan, a, free)])
        else:
            plan.block(a, plan.by_value(free)[:2])
    for a in by_power:  # a token chumps an attacker that would take half the team's life
        if id(a) in blocked or view.is_lieutenant(a) or a.attacked is not None or id(a) in menace:
            continue
        if 2 * power[id(a)] >= life:
            tokens = [b for b in plan.free(a) if b.card.is_token]
            if tokens:
                plan.block(a, [_cheapest_block(plan, a, tokens)])
    for a in by_power:  # trades: the blocker kills its attacker
        if id(a) in blocked or view.is_lieutenant(a) or id(a) in lasting:
            continue
        free = plan.free(a)
        need = 2 if id(a) in menace else 1
        killers = [b for b in free if power[id(b)] >= toughness[id(a)] or (power[id(b)] > 0 and id(b) in deathtouch)]
        if id(a) in deathtouch:  # every blocker dies: trade only down
            killers = [b for b in killers if plan.value(b) <= plan.value(a)]
            good: list[Permanent] = []
        else:
            good = [b for b in killers if toughness[id(b)] > power[id(a)]]
        pick = good or killers
        if need == 1 and pick:
            plan.block(a, [plan.least_power(pick)])
        elif need == 2 and len(free) >= 2:
            pair = plan.by_power(free, True)[:2]
            if power[id(pair[0])] + power[id(pair[1])] >= toughness[id(a)]:
                plan.block(a, pair)
    for a in by_power:  # free blocks: the blocker survives
        if id(a) in blocked or view.is_lieutenant(a) or id(a) in menace or id(a) in deathtouch:
            continue
        safe = [b for b in plan.free(a) if toughness[id(b)] > power[id(a)]]
        if safe and power[id(a)] > 0:
            plan.block(a, [plan.by_value(safe)[0]])
    for a in by_power:
        # H8: an attacker aimed at a team planeswalker is blocked when it is cheap: by a free
        # creature that survives it, or by a token when the power aimed at the planeswalker
        # would take its last loyalty.
        walker = a.attacked
        if walker is None or id(a) in blocked or view.is_lieutenant(a):
            continue
        free = plan.free(a)
        safe = [b for b in free if toughness[id(b)] > power[id(a)] and id(a) not in deathtouch]
        cheap = safe or ([b for b in free if b.card.is_token] if plan.aimed[walker.id] >= walker.loyalty else [])
        need = 2 if id(a) in menace else 1
        if len(cheap) >= need:
            plan.block(a, plan.by_value(cheap)[:need])
    for a in by_power:  # L5: a lieutenant last, by a spare creature
        if view.is_lieutenant(a) and _others_blocked(a, attackers, blocked):
            free = plan.free(a)
            if free:
                plan.block(a, [plan.most_power(free)])
    chosen = plan.chosen
    if decision.is_legal is not None and not decision.is_legal(chosen):
        chosen = [(b, a) for b, a in chosen if not view.is_lieutenant(a)]
        if not decision.is_legal(chosen):
            return []
    return chosen


def _cheapest_block(plan: _Blocks, a: Permanent, free: list[Permanent]) -> Permanent:
    """The blocker that stops attacker ``a`` at the least cost to the team: one that kills it
    and survives, else one that survives (the least valuable), else one that kills it and is
    worth no more than it, else the least valuable creature (a chump block)."""
    power, toughness = plan.power, plan.toughness
    kills_a = id(a) not in plan.lasting
    best = free[0]
    best_key = (9, 0)
    for b in free:
        kills = kills_a and (power[id(b)] >= toughness[id(a)] or (power[id(b)] > 0 and id(b) in plan.deathtouch))
        survives = toughness[id(b)] > power[id(a)] and id(a) not in plan.deathtouch
        if kills and survives:
            rank = 0
        elif survives:
            rank = 1
        elif kills and plan.value(b) <= plan.value(a):
            rank = 2
        else:
            rank = 3
        key = (rank, plan.value(b))
        if key < best_key:
            best, best_key = b, key
    return best


def _others_blocked(a: Permanent, attackers: list[Permanent], blocked: set[int]) -> bool:
    """Whether every attacker but ``a`` is blocked."""
    for x in attackers:
        if x is not a and id(x) not in blocked:
            return False
    return True

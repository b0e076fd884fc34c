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

from collections.abc import Callable
from typing import Any

from horde.engine.cards import CardDef
from horde.engine.decisions import Decision
from horde.engine.state import Permanent
from horde.team import reading
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
    """What a Horde creature is worth removing: its power when it can attack (not a creature an
    Aura or an effect keeps home: Pacifism), the life its own attack drains besides (Infectious
    Horror: each opponent loses 2) and its other recurring triggers drain, and what its anthems give the Horde's other creatures (Death
    Baron)."""
    value = reading.recurring_drain(p, view) if p.card.hooks else 0
    if not view.has(p, "can't attack"):
        value += max(0, view.power(p))
    if p.card.anthems:
        for q in view.horde_creatures():
            if q is not p:
                value += view.anthem_bonus(p, q)
    return value


def removes(card: CardDef, p: Permanent, view: TeamView) -> bool:
    """Whether a removal spell's harm takes permanent ``p`` away now: exile always; bounce a token
    (it ceases to exist) or a team permanent, never a Horde card (H6: cast again next turn);
    -N/-N and -1/-1 counters when they take its last toughness; destroy and lethal damage
    unless it is indestructible, has a shield counter (L4: the shield goes instead) or
    regenerates (H7: the Horde always pays), or the card says it can't be regenerated; none
    of these when it comes back (undying, persist: ``reading.comes_back``)."""
    e = harm(card)
    if e is None:
        return False
    verb = e.verb
    if verb in ("exile", "shuffle_into_library"):
        return True
    if verb == "bounce":
        return reading.bounce_lasts(p)  # H6: a Horde card bounced is cast again next turn; a token is gone
    if reading.comes_back(p, view):
        return False  # undying or persist: it dies and returns (undying: bigger)
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
RECURRING = {"Upkeep", "EachUpkeep", "UpkeepStep", "OpponentUpkeep", "CreatureDies", "Dies", "EndStep", "YourEndStep",
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


def attack_matters(view: TeamView) -> bool:
    """Whether the Horde's next attack as the team can see it (the power of the creatures that
    will attack, plus ``REVEAL_POWER`` for what its next reveal adds) is one worth a fog: as much
    as the team's life, or a third of it and at least 8 (what ``baseline`` fogs)."""
    expected = view.horde_attack_power() + REVEAL_POWER
    life = view.team_life
    return expected >= life or expected >= max(8, life // 3)


def _held_answer(view: TeamView, player: int, kind: str, mana: int) -> int:
    """The cost of the cheapest answer of ``kind`` ('fog': a fog in hand or one to flash back, or
    a flash creature to block with; 'counter': a counterspell) the player could cast in the
    Horde's next turn with ``mana`` mana of its own sources (each coloured pip paid by a source
    of its own: ``reading.payable_with``); -1 for none."""
    units: list[frozenset[str]] | None = None  # the player's mana, read when an answer asks
    best = -1
    for c in view.hand(player):
        if kind == "counter":
            fits = c.counters is not None
        else:
            fits = c.is_fog or flash_blocker(c)
        if fits:
            cost = view.cost(c, player)
            if cost <= mana and (best < 0 or cost < best):
                if units is None:
                    units = view.sources(player)
                if reading.payable_with(c.cost.pips, units):
                    best = cost
    if kind == "fog":
        for c in view.graveyard(player):
            if c.is_fog and c.flashback is not None:
                cost = view.cost(c, player, "flashback")
                if cost <= mana and (best < 0 or cost < best):
                    if units is None:
                        units = view.sources(player)
                    if reading.payable_with(c.flashback.pips, units):
                        best = cost
    return best


def _pressure(view: TeamView, player: int) -> int:
    """The mana a player's other spells ask for now: the cost of each nonland card of its hand
    that is no held answer and that its mana could pay. The teammate with the least holds the
    team's answer."""
    total = 0
    most = view.mana(player)
    for c in view.hand(player):
        if c.is_land or c.is_fog or c.counters is not None or flash_blocker(c):
            continue
        cost = view.cost(c, player)
        if cost <= most:
            total += cost
    return total


def fog_kept(view: TeamView) -> bool:
    """Whether a team player keeps the mana for a fog in the Horde's next turn (``_holder``): its
    next attack deals no combat damage, so no creature need stay home to block it."""
    return _holder(view, "fog") >= 0


def home_blockers(creatures: list[Permanent], view: TeamView) -> list[Permanent]:
    """The team's untapped creatures that are not ``creatures`` (the ones that may attack) and can
    block: summoning sick, defenders, walls; they block the Horde's next attack whatever attacks now."""
    chosen = set(map(id, creatures))
    return [c for c in view.team_creatures() if id(c) not in chosen and not c.tapped
            and not view.has(c, "can't block")]


def _holder(view: TeamView, kind: str) -> int:
    """The team player who keeps mana for the team's answer of ``kind`` in the Horde's next turn:
    among those who can still pay one with the mana they have untapped, the one whose other
    spells ask least (then the first); -1 for none. One fog and one counterspell a Horde turn
    are what a team needs: the others cast their spells."""
    best, best_key = -1, (0, 0)
    for player in range(view.players):
        if not view.in_game(player):
            continue
        mana = min(view.mana(player), view.available_mana(player))
        if _held_answer(view, player, kind, mana) < 0:
            continue
        key = (_pressure(view, player), player)
        if best < 0 or key < best_key:
            best, best_key = player, key
    return best


def answer_reserve(view: TeamView, player: int, kinds: tuple[str, ...] = ("counter", "fog")) -> int:
    """The mana a player keeps open for the Horde's next turn: the cost of its cheapest answer
    that its mana can pay then, in amount and in colours, one source for each coloured pip: a
    counterspell, and a fog (in hand, or to flash back) or a flash blocker only when the next
    attack matters (``attack_matters``: a lone 2/2 at 40 life does not); and only when it is
    the team's holder of that answer (``_holder``: a teammate already keeping one up, and less
    pressed to cast, keeps it instead). 0 when it holds none, and 0 before the Horde's first
    turn (H2: the grace turns are for building). ``kinds``: the answers still to come
    ('counter', 'fog'; in the Horde's combat only a fog is)."""
    if view.horde_turns == 0:
        return 0
    most = view.mana(player)
    reserve = 0
    for kind in kinds:
        if kind == "fog" and not attack_matters(view):
            continue
        cost = _held_answer(view, player, kind, most)
        if cost >= 0 and _holder(view, kind) == player:
            reserve = max(reserve, cost)
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
    """The baseline's spell to cast now, or None. Each spell it may cast is scored
    (``spell_score``): a wrath when the Horde's board power reaches ``wrath_threshold`` and passes
    the team's, removal (a creature whose entering ability is removal too) with something to
    answer, ramp while short of lands, creatures by their mana value (a commander's tax buys
    nothing), Auras and other permanents; and it keeps the mana of the answer it holds for the
    Horde's next turn (``answer_reserve``). Of the spells its mana can pay together, it casts
    first the best of the set worth most (two spells that use the mana before one that leaves
    it idle)."""
    player = decision.player
    options = [o for o in decision.options if o is not None]
    if not options:
        return None
    reserve = answer_reserve(view, player)
    mana = view.available_mana(player)
    scored: list[tuple[int, int, Any]] = []  # (score, cost, option)
    context = _CastContext(view, player, wrath_threshold)
    for option in options:
        card, origin = option
        score = spell_score(card, origin, context)
        if score <= 0:
            continue
        cost = view.cost(card, player, origin)
        if mana - cost < reserve and score < 100:
            continue  # hold mana for a counterspell or a fog
        scored.append((score, cost, option))
    if not scored:
        return None
    return _best_first(scored, max(0, mana - reserve))


def _best_first(scored: list[tuple[int, int, Any]], budget: int) -> Any:
    """The spell to cast first of the set of spells worth most whose costs fit ``budget`` (the
    mana left after the reserve; a spell scored 100 or more, a wrath, always fits), at most
    eight spells weighed: the best scored of that set."""
    scored = sorted(scored, key=_score_key)[:8]
    best_total, best_first = -1, -1
    n = len(scored)
    for mask in range(1, 1 << n):
        total = cost = 0
        first = -1
        for i in range(n):
            if mask & (1 << i):
                total += scored[i][0]
                if scored[i][0] < 100:
                    cost += scored[i][1]
                if first < 0:
                    first = i  # sorted best first
        if cost <= budget and total > best_total:
            best_total, best_first = total, first
    return scored[best_first][2] if best_first >= 0 else scored[0][2]


def _score_key(item: tuple[int, int, Any]) -> int:
    return -item[0]


class _CastContext:
    """What the scores of one cast decision share, worked out once."""

    def __init__(self, view: TeamView, player: int, wrath_threshold: float) -> None:
        self.view = view
        self.player = player
        self.wrath_threshold = wrath_threshold
        self.horde = view.horde_creatures()
        self.horde_power = -1  # the Horde's and the team's board power (worked out when a wrath is scored)
        self.team_power = -1
        self.coming = -1  # whether the player's own wrath is coming (worked out when a creature is scored)
        self.dangerous = -1  # whether the Horde's next attack matters (for a flash creature)

    def wrath_is_coming(self) -> bool:
        if self.coming < 0:
            self.coming = 1 if wrath_coming(self.view, self.player, self.wrath_threshold) else 0
        return self.coming == 1

    def attack_matters(self) -> bool:
        if self.dangerous < 0:
            self.dangerous = 1 if attack_matters(self.view) else 0
        return self.dangerous == 1


def flash_cast(decision: Decision, view: TeamView, wrath_threshold: float) -> Any:
    """An instant to cast in the Horde's combat, before blocks, or None: the best scored
    (``spell_score``) removal with something to answer now that the reveal is on the battlefield,
    modal spell worth its modes, or card draw that fills no hand past seven, within the mana the
    player keeps for the team's fog; no combat trick, no fog, no counterspell."""
    player = decision.player
    left = view.available_mana(player) - answer_reserve(view, player, ("fog",))
    context = _CastContext(view, player, wrath_threshold)
    best: Any = None
    best_score = 0
    for option in decision.options:
        if option is None or option[0].is_creature or option[0].is_permanent:
            continue
        card, origin = option
        if role(card) == "pump" or view.cost(card, player, origin) > left:
            continue
        score = spell_score(card, origin, context)
        if score > best_score:
            best, best_score = option, score
    return best


def spell_score(card: CardDef, origin: str, context: _CastContext) -> int:
    """What casting a spell now is worth to ``baseline`` (0: hold it). Fogs and counterspells
    are held for the Horde's turn, and so is a flash creature when the Horde's next attack
    matters (it blocks best flashed in); a pump only when a creature can attack; removal only
    with something to answer; no creature while the player's own wrath is coming; a spell whose
    'each player sacrifices' takes more from the team than from the Horde, a legendary permanent
    its player already has, a card draw into a full hand, or a modal spell with fewer modes
    worth choosing than it must choose: none."""
    view, player = context.view, context.player
    kind = "wrath" if origin == "overload" else role(card)  # 702.96: overloaded, it hits each one
    if kind in ("fog", "counter"):
        return 0
    if flash_blocker(card) and context.attack_matters():
        return 0  # held for the Horde's turn: flashed in as a blocker
    if reading.duplicate_legend(card, player, view):
        return 0  # 704.5j: one of the two would go at once
    if reading.draw_wasted(card, player, view):
        return 0  # drawn into a full hand: cards discarded at the end of the turn (402.2)
    balance = reading.edict_balance(card, player, view)
    if balance is not None and balance <= 0:
        return 0  # 'each player sacrifices' costs the team more than the Horde
    horde = context.horde
    if kind == "pump" and not _any_can_attack(view):
        return 0  # a trick helps an attack; the team's spells have no window in combat
    if card.hooks.get("Mode"):
        worth = modal_worth(card, view, player)
        return 30 + int(worth) if worth >= 3 else 0  # not for the library alone
    if kind == "removal" and not answers(card, horde, view, player):
        return 0  # nothing it would take away: keep it (burn is not thrown at the library)
    if harms_on_entering(card) and not horde:
        return 0  # its Enters damage would hit the team's own creature
    if "return_from_graveyard" in card.verbs and not card.is_permanent and not _nonland_in(view.graveyard(player)):
        return 0  # nothing worth returning yet
    if kind == "wrath":
        if balance is not None:
            return 50 + int(balance)  # a symmetric sacrifice: worth what it takes from the Horde
        if context.horde_power < 0:
            context.horde_power = _total_power(horde, view)
            context.team_power = _total_power(view.team_creatures(), view)
        if not (context.horde_power >= context.wrath_threshold and context.horde_power > context.team_power):
            return 0
        return 100 + context.horde_power
    if kind == "removal":
        return 50 + _most_power(horde, view)
    if kind == "ramp":
        return 40 if view.lands(player) < 7 else 5
    if kind == "pump":
        return 12
    if kind == "creature":
        if context.wrath_is_coming():
            return 0  # it would die to the player's own wrath
        score = 20 + card.mana_value  # the printed cost: a commander's tax buys nothing
        if harms_on_entering(card) and answers(card, horde, view, player):
            score += 30 + _most_power(horde, view)  # its Enters ability is removal (Ravenous Chupacabra)
        if balance is not None:
            score += int(balance)
        return score
    if kind == "aura":
        if not _team_creature_for(card, player, view):
            return 0  # an Aura that helps has no team creature to go on (it would help the Horde's)
        return 16 + card.mana_value
    if kind == "permanent":
        return 15 + card.mana_value
    return 10 + card.mana_value


def modal_worth(card: CardDef, view: TeamView, player: int) -> float:
    """What a modal spell is worth now: the modes worth most (``effects_worth``), as many as it may
    choose."""
    values = sorted((effects_worth(mode, card, view, player) for mode in card.abilities("Mode")), reverse=True)
    total = 0.0
    for value in values[:card.choose[1]]:
        if value > 0:
            total += value
    return total


def effects_worth(effects: tuple, card: CardDef | None, view: TeamView, player: int) -> float:
    """What an ability or a mode is worth against the Horde, read from its effects: mass
    removal by the Horde's power it takes less the team's; targeted harm by the worst Horde
    creature it would take away (damage that kills nothing mills the Horde's library, H11, and
    is worth nothing once the library is empty); milling the Horde; returning a creature card
    when the graveyard has one; what helps the team (3); anything else a little."""
    total = 0.0
    for e in effects:
        flt = e.args.get("filter")
        verb = e.verb
        if verb in MASS_REMOVAL or verb in ("pump_all", "tap_all"):
            if callable(flt) and e.target is None:
                hit = view.matching(flt, player)
                gained = 0
                for p in hit:
                    gained += view.power(p) if p.is_horde else -view.power(p)
                total += gained
            else:
                total += 0.5
        elif verb in HARMFUL or (verb == "pump" and e.args.get("toughness", 0) < 0 and e.target is not None):
            total += _harm_worth(e, view)
        elif verb == "mill" and e.args.get("who") in ("target_player", "target_opponent", "each_opponent"):
            total += e.args["count"] if isinstance(e.args["count"], int) else 1  # H11: milling the Horde
        elif verb == "return_from_graveyard":
            total += 3.0 if _nonland_in(view.graveyard(player)) else 0.0
        elif verb == "discard" and e.args.get("who") in ("target_player", "target_opponent"):
            total += 0.0  # the Horde's hand holds only cards it casts next turn anyway (H6)
        elif verb in HELPFUL or verb == "emblem":
            total += 3.0
        else:
            total += 0.5
    return total


def _harm_worth(e: Any, view: TeamView) -> float:
    """What one targeted harmful effect is worth: 1 plus the threat of the worst Horde creature it
    takes away; damage that takes none away mills the Horde (H11) while it has a library."""
    best = -1
    amount = e.args.get("amount")
    for p in view.horde_creatures():
        if view.protected(p):
            continue
        if e.verb == "damage" and isinstance(amount, int):
            if amount < view.toughness(p) - p.damage or view.has(p, "indestructible") or p.shields \
                    or view.regenerates(p) or reading.comes_back(p, view):
                continue
        elif e.verb == "bounce" and not reading.bounce_lasts(p):
            continue
        elif e.verb == "destroy" and (view.has(p, "indestructible") or p.shields or view.regenerates(p)
                                      or reading.comes_back(p, view)):
            continue
        elif e.verb == "pump" and view.toughness(p) - p.damage > -e.args.get("toughness", 0):
            continue
        value = threat(p, view)
        if value > best:
            best = value
    if best >= 0:
        return 1.0 + best
    if e.verb == "damage" and isinstance(amount, int) and view.horde_library > 0:
        text = getattr(e.target, "text", "") or ""
        if e.target == "any" or "any" in text or "player" in text:
            return min(amount, view.horde_library) / 2  # H11: it mills the Horde (burn is better kept for a creature)
    return 0.0


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


def worth_the_blockers(sent: list[Permanent], risky: list[Permanent], view: TeamView) -> bool:
    """Whether the ``risky`` attackers (an untapped Horde creature would block and kill one) are
    worth sending with the rest of ``sent``: the Horde's untapped creatures block one attacker
    each, at random (H8, H9), so each attacker is blocked with a chance of blockers / attackers.
    What the risky ones mill when unblocked (H11: their power) against what they are worth when
    one dies: two more attacks of its power and its toughness as a blocker."""
    blockers = 0
    for h in view.horde_creatures():
        if not h.tapped and any(view.can_block(h, c) for c in sent):
            blockers += 1
    if blockers == 0:
        return True
    blocked = min(1.0, blockers / len(sent))
    mills = sum(max(0, view.power(c)) for c in risky) * (1 - blocked)
    lost = sum(2 * max(0, view.power(c)) + max(0, view.toughness(c)) for c in risky) * blocked
    return mills > lost


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
    left (ids of attackers and blocker), the combat damage each attacker would deal (none when
    it assigns none or a fog resolved), the blockers each attacker may have, what each attacker
    is worth killing and what its death costs the team, and what is chosen so far with the
    damage still coming at the players and at each team planeswalker."""

    def __init__(self, decision: Decision, view: TeamView) -> None:
        attackers: list[Permanent] = list(decision.subject)
        self.view = view
        self.attackers = attackers
        self.power: dict[int, int] = {}
        self.toughness: dict[int, int] = {}
        self.damage: dict[int, int] = {}  # the combat damage an attacker deals this turn
        self.candidates: dict[int, list[Permanent]] = {}
        self.deathtouch: set[int] = set()
        self.menace: set[int] = set()
        self.silent: set[int] = set()  # attackers that deal no combat damage this turn
        self.first: set[int] = set()  # first strike or double strike
        self.double: set[int] = set()  # double strike
        self.flanking: set[int] = set()  # 702.25
        for a in attackers:
            self.power[id(a)] = view.power(a)
            self.toughness[id(a)] = view.toughness(a) - a.damage
            self.damage[id(a)] = reading.combat_power(a, view)
            if not reading.deals_combat_damage(a, view):
                self.silent.add(id(a))
            self.candidates[id(a)] = []
            self._keywords(a)
        b: Permanent
        for b, a in decision.options:
            if id(b) not in self.power:
                self.power[id(b)] = view.power(b)
                self.toughness[id(b)] = view.toughness(b) - b.damage
                self._keywords(b)
            self.candidates[id(a)].append(b)
        self.chosen: list[tuple[Permanent, Permanent]] = []
        self.used: set[int] = set()
        self.blocked: set[int] = set()
        self.incoming = 0  # the combat damage attacking the players (H8)
        for a in attackers:
            if a.attacked is None:
                self.incoming += self.damage[id(a)]
        self.lasting: set[int] = set()  # attackers no blocker kills: they regenerate (H7), are indestructible, shielded (L4) or protected (L5), or come back (undying, persist)
        for a in attackers:
            if view.regenerates(a) or view.has(a, "indestructible") or a.shields or view.protected(a) \
                    or reading.comes_back(a, view):
                self.lasting.add(id(a))
            if view.has(a, "menace"):
                self.menace.add(id(a))
        self.aimed: dict[int, int] = {}  # team planeswalker id -> the power attacking it (H8)
        for a in attackers:
            if a.attacked is not None:
                self.aimed[a.attacked.id] = self.aimed.get(a.attacked.id, 0) + self.damage[id(a)]
        # What killing each attacker is worth (its threat, two more attacks of it) and costs the
        # team (its death's triggers on the Horde's side: Grave Pact, Diregraf Captain).
        self.costly: set[int] = set()
        tight = 4 * self.incoming >= view.team_life
        for a in attackers:
            cost = reading.kill_cost(a, view)
            if cost > 0 and cost > 2 * threat(a, view) + (self.damage[id(a)] if tight else 0):
                self.costly.add(id(a))

    def _keywords(self, p: Permanent) -> None:
        view = self.view
        if view.has(p, "flanking"):
            self.flanking.add(id(p))
        if view.has(p, "deathtouch"):
            self.deathtouch.add(id(p))
        if view.has(p, "double strike"):
            self.double.add(id(p))
            self.first.add(id(p))
        elif view.has(p, "first strike"):
            self.first.add(id(p))

    def strikes(self, x: Permanent, y: Permanent) -> int:
        """The combat damage ``x`` deals ``y`` in the whole combat (double strike: twice), none
        when ``y`` has protection from it (702.16e)."""
        if self.view.protected_from(y, x.card):
            return 0
        hit = max(0, self.power[id(x)])
        if id(x) in self.silent:
            return 0
        return 2 * hit if id(x) in self.double else hit

    def _lethal(self, x: Permanent, y: Permanent, amount: int) -> bool:
        return amount > 0 and (amount >= self.toughness[id(y)] or id(x) in self.deathtouch)

    def _flanked(self, b: Permanent, a: Permanent) -> bool:
        """702.25a: a blocker without flanking of an attacker with it gets -1/-1 as it blocks."""
        return id(a) in self.flanking and id(b) not in self.flanking

    def kills(self, b: Permanent, a: Permanent) -> bool:
        """Whether blocker ``b`` kills attacker ``a``: its damage (twice with double strike)
        reaches ``a``'s toughness left, or it has deathtouch, and ``a`` is no attacker that
        survives every blocker; not when ``a`` kills it first with first strike, nor when
        flanking's -1/-1 kills it first (or takes the point of power it needed)."""
        if self._flanked(b, a):
            return self._as_flanked(b, lambda: self.toughness[id(b)] > 0 and self._kills(b, a))
        return self._kills(b, a)

    def _as_flanked(self, b: Permanent, ask: Callable[[], bool]) -> bool:
        self.power[id(b)] -= 1
        self.toughness[id(b)] -= 1
        try:
            return ask()
        finally:
            self.power[id(b)] += 1
            self.toughness[id(b)] += 1

    def _kills(self, b: Permanent, a: Permanent) -> bool:
        if id(a) in self.lasting:
            return False
        if id(a) in self.first and id(b) not in self.first and self._lethal(a, b, self.first_hit(a, b)):
            return False  # a's first-strike damage kills b before b deals any
        return self._lethal(b, a, self.strikes(b, a))

    def first_hit(self, x: Permanent, y: Permanent) -> int:
        """The damage ``x`` deals ``y`` in the first-strike step (its power, unless protected)."""
        if self.view.protected_from(y, x.card) or id(x) in self.silent:
            return 0
        return max(0, self.power[id(x)])

    def survives(self, b: Permanent, a: Permanent) -> bool:
        """Whether blocker ``b`` survives blocking ``a``: ``a``'s damage (twice with double strike)
        falls short of its toughness without deathtouch, or ``b`` kills ``a`` with first strike
        before it deals any, or ``b`` has protection from ``a``; after flanking's -1/-1 (702.25a)."""
        if self._flanked(b, a):
            return self._as_flanked(b, lambda: self.toughness[id(b)] > 0 and self._survives(b, a))
        return self._survives(b, a)

    def _survives(self, b: Permanent, a: Permanent) -> bool:
        dealt = self.strikes(a, b)
        if dealt <= 0:
            return True
        if id(b) in self.first and id(a) not in self.first and id(a) not in self.lasting \
                and self._lethal(b, a, self.first_hit(b, a)):
            return True  # b's first strike kills a before a deals damage
        return not self._lethal(a, b, dealt)

    def block(self, a: Permanent, blockers: list[Permanent]) -> None:
        """Block attacker ``a`` with ``blockers``: its damage no longer comes at its target."""
        for b in blockers:
            self.chosen.append((b, a))
            self.used.add(id(b))
        self.blocked.add(id(a))
        if a.attacked is None:
            self.incoming -= self.damage[id(a)]
        else:
            self.aimed[a.attacked.id] -= self.damage[id(a)]

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

    def by_damage(self, creatures: list[Permanent]) -> list[Permanent]:
        """Attackers by the combat damage they deal, most first (ties in their order)."""
        keyed = [(-self.damage[id(p)], i) for i, p in enumerate(creatures)]
        keyed.sort()
        return [creatures[i] for _, i in keyed]

    def by_threat(self, creatures: list[Permanent]) -> list[Permanent]:
        """Attackers by what killing them is worth: their threat (power and the life their attacks
        drain: ``threat``), then their damage now, most first."""
        keyed = [(-threat(p, self.view), -self.damage[id(p)], i) for i, p in enumerate(creatures)]
        keyed.sort()
        return [creatures[i] for _, _, i in keyed]

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
    the team's life or more, the one dealing the most damage is blocked by the blocker that costs
    the team least (one that kills it and survives, one that survives, a trade worth no more than
    the attacker, else the least valuable creature: a chump block); and a token blocks an
    attacker that would take half the team's life. Then trades where a blocker kills its
    attacker, the worst attackers first (their power and the life their attacks drain; best: the
    blocker survives; against deathtouch only a blocker worth no more than the attacker; never
    into an attacker that no blocker kills for good: it regenerates, is indestructible, shielded,
    protected or comes back); two blockers together on the Horde's last creature when its death
    wins the game, or when neither dies; free blocks where a blocker survives; an attacker aimed
    at a team planeswalker when it is cheap; and a lieutenant by a spare creature once every
    other attacker is blocked (L5). Protection, first strike and double strike decide who
    survives and who kills; an attacker that deals no combat damage (a fog, Carrion Wurm's
    exiled cards) needs no block; and an attacker whose death costs the team more than it is
    worth (Grave Pact: every team player sacrifices a creature) is killed only to stay alive."""
    plan = _Blocks(decision, view)
    damage, toughness = plan.damage, plan.toughness
    deathtouch, menace, blocked, costly = plan.deathtouch, plan.menace, plan.blocked, plan.costly
    attackers = plan.attackers
    life = view.team_life
    by_damage = plan.by_damage(attackers)
    for a in by_damage:  # lethal first: the cheapest blocks that keep the team alive
        if plan.incoming < life:
            break
        if id(a) in blocked or view.is_lieutenant(a) or a.attacked is not None or damage[id(a)] <= 0:
            continue
        need = 2 if id(a) in menace else 1
        free = plan.free(a)
        if len(free) < need:
            continue
        if need == 1:
            plan.block(a, [_cheapest_block(plan, a, free)])
        else:
            plan.block(a, plan.by_value(free)[:2])
    for a in by_damage:  # a token chumps an attacker that would take half the team's life
        if id(a) in blocked or view.is_lieutenant(a) or a.attacked is not None or id(a) in menace:
            continue
        if 2 * damage[id(a)] >= life:
            tokens = [b for b in plan.free(a) if b.card.is_token]
            if tokens:
                plan.block(a, [_cheapest_block(plan, a, tokens)])
    by_threat = plan.by_threat(attackers)
    for a in by_threat:  # trades: the blocker kills its attacker, the worst attackers first
        if id(a) in blocked or view.is_lieutenant(a) or id(a) in plan.lasting or id(a) in costly:
            continue
        free = plan.free(a)
        need = 2 if id(a) in menace else 1
        killers = [b for b in free if plan.kills(b, a)]
        if id(a) in deathtouch:  # every blocker it damages dies: trade only down
            killers = [b for b in killers if plan.survives(b, a) or plan.value(b) <= plan.value(a)]
        good = [b for b in killers if plan.survives(b, a)]
        pick = good or killers
        if need == 1 and pick:
            plan.block(a, [plan.least_power(pick)])
        elif need == 2 and len(free) >= 2:
            pair = plan.by_power(free, True)[:2]
            if plan.strikes(pair[0], a) + plan.strikes(pair[1], a) >= toughness[id(a)]:
                plan.block(a, pair)
    for a in by_threat:  # two blockers together kill what neither kills alone
        if id(a) in blocked or view.is_lieutenant(a) or id(a) in plan.lasting or id(a) in costly:
            continue
        pair = _gang_block(plan, a, view)
        if pair:
            plan.block(a, pair)
    for a in by_damage:  # free blocks: the blocker survives
        if id(a) in blocked or view.is_lieutenant(a) or id(a) in menace or damage[id(a)] <= 0:
            continue
        safe = [b for b in plan.free(a) if plan.survives(b, a) and not (id(a) in costly and plan.kills(b, a))]
        if safe:
            plan.block(a, [plan.by_value(safe)[0]])
    for a in by_damage:
        # H8: an attacker aimed at a team planeswalker is blocked when it is cheap: by a free
        # creature that survives it, or by a token when the power aimed at the planeswalker
        # would take its last loyalty.
        walker = a.attacked
        if walker is None or id(a) in blocked or view.is_lieutenant(a) or damage[id(a)] <= 0:
            continue
        free = plan.free(a)
        safe = [b for b in free if plan.survives(b, a)]
        cheap = safe or ([b for b in free if b.card.is_token] if plan.aimed[walker.id] >= walker.loyalty else [])
        need = 2 if id(a) in menace else 1
        if len(cheap) >= need:
            plan.block(a, plan.by_value(cheap)[:need])
    for a in by_damage:  # L5: a lieutenant last, by a spare creature
        if view.is_lieutenant(a) and _others_blocked(a, attackers, blocked) and id(a) not in costly:
            free = plan.free(a)
            if free:
                plan.block(a, [plan.most_power(free)])
    chosen = plan.chosen
    if decision.is_legal is not None and not decision.is_legal(chosen):
        chosen = [(b, a) for b, a in chosen if not view.is_lieutenant(a)]
        if not decision.is_legal(chosen):
            return []
    return chosen


def _gang_block(plan: _Blocks, a: Permanent, view: TeamView) -> list[Permanent]:
    """Two free blockers that together kill attacker ``a``, none alone does: when its death wins
    the game (the Horde's library is empty and it is the Horde's last creature, H12), the pair
    whose loss is least; otherwise only a pair that both survive it. Empty when there is none."""
    free = plan.free(a)
    if len(free) < 2:
        return []
    wins = view.horde_library == 0 and len(view.horde_creatures()) == 1
    best: list[Permanent] = []
    best_loss = -1
    for i in range(len(free)):
        for j in range(i + 1, len(free)):
            x, y = free[i], free[j]
            if plan.strikes(x, a) + plan.strikes(y, a) < plan.toughness[id(a)] or plan.kills(x, a) or plan.kills(y, a):
                continue
            dies_x, dies_y = not plan.survives(x, a), not plan.survives(y, a)
            if not wins and (dies_x or dies_y):
                continue
            # the attacker can kill at most one of them: the one it is worth most to the Horde to kill
            loss = max(plan.value(x) if dies_x else 0, plan.value(y) if dies_y else 0)
            if best_loss < 0 or loss < best_loss:
                best, best_loss = [x, y], loss
    return best


def _cheapest_block(plan: _Blocks, a: Permanent, free: list[Permanent]) -> Permanent:
    """The blocker that stops attacker ``a`` at the least cost to the team: one that kills it
    and survives, else one that survives (the least valuable), else one that kills it and is
    worth no more than it, else the least valuable creature (a chump block). Killing an attacker
    whose death costs the team more than it is worth (``_Blocks.costly``) is the last resort."""
    costly = id(a) in plan.costly
    best = free[0]
    best_key = (9, 0)
    for b in free:
        kills = plan.kills(b, a)
        survives = plan.survives(b, a)
        if kills and costly:
            rank = 2 if survives else 5
        elif kills and survives:
            rank = 0
        elif survives:
            rank = 1
        elif kills and plan.value(b) <= plan.value(a):
            rank = 3
        else:
            rank = 4
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

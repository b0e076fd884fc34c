"""What the cards' behaviour means for the team's choices, read from the engine's own model of each
card: its hooks and verbs, its keywords and those its anthems give, its statics. No card is known
by name here, so a card new to the catalogue reaches the team's choices through what it does.

The decision core (``horde.team.tactics`` and the policies) asks these questions of both sides:

- **Coming back**: a creature with undying (and no +1/+1 counter) or persist (and no -1/-1
  counter) returns when it dies (702.93, 702.79): destroying it is no answer, and undying brings
  it back bigger. A bounced Horde card is cast again next Horde turn (H6); a token that leaves
  the battlefield ceases to exist.
- **What a death costs**: the triggers a creature's death sets off on the Horde's side ("whenever
  a creature you control dies, each other player sacrifices a creature", "whenever another Zombie
  you control dies, target opponent loses 1 life"), in life and in creatures each team player
  sacrifices; what a team creature's death gives the team ("whenever a nontoken creature you
  control dies, ~ deals 1 damage to any target").
- **What an attacker costs**: its power when it deals combat damage at all, and the life its own
  attack takes on top ("whenever ~ attacks, each opponent loses 2 life"); whether a team creature
  that deals damage to the Horde is destroyed for it ("whenever a Human deals damage to you,
  destroy it").
- **Symmetric effects**: what "each player sacrifices a creature" takes from each side, with the
  deaths' own triggers.
- **The legend rule** (704.5j): a legendary permanent (or token) made where its controller has
  one of that name already goes at once.
- **Mana kept**: whether the mana a player keeps open can pay a spell's coloured pips, one
  source for each.
"""

from __future__ import annotations

from typing import Any

from horde.engine.cards import CardDef, Effect
from horde.engine.state import HORDE_CONTROLLER, Permanent
from horde.team.view import TeamView

HAND_SIZE = 7  # 402.2: the team's players discard down to seven at the end of their turns
# The verbs by which a death trigger on the Horde's side costs the team life, and their scale.
_LIFE_VERBS = frozenset({"lose_life", "damage_each_opponent", "damage"})


# ---------------------------------------------------------------- coming back


def comes_back(p: Permanent, view: TeamView) -> bool:
    """Whether a creature returns to the battlefield if it dies now: undying without a +1/+1
    counter, persist without a -1/-1 counter (its own keyword or one an anthem gives it: Mikaeus,
    the Unhallowed); never a token, which ceases to exist."""
    if p.card.is_token or not p.card.is_creature:
        return False
    if p.plus == 0 and view.has(p, "undying"):
        return True
    return p.minus == 0 and view.has(p, "persist")


def returns_bigger(p: Permanent, view: TeamView) -> bool:
    """Undying: it returns with a +1/+1 counter (a removal spell's harm helps it)."""
    return not p.card.is_token and p.card.is_creature and p.plus == 0 and view.has(p, "undying")


def bounce_lasts(p: Permanent) -> bool:
    """Whether returning a permanent to its owner's hand takes it away for good: a token ceases to
    exist; a Horde card is cast again at the Horde's next turn (H6)."""
    return p.card.is_token or not p.is_horde


# ---------------------------------------------------------------- players an effect reaches


def team_players_hit(who: str, controller: int, view: TeamView) -> int:
    """How many team players an effect of ``controller`` reaches by its ``who`` ('each opponent',
    'each player', ...): a Horde effect's opponents are the team's players; a target opponent is one."""
    if controller == HORDE_CONTROLLER:
        if who in ("each_opponent", "each_player", "each_other_player", "other_opponents"):
            return view.players
        if who in ("target_opponent", "target_player", "highest_life_opponent", "target_opponent_or_planeswalker",
                   "target_player_or_planeswalker"):
            return 1
        return 0
    if who in ("each_player",):
        return view.players
    if who == "each_other_player":
        return view.players - 1
    if who == "you":
        return 1
    return 0


def horde_hit(who: str, controller: int) -> bool:
    """Whether a team player's effect reaches the Horde as a player (H9: the Horde is each
    player's opponent)."""
    if controller == HORDE_CONTROLLER:
        return who in ("you", "each_player")
    return who in ("each_opponent", "each_player", "each_other_player", "target_opponent", "target_player")


def _amount(effect: Effect, key: str) -> int:
    value = effect.args.get(key, 1)
    return value if isinstance(value, int) else 1  # an amount worked out as it resolves: at least one


# ---------------------------------------------------------------- what a death costs


class Toll:
    """What the team loses when a creature dies: life, and creatures each team player sacrifices;
    and what the team gets (damage its own triggers deal: Judith's ping)."""

    __slots__ = ("life", "sacrifices", "pings")

    def __init__(self) -> None:
        self.life = 0
        self.sacrifices = 0
        self.pings = 0

    def add(self, effect: Effect, controller: int, view: TeamView) -> None:
        verb = effect.verb
        if controller == HORDE_CONTROLLER:
            if verb in _LIFE_VERBS:
                who = effect.args.get("who", "target_opponent" if effect.target is not None else "each_opponent")
                self.life += _amount(effect, "amount") * max(1, team_players_hit(str(who), controller, view))
            elif verb == "each_player_sacrifices":
                if team_players_hit(str(effect.args.get("who", "each_player")), controller, view):
                    self.sacrifices += _amount(effect, "count")
        elif verb == "damage" and effect.target is not None:
            self.pings += _amount(effect, "amount")


def death_toll(dead: Permanent, view: TeamView) -> Toll:
    """What the death of ``dead`` (a creature of either side) sets off: the 'whenever a creature
    dies' abilities of every permanent and the boss that it matches, and its own 'when ~ dies'."""
    toll = Toll()
    for watcher in view.watchers() if view.hooked("CreatureDies") else ():
        if "CreatureDies" not in watcher.card.hooks:
            continue
        for ability in watcher.card.abilities("CreatureDies"):
            for effect in ability:
                if effect.when is None or view.matches_from(effect.when, watcher, dead):
                    toll.add(effect, watcher.controller, view)
    for effect in dead.card.hooks.get("Dies", ()):
        toll.add(effect, dead.controller, view)
    return toll


def creature_worth(p: Permanent, view: TeamView) -> int:
    """What a creature is worth to its side in a trade: power plus toughness, a token a little less
    than a card (it is gone for good, but nobody drew it)."""
    return max(0, view.power(p)) + max(0, view.toughness(p))


def cheapest_creature(view: TeamView, player: int) -> int:
    """The worth of the creature a team player would sacrifice first (0 when it has none)."""
    best = -1
    for p in view.team_creatures(player):
        value = creature_worth(p, view) - (2 if p.card.is_token else 0)
        if best < 0 or value < best:
            best = value
    return max(0, best)


def sacrifice_cost(view: TeamView) -> int:
    """What every team player sacrificing a creature costs the team: each one's cheapest."""
    total = 0
    for player in range(view.players):
        total += cheapest_creature(view, player)
    return total


def kill_cost(dead: Permanent, view: TeamView) -> int:
    """What killing a Horde creature costs the team, in points of life (a creature each team
    player sacrifices counts as that player's cheapest creature, and a team at that life or less
    counts as dead: 1000)."""
    if not (view.hooked("CreatureDies") or "Dies" in dead.card.hooks):
        return 0
    toll = death_toll(dead, view)
    cost = toll.life
    if toll.sacrifices:
        cost += toll.sacrifices * sacrifice_cost(view)
    if toll.life >= view.team_life:
        cost += 1000
    return cost


# ---------------------------------------------------------------- what an attacker costs


def attack_drain(p: Permanent, view: TeamView) -> int:
    """The life a Horde creature's own attack takes besides its combat damage: its 'whenever ~
    attacks' abilities that make the team lose life or deal it damage."""
    return _drain(p, "Attacks", view)


# The hooks that recur every turn or so, whose life loss a creature's threat counts besides its attack.
_RECURRING = ("Upkeep", "EachUpkeep", "UpkeepStep", "OpponentUpkeep", "EndStep", "CreatureDies", "HitsPlayer")


def recurring_drain(p: Permanent, view: TeamView) -> int:
    """The life a Horde creature takes from the team each turn or so by its triggers: its attack
    (``attack_drain``), its upkeep and end step abilities, and a 'whenever another Zombie you
    control dies, each opponent loses 1 life' (counted once)."""
    total = 0
    for hook in ("Attacks",) + _RECURRING:
        if hook in p.card.hooks:
            total += _drain(p, hook, view)
    return total


def _drain(p: Permanent, hook: str, view: TeamView) -> int:
    drain = 0
    for effect in p.card.hooks.get(hook, ()):
        if effect.verb in _LIFE_VERBS:
            who = str(effect.args.get("who", "target_opponent" if effect.target is not None else "each_opponent"))
            if who == "you":
                continue
            drain += _amount(effect, "amount") * max(1, team_players_hit(who, p.controller, view))
    return drain


def deals_combat_damage(p: Permanent, view: TeamView) -> bool:
    """Whether a creature's combat damage this turn is dealt at all: not when it assigns none
    (Carrion Wurm after a player exiled three cards), nor once a fog resolved."""
    return not view.fogged and not view.has(p, "assigns no combat damage")


def combat_power(p: Permanent, view: TeamView) -> int:
    """The combat damage a creature would deal this turn (0 when it deals none)."""
    return max(0, view.power(p)) if deals_combat_damage(p, view) else 0


def punished_for_damage(p: Permanent, view: TeamView) -> bool:
    """Whether a team creature that deals damage to the Horde is destroyed for it: a Horde
    permanent's 'whenever a [quality] deals damage to you, destroy it' that it matches."""
    if not view.hooked("ControllerDamaged"):
        return False
    for watcher in view.watchers():
        if watcher.controller != HORDE_CONTROLLER:
            continue
        for effect in watcher.card.hooks.get("ControllerDamaged", ()):
            if effect.verb == "destroy_that_source" and (effect.when is None
                                                          or view.matches_from(effect.when, watcher, p)):
                return True
    return False


# ---------------------------------------------------------------- symmetric sacrifices


def _horde_losses(count: int, flt: Any, source: Permanent | None, view: TeamView) -> float:
    """What the Horde loses sacrificing ``count`` creatures of its choice (H9: at random): the mean
    worth of its creatures that match times the number it loses, less what those deaths cost the
    team (Diregraf Captain's life, Grave Pact's sacrifices) and nothing for one that comes back."""
    horde = [p for p in view.horde_creatures() if flt is None or view.matches(flt, p)]
    if not horde:
        return 0.0
    worth = 0.0
    drains: list[int] = []
    sacrificed = -1  # what each team player sacrificing a creature costs (worked out once, when asked)
    for p in horde:
        value = 0.0 if comes_back(p, view) else float(creature_worth(p, view))
        toll = death_toll(p, view)
        drains.append(toll.life)
        if toll.sacrifices and sacrificed < 0:
            sacrificed = sacrifice_cost(view)
        worth += value - toll.life - toll.sacrifices * max(0, sacrificed)
    lost = min(count, len(horde))
    drains.sort(reverse=True)
    if sum(drains[:lost]) >= view.team_life:
        return -1000.0  # the deaths' triggers may drain the team's last life (Diregraf Captain)
    return worth / len(horde) * lost


def _team_losses(count: int, players: list[int], leaving: CardDef | None, view: TeamView) -> float:
    """What the team's players lose sacrificing ``count`` creatures each, their least worth first
    (a token, then the smallest), the caster's new creature among them when it has one."""
    total = 0.0
    for player in players:
        values = sorted(creature_worth(p, view) - (2 if p.card.is_token else 0) for p in view.team_creatures(player))
        if leaving is not None and player == players[0] and leaving.is_creature:
            values = sorted(values + [max(0, leaving.power or 0) + max(0, leaving.toughness or 0)])
        for value in values[:count]:
            total += max(0, value) + 1  # a creature lost is a card lost too
    return total


def edict_balance(card: CardDef, player: int, view: TeamView) -> float | None:
    """What a card's 'each player sacrifices' effects take from the Horde less what they take from
    the team, in points of power and toughness (the team's player sacrifices its least valuable
    creatures, the Horde at random, and the Horde's deaths set off its triggers); None when the
    card has no such effect reaching the team."""
    if "each_player_sacrifices" not in card.verbs:
        return None
    found = False
    balance = 0.0
    for hook in ("Cast", "Enters"):
        for effect in card.hooks.get(hook, ()):
            if effect.verb != "each_player_sacrifices":
                continue
            who = str(effect.args.get("who", "each_player"))
            hit = team_players_hit(who, player, view)
            if not hit:
                continue
            found = True
            count = _amount(effect, "count")
            flt = effect.args.get("filter")
            players = [player] + [i for i in range(view.players) if i != player and view.in_game(i)]
            if who == "each_other_player":
                players = players[1:]
            leaving = card if hook == "Enters" else None
            balance -= _team_losses(count, players[:hit], leaving, view)
            if horde_hit(who, player):
                balance += _horde_losses(count, flt, None, view)
    return balance if found else None


# ---------------------------------------------------------------- the legend rule and the hand


def makes_redundant_legend(effects: tuple[Effect, ...], player: int, view: TeamView) -> bool:
    """Whether an ability only creates a legendary token its controller already has one of (the
    legend rule puts one of the two into the graveyard at once: 704.5j)."""
    made = False
    for effect in effects:
        if effect.verb != "create_tokens":
            return False
        token = view.token(str(effect.args.get("token", "")))
        if token is None or not token.is_legendary or not view.controls_named(player, token.name):
            return False
        made = True
    return made


def duplicate_legend(card: CardDef, player: int, view: TeamView) -> bool:
    """A legendary permanent whose controller already has one of that name (704.5j)."""
    return card.is_legendary and card.is_permanent and view.controls_named(player, card.name)


def cards_drawn(card: CardDef) -> int:
    """The cards a spell's 'you draw' effects give its caster (0 for none)."""
    drawn = 0
    for effect in card.hooks.get("Cast", ()):
        if effect.verb == "draw" and effect.args.get("who", "you") == "you" and effect.condition is None:
            drawn += _amount(effect, "count")
    return drawn


def draw_wasted(card: CardDef, player: int, view: TeamView) -> bool:
    """Whether a card-draw spell would be drawn into a full hand: after it the hand holds more
    than seven cards (402.2), so that some would be discarded at the end of the turn; or would
    draw more cards than its player's library holds (704.5b: a player who drew from an empty
    library loses, and with it the team: H1)."""
    if "draw" not in card.verbs:
        return False
    drawn = cards_drawn(card)
    if drawn <= 0:
        return False
    if len(view.hand(player)) - 1 + drawn > HAND_SIZE:
        return True
    now = sum(view.amount(card, e.args.get("count", 1), player) for e in card.hooks.get("Cast", ())
              if e.verb == "draw" and e.args.get("who", "you") == "you" and e.condition is None)
    return now > view.library(player)


# ---------------------------------------------------------------- mana kept open


def payable_with(pips: tuple[str, ...], units: list[frozenset[str]]) -> bool:
    """Whether the mana of ``units`` (one entry per mana, its colours; '*' any) can pay these pips,
    one mana for each: {U}{U} needs two sources of blue. Two-brid and Phyrexian pips can always
    be paid (with generic mana or life)."""
    if not pips:
        return True
    free = list(units)
    for pip in sorted(pips, key=len):
        if pip.startswith("2/") or pip.endswith("/P"):
            continue
        colours = pip.split("/")
        best = -1
        for i, unit in enumerate(free):
            if "*" in unit or any(c in unit for c in colours):
                if best < 0 or len(free[best]) > len(unit):
                    best = i
        if best < 0:
            return False
        free.pop(best)
    return True

"""The boss (B1-B6) and the lieutenants (L1-L8), on tiny boards with scripted dice, and the d20
tables against their exact probabilities."""

from __future__ import annotations

import math
import random

import pytest
from conftest import HORDE, Scripted, library, put, scaled

from horde.engine import boss, rules, turns
from horde.engine.cards import CardDef, Effect, ManaCost
from horde.engine.filters import compile_filter
from horde.engine.state import BossState, Lieutenant, LieutenantState
from horde.engine.vocabulary import VERBS


class Dice:
    """Scripted dice: d20 rolls from a list; every other pick takes the first option."""

    def __init__(self, *rolls):
        self.rolls = list(rolls)

    def randrange(self, start, stop=None):
        if stop == 21 and start == 1:
            return self.rolls.pop(0)
        return 0


@pytest.fixture
def boss_game(make_game):
    def build(players=4, **knobs):
        knobs.setdefault("horde_deck", "mini-boss")
        knobs.setdefault("boss", "random")
        knobs.setdefault("lieutenants", True)
        return make_game(players=players, **knobs)

    return build


def planeswalker(loyalty, plus=(1,), minus=(-3,), ultimate=(-7,), static=()):
    """A boss card built in the test: each ability creates tokens so its use can be seen."""
    hooks = {}
    line = 0
    for hook, costs in (("Plus", plus), ("Minus", minus), ("Ultimate", ultimate)):
        effects = []
        for cost in costs:
            line += 1
            effects.append(Effect("create_tokens", {"token": "Zombie", "count": 1, "tapped": False},
                                  VERBS["create_tokens"].run, cost, line))
        if effects:
            hooks[hook] = tuple(effects)
    anthems = tuple(static)
    if anthems:
        hooks["Static"] = anthems
    return CardDef("Test Walker", ManaCost(), frozenset({"Planeswalker"}), loyalty=loyalty, hooks=hooks,
                   anthems=anthems)


# ---------------------------------------------------------------- B


def test_B1_boss_arrives_at_the_first_horde_turn_with_its_loyalty(boss_game, catalogue):
    game = boss_game()
    assert game.boss.card.name == "Liliana, Death's Majesty" and not game.boss.arrived
    game.drivers.trace = []
    library(game, catalogue, "Walking Corpse")
    turns.horde_turn(game)
    arrival = next(e for e in game.drivers.trace if e["event"] == "boss_arrives")
    assert arrival["loyalty"] == 5 and game.boss.arrived


def test_B1_no_boss_when_switched_off_or_named(boss_game):
    assert boss_game(boss="none").boss is None
    assert boss_game(boss="Liliana, Death's Majesty").boss.card.loyalty == 5
    from horde.errors import HordeError

    with pytest.raises(HordeError, match="not in the boss list"):
        boss_game(boss="Liliana Vess")


def test_B2_boss_is_not_a_permanent_and_loyalty_stays_at_zero(boss_game, catalogue):
    game = boss_game()
    game.boss = BossState(planeswalker(1, plus=(-1,), minus=(), ultimate=()))
    boss.boss_arrives(game)
    assert game.boss.stand_in not in game.battlefield.horde
    boss.boss_acts(game)
    assert game.boss.loyalty == 0
    boss.boss_acts(game)
    assert game.boss.loyalty == 0  # it stays in the game at 0 loyalty
    swords = catalogue.get("Swords to Plowshares")
    from horde.engine.filters import Context

    targets = rules.legal_targets(game, Context(swords, None, 0), swords.hooks["Cast"][0])
    assert all(t is not game.boss.stand_in for t in targets)


def test_B3_table_plus_minus_ultimate(boss_game):
    game = boss_game()
    game.boss = BossState(planeswalker(10))
    for roll, kind, cost in ((1, "plus", 1), (12, "plus", 1), (13, "minus", -3), (18, "minus", -3),
                             (19, "ultimate", -7), (20, "ultimate", -7)):
        game.dice_rng = Dice(roll)
        chosen, ability, seen = boss.choose_boss_ability(game)
        assert (chosen, ability[0].cost, seen) == (kind, cost, roll)


def test_B3_too_low_for_every_minus_uses_plus_without_a_roll(boss_game):
    game = boss_game()
    game.boss = BossState(planeswalker(2))
    game.dice_rng = Dice()  # no roll may be made
    assert boss.choose_boss_ability(game)[0::2] == ("plus", None)


def test_B3_decision_unaffordable_roll_takes_most_expensive_affordable_minus(boss_game):
    game = boss_game()
    game.boss = BossState(planeswalker(5, minus=(-1, -3)))
    game.dice_rng = Dice(20)
    kind, ability, _ = boss.choose_boss_ability(game)
    assert (kind, ability[0].cost) == ("minus", -3)


def test_B3_loyalty_changes_by_the_ability_cost(boss_game, catalogue):
    game = boss_game()
    game.drivers.trace = []
    boss.boss_arrives(game)
    game.dice_rng = Dice(3)
    library(game, catalogue, *["Zombie"] * 4)
    boss.boss_acts(game)
    event = next(e for e in game.drivers.trace if e["event"] == "boss_ability")
    assert (event["roll"], event["ability"], event["loyalty_before"], event["loyalty_after"]) == (3, "plus", 5, 6)
    # Liliana's +1: a 2/2 Zombie, and the Horde mills two of its own cards.
    assert [p.card.name for p in game.battlefield.horde] == ["Zombie"] and len(game.horde.library) == 2


def test_B3_exact_class_probabilities_when_all_affordable(boss_game):
    game = boss_game()
    game.boss = BossState(planeswalker(100))
    game.dice_rng = random.Random(2024)
    n = scaled(40000)
    counts = {"plus": 0, "minus": 0, "ultimate": 0}
    for _ in range(n):
        counts[boss.choose_boss_ability(game)[0]] += 1
    for kind, p in (("plus", 12 / 20), ("minus", 6 / 20), ("ultimate", 2 / 20)):
        sigma = math.sqrt(p * (1 - p) / n)
        assert abs(counts[kind] / n - p) < 4.5 * sigma, (kind, counts[kind] / n, p)


def test_B4_two_abilities_in_a_class_are_chosen_half_each(boss_game):
    game = boss_game()
    game.boss = BossState(planeswalker(100, plus=(1, 2)))
    game.dice_rng = random.Random(7)
    n = scaled(20000)
    firsts = total = 0
    for _ in range(n):
        kind, ability, _ = boss.choose_boss_ability(game)
        if kind == "plus":
            total += 1
            firsts += ability[0].cost == 1
    sigma = math.sqrt(0.25 / total)
    assert abs(firsts / total - 0.5) < 4.5 * sigma


def bundled_card(name):
    """A card of the project's own card files (the tests' decks folder is the small one)."""
    from pathlib import Path

    from horde.cards.catalogue import load_catalogue

    folder = Path(__file__).parent.parent / "decks" / "cards"
    return load_catalogue(sorted(folder.glob("*.txt"))).get(name)


class Picks(Dice):
    """Scripted dice whose other picks (B4) take the given indexes in turn."""

    def __init__(self, rolls=(), picks=()):
        super().__init__(*rolls)
        self.picks = list(picks)

    def randrange(self, start, stop=None):
        if stop == 21 and start == 1:
            return self.rolls.pop(0)
        return self.picks.pop(0)


def test_B4_bundled_boss_with_two_plus_abilities_uses_each(boss_game):
    """Elspeth, Knight-Errant (zombie-horde's boss list) has two +1 abilities: B4's coin picks one."""
    game = boss_game()
    game.boss = BossState(bundled_card("Elspeth, Knight-Errant"))
    seen = []
    for pick in (0, 1):
        game.dice_rng = Picks(picks=[pick])  # loyalty 4 < 8: no roll (B3), then B4 picks
        kind, ability, roll = boss.choose_boss_ability(game)
        seen.append((kind, roll, ability[0].verb))
    assert seen == [("plus", None, "create_tokens"), ("plus", None, "pump")]


@pytest.mark.parametrize("roll, expected", [
    (1, ("plus", 1, "create_tokens")), (12, ("plus", 1, "create_tokens")),
    (13, ("plus", 1, "pump")), (16, ("plus", 1, "pump")), (18, ("plus", 1, "pump")),
    (19, ("ultimate", -8, "emblem")), (20, ("ultimate", -8, "emblem"))])
def test_B3_a_boss_with_no_minus_uses_its_second_ability_on_13_to_18_and_the_ultimate_only_on_19_20(
        boss_game, roll, expected):
    """Elspeth, Knight-Errant (+1, +1, -8) at 8 loyalty: 1-12 its first class (B4's coin here picks the
    first +1), 13-18 its second printed ability (the +3/+3, a plus), the -8 only on 19-20: 2 rolls in
    20, not 8 (`horde play --seed 13 --players 1 --boss "Elspeth, Knight-Errant"`: roll 16 was the
    ultimate)."""
    game = boss_game()
    game.boss = BossState(bundled_card("Elspeth, Knight-Errant"))
    game.boss.loyalty = 8
    game.dice_rng = Picks(rolls=[roll], picks=[0])
    kind, ability, rolled = boss.choose_boss_ability(game)
    assert (kind, ability[0].cost, ability[0].verb) == expected and rolled == roll


def test_B3_an_unaffordable_roll_falls_back_to_the_dearest_non_ultimate_minus_never_the_ultimate(boss_game):
    """A boss of +1, -3 and -7 at 6 loyalty rolls 19 (the ultimate, -7): it uses the -3. At 10
    loyalty with only a -7 ultimate besides its +1, a roll of 13-18 finds no minus ability: the +1."""
    game = boss_game()
    game.boss = BossState(planeswalker(6))
    game.dice_rng = Dice(19)
    kind, ability, _ = boss.choose_boss_ability(game)
    assert (kind, ability[0].cost) == ("minus", -3)
    game.boss = BossState(planeswalker(10, minus=()))
    game.dice_rng = Dice(15)
    kind, ability, _ = boss.choose_boss_ability(game)
    assert (kind, ability[0].cost) == ("plus", 1)


def test_B4_bundled_boss_emblem_gives_the_horde_indestructible(boss_game, catalogue):
    game = boss_game()
    game.boss = BossState(bundled_card("Elspeth, Knight-Errant"))
    game.boss.loyalty = 8
    boss.boss_arrives(game)
    zombie = put(game, catalogue, "Zombie")
    ours = put(game, catalogue, "Savannah Lions", side="team")
    game.dice_rng = Picks(rolls=[20])
    boss.boss_acts(game)
    assert game.boss.loyalty == 0
    assert rules.has_keyword(game, zombie, "indestructible") and not rules.has_keyword(game, ours, "indestructible")


def test_B5_boss_static_abilities_work_while_it_is_in_the_game(boss_game, catalogue):
    game = boss_game()
    anthem = Effect("anthem", {"filter": compile_filter("zombie yours"), "power": 1, "toughness": 1,
                               "keywords": frozenset()}, VERBS["anthem"].run)
    game.boss = BossState(planeswalker(3, static=(anthem,)))
    zombie = put(game, catalogue, "Zombie")
    assert rules.power(game, zombie) == 2
    boss.boss_arrives(game)
    assert rules.power(game, zombie) == 3


def test_B6_boss_vanishes_when_the_team_wins(boss_game, catalogue):
    game = boss_game()
    game.drivers.trace = []
    boss.boss_arrives(game)
    rules.check_state(game)
    assert game.winner == "team"
    assert game.drivers.trace[-1]["event"] == "boss_vanishes"


# ---------------------------------------------------------------- L


@pytest.mark.parametrize("players, drawn", [(1, 0), (2, 0), (3, 1), (4, 2)])
def test_L1_one_lieutenant_per_player_above_two(boss_game, players, drawn):
    game = boss_game(players=players)
    count = 0 if game.lieutenants is None else len(game.lieutenants.drawn)
    assert count == drawn
    if drawn == 2:
        names = {lt.card.name for lt in game.lieutenants.drawn}
        assert names == {"Lord of the Undead", "Fleshbag Marauder"}  # without replacement


def test_L2_entry_roll_counts_the_total_and_a_total_of_17_is_no_entry(boss_game):
    game = boss_game(players=3)
    game.drivers.trace = []
    game.dice_rng = Dice(5, 16, 17, 15, 9)
    for _ in range(5):
        boss.entry_roll(game)
    rolls = [(e["roll"], e["counters"], e["total"], e["entered"]) for e in game.drivers.trace
             if e["event"] == "lieutenant_roll"]
    # A total of 17 (16 + 1) is no entry; a natural 17 with two counters (19) enters.
    assert rolls == [(5, 0, 5, False), (16, 1, 17, False), (17, 2, 19, True)]
    assert game.lieutenants.entry_counters == 0
    assert game.lieutenants.drawn[0].entered == 1  # the later rolls wait for nobody


def test_L2_natural_17_without_counters_is_no_entry(boss_game):
    game = boss_game(players=3)
    game.dice_rng = Dice(17)
    boss.entry_roll(game)
    assert game.lieutenants.drawn[0].entered == 0 and game.lieutenants.entry_counters == 1


@pytest.mark.parametrize("counters", range(0, 19))
def test_L2_chance_to_enter_with_c_counters_is_3_plus_c_over_20(boss_game, counters):
    """Every face of the die, with c counters: exactly (3 + c)/20 of them enter (at most all)."""
    entered = 0
    for face in range(1, 21):
        game = boss_game(players=3)
        game.lieutenants.entry_counters = counters
        game.dice_rng = Dice(face)
        boss.entry_roll(game)
        entered += game.lieutenants.drawn[0].entered
    assert entered == min(20, 3 + counters)


def exact_entry_probability(k: int) -> float:
    """P(a single lieutenant has entered by the Horde's k-th turn): a chain over entry counters
    (roll + counters >= 18 enters: (3 + c)/20 with c counters)."""
    waiting = {0: 1.0}
    entered = 0.0
    for _ in range(k):
        nxt: dict[int, float] = {}
        for counters, p in waiting.items():
            hits = sum(1 for roll in range(1, 21) if roll + counters >= 18)
            entered += p * hits / 20
            nxt[counters + 1] = nxt.get(counters + 1, 0.0) + p * (20 - hits) / 20
        waiting = nxt
    return entered


def test_L2_probability_of_entry_by_turn_k_matches_the_exact_chain(boss_game):
    assert exact_entry_probability(1) == pytest.approx(3 / 20)
    assert exact_entry_probability(2) == pytest.approx(3 / 20 + 17 / 20 * 4 / 20)  # 17 + 1 counter enters
    n = scaled(20000)
    game = boss_game(players=3)
    rng = random.Random(99)
    by_turn = [0] * 8
    for _ in range(n):
        game.lieutenants = LieutenantState([Lieutenant(game.lieutenants.drawn[0].card)], [])
        game.dice_rng = rng
        for p in list(game.battlefield.horde):
            game.battlefield.leave(p)  # an empty battlefield for the next try, without any rule
        for k in range(8):
            boss.entry_roll(game)
            if game.lieutenants.drawn[0].entered:
                for j in range(k, 8):
                    by_turn[j] += 1
                break
    for k in range(8):
        p = exact_entry_probability(k + 1)
        sigma = math.sqrt(p * (1 - p) / n)
        assert abs(by_turn[k] / n - p) < 4.5 * sigma + 1e-9, (k + 1, by_turn[k] / n, p)


def test_L3_enters_with_shields_and_random_equipment(boss_game, catalogue):
    game = boss_game(players=3)
    lieutenant = game.lieutenants.drawn[0]
    boss.lieutenant_enters(game, lieutenant)
    p = lieutenant.permanent
    assert p.shields == 1 and len(p.equipment) == 1 and len(game.lieutenants.equipment) == 1
    lieutenant.entered = 2
    game.lieutenants.equipment.clear()
    boss.lieutenant_enters(game, lieutenant)
    assert lieutenant.permanent.shields == 3 and lieutenant.permanent.equipment == []


def test_L4_shield_absorbs_one_combat_step_from_several_sources(make_game, catalogue):
    game = make_game(players=1, policy=Scripted(attackers=lambda d: list(d.options)))
    # A shield counter is general: here on a Horde token blocking two team attackers? It blocks
    # one attacker; instead it is the attacker blocked by two team creatures.
    zombie = put(game, catalogue, "Zombie Giant", shields=1)
    lions = [put(game, catalogue, "Savannah Lions", side="team") for _ in range(2)]
    game.drivers.policy = Scripted(blocks=[(lions[0], zombie), (lions[1], zombie)])
    turns.horde_combat(game, set())
    assert zombie.shields == 0 and zombie.damage == 0 and rules.on_battlefield(game, zombie)


def test_L4_shield_absorbs_one_destruction(make_game, catalogue):
    game = make_game(players=1)
    giant = put(game, catalogue, "Zombie Giant", shields=2)
    assert not rules.destroy(game, giant) and giant.shields == 1
    rules.damage_permanent(game, None, 0, giant, 3)
    assert giant.shields == 0 and giant.damage == 0
    rules.damage_permanent(game, None, 0, giant, 5)
    rules.check_state(game)
    assert not rules.on_battlefield(game, giant)


def test_L5_protected_lieutenant_cannot_be_targeted_damaged_or_blocked(boss_game, catalogue):
    game = boss_game(players=3)
    lieutenant = game.lieutenants.drawn[0]
    boss.lieutenant_enters(game, lieutenant)
    lt = lieutenant.permanent
    zombie = put(game, catalogue, "Zombie")
    swords = catalogue.get("Swords to Plowshares")
    from horde.engine.filters import Context

    effect = swords.hooks["Cast"][0]
    assert rules.legal_targets(game, Context(swords, None, 0), effect) == [zombie]
    assert rules.damage_permanent(game, None, 0, lt, 2) == 0 and lt.shields == 1
    attackers = [lt, zombie]
    lion = put(game, catalogue, "Savannah Lions", side="team")
    bear = put(game, catalogue, "Grizzly Bears", side="team")
    assert not rules.blocks_allowed(game, attackers, [(lion, lt)])
    assert rules.blocks_allowed(game, attackers, [(lion, lt), (bear, zombie)])
    rules.destroy(game, zombie)  # alone, it loses its protection
    assert lt in rules.legal_targets(game, Context(swords, None, 0), effect)


def test_L5_the_hordes_own_pump_and_aura_do_not_target_a_protected_lieutenant(boss_game, catalogue):
    """L5 for the Horde's own spells and abilities: Elspeth, Knight-Errant's '+3/+3 and flying' and
    Unholy Strength pick among the Zombie and the team's Lions, never the lieutenant beside the
    Zombie; alone, the lieutenant is a legal target again."""
    from horde.engine.filters import Context

    game = boss_game(players=3)
    lieutenant = game.lieutenants.drawn[0]
    boss.lieutenant_enters(game, lieutenant)
    lt = lieutenant.permanent
    zombie = put(game, catalogue, "Zombie")
    lion = put(game, catalogue, "Savannah Lions", side="team")
    elspeth = bundled_card("Elspeth, Knight-Errant")
    pump = elspeth.abilities("Plus")[1][0]
    unholy = bundled_card("Unholy Strength")
    assert rules.legal_targets(game, Context(elspeth, None, HORDE), pump) == [lion, zombie]
    assert rules.legal_targets(game, Context(unholy, None, HORDE), unholy.enchant) == [lion, zombie]
    rules.destroy(game, zombie)
    assert rules.legal_targets(game, Context(elspeth, None, HORDE), pump) == [lion, lt]


@pytest.mark.parametrize("spell", ["Unsummon", "Swords to Plowshares", "Disfigure", "Diabolic Edict"])
def test_L6_the_killing_blow_is_any_means_bounce_exile_minus_n_or_a_forced_sacrifice(boss_game, catalogue, spell):
    """L6: player 2's Unsummon (bounce), Swords to Plowshares (exile), Disfigure (-2/-2 on the 2/2
    Walking Corpse lieutenant) or Diabolic Edict (the Horde sacrifices it) defeats the lieutenant:
    it is exiled with time counters and its Bonesplitter goes to player 2 (before: to no one)."""
    from horde.engine.filters import Context

    policy = Scripted(target=lambda d: next(o for o in d.options if o == "horde" or getattr(o, "lieutenant", None)))
    game = boss_game(players=3, policy=policy)
    game.lieutenants.drawn[:] = [Lieutenant(catalogue.get("Walking Corpse"))]
    game.lieutenants.equipment[:] = [catalogue.get("Bonesplitter")]
    lieutenant = game.lieutenants.drawn[0]
    boss.lieutenant_enters(game, lieutenant)
    equipment = lieutenant.permanent.equipment[0]
    game.dice_rng = Dice(9)
    card = catalogue.get(spell) if spell in ("Unsummon", "Swords to Plowshares") else bundled_card(spell)
    rules.resolve_spell(game, card, Context(card, None, 1))
    rules.check_state(game)
    assert game.lieutenants.exiled == [lieutenant] and lieutenant.time_counters == 9
    assert equipment.controller == 1 and equipment in game.battlefield.team


def test_L6_a_team_anthem_that_shrinks_is_the_killing_blow(boss_game, catalogue):
    """L6: player 3's Elesh Norn, Grand Cenobite ('creatures your opponents control get -2/-2')
    leaves the 2/2 lieutenant with no toughness: its equipment goes to player 3."""
    game = boss_game(players=3)
    game.lieutenants.drawn[:] = [Lieutenant(catalogue.get("Walking Corpse"))]
    game.lieutenants.equipment[:] = [catalogue.get("Bonesplitter")]
    lieutenant = game.lieutenants.drawn[0]
    boss.lieutenant_enters(game, lieutenant)
    equipment = lieutenant.permanent.equipment[0]
    rules.put_onto_battlefield(game, bundled_card("Elesh Norn, Grand Cenobite"), 2, 2)
    rules.check_state(game)
    assert game.lieutenants.exiled == [lieutenant]
    assert equipment.controller == 2 and equipment in game.battlefield.team


def test_L6_defeated_lieutenant_is_exiled_and_equipment_goes_to_the_killer(boss_game, catalogue):
    game = boss_game(players=3)
    game.drivers.trace = []
    lieutenant = game.lieutenants.drawn[0]
    boss.lieutenant_enters(game, lieutenant)
    lt = lieutenant.permanent
    lt.shields = 0
    equipment = lt.equipment[0]
    game.dice_rng = Dice(11)
    rules.damage_permanent(game, None, 2, lt, 10)  # player 3's source, lethal: no other creature
    rules.check_state(game)
    assert lieutenant.time_counters == 11 and game.lieutenants.exiled == [lieutenant]
    assert equipment.controller == 2 and equipment in game.battlefield.team and equipment.attached_to is None
    event = next(e for e in game.drivers.trace if e["event"] == "lieutenant_defeated")
    assert (event["time_counters"], event["equipment_to"]) == (11, 3)
    # That player may equip it for its equip cost.
    for _ in range(3):
        put(game, catalogue, "Plains", side="team", player=2)
    bear = put(game, catalogue, "Grizzly Bears", side="team", player=2)
    turns.equip_step(game, 2)
    assert equipment.attached_to is bear


def test_L7_time_counters_fall_and_the_lieutenant_returns(boss_game, catalogue):
    game = boss_game(players=4)
    lord = catalogue.get("Lord of the Undead")
    game.lieutenants.drawn[:] = [Lieutenant(lord), Lieutenant(lord)]
    first, second = game.lieutenants.drawn
    for lt in (first, second):
        boss.lieutenant_enters(game, lt)
        lt.permanent.shields = 0
    game.dice_rng = Dice(3, 5)
    rules.sacrifice(game, first.permanent)
    rules.sacrifice(game, second.permanent)
    assert (first.time_counters, second.time_counters) == (3, 5)
    boss.time_counters_turn(game)
    assert (first.time_counters, second.time_counters) == (2, 4)
    zombie = put(game, catalogue, "Zombie")
    rules.damage_player(game, zombie, HORDE, 0, 2)
    assert (first.time_counters, second.time_counters) == (1, 4)  # the first exiled loses one
    rules.damage_player(game, zombie, HORDE, 0, 2)
    assert first.permanent is not None and first.permanent.shields == 2  # back, second entry
    assert second.time_counters == 4


def test_L7_the_return_waits_until_all_combat_damage_is_dealt(boss_game, catalogue):
    """CR 510.2, H13a: a step's combat damage is dealt at once, and the L7 time counter its damage
    to a player removes is a triggered ability that waits until it is all dealt. Mikaeus, the
    Unhallowed (exiled, one time counter left: 'other non-Human creatures you control get +1/+1')
    returns when the unblocked Zombie hits the team; the blocked Zombie has already taken the
    Bears' 2 damage with it, and it dies to the state-based actions before Mikaeus enters (dealt
    one attacker after the other, Mikaeus entered between, and made it a 3/3 that survived)."""
    game = boss_game(players=4, policy=Scripted(blocks=lambda d: [(bears, blocked)]))
    game.drivers.trace = []
    mikaeus = Lieutenant(bundled_card("Mikaeus, the Unhallowed"))
    mikaeus.entered, mikaeus.time_counters = 1, 1
    game.lieutenants.drawn[:] = [mikaeus]
    game.lieutenants.exiled[:] = [mikaeus]
    game.lieutenants.equipment.clear()
    game.horde.library[:] = [catalogue.get("Zombie")] * 5
    put(game, catalogue, "Zombie")
    blocked = put(game, catalogue, "Zombie")
    bears = put(game, catalogue, "Grizzly Bears", side="team")
    turns.horde_combat(game, set())
    assert game.team_life == 78  # the unblocked Zombie's 2, dealt before Mikaeus could pump it
    assert not rules.on_battlefield(game, blocked) and not rules.on_battlefield(game, bears)  # traded as 2/2s
    assert mikaeus.permanent is not None and rules.on_battlefield(game, mikaeus.permanent)
    events = [e["event"] for e in game.drivers.trace]
    last_damage = max(i for i, e in enumerate(events) if e == "damage")
    assert events.index("lieutenant_enters") > last_damage
    assert events.index("time_counter_removed") > last_damage


def test_L8_lieutenant_activates_instead_of_attacking(boss_game, catalogue):
    game = boss_game(players=3)
    game.lieutenants.drawn[:] = [Lieutenant(catalogue.get("Lord of the Undead"))]
    boss.lieutenant_enters(game, game.lieutenants.drawn[0])
    lt = game.lieutenants.drawn[0].permanent
    game.horde.graveyard.append(catalogue.get("Walking Corpse"))
    acted = boss.lieutenants_act(game)
    assert acted == {lt.id} and lt.tapped
    assert [c.name for c in game.horde.hand] == ["Walking Corpse"]
    # No other ability to pay for now: next time it cannot act, so it attacks.
    lt.tapped = False
    game.horde.graveyard.clear()
    assert boss.lieutenants_act(game) == {lt.id}  # tapping is still payable: it returns nothing


def test_L5_baseline_blocks_a_lieutenant_once_every_other_attacker_is_blocked(boss_game, catalogue):
    from horde.team.policies import BaselinePolicy

    game = boss_game(players=3, policy=BaselinePolicy())
    game.lieutenants.drawn[:] = [Lieutenant(catalogue.get("Walking Corpse"))]
    game.lieutenants.equipment.clear()
    lieutenant = game.lieutenants.drawn[0]
    boss.lieutenant_enters(game, lieutenant)
    lt = lieutenant.permanent
    zombie = put(game, catalogue, "Zombie")
    [put(game, catalogue, "Grizzly Bears", side="team") for _ in range(2)]
    turns.horde_combat(game, set())
    assert not rules.on_battlefield(game, zombie)  # a bear traded with the Zombie
    # The other bear blocked the lieutenant: no damage reached the team, and (L5) the blocked
    # lieutenant is still not dealt damage while the Horde controlled another creature.
    assert game.team_life == 60
    assert lt.shields == 1 and lt.damage == 0

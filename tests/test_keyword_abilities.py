"""Keyword abilities (CR 702) as card files write them (docs/cards.md, "Keyword abilities"): the
keywords the rules apply by name (landwalk of every kind, shadow, horsemanship, exalted, split
second, storm, cascade, retrace, rebound), the keywords with a cost written as fields (evoke,
dash, buyback, typecycling, echo, suspend) and the triggered keywords written as verbs
(annihilator, bushido and rampage on the Blocked hook, renown, myriad, extort, fading, vanishing,
modular, devour, living weapon, monstrosity). Each test is a tiny board with exact values.
"""

import json
import lzma
from pathlib import Path

import pytest
from conftest import HORDE, Scripted, put
from test_oracle_contract import fact_lines, read_blocks

from horde.cards.catalogue import build_from_lines
from horde.engine import rules, turns
from horde.engine.filters import Context
from horde.engine.rules.casting import cast_triggers
from horde.errors import DeckError

CARDS = {
    "Soltari Priest": ["Cost: {W}{W}", "Type: Creature — Soltari Cleric", "PT: 2/1", "Keywords: shadow"],
    "Dauthi Slayer": ["Cost: {B}{B}", "Type: Creature — Dauthi Minion", "PT: 2/2", "Keywords: shadow"],
    "Lu Bu": ["Cost: {3}{R}{R}", "Type: Legendary Creature — Human Soldier", "PT: 4/3",
              "Keywords: horsemanship"],
    "Horse Rider": ["Cost: {1}{W}", "Type: Creature — Human Soldier", "PT: 1/1", "Keywords: horsemanship"],
    "Goblin Mountaineer": ["Cost: {R}", "Type: Creature — Goblin", "PT: 1/1", "Keywords: mountainwalk"],
    "Zodiac Dog": ["Cost: {2}{R}", "Type: Creature — Dog", "PT: 2/2", "Keywords: plainswalk"],
    "Sand Walker": ["Cost: {2}", "Type: Creature — Elemental", "PT: 2/2", "Keywords: desertwalk"],
    "Dryad Sophisticate": ["Cost: {1}{G}", "Type: Creature — Dryad", "PT: 2/1", "Keywords: nonbasic landwalk"],
    "Livonya Silone": ["Cost: {2}{R}{R}{G}{G}", "Type: Legendary Creature — Human Warrior", "PT: 4/4",
                       "Keywords: first strike, legendary landwalk"],
    "Rimewind Cryomancer": ["Cost: {3}{U}", "Type: Creature — Human Wizard", "PT: 2/3", "Keywords: snow landwalk"],
    "Desert": ["Type: Land — Desert", "Mana: C"],
    "Tundra Wolves": ["Type: Snow Land", "Mana: C"],
    "Urborg": ["Type: Legendary Land", "Mana: B"],
    "Akrasan Squire": ["Cost: {W}", "Type: Creature — Human Soldier", "PT: 1/1", "Keywords: exalted"],
    "Sublime Archangel": ["Cost: {2}{W}{W}", "Type: Creature — Angel", "PT: 4/3", "Keywords: flying, exalted"],
    "Sudden Shock": ["Cost: {1}{R}", "Type: Instant", "Keywords: split second", "Cast: damage target=creature amount=2"],
    "Grapeshot": ["Cost: {W}", "Type: Sorcery", "Keywords: storm", "Cast: gain_life amount=1"],
    "Bloodbraid Elf": ["Cost: {2}{R}{G}", "Type: Creature — Elf Berserker", "PT: 3/2", "Keywords: haste, cascade"],
    "Grizzly Bears": ["Cost: {1}{G}", "Type: Creature — Bear", "PT: 2/2"],
    "Hill Giant": ["Cost: {3}{R}", "Type: Creature — Giant", "PT: 3/3"],
    "Raven's Crime": ["Cost: {W}", "Type: Sorcery", "Keywords: retrace", "Cast: gain_life amount=2"],
    "Staggershock": ["Cost: {W}", "Type: Instant", "Keywords: rebound", "Cast: gain_life amount=2"],
    "Mulldrifter": ["Cost: {4}{W}", "Type: Creature — Elemental", "PT: 2/2", "Keywords: flying", "Evoke: {W}",
                    "Enters: draw count=2"],
    "Goblin Heelcutter": ["Cost: {3}{W}", "Type: Creature — Goblin Warrior", "PT: 3/2", "Dash: {W}"],
    "Capsize": ["Cost: {W}", "Type: Instant", "Buyback: {W}", "Cast: gain_life amount=3"],
    "Migratory Route": ["Cost: {W}", "Type: Sorcery", "Typecycling: {W} basic land", "Cast: gain_life amount=1"],
    "Plainscycler": ["Cost: {W}", "Type: Sorcery", "Typecycling: {W} plains", "Cast: gain_life amount=1"],
    "Karmic Guide": ["Cost: {W}", "Type: Creature — Angel Spirit", "PT: 2/2", "Echo: {W}"],
    "Lotus Bloom": ["Type: Artifact", "Suspend: 2 {0}", "Mana: {T}, sacrifice this -> any any any"],
    "Rift Bolt": ["Cost: {2}{W}", "Type: Sorcery", "Suspend: 1 {W}", "Cast: gain_life amount=3"],
    "Ulamog's Crusher": ["Cost: {8}", "Type: Creature — Eldrazi", "PT: 8/8", "Attacks: annihilator count=2"],
    "Sensei Golden-Tail": ["Cost: {1}{W}", "Type: Creature — Fox Samurai", "PT: 1/1",
                           "Blocks: pump on=self power=1 toughness=1", "Blocked: pump on=self power=1 toughness=1"],
    "Craw Giant": ["Cost: {3}{G}{G}{G}{G}", "Type: Creature — Giant", "PT: 6/4", "Keywords: trample",
                   "Blocked: rampage count=2"],
    "Topan Freeblade": ["Cost: {1}{W}", "Type: Creature — Human Soldier", "PT: 2/2", "Keywords: vigilance",
                        "HitsPlayer: renown count=1"],
    "Caller of the Hunt": ["Cost: {2}{G}", "Type: Creature — Human", "PT: 3/3", "Attacks: myriad"],
    "Syndic of Tithes": ["Cost: {W}", "Type: Creature — Human Cleric", "PT: 2/2", "SpellCast: extort when=yours"],
    "Blastoderm": ["Cost: {2}{G}{G}", "Type: Creature — Beast", "PT: 5/5", "Enters: fading count=3",
                   "Upkeep: fading"],
    "Aven Riftwatcher": ["Cost: {2}{W}", "Type: Creature — Bird Rebel Soldier", "PT: 2/3",
                         "Enters: vanishing count=2", "Upkeep: vanishing"],
    "Arcbound Worker": ["Cost: {1}", "Type: Artifact Creature — Construct", "PT: 0/0",
                        "Enters: counters on=self count=1", "Dies: modular may=true"],
    "Arcbound Stinger": ["Cost: {2}", "Type: Artifact Creature — Insect", "PT: 0/0",
                         "Enters: counters on=self count=1"],
    "Skullmulcher": ["Cost: {4}{G}", "Type: Creature — Elemental", "PT: 3/3", "Enters: devour count=2"],
    "Batterskull": ["Cost: {5}", "Type: Artifact — Equipment", "Equip: {5}", "Enters: living_weapon",
                    'Equipped: anthem power=4 toughness=4 keywords="vigilance, lifelink"'],
    "Polukranos": ["Cost: {2}{G}{G}", "Type: Creature — Hydra", "PT: 5/5", "Activated: {W} -> monstrosity count=3",
                   "Monstrous: gain_life amount=4"],
    "Counterspell": ["Cost: {W}{W}", "Type: Instant", "Cast: counter_spell"],
}


@pytest.fixture(scope="module")
def cards():
    return {name: build_from_lines([f"Name: {name}"] + lines, "keywords.txt") for name, lines in CARDS.items()}


@pytest.fixture
def game(make_game, catalogue):
    """One team player with no commander to cast; the Horde with a library (an empty one loses at
    the next check of state)."""
    g = make_game(players=1)
    g.players[0].command.clear()
    g.horde.library[:] = [catalogue.get("Zombie")] * 20
    return g


def enter(game, card, side="horde", player=0, **state):
    """A permanent of ``card`` (its Enters abilities not run), untapped, not sick."""
    controller = HORDE if side == "horde" else player
    p = rules.put_onto_battlefield(game, card, controller, controller, triggers=False)
    p.sick = False
    p.tapped = False
    for key, value in state.items():
        setattr(p, key, value)
    return p


def plains(game, catalogue, n, player=0):
    return [put(game, catalogue, "Plains", side="team", player=player) for _ in range(n)]


# ---------------------------------------------------------------- evasion (702.14, 702.28, 702.31)


def test_keyword_shadow_blocks_and_is_blocked_only_by_shadow(game, catalogue, cards):
    """702.28b: a creature with shadow can block or be blocked by only creatures with shadow."""
    priest = enter(game, cards["Soltari Priest"])
    bears = enter(game, cards["Grizzly Bears"], side="team")
    slayer = enter(game, cards["Dauthi Slayer"], side="team")
    assert not rules.can_block(game, bears, priest)
    assert rules.can_block(game, slayer, priest)
    zombie = put(game, catalogue, "Zombie")
    assert not rules.can_block(game, slayer, zombie)  # nor can it block a creature without shadow


def test_keyword_horsemanship_blocked_only_by_horsemanship(game, cards):
    """702.31b: it can't be blocked except by creatures with horsemanship; those may block others."""
    lu_bu = enter(game, cards["Lu Bu"])
    bears = enter(game, cards["Grizzly Bears"], side="team")
    rider = enter(game, cards["Horse Rider"], side="team")
    assert not rules.can_block(game, bears, lu_bu)
    assert rules.can_block(game, rider, lu_bu)
    assert rules.can_block(game, rider, enter(game, cards["Grizzly Bears"]))


def _landwalk(game, catalogue, cards, walker, land):
    attacker = enter(game, cards[walker])
    blocker = enter(game, cards["Grizzly Bears"], side="team")
    before = rules.can_block(game, blocker, attacker)
    if land in cards:
        enter(game, cards[land], side="team")
    else:
        put(game, catalogue, land, side="team")
    return before, rules.can_block(game, blocker, attacker)


def test_keyword_mountainwalk(game, catalogue, cards):
    """702.14c: unblockable while the defending player controls a Mountain."""
    assert _landwalk(game, catalogue, cards, "Goblin Mountaineer", "Mountain") == (True, False)


def test_keyword_plainswalk(game, catalogue, cards):
    assert _landwalk(game, catalogue, cards, "Zodiac Dog", "Plains") == (True, False)


def test_keyword_desertwalk(game, catalogue, cards):
    assert _landwalk(game, catalogue, cards, "Sand Walker", "Desert") == (True, False)


def test_keyword_nonbasic_landwalk(game, catalogue, cards):
    """702.14c: a basic land does not count; a nonbasic one does."""
    assert _landwalk(game, catalogue, cards, "Dryad Sophisticate", "Plains") == (True, True)
    enter(game, cards["Desert"], side="team")
    blocker = enter(game, cards["Grizzly Bears"], side="team")
    assert not rules.can_block(game, blocker, game.battlefield.horde[-1])


def test_keyword_legendary_landwalk(game, catalogue, cards):
    assert _landwalk(game, catalogue, cards, "Livonya Silone", "Urborg") == (True, False)


def test_keyword_snow_landwalk(game, catalogue, cards):
    assert _landwalk(game, catalogue, cards, "Rimewind Cryomancer", "Tundra Wolves") == (True, False)


# ---------------------------------------------------------------- exalted (702.83)


def test_keyword_exalted_a_lone_attacker_gets_one_pump_per_instance(game, cards):
    """702.83a-b: attacking alone, +1/+1 for each exalted instance its controller controls."""
    squire = enter(game, cards["Akrasan Squire"], side="team")
    enter(game, cards["Sublime Archangel"], side="team")
    rules.exalted(game, [squire])
    assert (rules.power(game, squire), rules.toughness(game, squire)) == (3, 3)
    bears = enter(game, cards["Grizzly Bears"], side="team")
    rules.exalted(game, [squire, bears])  # not alone: nothing
    assert (rules.power(game, bears), rules.power(game, squire)) == (2, 3)


# ---------------------------------------------------------------- casting (702.40, 702.61, 702.81, 702.85, 702.88)


def test_keyword_split_second_the_team_may_not_counter(game, catalogue, cards):
    """702.61a: while a split-second spell is on the stack, players can't cast spells: no counter window."""
    policy = Scripted()
    game.drivers.policy = policy
    plains(game, catalogue, 2)
    game.players[0].hand[:] = [cards["Counterspell"]]
    bears = enter(game, cards["Grizzly Bears"], side="team")
    rules.horde_cast(game, cards["Sudden Shock"])
    assert not rules.on_battlefield(game, bears)
    assert game.players[0].hand == [cards["Counterspell"]]
    assert "counter" not in [d.kind for d in policy.seen]
    rules.horde_cast(game, cards["Grapeshot"])  # without split second, the window opens
    assert "counter" in [d.kind for d in policy.seen]


def test_keyword_storm_copies_for_each_spell_cast_before_it(game, catalogue, cards):
    """702.40a: a copy for each other spell cast this turn: two before it, three resolutions."""
    plains(game, catalogue, 1)
    game.players[0].hand[:] = [cards["Grapeshot"]]
    game.spells_this_turn = 2
    life = game.team_life
    rules.team_cast(game, 0, cards["Grapeshot"], "hand")
    assert game.team_life == life + 3
    assert game.spells_this_turn == 3
    assert game.players[0].graveyard == [cards["Grapeshot"]]  # the copies cease to exist (707.10a)


def test_keyword_cascade_casts_the_first_lesser_nonland_card(game, catalogue, cards):
    """702.85a: exile until a nonland card of lesser mana value, cast it free, the rest to the bottom."""
    giant, bears, elf = cards["Hill Giant"], cards["Grizzly Bears"], cards["Bloodbraid Elf"]
    zombie, swamp = catalogue.get("Zombie"), catalogue.get("Swamp")
    game.horde.library[:] = [zombie, bears, giant, swamp]  # the top is the end: Swamp, Hill Giant, then the Bears
    rules.horde_cast(game, elf)
    names = sorted(p.card.name for p in game.battlefield.horde)
    assert names == ["Bloodbraid Elf", "Grizzly Bears"]
    assert game.horde.library[2] is zombie and sorted(c.name for c in game.horde.library[:2]) == ["Hill Giant", "Swamp"]


def test_keyword_cascade_a_team_player_casts_its_find_if_its_policy_says(game, catalogue, cards):
    pl = game.players[0]
    pl.library[:] = [cards["Hill Giant"], cards["Grizzly Bears"]]
    game.drivers.policy = Scripted(cast_free=False)
    cast_triggers(game, cards["Bloodbraid Elf"], 0, 0, 0)
    assert game.battlefield.team == [] and sorted(c.name for c in pl.library) == ["Grizzly Bears", "Hill Giant"]
    game.drivers.policy = Scripted(cast_free=True)
    cast_triggers(game, cards["Bloodbraid Elf"], 0, 0, 0)
    assert [p.card.name for p in game.battlefield.team] == ["Grizzly Bears"]


def test_keyword_retrace_casts_from_the_graveyard_discarding_a_land(game, catalogue, cards):
    """702.81a: cast from the graveyard by discarding a land card as an additional cost."""
    pl = game.players[0]
    plains(game, catalogue, 1)
    crime = cards["Raven's Crime"]
    pl.graveyard[:] = [crime]
    assert (crime, "retrace") not in rules.castable(game, 0)  # no land card in hand
    swamp = catalogue.get("Swamp")
    pl.hand[:] = [swamp]
    assert (crime, "retrace") in rules.castable(game, 0)
    life = game.team_life
    rules.team_cast(game, 0, crime, "retrace")
    assert game.team_life == life + 2
    assert pl.hand == [] and pl.graveyard == [swamp, crime]


def test_keyword_rebound_exiles_and_casts_again_at_the_next_upkeep(game, catalogue, cards):
    """702.88a: cast from a hand, exiled as it resolves; cast again free at its owner's next upkeep."""
    pl = game.players[0]
    plains(game, catalogue, 1)
    shock = cards["Staggershock"]
    pl.hand[:] = [shock]
    game.drivers.policy = Scripted(cast_free=True)
    life = game.team_life
    rules.team_cast(game, 0, shock, "hand")
    assert game.team_life == life + 2 and pl.exile == [shock]
    turns.upkeep(game, [0], game.battlefield.team)
    assert game.team_life == life + 4
    assert pl.exile == [] and pl.graveyard == [shock]  # the second time, from exile: no rebound


# ---------------------------------------------------------------- costs (702.27, 702.29, 702.30, 702.62, 702.74, 702.109)


def test_evoke_the_creature_is_sacrificed_after_its_enters_abilities(game, catalogue, cards):
    """702.74a: cast for its evoke cost, it is sacrificed as it enters (its Enters ability still resolves)."""
    pl = game.players[0]
    plains(game, catalogue, 1)
    drifter = cards["Mulldrifter"]
    pl.hand[:] = [drifter]
    pl.library[:] = [catalogue.get("Plains")] * 5
    assert rules.castable(game, 0) == [(drifter, "evoke")]  # one Plains: not its {4}{W}
    rules.team_cast(game, 0, drifter, "evoke")
    assert game.battlefield.team[1:] == [] and pl.graveyard == [drifter]
    assert len(pl.hand) == 2


def test_dash_haste_and_back_to_the_hand_at_the_end_step(game, catalogue, cards):
    """702.109a: cast for its dash cost, it has haste and returns to its owner's hand at the next end step."""
    pl = game.players[0]
    plains(game, catalogue, 1)
    cutter = cards["Goblin Heelcutter"]
    pl.hand[:] = [cutter]
    assert rules.castable(game, 0) == [(cutter, "dash")]
    rules.team_cast(game, 0, cutter, "dash")
    p = game.battlefield.team[-1]
    assert p.card is cutter and not p.sick
    turns.end_step(game)
    assert not rules.on_battlefield(game, p) and pl.hand == [cutter]


def test_buyback_returns_the_spell_to_its_owners_hand(game, catalogue, cards):
    """702.27a: the buyback cost paid, the spell goes to its owner's hand as it resolves."""
    pl = game.players[0]
    capsize = cards["Capsize"]
    plains(game, catalogue, 2)
    pl.hand[:] = [capsize]
    game.drivers.policy = Scripted(buyback=True)
    life = game.team_life
    rules.team_cast(game, 0, capsize, "hand")
    assert game.team_life == life + 3 and pl.hand == [capsize]
    assert sum(p.tapped for p in game.battlefield.team) == 2
    rules.team_cast(game, 0, capsize, "hand")  # no mana left for the buyback: not asked, not paid
    assert pl.graveyard == [capsize]


def test_typecycling_searches_for_a_card_of_its_kind(game, catalogue, cards):
    """702.29e-f: pay, discard it, search the library for a card of the kind it names, put it in the hand."""
    pl = game.players[0]
    plains(game, catalogue, 1)
    route = cards["Migratory Route"]
    swamp, bears = catalogue.get("Swamp"), cards["Grizzly Bears"]
    pl.hand[:] = [route]
    pl.library[:] = [bears, swamp, bears]
    assert rules.cyclable(game, 0) == [route]
    rules.cycle(game, 0, route)
    assert pl.hand == [swamp] and pl.graveyard == [route] and sorted(c.name for c in pl.library) == ["Grizzly Bears"] * 2


def test_typecycling_of_a_land_type(game, catalogue, cards):
    pl = game.players[0]
    plains(game, catalogue, 1)
    pl.hand[:] = [cards["Plainscycler"]]
    pl.library[:] = [catalogue.get("Swamp")]
    rules.cycle(game, 0, cards["Plainscycler"])
    assert pl.hand == [] and len(pl.library) == 1  # no Plains found: nothing, the library shuffled


def test_typecycling_field_errors():
    with pytest.raises(DeckError, match="expected a cost and the card it finds"):
        build_from_lines(["Name: X", "Cost: {W}", "Type: Sorcery", "Typecycling: {1}"], "k.txt")


def test_echo_paid_or_sacrificed_at_the_next_upkeep(game, catalogue, cards):
    """702.30a: at its controller's next upkeep, sacrificed unless the echo cost is paid; once only."""
    plains(game, catalogue, 1)
    guide = rules.put_onto_battlefield(game, cards["Karmic Guide"], 0, 0)
    game.drivers.policy = Scripted(echo=True)
    turns.upkeep(game, [0], game.battlefield.team)
    assert rules.on_battlefield(game, guide) and sum(p.tapped for p in game.battlefield.team) == 1
    turns.upkeep(game, [0], game.battlefield.team)  # paid: nothing is due any more
    assert sum(p.tapped for p in game.battlefield.team) == 1
    other = rules.put_onto_battlefield(game, cards["Karmic Guide"], 0, 0)
    turns.upkeep(game, [0], game.battlefield.team)  # no untapped Plains: sacrificed
    assert not rules.on_battlefield(game, other) and rules.on_battlefield(game, guide)


def test_suspend_exiles_with_time_counters_then_casts_free(game, catalogue, cards):
    """702.62a: exiled with N time counters; one removed each upkeep; the last removed, cast without paying."""
    pl = game.players[0]
    plains(game, catalogue, 1)
    bolt = cards["Rift Bolt"]
    pl.hand[:] = [bolt]
    assert rules.castable(game, 0) == [(bolt, "suspend")]  # {2}{W} it can't pay; {W} to suspend it
    rules.team_cast(game, 0, bolt, "suspend")
    assert pl.exile == [bolt] and pl.hand == []
    game.drivers.policy = Scripted(cast_free=True)
    life = game.team_life
    turns.upkeep(game, [0], game.battlefield.team)
    assert game.team_life == life + 3 and pl.graveyard == [bolt] and pl.exile == []


def test_suspend_a_card_without_a_mana_cost_is_only_suspended(game, catalogue, cards):
    """118.6: a card with no mana cost can't be cast from a hand; the Horde suspends it (H7: free)."""
    bloom = cards["Lotus Bloom"]
    assert bloom.hand_origins == ("suspend",)
    rules.horde_cast(game, bloom)
    assert game.horde.exile == [bloom]
    turns.upkeep(game, [HORDE], game.battlefield.horde)
    assert game.battlefield.horde == []
    turns.upkeep(game, [HORDE], game.battlefield.horde)
    assert [p.card for p in game.battlefield.horde] == [bloom] and game.horde.exile == []


# ---------------------------------------------------------------- triggered keywords (verbs)


def test_verb_annihilator_the_defender_sacrifices(game, catalogue, cards):
    """702.86a: whenever it attacks, the defending player sacrifices N permanents."""
    crusher = enter(game, cards["Ulamog's Crusher"])
    crusher.attacking, crusher.defender = True, 0
    plains(game, catalogue, 3)
    rules.run_hook(game, crusher, "Attacks")
    assert len(game.battlefield.team) == 1 and len(game.players[0].graveyard) == 2
    mine = enter(game, cards["Ulamog's Crusher"], side="team")
    put(game, catalogue, "Zombie")
    rules.run_hook(game, mine, "Attacks")  # a team attacker: the Horde sacrifices two, its Crusher and its Zombie
    assert [p.card.name for p in game.battlefield.horde] == []


def test_hook_blocked_bushido_pumps_when_it_blocks_or_becomes_blocked(game, catalogue, cards):
    """702.45a: bushido N, +N/+N whenever it blocks or becomes blocked."""
    sensei = enter(game, cards["Sensei Golden-Tail"], side="team")
    zombie = put(game, catalogue, "Zombie")
    zombie.attacking = True
    zombie.blockers = [sensei]
    turns.declare_blocks_effects(game, [zombie])
    assert rules.power(game, sensei) == 2
    zombie.blockers = []
    sensei.attacking, sensei.blockers = True, [zombie]
    turns.declare_blocks_effects(game, [sensei])
    assert rules.power(game, sensei) == 3


def test_verb_rampage_for_each_blocker_beyond_the_first(game, catalogue, cards):
    """702.23a: rampage 2, +2/+2 for each creature blocking it beyond the first."""
    giant = enter(game, cards["Craw Giant"], side="team")
    blockers = [put(game, catalogue, "Zombie") for _ in range(3)]
    giant.attacking, giant.blockers = True, blockers
    turns.declare_blocks_effects(game, [giant])
    assert (rules.power(game, giant), rules.toughness(game, giant)) == (10, 8)


def test_verb_renown_once_only(game, cards):
    """702.112a: renown 1, a +1/+1 counter the first time it deals combat damage to a player."""
    blade = enter(game, cards["Topan Freeblade"], side="team")
    rules.run_hook(game, blade, "HitsPlayer")
    rules.run_hook(game, blade, "HitsPlayer")
    assert rules.power(game, blade) == 3 and blade.marks == {"renowned": 1}


def test_verb_myriad_copies_attack_each_other_player(make_game, cards):
    """702.116a: a tapped, attacking token copy for each other opponent, exiled at the end of combat."""
    game = make_game(players=3)
    game.horde.library[:] = [cards["Grizzly Bears"]] * 5
    caller = enter(game, cards["Caller of the Hunt"])
    caller.attacking, caller.defender = True, 1
    rules.run_hook(game, caller, "Attacks")
    copies = [p for p in game.battlefield.horde if p is not caller]
    assert sorted(p.defender for p in copies) == [0, 2]
    assert all(p.tapped and p.attacking and p.card.is_token for p in copies)
    rules.end_of_combat(game)
    assert game.battlefield.horde == [caller]


def test_verb_extort_paid_drains_the_horde(game, catalogue, cards):
    """702.101a: pay {W/B}: each opponent loses 1 life (the Horde mills 1: H11), you gain that much."""
    enter(game, cards["Syndic of Tithes"], side="team")
    plains(game, catalogue, 2)
    game.players[0].hand[:] = [cards["Grapeshot"]]
    game.drivers.policy = Scripted(may=True)
    life = game.team_life
    rules.team_cast(game, 0, cards["Grapeshot"], "hand")
    assert game.team_life == life + 1 + 1  # Grapeshot's 1, extort's 1
    assert len(game.horde.library) == 19
    assert sum(p.tapped for p in game.battlefield.team if p.card.name == "Plains") == 2


def test_verb_fading_counters_then_sacrificed(game, cards):
    """702.32a: enters with 3 fade counters; remove one each upkeep; sacrificed when it can't."""
    beast = rules.put_onto_battlefield(game, cards["Blastoderm"], HORDE, HORDE)
    assert beast.marks == {"fade": 3}
    for _ in range(3):
        rules.run_hook(game, beast, "Upkeep")
    assert rules.on_battlefield(game, beast) and beast.marks == {"fade": 0}
    rules.run_hook(game, beast, "Upkeep")
    assert not rules.on_battlefield(game, beast)


def test_verb_vanishing_sacrificed_when_the_last_counter_goes(game, cards):
    """702.63a: enters with 2 time counters; when the last is removed, sacrificed."""
    bird = rules.put_onto_battlefield(game, cards["Aven Riftwatcher"], HORDE, HORDE)
    rules.run_hook(game, bird, "Upkeep")
    assert rules.on_battlefield(game, bird) and bird.marks == {"time": 1}
    rules.run_hook(game, bird, "Upkeep")
    assert not rules.on_battlefield(game, bird)


def test_verb_modular_moves_its_counters_when_it_dies(game, cards):
    """702.43a: enters with N +1/+1 counters; dies: put its counters on target artifact creature."""
    worker = rules.put_onto_battlefield(game, cards["Arcbound Worker"], 0, 0)
    stinger = rules.put_onto_battlefield(game, cards["Arcbound Stinger"], 0, 0)
    rules.add_counters(game, worker, 2)
    game.drivers.policy = Scripted(may=True)
    rules.destroy(game, worker, 0)
    assert not rules.on_battlefield(game, worker)
    assert stinger.plus == 4


def test_verb_devour_two_counters_for_each_creature_eaten(game, catalogue, cards):
    """702.82a: sacrifice any number of other creatures as it enters: 2 +1/+1 counters each."""
    bears = [enter(game, cards["Grizzly Bears"], side="team") for _ in range(2)]
    game.drivers.policy = Scripted(devour=lambda d: list(d.options))
    mulcher = rules.put_onto_battlefield(game, cards["Skullmulcher"], 0, 0)
    assert mulcher.plus == 4 and not any(rules.on_battlefield(game, b) for b in bears)


def test_verb_living_weapon_makes_a_germ_and_attaches(game, cards):
    """702.92a: a 0/0 black Phyrexian Germ, then the Equipment attached to it: a 4/4."""
    game.tokens["Phyrexian Germ"] = build_from_lines(["Name: Phyrexian Germ", "Type: Token Creature — Phyrexian Germ",
                                                      "Colors: B", "PT: 0/0"], "tokens.txt")  # the bundled token
    skull = rules.put_onto_battlefield(game, cards["Batterskull"], 0, 0)
    germ = next(p for p in game.battlefield.team if p.card.name == "Phyrexian Germ")
    assert skull.attached_to is germ
    assert (rules.power(game, germ), rules.toughness(game, germ)) == (4, 4)


def test_verb_monstrosity_once_only(game, cards):
    """701.37a-b: if it isn't monstrous, 3 +1/+1 counters and it becomes monstrous; its Monstrous
    abilities trigger then."""
    hydra = enter(game, cards["Polukranos"], side="team")
    life = game.team_life
    ability = hydra.card.hooks["Activated"]
    for _ in range(2):
        rules.resolve(game, ability, Context(hydra.card, hydra, 0))
    assert hydra.plus == 3 and hydra.marks == {"monstrous": 1}
    assert game.team_life == life + 4  # 701.37b: 'when it becomes monstrous', once


def test_typecycling_two_kinds_of_one_cost_search_for_either(game, catalogue, cards):
    """Valley Rannet: 'Mountaincycling {2}, forestcycling {2}': a Mountain or a Forest card (702.29e)."""
    rannet = build_from_lines(["Name: Valley Rannet", "Cost: {4}{R}{G}", "Type: Creature — Beast", "PT: 6/3",
                               "Typecycling: {2} mountain", "Typecycling: {2} forest"], "k.txt")
    pl = game.players[0]
    plains(game, catalogue, 2)
    pl.hand[:] = [rannet]
    pl.library[:] = [catalogue.get("Swamp"), catalogue.get("Forest")]
    rules.cycle(game, 0, rannet)
    assert pl.hand == [catalogue.get("Forest")]
    with pytest.raises(DeckError, match="expected the same cost as the first"):
        build_from_lines(["Name: X", "Cost: {W}", "Type: Sorcery", "Typecycling: {2} mountain",
                          "Typecycling: {1} forest"], "k.txt")


# ---------------------------------------------------------------- the family's contract with the grammar

CONTRACT = Path(__file__).parent / "data" / "oracle" / "keywords.txt"
BLOCKS = read_blocks(CONTRACT)
ATOMIC = next((folder / "shared" / "cards" / "AtomicCards-forge-2022.json.xz" for folder in Path(__file__).resolve().parents
               if (folder / "shared" / "cards" / "AtomicCards-forge-2022.json.xz").exists()),
              Path("../shared/cards/AtomicCards-forge-2022.json.xz"))


def test_the_contract_holds_the_precons_keyword_cards():
    names = [block["Name"] for block in BLOCKS]
    assert len(names) == len(set(names)) == 51
    assert {"Mulldrifter", "Shriekmaw", "Valley Rannet", "Wing Shards", "Call the Skybreaker", "Bloodbraid Elf",
            "Krosan Grip", "Qasali Pridemage", "Karmic Guide", "Kolaghan, the Storm's Fury", "Treasury Thrull",
            "Herald of the Host", "Ash Barrens"} <= set(names)


@pytest.mark.parametrize("block", BLOCKS, ids=[block["Name"] for block in BLOCKS])
def test_every_contract_block_loads(block):
    card = build_from_lines(fact_lines(block) + block["Lines"], f"{CONTRACT.name}:{block['Name']}")
    assert card.name == block["Name"]


def test_every_contract_text_is_the_oracle_text_of_the_shared_file():
    if not ATOMIC.exists():
        pytest.skip(f"the shared AtomicCards file is not here ({ATOMIC}): a checkout without ../shared")
    atomic = json.load(lzma.open(ATOMIC))["data"]
    for block in BLOCKS:
        entry = atomic[block["Name"]][0]
        assert (block["Text"], block["Type"]) == (entry["text"], entry["type"]), block["Name"]


def test_the_trace_of_cascade_storm_and_suspend_follows_the_schema(game, catalogue, cards):
    """The events keyword abilities add (docs/events.md) have their fields, and a play-log line each."""
    from horde.cli.playlog import render
    from horde.engine.events import problems

    game.drivers.trace = []
    game.horde.library[:] = [cards["Grizzly Bears"], catalogue.get("Swamp")]
    rules.horde_cast(game, cards["Bloodbraid Elf"])
    plains(game, catalogue, 2)
    game.players[0].hand[:] = [cards["Grapeshot"], cards["Rift Bolt"]]
    game.spells_this_turn = 1
    rules.team_cast(game, 0, cards["Grapeshot"], "hand")
    rules.team_cast(game, 0, cards["Rift Bolt"], "suspend")
    events = game.drivers.trace
    kinds = [e["event"] for e in events]
    assert {"cascade", "storm", "suspend"} <= set(kinds)
    assert [p for e in events for p in problems(e)] == []
    lines = [line.strip() for line in render(events)]
    assert "Bloodbraid Elf cascades: finds Grizzly Bears (one other card to the bottom)" in lines
    assert "Grapeshot storms: 1 copy" in lines
    assert "Player 1 suspends Rift Bolt with one time counter" in lines


def test_the_bundled_cards_facts_are_the_shared_files():
    """Every bundled card the card file knows has its printed mana cost, power, toughness and
    loyalty (an outside reading saw a 4/3 Risen Executioner die to 2 damage: it was written 4/2)."""
    if not ATOMIC.exists():
        pytest.skip(f"the shared AtomicCards file is not here ({ATOMIC}): a checkout without ../shared")
    from horde.cards.catalogue import bundled_catalogue

    atomic = json.load(lzma.open(ATOMIC))["data"]
    wrong = []
    for card in bundled_catalogue().cards.values():
        entries = atomic.get(card.name)
        if card.is_token or not entries or card.face or "challenge" in card.source:
            continue  # the challenge decks' cards are their own (Unquenchable Fury, a Minotaur sorcery, is no Aura)
        entry = entries[0]
        if entry.get("manaCost") is not None and str(card.cost) != entry["manaCost"]:
            wrong.append((card.name, "cost", str(card.cost), entry["manaCost"]))
        if entry.get("power", "*").isdigit() and entry.get("toughness", "*").isdigit() and (
                (card.power, card.toughness) != (int(entry["power"]), int(entry["toughness"]))):
            wrong.append((card.name, "power/toughness", (card.power, card.toughness), (entry["power"], entry["toughness"])))
        if entry.get("loyalty", "X").isdigit() and card.loyalty != int(entry["loyalty"]):
            wrong.append((card.name, "loyalty", card.loyalty, entry["loyalty"]))
        if entry.get("text") and not card.text and "Basic" not in card.supertypes:
            wrong.append((card.name, "no text", "", entry["text"]))  # Rotting Legion lost its 'enters tapped'
    assert wrong == []


def test_keyword_changeling_is_every_creature_type_702_73a(make_game, catalogue):
    """Changeling: every creature type in every zone (its subtypes hold them all: a Zombie to
    sacrifice, an Elf to a filter), and no land type; its type line says so."""
    from conftest import put

    from horde.cards.catalogue import build_from_lines
    from horde.engine import rules
    from horde.engine.filters import Context, compile_filter

    changeling = build_from_lines(["Name: Test Changeling", "Cost: {1}{U}", "Type: Creature — Shapeshifter",
                                   "PT: 1/1", "Keywords: changeling"], "test")
    assert {"Zombie", "Elf", "Sliver", "Shapeshifter"} <= changeling.subtypes and "Forest" not in changeling.subtypes
    assert changeling.type_line() == "Creature — (every creature type)"
    game = make_game(players=1)
    bear = put(game, catalogue, "Grizzly Bears", side="team")
    p = rules.put_onto_battlefield(game, changeling, 0, 0, triggers=False)
    assert rules.sacrifice_options(game, bear, "sacrifice another zombie") == [p]
    assert compile_filter("elf yours")(game, Context(changeling, p, 0), p)
    assert not compile_filter("elf yours")(game, Context(changeling, p, 0), bear)


def test_keyword_skulk_is_not_blocked_by_greater_power_702_118b(make_game, catalogue):
    """A 2/2 with skulk attacks: a 3/3 can't block it, a 2/2 and a 1/1 can."""
    from conftest import put

    from horde.cards.catalogue import build_from_lines
    from horde.engine import rules
    from horde.engine.state import HORDE_CONTROLLER

    def creature(name, pt, *lines):
        return build_from_lines([f"Name: {name}", "Cost: {1}{B}", "Type: Creature — Rogue", f"PT: {pt}", *lines], "test")

    game = make_game(players=1)
    skulker = rules.put_onto_battlefield(game, creature("Test Skulker", "2/2", "Keywords: skulk"), HORDE_CONTROLLER,
                                         HORDE_CONTROLLER, triggers=False)
    big = rules.put_onto_battlefield(game, creature("Test Big", "3/3"), 0, 0, triggers=False)
    same = put(game, catalogue, "Grizzly Bears", side="team")
    small = rules.put_onto_battlefield(game, creature("Test Small", "1/1"), 0, 0, triggers=False)
    pairs = rules.legal_blocks(game, [big, same, small], [skulker])
    assert pairs == [(same, skulker), (small, skulker)]
    assert not rules.can_block(game, big, skulker) and rules.can_block(game, small, skulker)


def test_keyword_afterlife_makes_its_spirits_when_it_dies_702_135a():
    """Afterlife 2: when it dies, two 1/1 white and black Spirit tokens with flying."""
    import shlex

    from horde.cards.catalogue import bundled_catalogue
    from horde.cards.grammar.translate import Facts
    from horde.cards.oracle import compile_text

    tokens = bundled_catalogue().tokens
    compiled = compile_text("Afterlife 2 (When this creature dies, create two 1/1 white and black Spirit creature "
                            "tokens with flying.)", Facts("Test Afterlife", frozenset({"Creature"})), tokens)
    assert compiled.ok and len(compiled.lines) == 1
    words = shlex.split(compiled.lines[0])
    assert words[:2] == ["Dies:", "create_tokens"] and words[3] == "count=2"
    spirit = {**tokens, **compiled.tokens}[words[2].removeprefix("token=")]
    assert (spirit.power, spirit.toughness, spirit.colours, "flying" in spirit.keywords) == (1, 1, {"W", "B"}, True)


def test_702_125a_undaunted_costs_one_less_for_the_hordes_one_opponent(make_game):
    """Undaunted ('CostsLess: opponents'): a team player has one opponent, the Horde (H1), so
    Sublime Exhalation's {6}{W} costs {5}{W}, at any number of players."""
    from horde.cards.catalogue import build_from_lines
    from horde.engine import rules

    exhalation = build_from_lines(["Name: Test Exhalation", "Cost: {6}{W}", "Type: Sorcery", "CostsLess: opponents",
                                   "Cast: destroy_all filter=creature"], "test")
    for players in (1, 4):
        game = make_game(players=players)
        assert rules.spell_cost(game, exhalation, 0, "hand") == (5, ("W",))

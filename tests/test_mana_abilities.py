"""Mana abilities (605) of lands and mana rocks as card files write them (``Mana:`` lines:
docs/cards.md): costs (a Signet's {1}, a filter land's {W/U}, life, a sacrifice, charge counters),
several mana at once, choices of three colours, any colour, the commander's colour identity, the
colours the opponents' lands could produce, counts, conditions, a pain land's damage; and a
team player's payment with them (the free mana first, then the fewest and least costly
activations; mana made beyond a cost floats, 106.4). Each test is a tiny board with exact values.
"""

import pytest
from conftest import Scripted, put

from horde.cards.catalogue import build_from_lines, load_catalogue
from horde.engine import rules, turns
from horde.engine.cards import ManaCost
from horde.engine.state import HORDE_CONTROLLER
from horde.errors import DeckError

CARDS = {
    "Azorius Signet": ["Cost: {2}", "Type: Artifact", "Mana: {1}, {T} -> W U"],
    "Simic Signet": ["Cost: {2}", "Type: Artifact", "Mana: {1}, {T} -> G U"],
    "Mystic Gate": ["Type: Land", "Mana: C", "Mana: {W/U}, {T} -> W/U W/U"],
    "Caves of Koilos": ["Type: Land", "Mana: C", "Mana: W/B damage=1"],
    "Vivid Crag": ["Type: Land", "Keywords: enters tapped", "Enters: counters on=self count=2 kind=charge",
                   "Mana: R", "Mana: {T}, remove 1 charge counter -> any"],
    "Crumbling Necropolis": ["Type: Land", "Keywords: enters tapped", "Mana: U/B/R"],
    "Izzet Boilerworks": ["Type: Land", "Keywords: enters tapped", 'Enters: return_own filter="land yours"',
                          "Mana: U R"],
    "Sol Ring": ["Cost: {1}", "Type: Artifact", "Mana: C C"],
    "Command Tower": ["Type: Land", "Mana: commander"],
    "Exotic Orchard": ["Type: Land", "Mana: opponents_lands"],
    "Temple of the False God": ["Type: Land", 'Mana: C C if="count:land yours >= 5"'],
    "Everflowing Chalice": ["Cost: {0}", "Type: Artifact", "Multikicker: {2}",
                            "Enters: counters on=self count=kicked kind=charge", "Mana: C count=charge"],
    "Elvish Archdruid": ["Cost: {1}{G}{G}", "Type: Creature — Elf Druid", "PT: 2/2",
                         'Mana: G count="count:elf yours"'],
    "Lotus Petal": ["Cost: {0}", "Type: Artifact", "Mana: {T}, sacrifice this -> any"],
    "Crystal Vein": ["Type: Land", "Mana: C", "Mana: {T}, sacrifice this -> C C"],
    "Pristine Talisman": ["Cost: {3}", "Type: Artifact", "Mana: C gain=1"],
    "Cinder Marsh": ["Type: Land", "Mana: C", "Mana: B/R stays_tapped=true"],
    "Coldsteel Heart": ["Cost: {2}", "Type: Artifact", "Keywords: enters tapped", "ChooseColor: any", "Mana: chosen"],
    "Thriving Bluff": ["Type: Land", "Keywords: enters tapped", "ChooseColor: W/U/B/G", "Mana: R/chosen"],
    "Blood Crypt": ["Type: Land — Swamp Mountain", "EntersTapped: pay_life=2", "Mana: B/R"],
    "Crosis's Catacombs": ["Type: Land — Lair", 'Enters: return_own filter="land nonlair yours" or_sacrifice=true',
                           "Mana: U/B/R"],
    "Brokers Hideout": ["Type: Land", 'Enters: sacrifice_self ; search_land filter="basic forest | basic plains | '
                        'basic island" tapped=true ; gain_life amount=1'],
    "Rupture Spire": ["Type: Land", "Keywords: enters tapped", "Enters: sacrifice_unless_paid generic=1", "Mana: any"],
    "Coral Atoll": ["Type: Land", "Keywords: enters tapped",
                    'Enters: return_own filter="island untapped yours" or_sacrifice=true', "Mana: C U"],
    "Dragonskull Summit": ["Type: Land", 'EntersTapped: unless="count:swamp yours | mountain yours"', "Mana: B/R"],
    "Luxury Suite": ["Type: Land", 'EntersTapped: unless="opponents >= 2"', "Mana: B/R"],
    "New Benalia": ["Type: Land", "Keywords: enters tapped", "Enters: scry count=1", "Mana: W"],
    "Reliquary Tower": ["Type: Land", "Static: no_maximum_hand_size", "Mana: C"],
    "Dark Ritual": ["Cost: {B}", "Type: Instant", "Cast: add_mana mana=\"B B B\""],
    "Evolving Wilds": ["Type: Land", "Activated: {T}, sacrifice this -> ramp count=1 tapped=true to_hand=0"],
    "Bant Panorama": ["Type: Land", "Mana: C", 'Activated: {1}, {T}, sacrifice this -> search_land '
                      'filter="basic forest | basic plains | basic island" tapped=true'],
    "Myriad Landscape": ["Type: Land", "Keywords: enters tapped", "Mana: C",
                         "Activated: {2}, {T}, sacrifice this -> search_land count=2 tapped=true same_type=true"],
}


@pytest.fixture(scope="module")
def spawn():
    return load_catalogue().get("Eldrazi Spawn")  # the bundled token: "Sacrifice this creature: Add {C}."


@pytest.fixture
def cards():
    return {name: build_from_lines([f"Name: {name}"] + lines, "mana.txt") for name, lines in CARDS.items()}


def enter(game, card, player=0, triggers=False, **state):
    """A permanent of ``card`` for team player ``player`` (or the Horde), untapped, not sick."""
    p = rules.put_onto_battlefield(game, card, player, player, triggers=triggers)
    p.sick = False
    if not triggers:
        p.tapped = False
    for key, value in state.items():
        setattr(p, key, value)
    return p


def test_605_a_signet_needs_one_mana_from_another_source(make_game, catalogue, cards):
    game = make_game(players=1)
    signet = enter(game, cards["Azorius Signet"])
    assert not rules.can_pay(game, 0, 0, ("W",))  # {1}, {T}: nothing pays its {1}
    assert rules.available_mana(game, 0) == 1
    plains = put(game, catalogue, "Plains", side="team")
    assert rules.can_pay(game, 0, 0, ("W", "U"))  # the Plains pays {1}: W U
    assert not rules.can_pay(game, 0, 1, ("W", "U"))
    other = put(game, catalogue, "Plains", side="team")
    assert rules.available_mana(game, 0) == 3  # two Plains and the Signet's one more
    assert rules.pay(game, 0, 1, ("W", "U"))  # {1}{W}{U}: a Plains pays the Signet, the other and W U the cost
    assert signet.tapped and plains.tapped and other.tapped and game.players[0].pool == []


def test_605_azorius_signet_and_two_plains_pay_w_u_u_never(make_game, catalogue, cards):
    game = make_game(players=1)
    enter(game, cards["Azorius Signet"])
    put(game, catalogue, "Plains", side="team")
    put(game, catalogue, "Plains", side="team")
    assert not rules.can_pay(game, 0, 0, ("W", "U", "U"))  # one U only
    assert rules.can_pay(game, 0, 0, ("W", "W", "U"))
    assert rules.pay(game, 0, 0, ("W", "U"))  # W U from the Signet, paid by a Plains; the other Plains stays
    assert sum(p.tapped for p in game.battlefield.team) == 2 and game.players[0].pool == []


def test_106_4_a_signet_for_one_mana_leaves_the_other_floating(make_game, catalogue, cards):
    game = make_game(players=1)
    enter(game, cards["Simic Signet"])
    put(game, catalogue, "Swamp", side="team")
    assert rules.pay(game, 0, 0, ("G",))  # the Swamp pays {1}; G pays, U floats
    assert game.players[0].pool == [frozenset("U")]
    assert rules.can_pay(game, 0, 0, ("U",)) and not rules.can_pay(game, 0, 0, ("G",))
    rules.empty_pools(game)
    assert game.players[0].pool == []


def test_605_a_signet_pays_for_another_signet(make_game, catalogue, cards):
    game = make_game(players=1)
    azorius, simic = enter(game, cards["Azorius Signet"]), enter(game, cards["Simic Signet"])
    put(game, catalogue, "Swamp", side="team")
    assert rules.available_mana(game, 0) == 3
    assert rules.can_pay(game, 0, 0, ("W", "G", "U"))  # Swamp -> Azorius (W U); U -> Simic (G U)
    assert rules.pay(game, 0, 0, ("W", "G", "U"))
    assert azorius.tapped and simic.tapped and game.players[0].pool == []


def test_605_a_filter_land_needs_a_hybrid_mana(make_game, catalogue, cards):
    game = make_game(players=1)
    gate = enter(game, cards["Mystic Gate"])
    put(game, catalogue, "Swamp", side="team")
    assert not rules.can_pay(game, 0, 0, ("W",))  # the Swamp can't pay {W/U}
    assert rules.can_pay(game, 0, 1, ())  # C and B
    island = put(game, catalogue, "Island", side="team")
    assert rules.can_pay(game, 0, 1, ("W", "W"))  # Island -> {W/U}: W W; the Swamp pays {1}
    assert rules.pay(game, 0, 1, ("W", "W"))
    assert gate.tapped and island.tapped and game.players[0].pool == []


def test_605_a_pain_land_costs_life_only_for_coloured_mana(make_game, catalogue, cards):
    game = make_game(players=1)
    caves = enter(game, cards["Caves of Koilos"])
    life = game.team_life
    assert rules.pay(game, 0, 1, ())  # {C}: no damage
    assert caves.tapped and game.team_life == life
    caves.tapped = False
    assert rules.pay(game, 0, 0, ("B",))  # {W} or {B}: 1 damage to its controller
    assert caves.tapped and game.team_life == life - 1 and game.damage_taken == 1


def test_605_a_pain_land_is_the_last_source_of_a_colour(make_game, catalogue, cards):
    game = make_game(players=1)
    caves = enter(game, cards["Caves of Koilos"])
    swamp = put(game, catalogue, "Swamp", side="team")
    assert rules.pay(game, 0, 1, ("B",))  # B from the Swamp, {1} from the Caves' {C}
    assert caves.tapped and swamp.tapped and game.team_life == 20


def test_502_3_a_tempest_lands_coloured_mana_keeps_it_tapped_through_the_next_untap_step(make_game, catalogue, cards):
    game = make_game(players=1)
    marsh = enter(game, cards["Cinder Marsh"])
    assert rules.pay(game, 0, 1, ())  # {C}: it untaps as usual
    turns.team_beginning(game)
    assert not marsh.tapped
    assert rules.pay(game, 0, 0, ("R",))  # {B} or {R}: it stays tapped one untap step
    turns.team_beginning(game)
    assert marsh.tapped
    turns.team_beginning(game)
    assert not marsh.tapped


def test_a_tempest_land_pays_colourless_from_its_colourless_ability(make_game, catalogue, cards):
    game = make_game(players=1)
    marsh = enter(game, cards["Cinder Marsh"])
    put(game, catalogue, "Mountain", side="team")
    assert rules.pay(game, 0, 1, ("R",))  # R from the Mountain, {1} from {C}: nothing keeps it tapped
    assert marsh.tapped and marsh.skip_untaps == 0


def test_119_4_a_pain_land_is_never_the_teams_last_life(make_game, catalogue, cards):
    game = make_game(players=1)
    enter(game, cards["Caves of Koilos"])
    game.team_life = 1
    assert not rules.can_pay(game, 0, 0, ("W",))
    assert rules.can_pay(game, 0, 1, ())


def test_122_a_vivid_land_enters_tapped_with_two_charge_counters_and_spends_them(make_game, catalogue, cards):
    game = make_game(players=1)
    crag = rules.put_onto_battlefield(game, cards["Vivid Crag"], 0, 0)
    assert crag.tapped and crag.charge == 2
    crag.tapped = False
    assert rules.pay(game, 0, 0, ("R",)) and crag.charge == 2  # {T}: Add {R}: no counter
    for left in (1, 0):
        crag.tapped = False
        assert rules.pay(game, 0, 0, ("U",)) and crag.charge == left  # a counter for any colour
    crag.tapped = False
    assert not rules.can_pay(game, 0, 0, ("U",)) and rules.can_pay(game, 0, 0, ("R",))


def test_605_a_tri_land_makes_one_of_three_colours(make_game, catalogue, cards):
    game = make_game(players=1)
    enter(game, cards["Crumbling Necropolis"])
    put(game, catalogue, "Island", side="team")
    assert rules.can_pay(game, 0, 0, ("U", "R")) and rules.can_pay(game, 0, 0, ("U", "B"))
    assert not rules.can_pay(game, 0, 0, ("U", "W")) and not rules.can_pay(game, 0, 0, ("B", "R"))


def test_605_two_mana_at_once_count_both(make_game, catalogue, cards):
    game = make_game(players=1)
    enter(game, cards["Izzet Boilerworks"])
    assert rules.available_mana(game, 0) == 2
    assert rules.can_pay(game, 0, 0, ("U", "R")) and not rules.can_pay(game, 0, 0, ("U", "U"))
    assert rules.pay(game, 0, 0, ("R",)) and game.players[0].pool == [frozenset("U")]  # the U floats


def test_verb_return_own_a_bounce_land_returns_a_tapped_land_to_its_owners_hand(make_game, catalogue, cards):
    game = make_game(players=1)
    island = put(game, catalogue, "Island", side="team", tapped=True)
    mountain = put(game, catalogue, "Mountain", side="team")
    game.drivers.policy = BaselineLike()
    karoo = rules.put_onto_battlefield(game, cards["Izzet Boilerworks"], 0, 0)
    assert karoo.tapped and rules.on_battlefield(game, karoo) and rules.on_battlefield(game, mountain)
    assert not rules.on_battlefield(game, island) and game.players[0].hand == [island.card]


def test_verb_return_own_a_bounce_land_alone_returns_itself(make_game, catalogue, cards):
    game = make_game(players=1)
    game.drivers.policy = BaselineLike()
    karoo = rules.put_onto_battlefield(game, cards["Izzet Boilerworks"], 0, 0)
    assert not rules.on_battlefield(game, karoo) and game.players[0].hand == [karoo.card]


def test_903_4_command_tower_makes_a_colour_of_the_commanders_identity(make_game, catalogue, cards):
    game = make_game(players=1)
    enter(game, cards["Command Tower"])
    game.players[0].identity = frozenset("WB")
    assert rules.can_pay(game, 0, 0, ("B",)) and rules.can_pay(game, 0, 0, ("W",))
    assert not rules.can_pay(game, 0, 0, ("G",))
    game.players[0].identity = frozenset()  # 106.7: a colourless commander's identity: no mana
    assert rules.mana_units(game, 0) == [] and not rules.can_pay(game, 0, 1, ())
    game.players[0].identity = frozenset("WUBRG")
    assert rules.can_pay(game, 0, 0, ("G",))


def test_exotic_orchard_reads_the_hordes_lands(make_game, catalogue, cards):
    game = make_game(players=1)
    enter(game, cards["Exotic Orchard"])
    assert not rules.can_pay(game, 0, 1, ())  # 106.7: the Horde has no land: no mana
    enter(game, cards["Crumbling Necropolis"], player=HORDE_CONTROLLER, tapped=True)  # tapped still counts
    assert rules.can_pay(game, 0, 0, ("B",)) and rules.can_pay(game, 0, 0, ("R",))
    assert not rules.can_pay(game, 0, 0, ("G",))
    enter(game, cards["Elvish Archdruid"], player=HORDE_CONTROLLER)  # not a land: not read
    assert not rules.can_pay(game, 0, 0, ("G",))
    assert rules.mana_units(game, 0)[0][0] == frozenset("UBR")


def test_605_an_ability_that_may_be_activated_only_with_five_lands(make_game, catalogue, cards):
    game = make_game(players=1)
    temple = enter(game, cards["Temple of the False God"])
    for _ in range(3):
        put(game, catalogue, "Swamp", side="team", tapped=True)
    assert not rules.can_pay(game, 0, 1, ())
    put(game, catalogue, "Swamp", side="team", tapped=True)
    assert rules.can_pay(game, 0, 2, ()) and not rules.can_pay(game, 0, 3, ())
    assert rules.pay(game, 0, 1, ()) and temple.tapped and game.players[0].pool == [frozenset("C")]


def test_amount_charge_everflowing_chalice_makes_a_colourless_for_each_charge_counter(make_game, catalogue, cards):
    game = make_game(players=1)
    chalice = enter(game, cards["Everflowing Chalice"], charge=3)
    assert rules.available_mana(game, 0) == 1  # an estimate: one for a counted ability
    assert rules.can_pay(game, 0, 3, ()) and not rules.can_pay(game, 0, 4, ())
    assert rules.pay(game, 0, 2, ()) and chalice.tapped and game.players[0].pool == [frozenset("C")]
    game = make_game(players=1)
    chalice = rules.put_onto_battlefield(game, cards["Everflowing Chalice"], 0, 0, kicked=2)
    assert chalice.charge == 2


def test_elvish_archdruid_makes_a_green_for_each_elf(make_game, catalogue, cards):
    game = make_game(players=1)
    enter(game, cards["Elvish Archdruid"])
    enter(game, cards["Elvish Archdruid"])
    assert rules.can_pay(game, 0, 0, ("G",) * 4) and not rules.can_pay(game, 0, 0, ("G",) * 5)


def test_605_summoning_sickness_stops_a_tap_ability_not_a_sacrifice(make_game, catalogue, cards, spawn):
    game = make_game(players=1)
    enter(game, cards["Elvish Archdruid"], sick=True)
    assert not rules.can_pay(game, 0, 1, ())
    spawn = rules.put_onto_battlefield(game, spawn, 0, 0, created=True)
    assert spawn.sick and rules.can_pay(game, 0, 1, ())  # Sacrifice this creature: Add {C}
    assert rules.pay(game, 0, 1, ()) and not rules.on_battlefield(game, spawn)


def test_a_sacrifice_is_the_last_way_to_pay(make_game, catalogue, cards, spawn):
    game = make_game(players=1)
    vein = enter(game, cards["Crystal Vein"])
    eldrazi = rules.put_onto_battlefield(game, spawn, 0, 0, created=True)
    assert rules.pay(game, 0, 1, ())  # the Vein's {C}: nothing sacrificed
    assert vein.tapped and rules.on_battlefield(game, eldrazi) and rules.on_battlefield(game, vein)
    vein.tapped = False
    assert rules.pay(game, 0, 2, ())  # {T}, sacrifice the Vein: C C (one sacrifice either way; the Spawn's is alike)
    assert sum(not rules.on_battlefield(game, p) for p in (vein, eldrazi)) == 1
    game = make_game(players=1)
    vein = enter(game, cards["Crystal Vein"])
    eldrazi = rules.put_onto_battlefield(game, spawn, 0, 0, created=True)
    assert rules.pay(game, 0, 3, ())  # C C from the Vein, C from the Spawn: both gone
    assert not rules.on_battlefield(game, vein) and not rules.on_battlefield(game, eldrazi)


def test_a_lotus_petal_is_tapped_and_sacrificed_for_any_colour(make_game, catalogue, cards):
    game = make_game(players=1)
    petal = enter(game, cards["Lotus Petal"])
    assert rules.pay(game, 0, 0, ("G",)) and not rules.on_battlefield(game, petal)
    assert game.players[0].graveyard == [petal.card]


def test_a_mana_ability_that_gains_life(make_game, catalogue, cards):
    game = make_game(players=1)
    enter(game, cards["Pristine Talisman"])
    life = game.team_life
    assert rules.pay(game, 0, 1, ()) and game.team_life == life + 1


def test_a_lair_returns_a_land_that_is_not_a_lair_or_is_sacrificed(make_game, catalogue, cards):
    game = make_game(players=1)
    game.drivers.policy = BaselineLike()
    first = rules.put_onto_battlefield(game, cards["Crosis's Catacombs"], 0, 0)
    assert not rules.on_battlefield(game, first)  # no land but itself, a Lair: sacrificed
    island = put(game, catalogue, "Island", side="team")
    lair = rules.put_onto_battlefield(game, cards["Crosis's Catacombs"], 0, 0)
    assert rules.on_battlefield(game, lair) and not lair.tapped and game.players[0].hand == [island.card]


def test_verb_sacrifice_unless_paid_rupture_spire(make_game, catalogue, cards):
    game = make_game(players=1)
    game.drivers.policy = BaselineLike()
    spire = rules.put_onto_battlefield(game, cards["Rupture Spire"], 0, 0)
    assert not rules.on_battlefield(game, spire)  # nothing to pay with
    island = put(game, catalogue, "Island", side="team")
    spire = rules.put_onto_battlefield(game, cards["Rupture Spire"], 0, 0)
    assert rules.on_battlefield(game, spire) and spire.tapped and island.tapped


def test_coral_atoll_returns_an_untapped_island_or_is_sacrificed(make_game, catalogue, cards):
    game = make_game(players=1)
    game.drivers.policy = BaselineLike()
    put(game, catalogue, "Island", side="team", tapped=True)
    atoll = rules.put_onto_battlefield(game, cards["Coral Atoll"], 0, 0)
    assert not rules.on_battlefield(game, atoll)  # no untapped Island
    island = put(game, catalogue, "Island", side="team")
    atoll = rules.put_onto_battlefield(game, cards["Coral Atoll"], 0, 0)
    assert rules.on_battlefield(game, atoll) and not rules.on_battlefield(game, island)


def test_a_check_land_enters_tapped_unless_its_controller_controls_a_swamp_or_a_mountain(make_game, catalogue, cards):
    game = make_game(players=1)
    assert rules.put_onto_battlefield(game, cards["Dragonskull Summit"], 0, 0).tapped
    put(game, catalogue, "Forest", side="team")
    assert rules.put_onto_battlefield(game, cards["Dragonskull Summit"], 0, 0).tapped
    put(game, catalogue, "Mountain", side="team")
    assert not rules.put_onto_battlefield(game, cards["Dragonskull Summit"], 0, 0).tapped


def test_amount_opponents_a_battlebond_land_enters_tapped_for_a_team_player_not_for_the_horde(make_game, cards):
    game = make_game(players=2)  # a team player's one opponent is the Horde; the Horde's, the team's two players
    assert rules.put_onto_battlefield(game, cards["Luxury Suite"], 0, 0).tapped
    assert not rules.put_onto_battlefield(game, cards["Luxury Suite"], HORDE_CONTROLLER, HORDE_CONTROLLER).tapped


def test_verb_scry_puts_the_cards_the_policy_chooses_on_the_bottom(make_game, catalogue, cards):
    game = make_game(players=1)
    library = game.players[0].library
    library[:] = [catalogue.get("Swamp"), catalogue.get("Forest"), catalogue.get("Plains")]  # the Plains on top
    game.drivers.policy = BaselineLike(scry=lambda options: [c for c in options if c.name == "Plains"])
    rules.put_onto_battlefield(game, cards["New Benalia"], 0, 0)
    assert [c.name for c in library] == ["Plains", "Swamp", "Forest"]
    game.drivers.policy = BaselineLike(scry=lambda options: [])
    rules.put_onto_battlefield(game, cards["New Benalia"], 0, 0)
    assert [c.name for c in library] == ["Plains", "Swamp", "Forest"]


def test_verb_add_mana_a_ritual_adds_its_mana_to_the_pool(make_game, catalogue, cards):
    game = make_game(players=1)
    ritual = cards["Dark Ritual"]
    put(game, catalogue, "Swamp", side="team")
    game.players[0].hand.append(ritual)
    rules.team_cast(game, 0, ritual, "hand")
    assert game.players[0].pool == [frozenset("B")] * 3
    assert rules.can_pay(game, 0, 0, ("B", "B", "B")) and not rules.can_pay(game, 0, 1, ("B", "B", "B"))


def activate(game, p):
    """Activate the permanent's one activated ability as the engine does: costs, then effects."""
    from horde.engine.turns import activate_step

    game.drivers.policy = Activates(p)
    activate_step(game, p.controller)


def test_verb_search_land_a_panorama_finds_a_basic_land_of_its_types(make_game, catalogue, cards):
    game = make_game(players=1)
    panorama = enter(game, cards["Bant Panorama"])
    put(game, catalogue, "Swamp", side="team")
    game.players[0].library[:] = [catalogue.get("Mountain"), catalogue.get("Island")]
    activate(game, panorama)
    found = [p.card.name for p in game.battlefield.team if p.tapped and p.card.name != "Swamp"]
    assert found == ["Island"] and not rules.on_battlefield(game, panorama)
    assert [c.name for c in game.players[0].library] == ["Mountain"]


def test_603_12_a_hideout_is_sacrificed_as_it_enters_and_finds_a_basic_land_and_a_life(make_game, catalogue, cards):
    game = make_game(players=1)
    game.players[0].library[:] = [catalogue.get("Mountain"), catalogue.get("Forest")]
    hideout = rules.put_onto_battlefield(game, cards["Brokers Hideout"], 0, 0)
    assert not rules.on_battlefield(game, hideout) and game.players[0].graveyard == [hideout.card]
    assert [(p.card.name, p.tapped) for p in game.battlefield.team] == [("Forest", True)]
    assert [c.name for c in game.players[0].library] == ["Mountain"] and game.team_life == 21


def test_myriad_landscape_finds_two_basic_lands_that_share_a_type(make_game, catalogue, cards):
    game = make_game(players=1)
    landscape = enter(game, cards["Myriad Landscape"])
    put(game, catalogue, "Swamp", side="team")
    put(game, catalogue, "Swamp", side="team")
    game.players[0].library[:] = [catalogue.get("Forest"), catalogue.get("Island"), catalogue.get("Forest")]
    activate(game, landscape)
    found = sorted(p.card.name for p in game.battlefield.team if p.card.name not in ("Swamp",))
    assert len(found) == 2 and found[0] == found[1]


def test_verb_no_maximum_hand_size_keeps_a_hand_of_nine(make_game, catalogue, cards):
    from horde.engine.state import Side
    from horde.engine.turns import end_step

    game = make_game(players=2, empty=False)
    game.active = Side.TEAM
    for player in game.players:
        player.hand[:] = [catalogue.get("Swamp")] * 9
    enter(game, cards["Reliquary Tower"], player=0)
    end_step(game)  # 402.2, 514.1: the other player discards down to seven
    assert [len(player.hand) for player in game.players] == [9, 7]


def test_614_12_coldsteel_heart_makes_the_colour_chosen_as_it_entered(make_game, catalogue, cards):
    game = make_game(players=1)
    put(game, catalogue, "Plains", side="team")
    game.players[0].hand = [catalogue.get("Grizzly Bears"), catalogue.get("Lightning Bolt")]
    heart = enter(game, cards["Coldsteel Heart"])  # the hand asks G and R, the Plains makes W: R (WUBRG order)
    assert heart.chosen == "R" and [d.options for d in game.drivers.policy.seen] == [list("WUBRG")]
    assert rules.can_pay(game, 0, 0, ("R", "W")) and not rules.can_pay(game, 0, 0, ("G", "W"))
    assert enter(game, cards["Coldsteel Heart"], HORDE_CONTROLLER).chosen == "W"  # the Horde pays no mana (H7)


def test_614_12_a_thriving_land_makes_its_colour_or_the_one_chosen_other_than_it(make_game, catalogue, cards):
    game = make_game(players=1)
    game.players[0].hand = [catalogue.get("Lightning Bolt")]  # R is no option: nothing asked, W first
    bluff = enter(game, cards["Thriving Bluff"])
    assert bluff.chosen == "W" and game.drivers.policy.seen[0].options == list("WUBG")
    assert rules.can_pay(game, 0, 0, ("R",)) and rules.can_pay(game, 0, 0, ("W",))
    assert not rules.can_pay(game, 0, 0, ("U",)) and not rules.can_pay(game, 0, 0, ("R", "W"))


def test_614_12_a_shock_land_enters_untapped_when_its_controller_pays_2_life(make_game, catalogue, cards):
    game = make_game(players=1, policy=Scripted(pay_life=True))
    crypt = rules.put_onto_battlefield(game, cards["Blood Crypt"], 0, 0)
    assert not crypt.tapped and game.team_life == 18
    game = make_game(players=1, policy=Scripted(pay_life=False))
    assert rules.put_onto_battlefield(game, cards["Blood Crypt"], 0, 0).tapped and game.team_life == 20
    game = make_game(players=1, policy=Scripted(pay_life=True))
    game.team_life = 2  # never the team's last life (119.4, as for mana)
    assert rules.put_onto_battlefield(game, cards["Blood Crypt"], 0, 0).tapped and game.team_life == 2
    assert rules.put_onto_battlefield(game, cards["Blood Crypt"], HORDE_CONTROLLER, HORDE_CONTROLLER).tapped
    assert not game.drivers.policy.seen  # the Horde pays no mana (H7): it is never asked


def test_the_baseline_pays_2_life_when_the_untapped_land_casts_a_card_of_its_hand(make_game, catalogue, cards):
    game = make_game(players=1)
    put(game, catalogue, "Mountain", side="team")
    game.players[0].hand = [catalogue.get("Lightning Bolt")]  # costs 1: the Mountain pays it
    assert rules.put_onto_battlefield(game, cards["Blood Crypt"], 0, 0).tapped and game.team_life == 20
    game = make_game(players=1)
    put(game, catalogue, "Mountain", side="team")
    game.players[0].hand = [catalogue.get("Lightning Bolt"), catalogue.get("Grizzly Bears")]  # Bears cost 2
    assert not rules.put_onto_battlefield(game, cards["Blood Crypt"], 0, 0).tapped and game.team_life == 18


@pytest.mark.parametrize("line, message", [
    ("Mana: Q", r"bad mana 'Q': expected W, U, B, R, G, C, a choice like W/U/B, any, commander, opponents_lands or "
                r"chosen \(R/chosen\)"),
    ("Mana: R/chosen", r"a mana of the chosen colour needs a 'ChooseColor:' line"),
    ("Mana: {X}, {T} -> C", r"a mana ability's cost '\{X\}' is beyond the vocabulary"),
    ("Mana: {W/P}, {T} -> C", r"a mana ability's cost '\{W/P\}' is beyond the vocabulary"),
    ("Mana: tap it -> C", r"mana ability cost 'tap it' is beyond the vocabulary"),
    ("Mana: {T} ->", r"'Mana: \{T\} ->' adds no mana"),
    ("Mana: C colour=W", r"a mana ability takes count=, damage=, gain=, stays_tapped=, spent=, if= or unless=, got 'colour=W'"),
])
def test_a_mana_line_beyond_the_vocabulary_is_refused_with_its_line(line, message):
    with pytest.raises(DeckError, match=r"^mana.txt:3: card 'Odd Rock': " + message):
        build_from_lines(["Name: Odd Rock", "Type: Artifact", line], "mana.txt")


def test_a_card_with_several_mana_abilities_keeps_each(cards):
    caves = cards["Caves of Koilos"]
    assert caves.mana == (frozenset("C"),) and len(caves.mana_abilities) == 2
    assert caves.mana_options[0].damage == 1 and caves.mana_colours == frozenset("WBC")
    assert caves.identity == frozenset("WB")  # 903.4: the symbols of its mana abilities
    signet = cards["Azorius Signet"]
    assert signet.mana == () and signet.makes_mana and signet.mana_options[0].cost == ManaCost(1)
    assert cards["Mystic Gate"].identity == frozenset("WU")


class Activates:
    """Activates ``p``'s ability once, else the baseline's answers."""

    def __init__(self, p):
        self.p = p
        self.done = False
        self.inner = BaselineLike()
        self.rng = self.inner.rng

    def choose(self, decision, view):
        if decision.kind == "activate":
            if self.done:
                return None
            self.done = True
            return next(o for o in decision.options if o is not None and o[0] is self.p)
        return self.inner.choose(decision, view)


class BaselineLike:
    """The baseline policy's answers, with a scry of a test's own."""

    def __init__(self, scry=None):
        import random

        from horde.team.policies import BaselinePolicy

        self.inner = BaselinePolicy()
        self.inner.rng = random.Random(0)
        self.rng = self.inner.rng
        self.scry = scry

    def choose(self, decision, view):
        if decision.kind == "scry" and self.scry is not None:
            return self.scry(decision.options)
        return self.inner.choose(decision, view)


def test_the_baseline_plays_no_bounce_land_as_its_first_land(make_game, catalogue, cards):
    from horde.engine.decisions import Decision
    from horde.team.view import TeamView

    game = make_game(players=1)
    policy = BaselineLike().inner
    karoo, island = cards["Izzet Boilerworks"], catalogue.get("Island")
    decision = Decision("land", 0, [karoo, island, None], None, 1, None)
    assert policy.choose(decision, TeamView(game)) is island  # it would return itself
    spire = cards["Rupture Spire"]
    decision = Decision("land", 0, [spire, island, None], None, 1, None)
    assert policy.choose(decision, TeamView(game)) is island  # no mana for its {1}: it would be sacrificed
    put(game, catalogue, "Mountain", side="team")
    assert policy.choose(decision, TeamView(game)) is spire  # any colour, and the Mountain pays its {1}


SPENT = {
    "Opal Palace": ["Type: Land", "Mana: {1}, {T} -> commander spent=commander_counters"],
    "Path of Ancestry": ["Type: Land", "Keywords: enters tapped", "Mana: commander spent=shared_type_scry"],
    "Test Wastes": ["Type: Land", "Mana: C"],
    "Test Captain": ["Cost: {1}{W}", "Type: Legendary Creature — Human Soldier", "PT: 2/2"],
    "Test Soldier": ["Cost: {W}", "Type: Creature — Soldier", "PT: 1/1"],
    "Test Bird": ["Cost: {W}", "Type: Creature — Bird", "PT: 1/1", "Keywords: flying"],
}


def spent_game(make_game, lands, policy=None):
    made = {name: build_from_lines([f"Name: {name}"] + lines, "mana.txt") for name, lines in SPENT.items()}
    game = make_game(players=1, policy=policy)
    pl = game.players[0]
    pl.commander, pl.command, pl.identity = made["Test Captain"], [made["Test Captain"]], frozenset("W")
    for name in lands:
        p = enter(game, made[name])
        p.tapped = False
    return game, made


def test_106_6_opal_palace_mana_spent_on_the_commander_adds_its_counters(make_game):
    """The commander cast from the command zone for the second time ({1}{W} and {2} tax) with four
    Wastes and Opal Palace's {W} (its {1} paid by a Wastes): it enters with 2 +1/+1 counters, the
    number of its casts from the command zone, this one too. Paid with a Plains-like source instead,
    none."""
    game, made = spent_game(make_game, ["Test Wastes"] * 4 + ["Opal Palace"])
    pl = game.players[0]
    pl.commander_casts["Test Captain"] = 1
    rules.team_cast(game, 0, made["Test Captain"], "command")
    captain = next(p for p in game.battlefield.team if p.card.name == "Test Captain")
    assert captain.plus == 2 and all(p.tapped for p in game.battlefield.team if p.card.is_land)
    game, made = spent_game(make_game, ["Test Wastes"] * 3 + ["Path of Ancestry"])
    game.players[0].commander_casts["Test Captain"] = 1
    rules.team_cast(game, 0, made["Test Captain"], "command")
    assert next(p for p in game.battlefield.team if p.card.name == "Test Captain").plus == 0


def test_106_6_path_of_ancestry_scries_for_a_creature_sharing_a_type(make_game):
    """A Soldier (the commander is a Human Soldier) cast with Path of Ancestry's mana: scry 1 before
    it resolves; a Bird cast the same way: no scry."""
    for name, scries in (("Test Soldier", True), ("Test Bird", False)):
        policy = Scripted(scry=[])
        game, made = spent_game(make_game, ["Path of Ancestry"], policy)
        game.players[0].library[:] = [made["Test Wastes"]] * 3
        game.players[0].hand.append(made[name])
        rules.team_cast(game, 0, made[name], "hand")
        assert [d.subject.name for d in policy.seen if d.kind == "scry"] == ([name] if scries else [])


def test_601_2h_a_creature_taps_for_mana_only_when_nothing_else_pays(make_game, catalogue):
    """{G} to pay with a Forest and a Llanowar Elves untapped: the Forest pays (the Elves may
    attack or block); {G}{G}: both."""
    elves = build_from_lines(["Name: Test Elves", "Cost: {G}", "Type: Creature — Elf Druid", "PT: 1/1", "Mana: G"],
                             "mana.txt")
    for pips, tapped in ((("G",), False), (("G", "G"), True)):
        game = make_game(players=1)
        forest = put(game, catalogue, "Forest", side="team")
        elf = enter(game, elves)
        assert rules.pay(game, 0, 0, pips)
        assert forest.tapped and elf.tapped is tapped


STEPPE = ["Type: Land", "Mana: C", "Activated: {1}, {T} -> counters on=self count=1 kind=storage",
          "Mana: {1}, remove X storage counters -> G/W"]


def test_storage_land_stores_and_spends_x_counters_for_x_mana(make_game, catalogue):
    """Saltcrusted Steppe with 3 storage counters and a Plains pays {G}{W}{W}: its {C} pays the {1}
    of 'Remove X storage counters: Add X mana in any combination of {G} and/or {W}' for X = 2 (the
    least that pays), the Plains the last {W}; one counter stays. '{1}, {T}: Put a storage counter'
    in the second main phase stores one, its {1} paid by another land."""
    steppe_card = build_from_lines(["Name: Test Steppe"] + STEPPE, "mana.txt")
    game = make_game(players=1)
    steppe = enter(game, steppe_card)
    steppe.marks = {"storage": 3}
    plains = put(game, catalogue, "Plains", side="team")
    assert rules.available_mana(game, 0) == 4  # the Plains, and 3 for the {1} of the Steppe's C
    assert rules.pay(game, 0, 0, ("G", "W", "W"))
    assert steppe.marks["storage"] == 1 and steppe.tapped and plains.tapped and game.players[0].pool == []
    game = make_game(players=1)
    steppe = enter(game, steppe_card)
    put(game, catalogue, "Plains", side="team")
    turns.activate_step(game, 0, "second_main")
    assert steppe.marks == {"storage": 1} and steppe.tapped

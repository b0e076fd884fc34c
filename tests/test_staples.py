"""The staples' vocabulary on tiny boards with exact values: references back (608.2h), library
searches and tutors (701.19), reanimation, Auras that take control of a permanent or change what
it is (613.1b-f), damage divided (601.2d), taxes ('unless that player pays'), overload (702.96),
cost reduction, 'whenever equipped creature dies'. The real cards are the blocks of the family's
contract file (``tests/data/oracle/staples.txt``), loaded through the catalogue loader as a card
file would be: what a test plays is exactly what the grammar must produce."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import HORDE, Scripted, put
from test_oracle_contract import fact_lines as contract_facts
from test_oracle_contract import read_blocks as read_contract

from horde.cards.catalogue import build_card, build_from_lines, load_catalogue, read_blocks
from horde.engine import rules
from horde.engine.filters import Context, Known, compile_amount, evaluate
from horde.engine.state import Permanent
from horde.play import new_game, prepare
from horde.setup import make_setup

CONTRACT = Path(__file__).parent / "data" / "oracle" / "staples.txt"

# Cards and tokens the tests need beyond the bundled ones and the contract's.
EXTRA = """
Name: Ape
Type: Token Creature — Ape
Colors: G
PT: 3/3

Name: Frog Lizard
Type: Token Creature — Frog Lizard
Colors: G
PT: 3/3

Name: 2/2 blue Bird with flying
Type: Token Creature — Bird
Colors: U
PT: 2/2
Keywords: flying

Name: Test Ogre
Cost: {3}{R}
Type: Creature — Ogre
PT: 4/4

Name: Test Shrine
Cost: {3}
Type: Artifact
Activated: {1}, {T} -> gain_life amount=1

Name: Test Commander
Cost: {2}{W}
Type: Legendary Creature — Human
PT: 2/2
"""


def contract_blocks() -> list[tuple[str, list[str], str]]:
    """Each block of the contract file: (name, its card-file lines, its Oracle text), read as the
    grammar's contract test reads it."""
    blocks = []
    for block in read_contract(CONTRACT):
        lines = contract_facts(block) + ["Text: " + block["Text"].replace("\n", " ")] + block["Lines"]
        blocks.append((block["Name"], lines, block["Text"]))
    return blocks


@pytest.fixture(scope="module")
def staples():
    """The bundled cards, the contract's cards and the tokens they create."""
    catalogue = load_catalogue()
    for name, lines, _ in contract_blocks():
        catalogue.add(build_from_lines(lines, f"{CONTRACT}:{name}"), str(CONTRACT), 0, replace=True)
    for block in read_blocks(EXTRA, "<test cards>"):
        catalogue.add(build_card(block), "<test cards>", block.line)
    return catalogue


@pytest.fixture
def game(staples):
    """Two team players (40 life), no boss, an empty battlefield, a Horde library of 20 Zombies."""
    g = new_game(prepare(make_setup("knudson-2011", players=2), staples), 0, Scripted())
    g.horde.library[:] = [staples.get("Zombie")] * 20
    for player in g.players:
        player.hand.clear()
    return g


def cast(game, staples, name, player=0, **answers):
    """Resolve a card's Cast effects as the team player's spell (its choices scripted)."""
    game.drivers.policy.answers.update(answers)
    card = staples.get(name)
    rules.resolve_spell(game, card, Context(card, None, player))
    rules.check_state(game)


def pick(card_name):
    """A scripted answer: the option whose card has that name."""
    def answer(decision):
        for option in decision.options:
            card = option.card if isinstance(option, Permanent) else option[1] if isinstance(option, tuple) else option
            if getattr(card, "name", None) == card_name:
                return option
        raise AssertionError(f"no {card_name} among {decision.options}")
    return answer


# ---------------------------------------------------------------- the contract file


def test_every_block_of_the_contract_loads_through_the_catalogue_loader():
    blocks = contract_blocks()
    assert len(blocks) >= 50
    for name, lines, _ in blocks:
        card = build_from_lines(lines, name)
        assert card.name == name and card.hooks or card.enchant or card.mana, name


# ---------------------------------------------------------------- references back (608.2h)


def test_amount_it_power_is_the_power_the_exiled_creature_had_swords_to_plowshares(game, staples):
    """Swords to Plowshares on a team creature: 'its controller gains life equal to its power',
    the power it had as it last existed (two +1/+1 counters, +1/+0 until end of turn: 5)."""
    corpse = put(game, staples, "Walking Corpse", side="team")
    rules.add_counters(game, corpse, 2)
    rules.pump(game, corpse, 1, 0)
    life = game.team_life
    rules.horde_cast(game, staples.get("Swords to Plowshares"))  # its only legal target
    assert not rules.on_battlefield(game, corpse)
    assert game.players[0].exile == [staples.get("Walking Corpse")]
    assert game.team_life == life + 5


def test_amount_it_toughness_and_it_mv_read_what_an_earlier_verb_acted_on(game, staples):
    ogre = put(game, staples, "Test Ogre", side="team")
    rules.add_counters(game, ogre, 1)
    ctx = Context(None, None, HORDE)
    ctx.remember(Known(ogre, ogre.card, 0, 0, 5, 6))
    assert [evaluate(game, ctx, compile_amount(a)) for a in ("it:power", "it:toughness", "it:mv", "2*it:mv")] == [
        5, 6, 4, 8]
    # with nothing acted on yet, 'its power' is the target's now
    ctx = Context(None, None, HORDE, target=ogre)
    assert evaluate(game, ctx, compile_amount("it:toughness")) == 5


def test_amount_this_way_counts_the_cards_destroyed_decree_of_pain(game, staples):
    """Decree of Pain: three creatures destroyed, the token among them too (it is destroyed, then
    ceases to exist: H6), one indestructible is not: the team draws 3."""
    for name, side in (("Walking Corpse", "team"), ("Test Ogre", "horde"), ("Zombie", "horde")):
        put(game, staples, name, side=side)
    spared = put(game, staples, "Test Ogre", side="horde")
    rules.pump(game, spared, 0, 0, frozenset({"indestructible"}))
    hand = len(game.players[0].hand)
    cast(game, staples, "Decree of Pain")
    assert rules.all_permanents(game) == [spared]
    assert len(game.players[0].hand) == hand + 3


def test_who_target_controller_creates_the_token_beast_within(game, staples):
    """Beast Within: the controller of the destroyed permanent creates the 3/3 Beast: the Horde's
    Beast for its artifact (it has haste: H8), the team player's for its own."""
    shrine = put(game, staples, "Test Shrine", side="horde")
    cast(game, staples, "Beast Within", target=shrine)
    beasts = [p for p in game.battlefield.horde if p.card.name == "Beast"]
    assert not rules.on_battlefield(game, shrine) and len(beasts) == 1 and not beasts[0].sick
    corpse = put(game, staples, "Walking Corpse", side="team", player=1)
    cast(game, staples, "Beast Within", player=0, target=corpse)
    assert [(p.card.name, p.controller) for p in game.battlefield.team] == [("Beast", 1)]


def test_who_target_owner_chaos_warp_shuffles_it_into_its_owners_library_and_reveals(game, staples):
    """Chaos Warp on a Horde creature: it goes into the Horde's library, which is shuffled; the
    top card is revealed and, a permanent card, put onto the battlefield (every card of this
    library is a creature card)."""
    ogre = put(game, staples, "Test Ogre", side="horde")
    game.horde.library[:] = [staples.get("Walking Corpse")] * 5
    cast(game, staples, "Chaos Warp", target=ogre)
    assert not rules.on_battlefield(game, ogre)
    assert len(game.horde.library) == 5 and len(game.battlefield.horde) == 1
    assert sorted(c.name for c in game.horde.library + [game.battlefield.horde[0].card]) == [
        "Test Ogre"] + ["Walking Corpse"] * 5


def test_verb_reveal_top_leaves_a_card_that_is_no_permanent_on_top(game, staples):
    reveal = build_from_lines(["Name: T", "Type: Sorcery", "Cast: reveal_top who=each_player filter=permanent"], "t")
    game.players[0].library[:] = [staples.get("Test Ogre"), staples.get("Lightning Bolt")]
    game.players[1].library[:] = [staples.get("Lightning Bolt"), staples.get("Test Ogre")]
    game.horde.library[-1] = staples.get("Grave Titan")
    rules.resolve(game, reveal.hooks["Cast"], Context(reveal, None, 0))
    assert [c.name for c in game.players[0].library] == ["Test Ogre", "Lightning Bolt"]  # it stays on top
    assert [(p.card.name, p.controller) for p in game.battlefield.team] == [("Test Ogre", 1)]
    assert [p.card.name for p in game.battlefield.horde] == ["Grave Titan", "Zombie", "Zombie"]
    assert len(game.horde.library) == 19


def test_verb_shuffle_into_library_a_token_ceases_to_exist_and_a_commander_goes_home(game, staples):
    """Oblation on a token: it ceases to exist (H6), its owner still draws two; on a commander:
    903.9b, it goes to the command zone."""
    zombie = put(game, staples, "Zombie", side="horde")
    cast(game, staples, "Oblation", target=zombie)
    assert len(game.horde.library) == 20 and not rules.on_battlefield(game, zombie)  # the Horde draws none (H4)
    commander = put(game, staples, "Test Commander", side="team", player=1, is_commander=True)
    library = len(game.players[1].library)
    cast(game, staples, "Oblation", target=commander)
    assert game.players[1].command[-1].name == "Test Commander"
    assert len(game.players[1].library) == library - 2 and len(game.players[1].hand) == 2


def test_verb_counter_spell_its_controller_creates_the_bird_swan_song(game, staples):
    """Swan Song counters the Horde's sorcery (H10); 'its controller' is the countered spell's:
    the Horde creates the 2/2 blue Bird with flying."""
    player = game.players[0]
    player.hand.append(staples.get("Swan Song"))
    island = put(game, staples, "Island", side="team")
    game.drivers.policy.answers["counter"] = lambda d: d.options[0]
    rules.horde_cast(game, staples.get("Divination"))
    assert island.tapped and player.graveyard == [staples.get("Swan Song")]
    assert game.horde.graveyard == [staples.get("Divination")]
    assert [(p.card.name, rules.power(game, p)) for p in game.battlefield.horde] == [("2/2 blue Bird with flying", 2)]


def test_may_is_decided_by_the_player_the_effect_names_path_to_exile(game, staples):
    """Path to Exile cast by the Horde on a team creature: 'its controller may search' is that
    team player's choice (608.2d), not the Horde's: asked, it declines, and nothing is fetched."""
    corpse = put(game, staples, "Walking Corpse", side="team", player=1)
    game.players[1].library[:] = [staples.get("Plains"), staples.get("Lightning Bolt")]
    game.drivers.policy.answers["may"] = False
    rules.horde_cast(game, staples.get("Path to Exile"))
    asked = [d for d in game.drivers.policy.seen if d.kind == "may"]
    assert [d.player for d in asked] == [1] and not rules.on_battlefield(game, corpse)
    assert len(game.players[1].library) == 2 and game.battlefield.team == []
    game.drivers.policy.answers["may"] = True
    corpse = put(game, staples, "Walking Corpse", side="team", player=1)
    rules.horde_cast(game, staples.get("Path to Exile"))
    assert [(p.card.name, p.tapped, p.controller) for p in game.battlefield.team] == [("Plains", True, 1)]


def test_verb_search_path_to_exile_on_a_horde_creature_the_horde_searches_its_own_library(game, staples):
    ogre = put(game, staples, "Test Ogre", side="horde")
    game.horde.library[:] = [staples.get("Zombie")] * 3 + [staples.get("Swamp")]
    cast(game, staples, "Path to Exile", target=ogre)
    assert [(p.card.name, p.tapped) for p in game.battlefield.horde] == [("Swamp", True)]
    assert len(game.horde.library) == 3 and game.horde.exile == [staples.get("Test Ogre")]


# ---------------------------------------------------------------- searches and tutors (701.19)


def test_verb_search_to_hand_demonic_tutor_takes_the_card_its_policy_names(game, staples):
    library = game.players[0].library
    library[:] = [staples.get(n) for n in ("Forest", "Grave Titan", "Lightning Bolt", "Forest")]
    cast(game, staples, "Demonic Tutor", tutor=pick("Grave Titan"))
    decision = next(d for d in game.drivers.policy.seen if d.kind == "tutor")
    assert sorted(c.name for c in decision.options) == ["Forest", "Grave Titan", "Lightning Bolt"]  # one of each
    assert game.players[0].hand == [staples.get("Grave Titan")]
    assert sorted(c.name for c in library) == ["Forest", "Forest", "Lightning Bolt"]


def test_verb_search_to_top_vampiric_tutor_puts_it_on_top_after_the_shuffle(game, staples):
    library = game.players[0].library
    library[:] = [staples.get("Grave Titan")] + [staples.get("Forest")] * 9
    life = game.team_life
    cast(game, staples, "Vampiric Tutor", tutor=pick("Grave Titan"))
    assert library[-1].name == "Grave Titan" and len(library) == 10 and game.team_life == life - 2


def test_verb_search_by_filter_farseek_finds_no_forest_and_enters_tapped(game, staples):
    library = game.players[0].library
    library[:] = [staples.get(n) for n in ("Forest", "Island", "Mountain")]
    cast(game, staples, "Farseek", tutor=pick("Mountain"))
    decision = next(d for d in game.drivers.policy.seen if d.kind == "tutor")
    assert sorted(c.name for c in decision.options) == ["Island", "Mountain"]
    assert [(p.card.name, p.tapped) for p in game.battlefield.team] == [("Mountain", True)]


def test_verb_search_up_to_three_into_the_graveyard_buried_alive(game, staples):
    library = game.players[0].library
    library[:] = [staples.get(n) for n in ("Test Ogre", "Forest", "Walking Corpse")]
    cast(game, staples, "Buried Alive")
    assert sorted(c.name for c in game.players[0].graveyard) == ["Test Ogre", "Walking Corpse"]
    assert library == [staples.get("Forest")]


def test_verb_search_the_baseline_policy_fetches_what_it_can_cast_soon(game, staples):
    """With three lands, a tutor to hand takes the most expensive spell of mana value 4 or less."""
    for _ in range(3):
        put(game, staples, "Swamp", side="team")
    game.players[0].library[:] = [staples.get(n) for n in ("Grave Titan", "Test Ogre", "Lightning Bolt", "Swamp")]
    cast(game, staples, "Demonic Tutor")
    assert game.players[0].hand == [staples.get("Test Ogre")]


def test_verb_search_same_type_finds_lands_that_share_a_land_type(game, staples):
    from horde.cards.catalogue import build_from_lines

    landscape = build_from_lines(["Name: Test Landscape", "Type: Sorcery", "Cost: {2}",
                                  'Cast: search filter="basic land" count=2 to=battlefield same_type=true'], "test")
    game.players[0].library[:] = [staples.get(n) for n in ("Island", "Forest", "Forest")]
    game.drivers.policy.answers["tutor"] = pick("Forest")
    rules.resolve_spell(game, landscape, Context(landscape, None, 0))
    assert [p.card.name for p in game.battlefield.team] == ["Forest", "Forest"]


def test_verb_search_cycling_krosan_tusker_searches_before_it_draws(game, staples):
    """'When you cycle' resolves before the cycling draw (603.2): the land found is not the card drawn."""
    player = game.players[0]
    player.library[:] = [staples.get("Forest"), staples.get("Lightning Bolt")]
    player.hand.append(staples.get("Krosan Tusker"))
    for _ in range(3):
        put(game, staples, "Forest", side="team")
    rules.cycle(game, 0, staples.get("Krosan Tusker"))
    assert sorted(c.name for c in player.hand) == ["Forest", "Lightning Bolt"] and player.library == []


def test_verb_search_the_horde_searches_at_random_and_casts_from_hand_h6(game, staples):
    """A Horde tutor to hand: the card waits in its hand (H6); H9: picked at random."""
    game.horde.library[:] = [staples.get("Grave Titan"), staples.get("Zombie"), staples.get("Test Ogre")]
    rules.horde_cast(game, staples.get("Demonic Tutor"))
    assert len(game.horde.hand) == 1 and game.horde.hand[0].name in ("Grave Titan", "Test Ogre")  # a token is no card


# ---------------------------------------------------------------- reanimation


def test_amount_it_mv_reanimate_loses_life_equal_to_its_mana_value_from_any_graveyard(game, staples):
    """Reanimate the Horde's Grave Titan: the team player controls it, the Horde owns it (it goes
    back to the Horde's graveyard when it dies); the team loses 6 life."""
    game.horde.graveyard.append(staples.get("Grave Titan"))
    game.players[1].graveyard.append(staples.get("Walking Corpse"))
    life = game.team_life
    cast(game, staples, "Reanimate", reanimate=pick("Grave Titan"))
    decision = next(d for d in game.drivers.policy.seen if d.kind == "reanimate")
    assert sorted((o[0], o[1].name) for o in decision.options) == [(HORDE, "Grave Titan"), (1, "Walking Corpse")]
    titan = next(p for p in game.battlefield.team if p.card.name == "Grave Titan")
    assert (titan.controller, titan.owner, game.team_life) == (0, HORDE, life - 6)
    assert sum(1 for p in game.battlefield.team if p.card.name == "Zombie") == 2  # its Enters trigger
    rules.destroy(game, titan)
    assert game.horde.graveyard == [staples.get("Grave Titan")]


def test_verb_reanimate_the_baseline_takes_the_biggest_creature(game, staples):
    game.horde.graveyard[:] = [staples.get("Walking Corpse"), staples.get("Test Ogre")]
    cast(game, staples, "Reanimate")
    assert [p.card.name for p in game.battlefield.team] == ["Test Ogre"]


def test_verb_sacrifice_animate_dead_returns_a_creature_and_takes_it_when_it_leaves(game, staples):
    """Animate Dead: the creature card returns under the caster's control with the Aura attached
    (-1/-0); when the Aura leaves, that creature's controller sacrifices it."""
    game.horde.graveyard.append(staples.get("Test Ogre"))
    for _ in range(2):
        put(game, staples, "Swamp", side="team")
    game.players[0].hand.append(staples.get("Animate Dead"))
    assert (staples.get("Animate Dead"), "hand") in rules.castable(game, 0)
    rules.team_cast(game, 0, staples.get("Animate Dead"), "hand")
    ogre = next(p for p in game.battlefield.team if p.card.name == "Test Ogre")
    aura = next(p for p in game.battlefield.team if p.card.name == "Animate Dead")
    assert aura.attached_to is ogre and (rules.power(game, ogre), rules.toughness(game, ogre)) == (3, 4)
    rules.destroy(game, aura)
    rules.check_state(game)
    assert not rules.on_battlefield(game, ogre) and game.horde.graveyard == [staples.get("Test Ogre")]


def test_verb_reanimate_animate_dead_is_not_castable_with_no_creature_card_in_a_graveyard(game, staples):
    for _ in range(2):
        put(game, staples, "Swamp", side="team")
    game.players[0].hand.append(staples.get("Animate Dead"))
    game.players[0].graveyard.append(staples.get("Lightning Bolt"))
    assert rules.castable(game, 0) == []


def test_verb_return_moved_living_death(game, staples):
    """Living Death: each player exiles its graveyard's creature cards, sacrifices its creatures,
    then returns the exiled cards: a token sacrificed ceases to exist."""
    game.players[0].graveyard[:] = [staples.get("Test Ogre"), staples.get("Lightning Bolt")]
    game.horde.graveyard[:] = [staples.get("Grave Titan")]
    put(game, staples, "Walking Corpse", side="team", player=1)
    put(game, staples, "Zombie", side="horde")
    cast(game, staples, "Living Death")
    assert [(p.card.name, p.controller) for p in game.battlefield.team] == [("Test Ogre", 0)]
    assert sorted(p.card.name for p in game.battlefield.horde) == ["Grave Titan", "Zombie", "Zombie"]
    assert game.players[0].graveyard == [staples.get("Lightning Bolt")]
    assert game.players[1].graveyard == [staples.get("Walking Corpse")] and game.horde.graveyard == []


def test_verb_exile_from_graveyard_exiles_every_matching_card(game, staples):
    game.horde.graveyard[:] = [staples.get("Grave Titan"), staples.get("Divination"), staples.get("Zombie")]
    ctx = Context(None, None, 0)
    rules.resolve(game, build_from_lines(["Name: T", "Type: Sorcery", "Cast: exile_from_graveyard who=each_opponent"],
                                         "t").hooks["Cast"], ctx)
    assert [c.name for c in game.horde.exile] == ["Grave Titan", "Divination"]  # a token card stays a count
    assert [c.name for c, _, zone in ctx.moved] == ["Grave Titan", "Divination"]


def test_verb_sacrifice_all_is_no_destruction(game, staples):
    """Each creature is sacrificed: indestructible does not stop it; each is moved this way."""
    ogre = put(game, staples, "Test Ogre", side="horde")
    rules.pump(game, ogre, 0, 0, frozenset({"indestructible"}))
    put(game, staples, "Walking Corpse", side="team")
    ctx = Context(None, None, 0)
    rules.resolve(game, build_from_lines(["Name: T", "Type: Sorcery", "Cast: sacrifice_all filter=creature"],
                                         "t").hooks["Cast"], ctx)
    assert rules.all_permanents(game) == [] and len(ctx.moved) == 2


# ---------------------------------------------------------------- Auras that take or change a permanent


def test_verb_you_control_control_magic_takes_it_and_gives_it_back_613_1b(game, staples):
    """Control Magic on a Horde creature: the team player controls it (summoning sick: 302.6);
    when the Aura leaves, it returns to the Horde."""
    ogre = put(game, staples, "Test Ogre", side="horde")
    for _ in range(4):
        put(game, staples, "Island", side="team")
    game.players[0].hand.append(staples.get("Control Magic"))
    rules.team_cast(game, 0, staples.get("Control Magic"), "hand")
    assert ogre.controller == 0 and ogre in game.battlefield.team and ogre.sick and ogre.owner == HORDE
    aura = next(p for p in game.battlefield.team if p.card.name == "Control Magic")
    rules.destroy(game, aura)
    assert ogre.controller == HORDE and ogre in game.battlefield.horde


def test_verb_you_control_two_auras_the_latest_wins_and_the_first_takes_over_when_it_leaves(game, staples):
    ogre = put(game, staples, "Test Ogre", side="horde")
    first = put(game, staples, "Confiscate", side="team", player=0)
    rules.enchant(game, first, ogre)
    second = put(game, staples, "Confiscate", side="team", player=1)
    rules.enchant(game, second, ogre)
    assert ogre.controller == 1
    rules.destroy(game, second)
    assert ogre.controller == 0
    rules.destroy(game, first)
    assert ogre.controller == HORDE


def test_verb_you_control_the_aura_changing_hands_takes_the_permanent_along(game, staples):
    ogre = put(game, staples, "Test Ogre", side="horde")
    aura = put(game, staples, "Confiscate", side="team", player=0)
    rules.enchant(game, aura, ogre)
    rules.change_control(game, aura, 1)
    assert ogre.controller == 1


def test_verb_becomes_song_of_the_dryads_makes_a_colorless_forest_land_305_7(game, staples):
    """Song of the Dryads on the Horde's Grave Titan: a colorless Forest land with no abilities
    (no deathtouch, no attack trigger), no creature; on a team player's artifact, a Forest that
    makes green mana. When the Aura leaves, each is what it was; a Forest that dies goes to the
    graveyard as its own card (400.7)."""
    titan = put(game, staples, "Grave Titan", side="horde")
    song = put(game, staples, "Song of the Dryads", side="team")
    rules.enchant(game, song, titan)
    card = titan.card
    assert (card.name, card.types, card.subtypes, card.colours, card.keywords, card.hooks) == (
        "Grave Titan", frozenset({"Land"}), frozenset({"Forest"}), frozenset(), frozenset(), {})
    assert not card.is_creature and rules.horde_power(game) == 0 and card.mana == (frozenset({"G"}),)
    rules.destroy(game, song)
    assert titan.card is staples.get("Grave Titan") and titan.card.is_creature
    shrine = put(game, staples, "Test Shrine", side="team", player=1)
    song = put(game, staples, "Song of the Dryads", side="team")
    rules.enchant(game, song, shrine)
    assert rules.available_mana(game, 1) == 1 and "Activated" not in shrine.card.hooks
    rules.destroy(game, shrine)
    assert game.players[1].graveyard == [staples.get("Test Shrine")]


def test_keyword_activated_abilities_cant_be_activated_faiths_fetters(game, staples):
    """Faith's Fetters: 4 life; the enchanted Drudge Skeletons can't regenerate (its ability can't
    be activated, though the Horde pays any mana: H7), can't attack; a team artifact's ability
    is no option."""
    skeletons = put(game, staples, "Drudge Skeletons", side="horde")
    fetters = put(game, staples, "Faith's Fetters", side="team")
    life = game.team_life
    rules.enchant(game, fetters, skeletons)
    rules.run_hook(game, fetters, "Enters")
    assert game.team_life == life + 4
    assert rules.has_keyword(game, skeletons, "can't attack")
    rules.destroy(game, skeletons)
    assert not rules.on_battlefield(game, skeletons)
    from horde.engine import turns

    shrine = put(game, staples, "Test Shrine", side="team")
    for _ in range(2):
        put(game, staples, "Plains", side="team")
    fetters = put(game, staples, "Faith's Fetters", side="team")
    rules.enchant(game, fetters, shrine)
    turns.activate_step(game, 0)
    assert not any(d.kind == "activate" for d in game.drivers.policy.seen)


# ---------------------------------------------------------------- hooks and fields


def test_hook_attached_dies_skullclamp_draws_two(game, staples):
    """Skullclamp on a 1/1: +1/-1 kills it (704.5f); 'whenever equipped creature dies' draws two."""
    clamp = put(game, staples, "Skullclamp", side="team")
    traveler = put(game, staples, "Doomed Traveler", side="team")
    hand = len(game.players[0].hand)
    game.battlefield.attach(clamp, traveler)
    rules.check_state(game)
    assert not rules.on_battlefield(game, traveler) and len(game.players[0].hand) == hand + 2
    assert clamp.attached_to is None and rules.on_battlefield(game, clamp)


def test_tax_rhystic_study_the_horde_never_pays_by_default(game, staples):
    """A team Rhystic Study: each Horde spell (its tokens are cast too: H5t) lets the team player
    draw; the Horde does not pay (``horde_pays = "never"``)."""
    put(game, staples, "Rhystic Study", side="team")
    hand = len(game.players[0].hand)
    rules.horde_cast(game, staples.get("Zombie"))
    assert len(game.players[0].hand) == hand + 1


def test_tax_rhystic_study_the_horde_pays_with_horde_pays_always(staples):
    g = new_game(prepare(make_setup("knudson-2011", players=2, horde_pays="always"), staples), 0, Scripted())
    put(g, staples, "Rhystic Study", side="team")
    hand = len(g.players[0].hand)
    rules.horde_cast(g, staples.get("Zombie"))
    assert len(g.players[0].hand) == hand


def test_tax_a_team_player_pays_a_horde_rhystic_study_with_its_mana(game, staples):
    """A Horde Rhystic Study (the Horde draws nothing: H4): a team player who casts may pay {1};
    the baseline does not pay for a draw that does nothing; scripted, it pays and an Island taps."""
    put(game, staples, "Rhystic Study", side="horde")
    island = put(game, staples, "Island", side="team")
    rules.spell_cast_triggers(game, staples.get("Divination"), 0)
    assert not island.tapped
    game.drivers.policy.answers["pay"] = True
    rules.spell_cast_triggers(game, staples.get("Divination"), 0)
    assert island.tapped


def test_field_overload_cyclonic_rift_returns_each_horde_nonland_permanent(game, staples):
    """Overloaded Cyclonic Rift (702.96): each nonland permanent the team does not control, none
    of them targeted (hexproof does not stop it); a token ceases to exist, a card waits in the
    Horde's hand (H6)."""
    ogre = put(game, staples, "Test Ogre", side="horde")
    rules.pump(game, ogre, 0, 0, frozenset({"hexproof"}))
    put(game, staples, "Zombie", side="horde")
    put(game, staples, "Swamp", side="horde")
    corpse = put(game, staples, "Walking Corpse", side="team")
    for _ in range(7):
        put(game, staples, "Island", side="team")
    game.players[0].hand.append(staples.get("Cyclonic Rift"))
    assert (staples.get("Cyclonic Rift"), "overload") in rules.castable(game, 0)
    rules.team_cast(game, 0, staples.get("Cyclonic Rift"), "overload")
    assert [p.card.name for p in game.battlefield.horde] == ["Swamp"] and rules.on_battlefield(game, corpse)
    assert game.horde.hand == [staples.get("Test Ogre")]
    assert all(p.tapped for p in game.battlefield.team if p.card.name == "Island")


def test_field_overload_the_horde_overloads_vandalblast_h7(game, staples):
    for _ in range(2):
        put(game, staples, "Test Shrine", side="team")
    put(game, staples, "Test Shrine", side="horde")
    rules.horde_cast(game, staples.get("Vandalblast"))
    assert game.battlefield.team == [] and len(game.battlefield.horde) == 1


def test_field_costs_less_blasphemous_act_costs_one_less_for_each_creature(game, staples):
    for _ in range(3):
        put(game, staples, "Zombie", side="horde")
    put(game, staples, "Walking Corpse", side="team")
    assert rules.spell_cost(game, staples.get("Blasphemous Act"), 0, "hand") == (4, ("R",))
    for _ in range(6):
        put(game, staples, "Zombie", side="horde")
    assert rules.spell_cost(game, staples.get("Blasphemous Act"), 0, "hand") == (0, ("R",))


# ---------------------------------------------------------------- damage divided (601.2d)


def test_verb_damage_divided_the_team_divides_as_its_policy_says(game, staples):
    zombie = put(game, staples, "Zombie", side="horde")
    ogre = put(game, staples, "Test Ogre", side="horde")
    game.drivers.policy.answers["divide"] = lambda d: [zombie, zombie, "horde"]
    library = len(game.horde.library)
    cast(game, staples, "Arc Lightning")
    assert not rules.on_battlefield(game, zombie) and ogre.damage == 0 and len(game.horde.library) == library - 1


def test_verb_damage_divided_refuses_more_targets_than_the_card_allows(game, staples):
    from horde.engine.decisions import PolicyError

    zombies = [put(game, staples, "Zombie", side="horde") for _ in range(3)]
    game.drivers.policy.answers["divide"] = lambda d: zombies[:2] + ["horde"]
    with pytest.raises(PolicyError):
        cast(game, staples, "Forked Bolt")


def test_verb_damage_divided_the_baseline_kills_what_it_can_and_mills_with_the_rest(game, staples):
    """Arc Lightning's 3 among up to three targets: 2 kill the 2/2 Zombie, the last mills a card of
    the Horde's (H11); the 4/4 it can't kill is left alone."""
    zombie = put(game, staples, "Zombie", side="horde")
    ogre = put(game, staples, "Test Ogre", side="horde")
    library = len(game.horde.library)
    cast(game, staples, "Arc Lightning")
    assert not rules.on_battlefield(game, zombie) and ogre.damage == 0 and len(game.horde.library) == library - 1


def test_verb_damage_divided_the_horde_divides_at_random_h9(game, staples):
    """Inferno Titan enters for the Horde: 3 damage among at most three of the creatures and the
    team's players, each at least 1, chosen at random (H9): 3 damage in all, whatever the seed."""
    for seed in range(6):
        g = new_game(prepare(make_setup("knudson-2011", players=2), staples), seed, Scripted())
        g.drivers.trace = []
        for _ in range(2):
            put(g, staples, "Walking Corpse", side="team")
        titan = put(g, staples, "Inferno Titan", side="horde")
        rules.run_hook(g, titan, "Enters")
        targets = [e for e in g.drivers.trace if e["event"] == "target"]
        dealt = [e["amount"] for e in g.drivers.trace if e["event"] == "damage"]
        assert 1 <= len(targets) <= 3 and sum(dealt) == 3 and len(dealt) == len(targets)


def test_verb_search_a_smart_horde_fetches_the_most_expensive_card_h9s(staples):
    g = new_game(prepare(make_setup("knudson-2011", players=2, horde_choices="smart"), staples), 0, Scripted())
    g.horde.library[:] = [staples.get(n) for n in ("Test Ogre", "Grave Titan", "Walking Corpse")]
    rules.horde_cast(g, staples.get("Demonic Tutor"))
    assert g.horde.hand == [staples.get("Grave Titan")]


def test_references_are_copied_with_a_fork(game, staples):
    """A waiting ability keeps what it refers to in the copy of a game (its permanent, the copy's)."""
    from horde.engine.fork import fork

    ogre = put(game, staples, "Test Ogre", side="horde")
    ctx = Context(None, None, 0)
    ctx.remember(Known(ogre, ogre.card, HORDE, HORDE, 4, 4))
    ctx.moved_card(ogre.card, HORDE, "exile")
    game.delayed.append((ctx, ()))
    copy = fork(game, Scripted())
    copied = copy.delayed[0][0]
    assert copied.it.permanent is copy.battlefield.horde[0] and copied.it.permanent is not ogre
    assert copied.moved == ctx.moved and copied.moved is not ctx.moved


@pytest.mark.parametrize("lines, message", [
    (["Type: Instant", "Cast: draw count=1 unless_pays={X}"], "a payment with X"),
    (["Type: Enchantment — Aura", "Enchant: permanent", "Enchanted: becomes types=forest"], "expected card types"),
    (["Type: Instant", "Cast: gain_life amount=2", "Overload: {2}{W}"], "needs a 'Cast:' effect with a target"),
    (["Type: Enchantment — Aura", "Enchant: graveyard:creeture"], "unknown filter term"),
    (["Type: Instant", "Cast: search to=library"], "expected one of hand, battlefield, top, graveyard"),
])
def test_loader_refuses_what_the_staples_vocabulary_cannot_say(lines, message):
    from horde.errors import DeckError

    with pytest.raises(DeckError, match=message):
        build_from_lines(["Name: Bad", "Cost: {1}"] + lines, "bad.txt")


def test_loader_reads_an_aura_that_enchants_a_card_in_a_graveyard(staples):
    card = staples.get("Animate Dead")
    assert card.enchant.args["zone"] == "graveyard" and card.enchant.target.text == "creature"
    assert staples.get("Faith's Fetters").enchant.args["zone"] == "battlefield"


# ---------------------------------------------------------------- more references back


def test_amount_this_way_counts_the_cards_discarded_syphon_mind(game, staples):
    """Syphon Mind: each other player discards a card (the teammate one of its two, the Horde one of
    the one it holds, none from an empty hand): the caster draws 2."""
    game.players[1].hand[:] = [staples.get("Forest"), staples.get("Lightning Bolt")]
    game.horde.hand[:] = [staples.get("Grave Titan")]
    cast(game, staples, "Syphon Mind")
    assert len(game.players[0].hand) == 2 and len(game.players[1].hand) == 1
    assert game.horde.graveyard == [staples.get("Grave Titan")]


def test_amount_this_way_counts_the_creatures_sacrificed_tokens_too_syphon_flesh(game, staples):
    put(game, staples, "Zombie", side="horde")
    put(game, staples, "Walking Corpse", side="team", player=1)
    cast(game, staples, "Syphon Flesh")
    assert [p.card.name for p in game.battlefield.team] == ["Zombie", "Zombie"]
    assert all(p.controller == 0 for p in game.battlefield.team) and game.battlefield.horde == []


def test_verb_counters_for_each_permanent_destroyed_this_way_bane_of_progress(game, staples):
    for _ in range(2):
        put(game, staples, "Test Shrine", side="horde")
    put(game, staples, "Bad Moon", side="horde")
    bane = put(game, staples, "Bane of Progress", side="team")
    rules.run_hook(game, bane, "Enters")
    assert bane.plus == 3 and game.battlefield.horde == []


def test_verb_shuffle_into_library_bottom_condemn_gains_life_equal_to_its_toughness(game, staples):
    ogre = put(game, staples, "Test Ogre", side="horde", attacking=True)
    rules.add_counters(game, ogre, 1)
    before = list(game.horde.library)
    cast(game, staples, "Condemn", target=ogre)
    assert game.horde.library == [staples.get("Test Ogre")] + before  # the bottom is the start of the list
    assert game.team_life == 40  # its controller, the Horde, has no life to gain (H1)
    corpse = put(game, staples, "Walking Corpse", side="team", attacking=True)
    rules.pump(game, corpse, 0, 3)
    game.players[0].library[:] = [staples.get("Forest")]
    rules.horde_cast(game, staples.get("Condemn"))
    assert game.players[0].library == [staples.get("Walking Corpse"), staples.get("Forest")]
    assert game.team_life == 45


def test_verb_return_moved_oblivion_ring_returns_the_exiled_card_when_it_leaves_607(game, staples):
    """Oblivion Ring exiles the Horde's Grave Titan; when the Ring leaves, 'the exiled card' (its
    linked ability's, 607.2a) returns under its owner's control, its Enters trigger with it."""
    titan = put(game, staples, "Grave Titan", side="horde")
    ring = rules.put_onto_battlefield(game, staples.get("Oblivion Ring"), 0, 0)
    assert not rules.on_battlefield(game, titan) and game.horde.exile == [staples.get("Grave Titan")]
    rules.destroy(game, ring)
    rules.check_state(game)
    assert game.horde.exile == [] and sorted(p.card.name for p in game.battlefield.horde) == [
        "Grave Titan", "Zombie", "Zombie"]


def test_verb_return_moved_a_token_exiled_by_fiend_hunter_never_returns(game, staples):
    zombie = put(game, staples, "Zombie", side="horde")
    game.horde.graveyard.append(staples.get("Zombie"))  # a milled token card: no card to return
    hunter = rules.put_onto_battlefield(game, staples.get("Fiend Hunter"), 0, 0)
    assert not rules.on_battlefield(game, zombie)
    rules.destroy(game, hunter)
    rules.check_state(game)
    assert game.battlefield.horde == []


def test_verb_reanimate_land_restore_and_necromancers_covenant(game, staples):
    game.horde.graveyard[:] = [staples.get("Swamp"), staples.get("Grave Titan"), staples.get("Walking Corpse")]
    cast(game, staples, "Restore")
    assert [(p.card.name, p.controller, p.owner) for p in game.battlefield.team] == [("Swamp", 0, HORDE)]
    covenant = rules.put_onto_battlefield(game, staples.get("Necromancer's Covenant"), 0, 0)
    assert game.horde.exile == [staples.get("Grave Titan"), staples.get("Walking Corpse")]
    zombies = [p for p in game.battlefield.team if p.card.name == "Zombie"]
    assert len(zombies) == 2 and rules.has_keyword(game, zombies[0], "lifelink") and rules.on_battlefield(game, covenant)


def test_verb_bounce_on_self_arcanis_returns_itself_to_its_owners_hand(game, staples):
    arcanis = put(game, staples, "Arcanis the Omnipotent", side="team")
    ability = staples.get("Arcanis the Omnipotent").abilities("Activated")[1]
    rules.resolve(game, ability, Context(arcanis.card, arcanis, 0))
    assert not rules.on_battlefield(game, arcanis) and game.players[0].hand == [staples.get("Arcanis the Omnipotent")]


def test_verb_return_self_endless_cockroaches_goes_to_its_owners_hand(game, staples):
    """Endless Cockroaches of the Horde's, under a team player's Control Magic, dies: it returns to
    its owner's hand (the Horde's: cast again next turn, H6)."""
    roaches = put(game, staples, "Endless Cockroaches", side="horde")
    magic = put(game, staples, "Control Magic", side="team")
    rules.enchant(game, magic, roaches)
    assert roaches.controller == 0
    rules.destroy(game, roaches)
    rules.check_state(game)
    assert game.horde.hand == [staples.get("Endless Cockroaches")] and game.horde.graveyard == []


def test_field_costs_less_primeval_protector_counts_the_opponents_creatures(game, staples):
    for _ in range(4):
        put(game, staples, "Zombie", side="horde")
    put(game, staples, "Walking Corpse", side="team")
    assert rules.spell_cost(game, staples.get("Primeval Protector"), 0, "hand") == (6, ("G",))


def test_601_2c_a_card_its_costs_sacrificed_is_no_target_of_the_ability(game, staples):
    """Priest of Fell Rites: 'Sacrifice ~: Return target creature card from your graveyard': the
    target is chosen before the costs are paid (601.2c, 601.2h), so the Priest can't return itself;
    a creature card already there can be returned."""
    from horde.cards.catalogue import build_from_lines
    from horde.engine import turns

    priest = build_from_lines(["Name: Test Priest", "Type: Creature — Human Warlock", "Cost: {W}{B}", "PT: 2/2",
                               "Activated: {T}, pay 3 life, sacrifice this -> return_from_graveyard filter=creature "
                               "to=battlefield count=1"], "test")
    game.drivers.policy.answers["activate"] = lambda decision: decision.options[0]
    rules.put_onto_battlefield(game, priest, 0, 0, triggers=False).sick = False
    turns.activate_step(game, 0)
    assert game.players[0].graveyard == [priest] and not game.battlefield.team  # nothing else to return
    assert game.team_life == 40 - 3
    game.players[0].graveyard.append(staples.get("Test Ogre"))
    rules.put_onto_battlefield(game, priest, 0, 0, triggers=False).sick = False
    turns.activate_step(game, 0)
    assert [p.card.name for p in game.battlefield.team] == ["Test Ogre"]
    assert game.players[0].graveyard == [priest, priest]

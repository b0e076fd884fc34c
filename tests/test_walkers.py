"""Planeswalkers' loyalty abilities and the verbs they need (606; 701.21b untap, 114 emblems,
701.22 scry): the real cards of the contract file tests/data/oracle/planeswalkers.txt, built
from its exact card-file lines, played on small boards with exact values; and the refusals the
compiler gives for what it does not play."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import HORDE, Scripted, put
from test_oracle_contract import fact_lines, read_blocks

from horde.cards.catalogue import build_from_lines, load_catalogue
from horde.cards.oracle import Facts, compile_text
from horde.engine import rules, turns
from horde.engine.characteristics import keywords, power, toughness
from horde.play import new_game, prepare
from horde.setup import make_setup

CONTRACT = Path(__file__).parent / "data" / "oracle" / "planeswalkers.txt"
WALKER = Facts("Test Walker", frozenset({"Planeswalker"}), frozenset({"Test"}), frozenset({"Legendary"}))


@pytest.fixture(scope="module")
def bundled():
    return load_catalogue()


@pytest.fixture(scope="module")
def contract():
    """The contract's cards, each built from its exact lines through the card-file loader."""
    return {b["Name"]: build_from_lines(fact_lines(b) + b["Lines"], f"contract:{b['Name']}")
            for b in read_blocks(CONTRACT)}


def game_of(bundled, policy=None):
    game = new_game(prepare(make_setup("knudson-2011", players=2), bundled), 0, policy or Scripted())
    game.horde.library[:] = [bundled.get("Zombie")] * 30
    game.turn = 4
    return game


def on_battlefield(game, card, player=0):
    return rules.put_onto_battlefield(game, card, player, player, triggers=False)


def cost_is(change):
    return lambda d: next(o for o in d.options if o and o[1][0].cost == change)


def lands(game, bundled, n, player=0, name="Forest"):
    return [put(game, bundled, name, side="team", player=player, tapped=True) for _ in range(n)]


# ---------------------------------------------------------------- untap (701.21b)


def test_verb_untap_targets_garruk_untaps_two_target_lands_and_needs_two_701_21b_601_2c(bundled, contract):
    game = game_of(bundled, Scripted(loyalty=cost_is(1)))
    garruk = on_battlefield(game, contract["Garruk Wildspeaker"])
    [first] = lands(game, bundled, 1)
    # 601.2c: "two target lands" wants two legal targets; one land: the +1 is not offered
    assert [a[0].cost for _, a in turns.loyalty_options(game, 0)] == [-1]  # and -4 needs four loyalty
    second, third = lands(game, bundled, 2)
    turns.loyalty_step(game, 0)
    assert garruk.loyalty == 4
    assert sum(not p.tapped for p in (first, second, third)) == 2  # two different lands untapped


def test_verb_untap_targets_the_baseline_untaps_its_own_tapped_lands(bundled, contract):
    game = game_of(bundled, Scripted(loyalty=cost_is(1)))
    on_battlefield(game, contract["Garruk Wildspeaker"])
    untapped = put(game, bundled, "Forest", side="team", player=0)
    theirs = lands(game, bundled, 1, player=1)
    tapped = lands(game, bundled, 2)
    turns.loyalty_step(game, 0)
    assert [p.tapped for p in [untapped] + tapped + theirs] == [False, False, False, True]


def test_verb_untap_kiora_untaps_one_target_permanent_701_21b(bundled, contract):
    game = game_of(bundled, Scripted(loyalty=cost_is(-1)))
    kiora = on_battlefield(game, contract["Kiora, Behemoth Beckoner"])
    [land] = lands(game, bundled, 1)
    game.drivers.policy = Scripted(loyalty=cost_is(-1), target=land)
    turns.loyalty_step(game, 0)
    assert (kiora.loyalty, land.tapped) == (6, False)


def test_verb_untap_all_spares_the_others_and_up_to_n_targets_may_have_none_701_21b(bundled):
    walker = build_from_lines(["Name: Test Walker", "Type: Legendary Planeswalker — Test", "Loyalty: 3",
                               "Plus: +1: untap_all filter=\"creature yours\"",
                               "Minus: -1: untap_targets filter=forest target_count=4 up_to=true"], "test")
    game = game_of(bundled, Scripted(loyalty=cost_is(-1)))
    p = on_battlefield(game, walker)
    assert [a[0].cost for _, a in turns.loyalty_options(game, 0)] == [1, -1]  # "up to four": none is enough
    forests = lands(game, bundled, 5)
    turns.loyalty_step(game, 0)
    assert p.loyalty == 2 and sum(not f.tapped for f in forests) == 4
    mine = put(game, bundled, "Zombie", side="team", player=0, tapped=True)
    theirs = put(game, bundled, "Zombie", side="team", player=1, tapped=True)
    horde = put(game, bundled, "Zombie", tapped=True)
    game.turn += 2
    game.drivers.policy = Scripted(loyalty=cost_is(1))
    turns.loyalty_step(game, 0)
    assert (mine.tapped, theirs.tapped, horde.tapped) == (False, True, True)


def test_verb_untap_targets_of_the_horde_are_chosen_at_random_h9(bundled, contract):
    game = game_of(bundled)
    zombies = [put(game, bundled, "Zombie", tapped=True) for _ in range(3)]
    effect = contract["Argothian Elder"].abilities("Activated")[0][0]
    from horde.engine.filters import Context

    rules.resolve(game, (effect,), Context(contract["Argothian Elder"], None, HORDE))
    assert sum(not z.tapped for z in zombies) == 0  # lands only: the Zombies stay tapped
    forests = lands(game, bundled, 3, player=0)
    rules.resolve(game, (effect,), Context(contract["Argothian Elder"], None, HORDE))
    assert sum(not f.tapped for f in forests) == 2  # H9: two of the team's lands, at random


# ---------------------------------------------------------------- emblems (114)


def test_verb_emblem_114_elspeths_emblem_is_an_anthem_of_its_player_for_the_rest_of_the_game(bundled, contract):
    game = game_of(bundled, Scripted(loyalty=cost_is(-7)))
    elspeth = on_battlefield(game, contract["Elspeth, Sun's Champion"])
    elspeth.loyalty = 7
    mine = put(game, bundled, "Zombie", side="team", player=0)
    theirs = put(game, bundled, "Zombie", side="team", player=1)
    horde = put(game, bundled, "Zombie")
    turns.loyalty_step(game, 0)
    assert elspeth not in game.battlefield.team  # 704.5i: no loyalty left
    later = put(game, bundled, "Zombie", side="team", player=0)
    for p, expected in ((mine, (4, 4, True)), (later, (4, 4, True)), (theirs, (2, 2, False)), (horde, (2, 2, False))):
        assert (power(game, p), toughness(game, p), "flying" in keywords(game, p)) == expected


def test_114_an_emblem_the_compiler_does_not_play_is_refused_with_the_reason(bundled):
    tokens = bundled.tokens
    other = compile_text('\u22128: You get an emblem with "Whenever a player draws a card, you lose 2 life."',
                         WALKER, tokens)
    assert other.lines == [] and list(other.why.values()) == [
        "not expressible: an emblem whose ability is not an anthem (114): "
        "'Whenever a player draws a card, you lose 2 life.'"]
    opponent = compile_text('[\u22128]: Target opponent gets an emblem with "Creatures you control get +1/+1."',
                            WALKER, tokens)
    assert list(opponent.why.values()) == ["not expressible: an emblem an opponent gets (114)"]


# ---------------------------------------------------------------- loyalty lines and scry (606, 701.22)


def test_606_loyalty_costs_in_every_spelling_and_701_22_scry(bundled, contract):
    text = "[+1]: Scry 1, then draw a card.\n[\u22122]: Draw a card.\n[0]: Scry 2.\n\u22127: Draw seven cards."
    assert compile_text(text, WALKER, bundled.tokens).lines == [
        "Plus: +1: scry count=1 ; draw who=you count=1", "Minus: -2: draw who=you count=1",
        "Plus: 0: scry count=2", "Ultimate: -7: draw who=you count=7"]
    game = game_of(bundled, Scripted(loyalty=cost_is(-1), target=lambda d: d.options[0],
                                     scry=lambda d: list(d.options)))
    samut = on_battlefield(game, contract["Samut, Tyrant Smasher"])
    zombie = put(game, bundled, "Zombie", side="team", player=0)
    library = game.players[0].library
    top, below = library[-1], library[-2]
    turns.loyalty_step(game, 0)
    assert samut.loyalty == 4 and (power(game, zombie), toughness(game, zombie)) == (4, 3)
    assert library[0] is top and library[-1] is below  # scry 1: the top card went to the bottom

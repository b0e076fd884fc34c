"""Two misplays an outside reading of a whole expert game found (a team that drew from an empty
library at 62 life; a death ping aimed at its own creature while the Horde, its library empty,
had nothing worth it), each on a small board with the answer the rules make right."""

from __future__ import annotations

from conftest import put

from horde.cards.catalogue import build_from_lines
from horde.engine import rules
from horde.engine.decisions import Decision
from horde.team import reading
from horde.team.policies import BaselinePolicy, TeamView

DRAW_PER_CREATURE = build_from_lines(["Name: Test Unconscious", "Cost: {4}{G}{G}", "Type: Sorcery",
                                      'Cast: draw count="count:creature yours"'], "test")
FOG = build_from_lines(["Name: Test Fog", "Cost: {G}", "Type: Instant", "Cast: fog"], "test")
PING = build_from_lines(["Name: Test Diva", "Cost: {1}{B}{R}", "Type: Legendary Creature — Human", "PT: 4/2",
                         "CreatureDies: damage amount=1 target=any when=\"creature nontoken yours\""], "test")


def test_704_5b_no_draw_spell_that_draws_more_than_the_library_holds(make_game, catalogue):
    """Three creatures and two cards in the library: drawing three loses the game (704.5b: the
    player drew from an empty library; H1: the team with it). With ten cards it draws."""
    game = make_game(players=1)
    for _ in range(3):
        put(game, catalogue, "Grizzly Bears", side="team")
    player = game.players[0]
    player.hand[:] = [DRAW_PER_CREATURE]
    player.library[:] = player.library[:2] if len(player.library) >= 2 else player.library
    assert len(player.library) == 2
    assert reading.draw_wasted(DRAW_PER_CREATURE, 0, TeamView(game))
    player.library[:] = [catalogue.get("Forest")] * 10
    assert not reading.draw_wasted(DRAW_PER_CREATURE, 0, TeamView(game))


def test_H11_a_ping_with_nothing_worth_it_goes_to_the_horde_not_a_team_creature(make_game, catalogue):
    """The Horde's library is empty and it has no creature: 1 damage to the Horde mills nothing
    and costs the team nothing (H11), where 1 damage to the team's own 1/1 kills it."""
    game = make_game(players=1)
    game.horde.library.clear()
    bear = put(game, catalogue, "Grizzly Bears", side="team")
    decision = Decision("target", 0, [bear, "horde"], subject=PING)
    assert BaselinePolicy().choose(decision, TeamView(game)) == "horde"


def test_H8_many_attackers_go_past_a_lone_untapped_blocker_few_stay_home(make_game, catalogue):
    """An untapped Grave Titan (a lieutenant acting instead of attacking stays untapped the same
    way) blocks one attacker at random and kills it (H8, H9). Six 2/2s: one is lost now and then,
    the other five mill 10 cards every time, so all six attack; two 2/2s: one of the two is lost
    half the time for 2 cards, so both stay home."""
    game = make_game(players=2)
    game.horde.library[:] = [catalogue.get("Zombie")] * 40
    put(game, catalogue, "Grave Titan")
    bears = [put(game, catalogue, "Grizzly Bears", side="team") for _ in range(6)]
    decision = Decision("attackers", -1, bears, count=len(bears))
    assert BaselinePolicy().choose(decision, TeamView(game)) == bears
    decision = Decision("attackers", -1, bears[:2], count=2)
    assert BaselinePolicy().choose(decision, TeamView(game)) == []


def test_H8_creatures_that_cant_attack_still_block_so_the_attackers_go(make_game, catalogue):
    """Two tapped Grave Titans will attack for 12 next turn (16 with a reveal) at 18 life: two
    summoning-sick Bears stay home and block both anyway, so both ready Bears attack (an outside
    reader saw a team keep everything home with seven blockers ready). Without them, one stays."""
    game = make_game(players=1)
    game.horde.library[:] = [catalogue.get("Zombie")] * 40
    game.team_life = 18
    for _ in range(2):
        put(game, catalogue, "Grave Titan", tapped=True)
    ready = [put(game, catalogue, "Grizzly Bears", side="team") for _ in range(2)]
    decision = Decision("attackers", -1, ready, count=2)
    assert len(BaselinePolicy().choose(decision, TeamView(game))) == 1
    for _ in range(2):
        put(game, catalogue, "Grizzly Bears", side="team", sick=True)
    assert BaselinePolicy().choose(decision, TeamView(game)) == ready


def test_H8_a_fog_kept_for_the_next_attack_lets_every_creature_attack(make_game, catalogue):
    """The same board with a Fog in hand and a Forest to cast it: the Horde's next attack deals
    no combat damage, so no Bear need stay home."""
    game = make_game(players=1)
    game.horde.library[:] = [catalogue.get("Zombie")] * 40
    game.team_life = 18
    for _ in range(2):
        put(game, catalogue, "Grave Titan", tapped=True)
    ready = [put(game, catalogue, "Grizzly Bears", side="team") for _ in range(2)]
    put(game, catalogue, "Forest", side="team")
    game.players[0].hand[:] = [FOG]
    decision = Decision("attackers", -1, ready, count=2)
    assert BaselinePolicy().choose(decision, TeamView(game)) == ready


ROCK = build_from_lines(["Name: Test Diamond", "Cost: {2}", "Type: Artifact", "Mana: C"], "test")
REMOVAL = build_from_lines(["Name: Test Cast Down", "Cost: {1}{B}", "Type: Instant",
                            'Cast: destroy target="creature nonlegendary"'], "test")
EDICT = build_from_lines(["Name: Test Barter", "Cost: {3}{B}{B}", "Type: Sorcery",
                          "Cast: each_player_sacrifices filter=creature count=2 who=each_player"], "test")


def test_402_2_an_answer_is_the_last_spell_discarded(make_game, catalogue):
    """An outside reading saw a Fog discarded for a Moss Diamond with six lands out, and Cast Down
    for Barter in Blood with the team's board bigger: the mana rock goes, then the edict, and the
    answers stay (a creature goes before removal)."""
    game = make_game(players=1)
    for land in ("Swamp", "Forest") * 3:
        put(game, catalogue, land, side="team")
    for _ in range(3):
        put(game, catalogue, "Grizzly Bears", side="team")
    bears = catalogue.get("Grizzly Bears")
    view = TeamView(game)
    player = game.players[0]
    for hand, gone in (([FOG, ROCK], ROCK), ([REMOVAL, EDICT], EDICT), ([REMOVAL, bears], bears)):
        player.hand[:] = hand
        decision = Decision("discard", 0, list(hand))
        assert BaselinePolicy().choose(decision, view) is gone


def test_702_25a_a_block_of_a_flanking_attacker_is_read_after_its_minus_one(make_game, catalogue):
    """Two outside readings saw Tolsimir block a flanking Cadaverous Knight and die while the Knight
    lived: a 2/3 blocking a 2/2 with flanking is a 1/2 as damage is dealt, so it dies and kills
    nothing; a 2/3 with flanking of its own is not shrunk, and trades up."""
    from horde.team import tactics

    flanker = build_from_lines(["Name: Test Flanker", "Cost: {1}{B}", "Type: Creature — Zombie Knight", "PT: 2/2",
                                "Keywords: flanking"], "test")
    wall = build_from_lines(["Name: Test Guard", "Cost: {2}{W}", "Type: Creature — Human", "PT: 2/3"], "test")
    knight = build_from_lines(["Name: Test Rider", "Cost: {2}{W}", "Type: Creature — Human Knight", "PT: 2/3",
                               "Keywords: flanking"], "test")
    game = make_game(players=1)
    a = rules.put_onto_battlefield(game, flanker, -1, -1, triggers=False)
    a.attacking = True
    guard = rules.put_onto_battlefield(game, wall, 0, 0, triggers=False)
    rider = rules.put_onto_battlefield(game, knight, 0, 0, triggers=False)
    plan = tactics._Blocks(Decision("blocks", -1, [(guard, a), (rider, a)], subject=(a,), count=2), TeamView(game))
    assert not plan.survives(guard, a) and not plan.kills(guard, a)
    assert plan.survives(rider, a) and plan.kills(rider, a)

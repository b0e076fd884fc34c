"""Drafted and sealed team decks (RULES.md X1): packs passed left, right, left; pack, pool and deck
sizes; decks of picks plus basic lands; the same seed giving the same draft; the heuristic
drafter's choices on tiny packs; bad cubes and drafters refused in one line."""

from __future__ import annotations

from random import Random

import pytest
from click.testing import CliRunner

from horde.cards.catalogue import bundled_catalogue
from horde.cards.decks import load_banlist
from horde.cli import cli
from horde.errors import DeckError, HordeError
from horde.play import play_game, prepare, stream
from horde.setup import SetupError, make_setup
from horde.team import draft


@pytest.fixture(scope="module")
def cube():
    return draft.load_cube("horde-cube", bundled_catalogue())


class FirstCard(draft.Drafter):
    """Takes the first card of every pack; builds from the first 40 cards of its pool."""

    def pick(self, pack, picks):
        return 0

    def build(self, pool, basics):
        return list(pool[:40])


class OutOfPack(FirstCard):
    def pick(self, pack, picks):
        return len(pack)


class Stealer(FirstCard):
    def build(self, pool, basics):
        return [bundled_catalogue().get("Lightning Bolt")] * 40


def names(cards):
    return [card.name for card in cards]


def test_X1_the_bundled_cube_is_big_enough_for_a_table_of_eight(cube):
    assert len(cube.cards) == 376  # singleton: each card once
    assert len({card.name for card in cube.cards}) == 376
    assert len(cube.cards) >= draft.SOLO_SEATS * 3 * draft.PACK_SIZE == 360
    assert not any(card.is_land or card.is_token for card in cube.cards)
    assert not {card.name for card in cube.cards} & load_banlist("default")  # R3: nothing a player must discard


def test_X1_packs_pass_left_then_right_then_left(cube):
    """905.1a-b: with a drafter taking each pack's first card, seat s's k-th pick of a round comes
    from the pack seat (s - k) opened in the first and third rounds (passed left, to the next
    seat), and from the pack seat (s + k) opened in the second (passed right)."""
    seats, seed = 3, 11
    table = draft.draft(cube, seats, seats, FirstCard, Random(seed))
    shuffled = list(cube.cards)
    Random(seed).shuffle(shuffled)  # the draft shuffles first, and FirstCard draws no number

    def opened(round_index, seat):
        start = (round_index * seats + seat) * 15
        return shuffled[start:start + 15]

    for seat in table.seats:
        assert [(r, k) for r, k, _ in seat.picks] == [(r, k) for r in (1, 2, 3) for k in range(1, 16)]
        for round_number, pick, card in seat.picks:
            step = -1 if round_number == 2 else 1
            k = pick - 1
            assert card is opened(round_number - 1, (seat.index - k * step) % seats)[k]
    # Exact: seat 2 (index 1) opens its own pack, then takes from seat 1's in round 1, seat 3's in round 2.
    second = table.seats[1].picks
    assert second[0][2] is opened(0, 1)[0]
    assert second[1][2] is opened(0, 0)[1]
    assert second[16][2] is opened(1, 2)[1]
    assert second[31][2] is opened(2, 0)[1]


def test_X1_every_drafter_keeps_45_picks_and_each_card_is_drafted_once(cube):
    table = draft.draft(cube, 8, 1, draft.HeuristicDrafter, Random(5))
    assert [len(seat.pool) for seat in table.seats] == [45] * 8
    drafted = [id(card) for seat in table.seats for card in seat.pool]
    assert len(drafted) == len(set(drafted)) == 360
    assert [seat.player for seat in table.seats] == [True] + [False] * 7
    assert table.seats[0].deck is not None and all(seat.deck is None for seat in table.seats[1:])
    assert len(table.seats[0].picks) == 45 and table.seats[1].picks == []  # bots' picks are not kept


def test_X1_a_deck_is_40_cards_of_its_picks_plus_basic_lands(cube):
    """905.1d: 23 cards of the pool, in two colours (and colourless ones), and 17 basic lands
    split by the spells' pips."""
    table = draft.draft(cube, 4, 4, draft.HeuristicDrafter, Random(8))
    basics = set(draft.BASICS.values())
    for seat in table.seats:
        deck = seat.deck
        assert deck is not None and len(deck) == draft.DECK_SIZE
        spells = [c for c in deck if c.name not in basics]
        lands = [c for c in deck if c.name in basics]
        assert (len(spells), len(lands)) == (23, 17)
        pool_ids = [id(c) for c in seat.pool]
        assert all(pool_ids.count(id(c)) >= 1 for c in spells)
        colours = {colour for card in spells for colour in card.colours}
        assert len(colours) <= 2
        assert {land.name for land in lands} <= {draft.BASICS[c] for c in colours}


def test_X1_basic_lands_follow_the_pips():
    catalogue = bundled_catalogue()
    basics = {colour: catalogue.get(name) for colour, name in draft.BASICS.items()}
    spells = [catalogue.get("Serra Angel")] * 5 + [catalogue.get("Counterspell")] * 2  # 10 W, 4 U pips
    lands = draft.basic_lands(spells, 17, basics)
    # 17 x 10/14 = 12.14, 17 x 4/14 = 4.86: 12 Plains and 4 Islands, the larger remainder gets the 17th
    assert names(lands) == ["Plains"] * 12 + ["Island"] * 5
    assert draft.basic_lands([catalogue.get("Ornithopter")], 3, basics) == [basics["W"]] * 3


def test_X1_sealed_pools_are_90_75_60_and_90_for_one_player(cube):
    assert draft.SEALED_POOL == {1: 90, 2: 90, 3: 75, 4: 60}
    for players, size in draft.SEALED_POOL.items():
        table = draft.sealed(cube, players, size, draft.HeuristicDrafter, Random(players))
        assert [len(seat.pool) for seat in table.seats] == [size] * players
        assert all(seat.deck is not None and len(seat.deck) == 40 for seat in table.seats)
        dealt = [id(card) for seat in table.seats for card in seat.pool]
        assert len(set(dealt)) == players * size  # dealt from one shuffled cube, no card twice


def test_X1_seats_and_pools_of_a_setup():
    assert draft.seats_of(make_setup(players=1, team_decks="draft")) == 8
    assert [draft.seats_of(make_setup(players=p, team_decks="draft")) for p in (2, 3, 4)] == [2, 3, 4]
    assert draft.seats_of(make_setup(players=2, team_decks="draft", draft_seats=6)) == 6
    assert draft.pool_size_of(make_setup(players=3, team_decks="sealed")) == 75
    assert draft.pool_size_of(make_setup(players=3, team_decks="sealed", sealed_pool=45)) == 45
    with pytest.raises(SetupError, match="draft_seats"):
        make_setup(players=3, team_decks="draft", draft_seats=2)


def test_X1_the_same_seed_gives_the_same_draft_and_other_seeds_differ():
    prepared = prepare(make_setup("zombie-horde", players=2, team_decks="draft"))
    first = [names(deck.cards) for deck in prepared.decks_for(7)]
    assert [names(deck.cards) for deck in prepared.decks_for(7)] == first
    assert [names(deck.cards) for deck in prepared.decks_for(8)] != first
    assert play_game(prepared, 7).record() == play_game(prepared, 7).record()
    sealed = prepare(make_setup("zombie-horde", players=2, team_decks="sealed"))
    assert [names(d.cards) for d in sealed.decks_for(7)] == [names(d.cards) for d in sealed.decks_for(7)]
    assert [names(d.cards) for d in sealed.decks_for(7)] != [names(d.cards) for d in sealed.decks_for(9)]


def test_X1_drafting_leaves_the_horde_side_of_a_seed_alone():
    """The draft has its own stream: the Horde's library of a seed is the one fixed decks see."""
    from horde.play import new_game

    fixed = new_game(prepare(make_setup("zombie-horde", players=2)), 5)
    drafted = new_game(prepare(make_setup("zombie-horde", players=2, team_decks="draft")), 5)
    assert names(drafted.horde.library) == names(fixed.horde.library)
    assert [p.deck_size for p in drafted.players] == [40, 40]
    assert stream(5, "draft").random() != stream(5, "horde").random()


def test_X1_the_setup_hash_of_fixed_decks_is_unchanged():
    """The draft's knobs are recorded but left out of the hash at their defaults (LATER_KNOBS):
    the hashes of setups with fixed decks are those published before them."""
    setup = make_setup("zombie-horde", players=3)
    assert {"cube", "drafter", "draft_seats", "sealed_pool"} <= set(setup.to_dict())
    assert (setup.digest(), make_setup("knudson-2011", players=1).digest()) == ("30c075151da9", "bdea7e513085")
    assert make_setup(players=3, team_decks="draft").digest() != make_setup(players=3, team_decks="sealed").digest()


def test_X1_heuristic_commits_to_its_colours_and_fills_its_curve():
    catalogue = bundled_catalogue()
    get = catalogue.get
    drafter = draft.HeuristicDrafter()
    # Before commit_after picks it takes the best rating: Lightning Bolt (3.3) over Serra Angel.
    assert draft.rating(get("Lightning Bolt")) > draft.rating(get("Serra Angel"))
    assert drafter.pick((get("Serra Angel"), get("Lightning Bolt")), ()) == 1
    # After five white and blue picks it is committed: Serra Angel over the red Lightning Bolt.
    picks = (get("Wild Griffin"), get("Wind Drake"), get("Sunspire Griffin"), get("Storm Crow"), get("Glory Seeker"))
    assert draft.HeuristicDrafter().pick((get("Lightning Bolt"), get("Serra Angel")), picks) == 1
    # A filled curve slot costs curve_penalty: with seven two-drops already, a three-drop of lower rating wins.
    twos = tuple(get(n) for n in ("Glory Seeker", "Silvercoat Lion", "Storm Crow", "Mesa Unicorn", "Coral Merfolk",
                                  "Maritime Guard", "Youthful Knight"))
    bear, three = get("Steadfast Guard"), get("Wind Drake")  # WW 2/2 vigilance 1.86, 2U 2/2 flier 1.78
    assert draft.rating(bear) > draft.rating(three)
    assert draft.HeuristicDrafter().pick((bear, three), twos) == 1
    assert draft.HeuristicDrafter().pick((bear, three), twos[:5]) == 0


def test_X1_a_drafter_plugs_in_by_module_and_class():
    setup = make_setup("zombie-horde", players=1, team_decks="draft", drafter="test_draft:FirstCard")
    decks = prepare(setup).decks_for(3)
    assert len(decks) == 1 and len(decks[0].cards) == 40
    assert draft.drafter_class("random") is draft.RandomDrafter
    with pytest.raises(HordeError, match="unknown drafter 'best'"):
        prepare(make_setup(players=1, team_decks="draft", drafter="best"))
    with pytest.raises(HordeError, match="defines no class 'Nothing'"):
        draft.drafter_class("test_draft:Nothing")


def test_X1_a_drafter_is_checked(cube):
    with pytest.raises(draft.DraftError, match="pick 15 is not the index of a card of the pack"):
        draft.draft(cube, 2, 2, OutOfPack, Random(1))
    with pytest.raises(draft.DraftError, match="'Lightning Bolt', which is not"):
        draft.sealed(cube, 1, 90, Stealer, Random(1))


def test_X1_a_cube_too_small_for_the_table_is_refused(tmp_path):
    path = tmp_path / "small.txt"
    path.write_text("1 Grizzly Bears\n1 Shock\n")
    with pytest.raises(HordeError) as error:
        prepare(make_setup(players=2, team_decks="draft", cube=str(path)))
    assert error.value.one_line() == f"{path}: the cube has 2 cards: a draft of 2 drafters need 90 (3 packs of 15 " \
                                     "each, X1)"
    with pytest.raises(HordeError, match="sealed pools for 4 players need 240"):
        prepare(make_setup(players=4, team_decks="sealed", cube=str(path)))


@pytest.mark.parametrize(("text", "line", "expected"), [
    ("1 Grizzly Bears\n1 Grizly Bears\n", 2, "unknown card 'Grizly Bears'"),
    ("1 Grizzly Bears\n10 Forest\n", 2, "'Forest' is a basic land: expected the cards to draft"),
    ("1 Zombie\n", 1, "'Zombie' is a token"),
    ("Sideboard\n1 Shock\n", 2, "a cube is one list of cards: expected card lines, found a 'sideboard' section"),
    ("1 Shock\nfour Shock\n", 2, ""),
])
def test_X1_bad_cube_lines_name_the_file_and_line(tmp_path, text, line, expected):
    path = tmp_path / "cube.txt"
    path.write_text(text)
    with pytest.raises(DeckError) as error:
        draft.load_cube(str(path), bundled_catalogue())
    assert error.value.one_line().startswith(f"{path}:{line}: ")
    assert expected in error.value.one_line()


def test_X1_cli_draft_prints_the_picks_and_the_decks():
    result = CliRunner().invoke(cli, ["draft", "--seed", "3", "--players", "2"])
    assert result.exit_code == 0, result.output
    assert "a table of 2, 3 packs of 15, passing left, right, left" in result.output
    assert result.output.count("round 2 (passing right): 1 ") == 2
    assert result.output.count("deck (40 cards: 23 spells, 17 basic lands)") == 2
    solo = CliRunner().invoke(cli, ["draft", "--seed", "3", "--players", "1"])
    assert "Seats 2-8: seeded bot drafters (heuristic)" in solo.output
    sealed = CliRunner().invoke(cli, ["draft", "--seed", "3", "--players", "3", "--sealed"])
    assert sealed.output.count("pool (75): ") == 3
    again = CliRunner().invoke(cli, ["draft", "--seed", "3", "--players", "2"])
    assert again.output == result.output


def test_X1_cli_bad_cube_and_conflicting_decks_are_one_line(tmp_path):
    path = tmp_path / "cube.txt"
    path.write_text("1 Grizzly Bears\n1 Nonesuch\n")
    result = CliRunner().invoke(cli, ["draft", "--cube", str(path)])
    assert result.exit_code == 2
    assert result.output.startswith(f"error: {path}:2: unknown card 'Nonesuch'") and result.output.count("\n") == 1
    both = CliRunner().invoke(cli, ["simulate", "--games", "2", "--team-decks", "draft", "--team", "go-wide"])
    assert both.exit_code == 2 and "--team-decks draft and --team name the team decks twice" in both.output


def test_X1_simulate_with_drafted_and_sealed_decks():
    for mode in ("draft", "sealed"):
        result = CliRunner().invoke(cli, ["simulate", "--games", "8", "--seed", "2", "--players", "2", "--workers",
                                          "1", "--quiet", "--team-decks", mode])
        assert result.exit_code == 0, result.output
        assert "games        8" in result.output

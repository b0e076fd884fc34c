"""The Oracle-text compiler: every bundled card's text compiled and compared with its hand-written
model (none may differ), templates on texts nobody on the project wrote, refusals quoted."""

from __future__ import annotations

import pytest

from horde.cards.catalogue import behaviour, build_from_lines, bundled_catalogue, recall
from horde.cards.oracle import Facts, compile_text

CREATURE = frozenset({"Creature"})


@pytest.fixture(scope="module")
def bundled():
    return bundled_catalogue()


def lines(text, name="Test Card", types=CREATURE, subtypes=(), **facts):
    compiled = compile_text(text, Facts(name, frozenset(types), frozenset(subtypes), **facts),
                            bundled_catalogue().tokens)
    return compiled.lines if compiled.ok else ("unread", compiled.unread)


def test_compiled_bundled_cards_play_exactly_as_their_hand_written_models(bundled, capsys):
    report = recall(bundled)
    with capsys.disabled():
        print("\n" + report.describe())
    assert report.differ == []
    assert report.rate >= 0.6
    assert report.total == len(bundled.cards)


def test_every_bundled_card_with_rules_has_its_oracle_text(bundled):
    for card in bundled.cards.values():
        if card.hooks or card.mana and "Basic" not in card.supertypes:
            assert card.text, f"{card.name} has behaviour but no Text:"


def test_the_card_name_this_creature_and_the_legacy_template_read_alike():
    expected = ["Enters: discard who=each_opponent count=1"]
    assert lines("When Fleshbag Marauder enters, each opponent discards a card.", "Fleshbag Marauder") == expected
    assert lines("When this creature enters, each opponent discards a card.") == expected
    assert lines("When Test Card enters the battlefield, each opponent discards a card.") == expected


def test_templates_on_texts_nobody_here_wrote():
    assert lines("Other Zombies you control get +1/+1.") == ['Static: anthem filter="zombie other yours" power=1 toughness=1']
    assert lines("Whenever this creature attacks, create two 2/2 black Zombie creature tokens.") == \
        ["Attacks: create_tokens token=Zombie count=2"]
    assert lines("{T}, Sacrifice another creature: Draw a card.") == \
        ["Activated: {T}, sacrifice another creature -> draw who=you count=1"]
    assert lines("Flying, haste\nWhen this creature dies, it deals 2 damage to any target.") == \
        ["Keywords: flying, haste", "Dies: damage amount=2 target=any"]
    assert lines("Menace\nAt the beginning of your upkeep, each opponent loses 1 life and you gain 1 life.") == \
        ["Keywords: menace", "Upkeep: lose_life who=each_opponent amount=1 ; gain_life amount=1"]
    assert lines("Destroy target creature an opponent controls. You gain 3 life.", types={"Sorcery"}) == \
        ['Cast: destroy target="creature opponents" ; gain_life amount=3']
    assert lines("Create X 1/1 white Soldier creature tokens.", types={"Sorcery"}, x_cost=True) == \
        ["Cast: create_tokens token=Soldier count=X"]
    assert lines("Whenever another Goblin you control dies, each opponent loses 1 life.") == \
        ['CreatureDies: lose_life who=each_opponent amount=1 when="goblin other yours"']


def test_unknown_parts_refuse_the_whole_ability():
    # A trigger with no hook, a new token, an "and" in a noun, a keyword with a cost: each refused, quoted.
    assert lines("Whenever you gain life, draw a card.") == ("unread", ["Whenever you gain life, draw a card"])
    assert lines("When ~ enters, create a X/X green Ooze creature token.")[0] == "unread"  # X set by the card
    assert lines('When ~ enters, create a 1/1 red Goblin creature token with "When this creature dies, draw a '
                 'card."')[0] == "unread"  # an ability no described token can have
    assert lines("Destroy target artifact and enchantment.", types={"Instant"})[0] == "unread"
    assert lines("Ninjutsu {2}")[0] == "unread"
    assert lines("Cycling {2}") == ["Cycling: {2}"]
    # One understood sentence does not make its ability: the next one is refused with it.
    assert lines("When ~ enters, draw a card. Then put a card from your hand on top of your library.") == \
        ("unread", ["Then put a card from your hand on top of your library"])


def test_or_in_a_noun_phrase_is_a_filter_with_alternatives():
    assert lines("Destroy target artifact or enchantment.", types={"Instant"}) == \
        ['Cast: destroy target="artifact | enchantment"']
    assert lines("Destroy target creature or planeswalker an opponent controls.", types={"Instant"}) == \
        ['Cast: destroy target="creature opponents | planeswalker opponents"']


def test_target_player_and_target_opponent_are_one_target():
    assert lines("When ~ enters, target player discards a card.") == ["Enters: discard who=target_player count=1"]
    assert lines("Target player draws two cards and loses 2 life.", types={"Sorcery"}) == \
        ["Cast: draw who=target_player count=2 ; lose_life who=target_player amount=2"]
    assert lines("When ~ enters, target opponent loses 2 life.") == ["Enters: lose_life who=target_opponent amount=2"]
    # Two different targets in one ability are beyond the vocabulary.
    assert lines("Target player draws a card and target opponent loses 1 life.", types={"Sorcery"})[0] == "unread"


def test_a_star_creature_needs_its_count():
    assert lines("~'s power and toughness are each equal to the number of cards in your hand.", pt_star=True) == \
        ["Static: pt_equals amount=hand:yours"]
    assert lines("~'s power and toughness are each equal to the number of lands you control.", pt_star=True) == \
        ['Static: pt_equals amount="count:land yours"']
    assert lines("~'s power and toughness are each equal to the number of creature cards in all graveyards.",
                 pt_star=True) == ["Static: pt_equals amount=graveyard:creature"]
    assert lines("~'s power and toughness are each equal to the number of cards in all hands.", pt_star=True)[0] == \
        "unread"


def test_for_each_counts_are_amounts_of_any_verb():
    assert lines("When ~ enters, draw a card for each Zombie you control.") == \
        ['Enters: draw who=you count="count:zombie yours"']
    assert lines("When ~ enters, each opponent loses 2 life for each creature card in your graveyard.") == \
        ['Enters: lose_life who=each_opponent amount="2*graveyard:creature yours"']
    assert lines("~ enters with a +1/+1 counter on it for each other Zombie you control and each Zombie card in your "
                 "graveyard.") == ['Enters: counters on=self count="count:zombie other yours+graveyard:zombie yours"']


def test_kicker_reads_its_cost_its_condition_and_its_instead():
    assert lines("Kicker {4}\nBurst Lightning deals 2 damage to any target. If this spell was kicked, it deals 4 "
                 "damage instead.", "Burst Lightning", types={"Instant"}) == \
        ["Kicker: {4}", 'Cast: damage amount="2+2*kicked" target=any']
    assert lines("Multikicker {B}\nWhen ~ enters, target opponent discards a card for each time it was kicked.") == \
        ["Multikicker: {B}", "Enters: discard who=target_opponent count=kicked"]
    assert lines("Kicker {R}\nWhen ~ enters, if it was kicked, each opponent loses 2 life.") == \
        ["Kicker: {R}", "Enters: lose_life who=each_opponent amount=2 if=kicked"]


def test_compiled_lines_go_through_the_card_loader(bundled):
    card = build_from_lines(["Name: Test Zombie", "Cost: {2}{B}", "Type: Creature — Zombie", "PT: 2/2"]
                            + lines("When ~ enters, each player mills three cards.", "Test Zombie"), "compiled")
    titan = bundled.get("Sibsig Host")
    assert behaviour(card)["hooks"] == behaviour(titan)["hooks"]


def test_ability_words_are_dropped_and_it_is_the_card_only_in_its_own_triggers():
    assert lines("Raid — When ~ enters, draw a card.") == ["Enters: draw who=you count=1"]
    assert lines("When ~ dies, it deals 3 damage to any target.") == ["Dies: damage amount=3 target=any"]
    # Here "it" is the spell cast or the creature that died, not this card.
    assert lines("Whenever a player casts a spell, it deals 1 damage to any target.")[0] == "unread"
    assert lines("Whenever another creature you control dies, it gets +1/+1 until end of turn.")[0] == "unread"


MINUS = "\u2212"


def test_606_loyalty_abilities_as_mtgjson_writes_them(bundled):
    """MTGJSON writes a loyalty cost in brackets with a real minus sign: '[+2]: ...', '[−1]: ...'."""
    jace = bundled.get("Jace Beleren")
    text = (f"[+2]: Each player draws a card.\n[{MINUS}1]: Target player draws a card.\n"
            f"[{MINUS}10]: Target player mills twenty cards.")
    compiled = compile_text(text, Facts(jace.name, jace.types, jace.subtypes, jace.supertypes), bundled.tokens)
    assert compiled.ok
    card = build_from_lines(["Name: Jace Beleren", "Cost: {1}{U}{U}", "Type: Legendary Planeswalker — Jace",
                             "Loyalty: 3"] + compiled.lines, "compiled")
    assert behaviour(card) == behaviour(jace)
    assert lines(f"[0]: Draw a card.\n[{MINUS}3]: Destroy target creature.", types={"Planeswalker"}) == \
        ["Plus: 0: draw who=you count=1", "Minus: -3: destroy target=creature"]


def test_a_characteristic_defining_ability_of_a_star_creature():
    """604.3: '~'s power and toughness are each equal to ...' (Crusader of Odric, as MTGJSON writes it)."""
    assert lines("Crusader of Odric's power and toughness are each equal to the number of creatures you control.",
                 "Crusader of Odric", pt_star=True) == ['Static: pt_equals amount="count:creature yours"']
    # Not on a creature whose power and toughness are printed.
    assert lines("~'s power and toughness are each equal to the number of creatures you control.")[0] == "unread"


def test_the_abilities_read_are_kept_beside_the_sentences_not_read():
    """An ability is read whole or not at all; the others of the text are still read (what an
    approximated card plays), and a planeswalker's unread ability keeps its place for B3."""
    compiled = compile_text(f"[+1]: Draw a card. Target player mills a card.\n[0]: Target player mills ten cards.\n"
                            f"[{MINUS}7]: Any number of target players each draw twenty cards.",
                            Facts("Jace, Memory Adept", frozenset({"Planeswalker"})), bundled_catalogue().tokens)
    assert compiled.unread == ["-7: Any number of target players each draw twenty cards"]
    assert compiled.lines == ["Plus: +1: draw who=you count=1 ; mill who=target_player count=1",
                              "Plus: 0: mill who=target_player count=10"]


@pytest.mark.parametrize("name, text, types", [
    ("Mystic Snake", "Flash\nWhen Mystic Snake enters, counter target spell.", CREATURE),
    ("Frilled Mystic", "Flash\nWhen Frilled Mystic enters, you may counter target spell.", CREATURE),
    ("Ertai, Wizard Adept", "{2}{U}{U}, {T}: Counter target spell.", CREATURE),
    ("Dromar's Charm", "Choose one —\n• You gain 5 life.\n• Counter target spell.\n• Target creature gets -2/-2 "
                       "until end of turn.", {"Instant"}),
    ("Soul Manipulation", "Choose one or both —\n• Counter target creature spell.\n• Return target creature card "
                          "from your graveyard to your hand.", {"Instant"}),
])
def test_H10_a_counterspell_verb_outside_a_cast_is_refused(name, text, types):
    """H10: a spell is countered only by a counterspell cast as the spell is cast; no spell waits on
    a stack for a triggered, activated or modal ability, so these never claim to be exact."""
    assert lines(text, name, types=types)[0] == "unread"


def test_H10_a_counterspell_with_more_to_do_is_read_whole():
    assert lines("Counter target creature spell. Draw a card.", "Exclude", types={"Instant"}) == \
        ["Cast: counter_spell filter=creature ; draw who=you count=1"]


def test_a_permanent_card_is_a_permanent_card():
    """110.4: 'permanent card' is an artifact, creature, enchantment, land, planeswalker or battle
    card (Obzedat's Aid never returns a sorcery)."""
    assert lines("Return target permanent card from your graveyard to the battlefield.", "Obzedat's Aid",
                 types={"Sorcery"}) == ["Cast: return_from_graveyard filter=permanent to=battlefield count=1"]
    assert lines("Return target card from your graveyard to your hand.", types={"Sorcery"}) == \
        ["Cast: return_from_graveyard filter=any to=hand count=1"]


def test_you_may_is_a_choice():
    """608.2d: 'you may' makes the effect optional; what else the clause says goes with it."""
    assert lines("When Reclamation Sage enters, you may destroy target artifact or enchantment.",
                 "Reclamation Sage") == ['Enters: destroy target="artifact | enchantment" may=true']
    assert lines("When ~ enters, you may draw a card and lose 1 life.") == \
        ["Enters: draw who=you count=1 may=true ; lose_life who=you amount=1 if=done"]
    assert lines("Kicker {R}\nWhen ~ enters, if it was kicked, you may draw a card.") == \
        ["Kicker: {R}", "Enters: draw who=you count=1 may=true if=kicked"]


def test_602_1_sacrifice_this_is_an_activation_cost():
    assert lines("Sacrifice Sakura-Tribe Elder: Search your library for a basic land card, put that card onto the "
                 "battlefield tapped, then shuffle.", "Sakura-Tribe Elder") == \
        ["Activated: sacrifice this -> ramp count=1 tapped=true to_hand=0"]


def test_keyword_grants_until_end_of_turn_without_power_and_toughness():
    assert lines("Target creature gains flying until end of turn.", types={"Instant"}) == \
        ["Cast: pump on=target target=creature keywords=flying"]
    assert lines("Creatures you control gain trample until end of turn.", types={"Sorcery"}) == \
        ['Cast: pump_all filter="creature yours" keywords=trample']
    assert lines("Whenever ~ attacks, it gains first strike until end of turn.") == \
        ['Attacks: pump on=self keywords="first strike"']
    assert lines("Target creature gains shadow until end of turn.", types={"Instant"}) == \
        ["Cast: pump on=target target=creature keywords=shadow"]  # a keyword the engine plays (702.28)
    assert lines("Target creature gains banding until end of turn.", types={"Instant"})[0] == "unread"


def test_603_4_an_intervening_if_is_a_condition_of_each_effect(bundled):
    """Each condition is one entry of CONDITIONS; what no entry reads refuses the ability."""
    assert lines("When ~ enters, if you control a Swamp, draw a card.") == \
        ['Enters: draw who=you count=1 if="count:swamp yours"']
    assert lines("When ~ enters, if you control three or more Zombies, each opponent loses 2 life.") == \
        ['Enters: lose_life who=each_opponent amount=2 if="count:zombie yours >= 3"']
    assert lines("When ~ enters, if an opponent controls an artifact, draw a card and gain 1 life.") == \
        ['Enters: draw who=you count=1 if="count:artifact opponents" ; gain_life amount=1 if="count:artifact opponents"']
    upkeep = lines("At the beginning of your upkeep, if you have no cards in hand, draw a card.")
    assert upkeep == ['Upkeep: draw who=you count=1 if="hand:yours <= 0"']
    card = build_from_lines(["Name: Test", "Cost: {1}", "Type: Creature — Zombie", "PT: 1/1"] + upkeep, "compiled")
    assert card.hooks["Upkeep"][0].condition is not None
    assert lines("When ~ enters, if you attacked this turn, draw a card.")[0] == "unread"


def test_603_6a_whenever_a_or_another_filter_enters():
    """'A creature enters' triggers on the card itself too; 'another' never (the filter's other)."""
    assert lines("Whenever another creature you control enters, you gain 1 life.") == \
        ['PermanentEnters: gain_life amount=1 when="creature other yours"']
    assert lines("Whenever a Zombie you control enters, each opponent loses 1 life.") == \
        ['PermanentEnters: lose_life who=each_opponent amount=1 when="zombie yours"']
    assert lines("Landfall — Whenever a land you control enters, draw a card.") == \
        ['PermanentEnters: draw who=you count=1 when="land yours"']
    assert lines("Whenever a creature with banding enters, draw a card.")[0] == "unread"


def test_702_108_prowess_and_the_keywords_with_nothing_to_do_in_a_game(bundled):
    """Prowess is a SpellCast pump; devoid (702.114) is in the card's colours already; partner
    (702.124) and 'can be your commander' (903.3d) are rules of building a deck."""
    prowess = lines("Prowess (Whenever you cast a noncreature spell, this creature gets +1/+1 until end of turn.)")
    assert prowess == ['SpellCast: pump on=self power=1 toughness=1 when="noncreature yours"']
    card = build_from_lines(["Name: Test", "Cost: {1}{R}", "Type: Creature — Human Monk", "PT: 1/1"] + prowess,
                            "compiled")
    assert [e.describe() for e in card.hooks["SpellCast"]] == \
        ["pump on=self power=1 toughness=1 when=noncreature yours"]
    assert lines("Devoid (This card has no color.)\nFlying") == ["Keywords: flying"]
    assert lines("Partner (You can have two commanders if both have partner.)") == []
    assert lines("Test Card can be your commander.\n[+1]: Draw a card.", types={"Planeswalker"}) == \
        ["Plus: +1: draw who=you count=1"]


def test_303_4a_enchant_any_noun_phrase():
    """An Aura's Enchant reads any noun phrase of the filter grammar (STATICS' entry)."""
    aura = {"types": {"Enchantment"}, "subtypes": ("Aura",)}
    assert lines("Enchant creature or planeswalker\nEnchanted creature gets +2/+2.", **aura) == \
        ["Enchant: creature | planeswalker", "Enchanted: anthem power=2 toughness=2"]
    assert lines("Enchant land you control", **aura) == ["Enchant: land yours"]
    assert lines("Enchant creature")[0] == "unread"  # not an Aura


def test_119_4_discard_and_life_costs_of_activated_abilities():
    assert lines("{1}, {T}, Discard a card: Draw a card.") == \
        ["Activated: {1}, {T}, discard a card -> draw who=you count=1"]
    assert lines("{T}, Pay 2 life: Draw a card.") == ["Activated: {T}, pay 2 life -> draw who=you count=1"]
    assert lines("{T}, Pay 1 life: Add {B}.", types={"Land"}) == ["Mana: {T}, pay 1 life -> B"]  # a mana ability's life cost


def test_whenever_a_creature_you_control_attacks():
    assert lines("Whenever a creature you control attacks, you gain 1 life.") == \
        ['CreatureAttacks: gain_life amount=1 when="creature yours"']


def test_111_4_a_create_clause_defines_the_token_it_describes():
    """A token nobody bundled is defined by the text that creates it, exactly; a bundled token's
    text still names the bundled token, and creates no new one."""
    tokens = bundled_catalogue().tokens
    queen = compile_text("Flying\nDeathtouch\nWhen Hornet Queen enters, create four 1/1 green Insect creature tokens "
                         "with flying and deathtouch.", Facts("Hornet Queen", CREATURE, frozenset({"Insect"})), tokens)
    name = "1/1 green Insect with deathtouch and flying"  # the bundled Insect has no keywords: named by its text
    assert queen.ok and queen.lines == ["Keywords: flying, deathtouch", f'Enters: create_tokens token="{name}" count=4']
    insect = queen.tokens[name]
    assert list(queen.tokens) == [name] and insect is not tokens.get("Insect")
    assert (insect.power, insect.toughness, insect.colours, insect.types, insect.subtypes, insect.supertypes,
            insect.keywords, insect.hooks, insect.cost.value) == (
        1, 1, frozenset("G"), frozenset({"Creature"}), frozenset({"Insect"}), frozenset({"Token"}),
        frozenset({"flying", "deathtouch"}), {}, 0)
    scions = compile_text('Devoid (This card has no color.)\nWhen Brood Monitor enters, create three 1/1 colorless '
                          'Eldrazi Scion creature tokens with "Sacrifice this creature: Add {C}."',
                          Facts("Brood Monitor", CREATURE), tokens)
    assert scions.lines == ['Enters: create_tokens token="Eldrazi Scion" count=3'] and scions.tokens == {}
    dinosaur = compile_text("When Regisaur Alpha enters, create a 3/3 green Dinosaur creature token with trample.",
                            Facts("Regisaur Alpha", CREATURE), tokens)
    assert dinosaur.lines == ["Enters: create_tokens token=Dinosaur count=1"] and dinosaur.tokens == {}


def test_111_4_a_new_token_is_named_by_its_subtypes_its_name_or_its_description():
    tokens = bundled_catalogue().tokens
    oozes = compile_text("When ~ enters, create a 2/2 green Ooze creature token.\nWhen ~ dies, create two 4/4 green "
                         "Ooze creature tokens with trample.", Facts("Test Card", CREATURE), tokens)
    assert oozes.lines == ["Enters: create_tokens token=Ooze count=1",
                           'Dies: create_tokens token="4/4 green Ooze with trample" count=2']
    assert [(t.name, t.power, t.keywords) for t in oozes.tokens.values()] == [
        ("Ooze", 2, frozenset()), ("4/4 green Ooze with trample", 4, frozenset({"trample"}))]
    keep = compile_text("{T}: Add {C}.\n{1}{R}, {T}: Create a 0/1 red Kobold creature token named Kobolds of Kher "
                        "Keep.", Facts("Kher Keep", frozenset({"Land"}), supertypes=frozenset({"Legendary"})), tokens)
    assert keep.lines == ["Mana: C", 'Activated: {1}{R}, {T} -> create_tokens token="Kobolds of Kher Keep" count=1']
    kobold = keep.tokens["Kobolds of Kher Keep"]
    assert (kobold.power, kobold.toughness, kobold.colours, kobold.subtypes) == (0, 1, frozenset("R"), frozenset({"Kobold"}))
    voja = compile_text("{T}: Create Voja, a legendary 3/3 green and white Wolf creature token.",
                        Facts("Test Card", CREATURE), tokens)  # not the bundled 2/2 Voja
    assert voja.lines == ['Activated: {T} -> create_tokens token="legendary 3/3 white and green Wolf named Voja" count=1']
    assert voja.tokens["legendary 3/3 white and green Wolf named Voja"].supertypes == frozenset({"Token", "Legendary"})
    titan = compile_text("When ~ enters, create a 6/6 black Grave Titan creature token.", Facts("Test Card", CREATURE),
                         tokens, taken={"grave titan"})  # a card's name is never a token's
    assert list(titan.tokens) == ["6/6 black Grave Titan"]
    # a name holding the quoted ability it is described by goes through the card-file loader whole
    spawns = compile_text('When ~ enters, create two 1/1 colorless Eldrazi Spawn creature tokens with "Sacrifice this '
                          'creature: Add {C}."', Facts("Test Card", CREATURE), tokens)  # the bundled Spawn is 0/1
    [spawn] = spawns.tokens
    assert spawn == '1/1 colorless Eldrazi Spawn with "Sacrifice this creature: Add {C}."'
    card = build_from_lines(["Name: Test Card", "Type: Creature", "PT: 1/1", "Colors: G"] + spawns.lines, "test")
    assert card.hooks["Enters"][0].args["token"] == spawn
    # an ability not read whole creates no token
    unread = compile_text("When ~ enters, create a 2/2 green Ooze creature token. Then proliferate.",
                          Facts("Test Card", CREATURE), tokens)
    assert not unread.ok and unread.tokens == {}


def test_a_clause_of_a_keyword_until_end_of_turn_reuses_the_pump_node():
    """The worked example of docs/cards.md: 'can't be blocked this turn' is a pump's keyword."""
    assert lines("Target creature can't be blocked this turn.", types={"Instant"}) == \
        ["Cast: pump on=target target=creature keywords=unblockable"]
    assert lines("Creatures your opponents control can't block this turn.", types={"Sorcery"})[0] == "unread"  # 611.2c
    assert lines("Whenever ~ attacks, it can't be blocked this turn.") == ["Attacks: pump on=self keywords=unblockable"]


def test_an_unread_sentence_says_where_the_grammar_stopped():
    compiled = compile_text("Flying\nWhenever a land you control enters, proliferate.", Facts("Test", CREATURE),
                            bundled_catalogue().tokens)
    assert compiled.lines == ["Keywords: flying"] and compiled.unread == ["Whenever a land you control enters, proliferate"]
    assert compiled.why["Whenever a land you control enters, proliferate"].startswith("at 'proliferate': expected")
    refused = compile_text("Exile target creature. Its controller gains life equal to its power.",
                           Facts("Test", frozenset({"Instant"})), bundled_catalogue().tokens)
    assert refused.why == {"Its controller gains life equal to its power": "not expressible: the amount 'its power'"}


def test_alternatives_of_a_noun_phrase_keep_their_own_modifiers():
    """'blue or red creature card' is a blue creature or a red creature; a keyword after a list
    belongs to its last noun, a controller to all; 'if you control an artifact or enchantment'
    counts yours of either."""
    assert lines("When ~ enters, return target blue or red creature card from your graveyard to your hand.") == \
        ['Enters: return_from_graveyard filter="creature blue | creature red" to=hand count=1']
    assert lines("Destroy target artifact, enchantment, or creature with flying.", types={"Instant"}) == \
        ['Cast: destroy target="artifact | enchantment | creature with-flying"']
    assert lines("Destroy target nonartifact, nonblack creature. It can't be regenerated.", types={"Instant"}) == \
        ['Cast: destroy target="creature nonartifact nonblack" regenerate=false']
    assert lines("Whenever ~ attacks, if you control an artifact or enchantment, it gets +1/+1 until end of "
                 "turn.") == ['Attacks: pump on=self power=1 toughness=1 if="count:artifact yours | enchantment yours"']
    assert lines("Whenever you cast a noncreature spell, creatures you control get +1/+1 until end of turn.") == \
        ['SpellCast: pump_all filter="creature yours" power=1 toughness=1 when="noncreature yours"']


def test_what_the_vocabulary_cannot_say_is_refused_never_approximated():
    # a card outside the battlefield answers only its card terms: 'multicolored' would match every spell
    assert lines("Whenever you cast a multicolored spell, draw a card.")[0] == "unread"
    # 'another target creature card': one other than this card, which return_from_graveyard can't say
    assert lines("When ~ dies, return another target creature card from your graveyard to your hand.")[0] == \
        "unread"
    # 'it' after a token is created is the token, not this card
    assert lines("When ~ enters, create a 0/0 green Ooze creature token. Put two +1/+1 counters on it.")[0] == \
        "unread"
    # 'if you do' after nothing optional: done is set by a 'may' verb only
    assert lines("When a creature you control dies, sacrifice ~. If you do, draw a card.")[0] == "unread"
    # a choice between two effects, and a name that runs into a trigger's words
    assert lines("Destroy all enchantments or all nonwhite enchantments.", types={"Sorcery"})[0] == "unread"
    assert lines("{G}, Sacrifice ~: Create a 1/1 green Insect creature token with flying named Butterfly at the "
                 "beginning of the next end step.")[0] == "unread"
    # 'sacrifices another creature' after a first is one more, not one other than the source
    assert lines("Each opponent sacrifices another creature.", types={"Sorcery"})[0] == "unread"


def test_subjects_players_and_references_of_several_clauses():
    assert lines("Target opponent discards two cards, mills two cards, and loses 2 life.", types={"Sorcery"}) == \
        ["Cast: discard who=target_opponent count=2 ; mill who=target_opponent count=2 ; "
         "lose_life who=target_opponent amount=2"]
    assert lines("~ deals 3 damage to any target and you gain 3 life.", types={"Instant"}) == \
        ["Cast: damage amount=3 target=any ; gain_life amount=3"]
    assert lines("Destroy target artifact or enchantment. Its controller gains 4 life.", types={"Instant"}) == \
        ['Cast: destroy target="artifact | enchantment" ; gain_life amount=4 who=target_controller']
    assert lines("When ~ enters, you may discard a card. If you do, draw a card.") == \
        ["Enters: discard who=you count=1 may=true ; draw who=you count=1 if=done"]


def test_what_the_grammar_reads_with_the_verbs_of_today():
    """Tri-lands and banners, 'enters under your control', 'up to one target' (a choice of its
    controller: may=true), a threaten (gain_control's untap and bonus), 'it' in an activated
    ability (the card), spells of several kinds or any kind, an opponent's spells."""
    assert lines("~ enters tapped.\n{T}: Add {W}, {B}, or {G}.", types={"Land"}) == \
        ["Keywords: enters tapped", "Mana: W/B/G"]
    assert lines("Landfall — Whenever a land enters the battlefield under your control, you gain 1 life.") == \
        ['PermanentEnters: gain_life amount=1 when="land yours"']
    assert lines("When ~ enters, return up to one other target creature to its owner's hand.") == \
        ['Enters: bounce target="creature other" may=true']
    assert lines("Exile up to one target creature. Its controller gains 2 life.", types={"Instant"})[0] == "unread"
    assert lines("Gain control of target creature until end of turn. Untap that creature. It gets +2/+0 and gains "
                 "haste until end of turn.", types={"Sorcery"}) == \
        ["Cast: gain_control target=creature until_end_of_turn=true untap=true power=2 keywords=haste"]
    assert lines("{1}, Sacrifice ~: It deals 2 damage to any target.") == \
        ["Activated: {1}, sacrifice this -> damage amount=2 target=any"]
    assert lines("Whenever you cast an instant or sorcery spell, draw a card.") == \
        ['SpellCast: draw who=you count=1 when="instant yours | sorcery yours"']
    assert lines("Whenever an opponent casts a spell, you gain 1 life.") == \
        ["SpellCast: gain_life amount=1 when=opponents"]
    # a bonus joins the verb of the same target, never across a condition
    assert lines("Target creature gets +2/+2 until end of turn. It gains trample until end of turn.",
                 types={"Instant"}) == ["Cast: pump on=target target=creature power=2 toughness=2 keywords=trample"]
    assert lines("Kicker {2}{B}\nTarget creature gets +3/+0 until end of turn. If this spell was kicked, that creature "
                 "gains lifelink until end of turn.", types={"Instant"})[0] == "unread"


def test_602_5b_activation_limits_are_written_after_the_costs():
    """'Activate only once each turn (as a sorcery, during your turn)' is written in parentheses
    after the costs, where the engine keeps it; a self regeneration, also activated when the
    creature would be destroyed, is refused with one."""
    assert lines("{2}{R}: Draw a card. Activate only once each turn.") == \
        ["Activated: {2}{R} (once each turn) -> draw who=you count=1"]
    assert lines("{2}{R}: ~ gets +2/+0 until end of turn. Activate only as a sorcery.") == \
        ["Activated: {2}{R} (as a sorcery) -> pump on=self power=2"]
    assert lines("{B}: Regenerate ~. Activate only once each turn.")[0] == "unread"
    assert lines("{1}, {T}: Destroy all artifacts, creatures, and enchantments.", types={"Artifact"}) == \
        ['Activated: {1}, {T} -> destroy_all filter="artifact | creature | enchantment"']
    assert lines("~ deals damage to each opponent equal to the number of Islands that player controls.",
                 types={"Sorcery"}) == ['Cast: damage_all amount="count:island theirs" who=each_opponent']


def test_602_2_activated_abilities_play_whenever_and_as_often_as_paid():
    """A team player activates abilities in its second main phase, at the beginning of its combat
    and after blocks in either combat, as often as it pays: a pump until end of turn, a target that
    attacks or blocks, and an ability nothing limits to once a turn play as printed."""
    assert lines("{B}: ~ gets +1/+1 until end of turn.") == ["Activated: {B} -> pump on=self power=1 toughness=1"]
    assert lines("{4}, {T}: Target creature can't be blocked this turn.") == \
        ["Activated: {4}, {T} -> pump on=target target=creature keywords=unblockable"]
    assert lines("{T}: ~ deals 2 damage to target attacking or blocking creature.") == \
        ['Activated: {T} -> damage amount=2 target="creature attacking | creature blocking"']
    assert lines("{3}{W}: Create a 1/1 white Spirit creature token with flying.")[0].startswith("Activated: {3}{W} -> ")
    assert lines("{1}, Discard a card: Draw a card.") == ["Activated: {1}, discard a card -> draw who=you count=1"]
    assert lines("{1}, {T}: Regenerate target Elephant.") == \
        ["Activated: {1}, {T} -> regenerate on=target target=elephant"]
    assert lines("{T}: ~ deals 1 damage to any target.") == ["Activated: {T} -> damage amount=1 target=any"]
    assert lines("{2}, Sacrifice ~: Draw a card.") == ["Activated: {2}, sacrifice this -> draw who=you count=1"]
    assert lines("{B}: Regenerate ~.") == ["Activated: {B} -> regenerate on=self"]
    # hexproof or shroud until end of turn answers a spell activated in response: left out
    assert lines("{1}{G}: ~ gains hexproof until end of turn.")[0] == "unread"
    assert lines("{3}: Target blue creature gains shroud until end of turn.")[0] == "unread"
    assert lines("{1}{G}: ~ gains indestructible until end of turn.") == \
        ["Activated: {1}{G} -> pump on=self keywords=indestructible"]


def test_611_2c_a_group_that_cannot_block_this_turn_is_left_out():
    """'Creatures without flying can't block this turn' holds for every creature that matches as
    blockers are declared (611.2c: it changes a rule, not the creatures), where pump_all fixes the
    group as the spell resolves; a target creature is one creature, and plays exactly."""
    assert lines("Creatures without flying can't block this turn.", types={"Sorcery"})[0] == "unread"
    assert lines("Creatures you control can't be blocked this turn.", types={"Sorcery"})[0] == "unread"
    assert lines("Target creature can't block this turn.", types={"Sorcery"}) == \
        ['Cast: pump on=target target=creature keywords="can\'t block"']


def test_each_upkeep_is_once_a_step_and_each_players_upkeep_once_a_player():
    """H1's shared turn has one upkeep step: 'each upkeep' triggers once in it, 'each player's
    upkeep' once for each of the team's players (as in Two-Headed Giant)."""
    force = lines("At the beginning of each upkeep, create a 1/1 green Saproling creature token.", "Verdant Force")
    vortex = lines("At the beginning of each player's upkeep, Sulfuric Vortex deals 2 damage to that player.",
                   "Sulfuric Vortex", types=("Enchantment",))
    assert [line.split(":")[0] for line in force] == ["UpkeepStep"]
    assert [line.split(":")[0] for line in vortex] == ["EachUpkeep"]


def test_equipped_or_enchanted_creature_dies_is_the_attached_dies_hook():
    """'Whenever equipped creature dies' (Skullclamp) and 'When enchanted creature dies'
    (Bequeathal) trigger on the creature the card is attached to; 'it' there is no reference the
    compiler resolves (the creature gone), so what returns 'that card' stays unread."""
    assert lines("Whenever equipped creature dies, you gain 3 life.", "Sylvok Lifestaff", types=("Artifact",),
                 subtypes=("Equipment",)) == ["AttachedDies: gain_life amount=3"]
    assert lines("Enchant creature\nWhen enchanted creature dies, you draw two cards.", "Bequeathal",
                 types=("Enchantment",), subtypes=("Aura",)) == ["Enchant: creature", "AttachedDies: draw who=you count=2"]
    assert lines("Enchant creature\nWhen enchanted creature dies, return that card to its owner's hand.",
                 "Squee's Embrace", types=("Enchantment",), subtypes=("Aura",))[0] == "unread"


def test_costs_less_for_each_and_undaunted_are_the_costs_less_field():
    """'This spell costs {1} less to cast for each creature on the battlefield' (601.2f, a static
    of the spell itself, read before its effects), 'Ghoultree costs {1} less ... for each creature
    card in your graveyard', and undaunted (702.125a: {1} less for each opponent: the Horde)."""
    assert lines("This spell costs {1} less to cast for each creature on the battlefield.\nBlasphemous Act deals "
                 "13 damage to each creature.", "Blasphemous Act", types=("Sorcery",)) == \
        ["CostsLess: count:creature", "Cast: damage_all amount=13 filter=creature"]
    assert lines("Ghoultree costs {1} less to cast for each creature card in your graveyard.", "Ghoultree") == \
        ["CostsLess: graveyard:creature yours"]
    assert lines("Undaunted (This spell costs {1} less to cast for each opponent.)\nDestroy all creatures.",
                 "Sublime Exhalation", types=("Sorcery",)) == ["CostsLess: opponents", "Cast: destroy_all filter=creature"]


def test_a_cost_reduction_for_each_loads_as_its_card_file_says():
    """The CostsLess line a count makes loads (a field takes the rest of its line, unquoted)."""
    from horde.cards.catalogue import build_from_lines

    found = lines("Ghoultree costs {1} less to cast for each creature card in your graveyard.", "Ghoultree")
    card = build_from_lines(["Name: Ghoultree", "Cost: {7}{G}", "Type: Creature — Zombie Treefolk", "PT: 10/10"] + found,
                            "test")
    assert card.costs_less is not None


def test_a_search_for_two_basic_lands_into_hand_is_ramp():
    assert lines("{2}, {T}, Sacrifice ~: Search your library for up to two basic land cards, reveal them, put them "
                 "into your hand, then shuffle.", "Armillary Sphere", types=("Artifact",)) == \
        ["Activated: {2}, {T}, sacrifice this -> ramp count=0 tapped=true to_hand=2"]


def test_702_96_overload_is_read_only_with_a_targeted_effect_of_the_spell():
    """Overload is the Overload field beside the spell's targeted effect (Vandalblast); when that
    effect is not read (Blustersquall's 'tap target creature'), the keyword is left out too and the
    card approximated, never refused."""
    assert lines("Destroy target artifact you don't control.\nOverload {4}{R}", "Vandalblast", types=("Sorcery",)) == \
        ['Cast: destroy target="artifact notyours"', "Overload: {4}{R}"]
    found = compile_text("Tap target creature you don't control.\nOverload {3}{U}",
                         Facts("Blustersquall", frozenset({"Instant"})), bundled_catalogue().tokens)
    assert found.lines == [] and "Overload {3}{U}" in found.unread
    assert "overload with no targeted effect" in found.why["Overload {3}{U}"]


def test_enchanted_creature_on_a_card_that_is_no_aura_is_left_out():
    """Bestow (Celestial Archon): 'Enchanted creature gets +4/+4 ...' on a creature card is left
    out with the bestow keyword, so the card is approximated as its creature, never refused
    (a precon of the shared set was refused even approximated for it)."""
    found = compile_text("Bestow {5}{W}{W}\nFlying, first strike\nEnchanted creature gets +4/+4 and has flying and "
                         "first strike.", Facts("Celestial Archon", frozenset({"Creature"}), frozenset({"Archon"})),
                         bundled_catalogue().tokens)
    assert found.lines == ["Keywords: flying, first strike"]
    assert "Enchanted creature gets +4/+4 and has flying and first strike" in found.unread


def test_the_chosen_player_is_a_relation_of_counts_and_casts():
    """Sewer Nemesis: 'As ~ enters, choose a player', its power and toughness the cards in the
    chosen player's graveyard, and 'whenever the chosen player casts a spell, that player mills a
    card'."""
    text = ("As Sewer Nemesis enters the battlefield, choose a player.\nSewer Nemesis's power and toughness are each "
            "equal to the number of cards in the chosen player's graveyard.\nWhenever the chosen player casts a spell, "
            "that player mills a card.")
    found = compile_text(text, Facts("Sewer Nemesis", frozenset({"Creature"}), frozenset({"Horror"}), pt_star=True),
                         bundled_catalogue().tokens)
    assert found.lines == ["AsEnters: choose_player", 'Static: pt_equals amount="graveyard:nontoken chosen"',
                           "SpellCast: mill who=that_player count=1 when=chosen"]

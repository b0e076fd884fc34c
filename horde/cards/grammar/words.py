"""The lexicon: the words of Oracle text the grammar knows by kind (card types, subtypes,
colours, numbers, keywords), with plurals. Subtypes are every creature, land, artifact,
enchantment and planeswalker type of the rules (205.3) that cards print, whether or not the
filter vocabulary names it: the parser reads 'Ooze', the translation refuses what the engine
can't match."""

from __future__ import annotations

NUMBER_WORDS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
                "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14,
                "fifteen": 15, "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19, "twenty": 20}
ORDINAL_TIMES = {"once": 1, "twice": 2}

CARD_TYPES = {"creature", "artifact", "enchantment", "land", "planeswalker", "instant", "sorcery", "battle"}
COLOURS = {"white", "blue", "black", "red", "green"}
COLOUR_WORDS = COLOURS | {"colorless", "multicolored", "monocolored"}
# words of a noun phrase that are states or supertypes ('tapped creature', 'legendary creature')
STATES = {"tapped", "untapped", "attacking", "blocking", "legendary", "basic", "snow", "token", "nontoken",
          "nonlegendary", "nonbasic", "historic"}

SUBTYPES = set("""
advisor aetherborn ally angel antelope ape archer archon army artificer assassin assembly-worker atog aurochs
avatar azra badger barbarian bard basilisk bat bear beast beeble beholder berserker bird blinkmoth boar bringer
brushwagg camarid camel caribou carrier cat centaur cephalid chimera citizen cleric cockatrice construct coward
crab crocodile cyclops dauthi demigod demon deserter devil dinosaur djinn dog dragon drake dreadnought drone
druid dryad dwarf efreet egg elder eldrazi elemental elephant elf elk eye faerie ferret fish flagbearer fox
fractal frog fungus gargoyle germ giant gnoll gnome goat goblin god golem gorgon graveborn gremlin griffin
hag halfling harpy hellion hippo hippogriff homarid homunculus horror horse hound human hydra hyena illusion imp
incarnation insect jackal jellyfish juggernaut kavu kirin kithkin knight kobold kor kraken lamia lammasu leech
leviathan lhurgoyf licid lizard manticore masticore mercenary merfolk metathran minion minotaur mole monger
mongoose monk monkey moonfolk mouse mutant myr mystic naga nautilus nephilim nightmare nightstalker ninja noble
noggle nomad nymph octopus ogre ooze orc orgg otter ouphe ox oyster pangolin peasant pegasus pentavite pest
phelddagrif phoenix phyrexian pilot pincher pirate plant praetor prism processor rabbit raccoon ranger rat rebel
reflection rhino rigger rogue sable salamander samurai saproling satyr scarecrow scion scorpion scout
sculpture serf serpent servo shade shaman shapeshifter shark sheep siren skeleton slith sliver slug snake soldier
soltari spawn specter spellshaper sphinx spider spike spirit splinter sponge squid squirrel starfish surrakar
survivor tentacle tetravite thalakos thopter thrull tiefling treefolk trilobite triskelavite troll turtle unicorn
vampire vedalken viashino volver wall warlock warrior weird werewolf whale wizard wolf wolverine wombat worm
wraith wurm yeti zombie zubera gamer cow chicken duck killbot brainiac clamfolk cyborg guest scientist head
reveler key
forest island mountain plains swamp desert gate lair locus mine power-plant tower urza's cave
equipment fortification vehicle treasure clue food gold blood powerstone contraption
aura cartouche curse saga shrine class rune shard background role
""".split())
# planeswalker types: never the head of a noun phrase in a rules text that names a kind of permanent
PLURALS = {"elves": "elf", "dwarves": "dwarf", "wolves": "wolf", "werewolves": "werewolf", "mice": "mouse",
           "octopi": "octopus", "fungi": "fungus", "sphinxes": "sphinx", "foxes": "fox", "allies": "ally",
           "harpies": "harpy", "mercenaries": "mercenary", "faeries": "faerie", "homunculi": "homunculus",
           "djinn": "djinn", "fish": "fish", "sheep": "sheep", "samurai": "samurai", "pegasi": "pegasus",
           "plains": "plains", "lammasu": "lammasu", "naga": "naga", "ox": "ox", "oxen": "ox",
           "sorceries": "sorcery", "ninjas": "ninja", "dryads": "dryad", "zubera": "zubera", "kor": "kor",
           "kithkin": "kithkin", "moonfolk": "moonfolk", "merfolk": "merfolk", "treefolk": "treefolk",
           "clamfolk": "clamfolk", "vedalken": "vedalken", "noggles": "noggle", "wurms": "wurm",
           "cyclopes": "cyclops", "kavu": "kavu", "kirin": "kirin", "aurochs": "aurochs", "viashino": "viashino",
           "soltari": "soltari", "dauthi": "dauthi", "thalakos": "thalakos", "metathran": "metathran",
           "mongeese": "mongoose", "geese": "goose", "leeches": "leech", "beasts": "beast"}
HEAD_NOUNS = CARD_TYPES | {"permanent", "card", "spell", "token", "source"}


def singular(word: str) -> str:
    """A noun's singular ('Zombies' -> 'zombie', 'Elves' -> 'elf', 'sorceries' -> 'sorcery'),
    in lower case; the word itself when it has no plural the lexicon knows."""
    low = word.lower()
    if low in PLURALS:
        return PLURALS[low]
    if low in SUBTYPES or low in HEAD_NOUNS:
        return low
    if low.endswith("s"):
        if low[:-1] in SUBTYPES or low[:-1] in HEAD_NOUNS:
            return low[:-1]
        if low.endswith("es") and low[:-2] in SUBTYPES:
            return low[:-2]
        if low.endswith("ies") and low[:-3] + "y" in SUBTYPES:
            return low[:-3] + "y"
    return low


def is_plural(word: str) -> bool:
    low = word.lower()
    return singular(low) != low or low in ("djinn", "fish", "sheep", "samurai")

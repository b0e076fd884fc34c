"""Compile the Horde's cards to the integer rows the native core reads (``horde_native.make_data``).

Every card gets an ID; its types, colours and the subtypes that filters name become bit masks;
each effect becomes one opcode row ``(hook, verb, who, a, b, c, filter, target, when)`` and each
filter text one mask row. The prototype's vocabulary is small on purpose: a card with a verb, a
hook, a keyword or a filter term outside it is refused with a message naming the card and what
is missing (``Refused``), as the project's loader refuses what it cannot express. With
``bodies=True`` such effects are dropped instead and listed in ``Compiled.skipped``: the card
plays as its body alone, which is only good for timing, never for comparing games.

Part of the native-core spike (docs/speed.md), not of the product.
"""

from __future__ import annotations

from dataclasses import dataclass, field

HOOKS = {"Enters": 0, "Attacks": 1, "Cast": 2, "Dies": 3, "CreatureDies": 4, "SpellCast": 5, "Targeted": 6}
VERBS = {"create_tokens": 0, "lose_life": 1, "zombie_army": 3, "mill": 4, "pump": 5, "destroy_all": 6,
         "sacrifice_self": 7, "cost_reduction": 8}
WHO = {"you": 0, "each_opponent": 1, "each_player": 2}
TYPES = {"Creature": 1, "Enchantment": 2, "Sorcery": 4, "Instant": 8, "Artifact": 16, "Land": 32}
COLOURS = {"W": 1, "U": 2, "B": 4, "R": 8, "G": 16}
COLOUR_TERMS = {"white": "W", "blue": "U", "black": "B", "red": "R", "green": "G"}
HANDLED_KEYWORDS = {"enters tapped": 1, "vigilance": 2, "defender": 4, "can't attack": 8}
# Keywords that only matter when the team blocks: the prototype's team never does.
BLOCK_KEYWORDS = {"deathtouch", "fear", "flying", "swampwalk", "islandwalk", "forestwalk", "flanking",
                  "intimidate", "menace", "trample", "reach", "unblockable"}


class Refused(ValueError):
    """A card the prototype's vocabulary cannot express."""


@dataclass
class Compiled:
    cards: list = field(default_factory=list)  # rows for make_data, by card ID
    names: list = field(default_factory=list)  # card ID -> name
    ids: dict = field(default_factory=dict)  # CardDef -> card ID
    filters: list = field(default_factory=list)
    skipped: dict = field(default_factory=dict)  # card name -> what its body-only version leaves out
    recipe: dict = field(default_factory=dict)


class Compiler:
    def __init__(self, catalogue, bodies: bool = False):
        self.catalogue = catalogue
        self.bodies = bodies
        self.out = Compiled()
        self.subtype_bits: dict[str, int] = {"Zombie": 1, "Army": 2}
        self.filter_ids: dict[str, int] = {}
        self.pending: list = []  # (card, row) whose subtype mask is set once every filter is known

    def subtype_bit(self, name: str) -> int:
        if name not in self.subtype_bits:
            if len(self.subtype_bits) == 32:
                raise Refused("more than 32 subtypes named by filters")
            self.subtype_bits[name] = 1 << len(self.subtype_bits)
        return self.subtype_bits[name]

    def filter(self, text: str) -> int:
        """A filter text as a mask row (types, subtypes, colours, not subtypes, token, other, relation)."""
        if text in self.filter_ids:
            return self.filter_ids[text]
        types = subtypes = colours = not_subtypes = token = relation = 0
        other = False
        for term in text.lower().split():
            if term.capitalize() in TYPES:
                types |= TYPES[term.capitalize()]
            elif term in COLOUR_TERMS:
                colours |= COLOURS[COLOUR_TERMS[term]]
            elif term in ("token", "nontoken"):
                token = 1 if term == "token" else 2
            elif term == "other":
                other = True
            elif term in ("yours", "opponents"):
                relation = 1 if term == "yours" else 2
            elif term.startswith("non") and term[3:] in self.catalogue_subtypes():
                not_subtypes |= self.subtype_bit(term[3:].capitalize())
            elif term in self.catalogue_subtypes():
                subtypes |= self.subtype_bit(term.capitalize())
            else:
                raise Refused(f"filter term '{term}' (in '{text}')")
        self.filter_ids[text] = len(self.out.filters)
        self.out.filters.append((types, subtypes, colours, not_subtypes, token, other, relation))
        return self.filter_ids[text]

    def catalogue_subtypes(self) -> set[str]:
        from horde.filters import SUBTYPE_TERMS

        return SUBTYPE_TERMS

    def card(self, card) -> int:
        """The card's ID, compiling it (and the tokens it creates) the first time."""
        if card in self.out.ids:
            return self.out.ids[card]
        card_id = len(self.out.cards)
        self.out.ids[card] = card_id
        self.out.names.append(card.name)
        self.out.cards.append(None)
        missing: list[str] = []
        keywords = 0
        for keyword in card.keywords:
            if keyword in HANDLED_KEYWORDS:
                keywords |= HANDLED_KEYWORDS[keyword]
            elif keyword not in BLOCK_KEYWORDS:
                missing.append(f"keyword '{keyword}'")
        if card.pt_amount is not None:
            missing.append("a */* power and toughness")
        ops, anthems = [], []
        for hook, effects in card.hooks.items():
            for effect in effects:
                try:
                    if hook == "Static":
                        anthems.extend(self.static(effect))
                    elif hook not in HOOKS:
                        raise Refused(f"hook '{hook}'")
                    else:
                        ops.append((HOOKS[hook], *self.effect(effect)))
                except Refused as why:
                    missing.append(f"{hook}: {effect.describe()} ({why})")
        if missing:
            if not self.bodies:
                raise Refused(f"'{card.name}' ({card.source}): the native prototype lacks " + "; ".join(missing))
            self.out.skipped[card.name] = missing
        colours = sum(COLOURS[c] for c in card.colours)
        types = sum(bit for name, bit in TYPES.items() if name in card.types)
        self.pending.append((card, card_id, [card.power or 0, card.toughness or 0, card.is_creature,
                                             card.is_token, card.is_permanent, types, 0, colours, keywords,
                                             ops, anthems]))
        return card_id

    def static(self, effect) -> list:
        if effect.verb == "cost_reduction":
            return []  # H7: the Horde casts for free, so a cost reduction means nothing to it
        if effect.verb != "anthem" or effect.args["filter"] is None:
            raise Refused(f"static verb '{effect.verb}'")
        if not effect.args["keywords"] <= BLOCK_KEYWORDS:
            raise Refused(f"anthem keywords {sorted(effect.args['keywords'])}")
        return [(self.filter(effect.args["filter"].text), effect.args["power"], effect.args["toughness"])]

    def effect(self, effect) -> tuple:
        """(verb, who, a, b, c, filter, target, when) of one effect."""
        verb, args = effect.verb, effect.args
        if verb not in VERBS or verb == "cost_reduction":
            raise Refused(f"verb '{verb}'")
        who, a, b, c, flt, target = 0, 0, 0, 0, -1, -1
        when = self.filter(effect.when.text) if effect.when is not None else -1
        if args.get("who") is not None:  # destroy_all's who=None: every controller's
            if args["who"] not in WHO:
                raise Refused(f"who={args['who']}")
            who = WHO[args["who"]]
        for key in ("count", "amount"):
            if key in args and not isinstance(args[key], int):
                raise Refused(f"{key}={getattr(args[key], 'text', args[key])}")
        if verb == "create_tokens":
            a, b, c = self.card(self.catalogue.tokens[args["token"]]), args["count"], int(args["tapped"])
        elif verb == "lose_life":
            a = args["amount"]
        elif verb == "mill":
            a = args["count"]
        elif verb == "pump":
            if args["keywords"]:
                raise Refused("pump with keywords")
            a, b, c = args["power"], args["toughness"], int(args["on"] == "target")
            if c:
                target = self.filter(effect.target.text)
        elif verb == "destroy_all":
            flt = self.filter(args["filter"].text)
        return VERBS[verb], who, a, b, c, flt, target, when

    def finish(self) -> Compiled:
        for card, card_id, row in self.pending:
            row[6] = sum(bit for name, bit in self.subtype_bits.items() if name in card.subtypes)
            self.out.cards[card_id] = tuple(row)
        self.pending = []
        return self.out


def compile_deck(deck, setup, catalogue, bodies: bool = False) -> Compiled:
    """A recipe Horde deck (R1) and the setup's knobs, compiled; raises ``Refused`` for a card
    outside the prototype's vocabulary (unless ``bodies``) or a knob it does not play."""
    wanted = {"reveal": "until_nontoken", "token_entry": "cast", "cast_order": "tokens_first",
              "army_trigger": "once", "boss": "none", "lieutenants": False, "token_percent": None}
    for knob, value in wanted.items():
        if getattr(setup, knob) != value:
            raise Refused(f"the prototype plays only {knob}={value}, not {getattr(setup, knob)}")
    if deck.build != "recipe":
        raise Refused("the prototype builds only recipe decks (R1)")
    compiler = Compiler(catalogue, bodies)
    creatures = [compiler.card(c) for c in deck.creatures]
    spells = [compiler.card(c) for c in deck.spells]
    giants, armies = setup.strong_split
    giant = deck.giant_token or deck.base_token
    army = deck.army_token or giant
    from horde.decks import load_team_deck

    team_library = {len(load_team_deck(name, catalogue, setup.allow_illegal).cards)
                    for name in setup.team_decks[:setup.players]}
    if len(team_library) != 1:
        raise Refused("the prototype counts one library size for every team deck")
    for token in (deck.base_token, giant, army):
        compiler.card(token)
    out = compiler.finish()
    out.recipe = {
        "creatures": creatures, "spells": spells, "base_token": out.ids[deck.base_token],
        "giant_token": out.ids[giant], "army_token": out.ids[army],
        "creatures_low": deck.creatures_per_player[0], "creatures_high": deck.creatures_per_player[1],
        "spells_low": deck.spells_per_player[0], "spells_high": deck.spells_per_player[1],
        "players": setup.players, "cards_per_player": setup.cards_per_player, "giants": giants,
        "armies": armies, "start_life": setup.life_per_player * setup.players,
        "team_library": team_library.pop(), "zombie": compiler.subtype_bits["Zombie"],
        "army": compiler.subtype_bits["Army"],
    }
    return out

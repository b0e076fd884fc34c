"""One grammar of noun phrases, players, references back and amounts, shared by every effect,
cost, trigger, condition and static.

- ``noun`` reads a noun phrase: a determiner and a quantity (target, each, all, a, another, up to
  N target, any number of target, N target, N), modifiers before the head (colours, types,
  subtypes, ``non-``, tapped/untapped, attacking/blocking, token/nontoken, legendary, basic), the
  head (creature, permanent, card, spell, a subtype, ...), alternatives joined by ``or`` and
  commas ('artifact or enchantment', 'creature or planeswalker an opponent controls'), and
  modifiers after it (with KEYWORD, without KEYWORD, with power/toughness/mana value N or
  less/greater, you control, an opponent controls, your opponents control, you don't control,
  target player controls, in/from a zone). The result is a ``Noun`` whose terms are written as
  the filter vocabulary writes them.
- ``player`` reads who: you, each opponent, each player, target player, that player, its
  controller, ...
- ``reference`` reads a reference back: it, they, them, that creature, those creatures, that
  card, the exiled card, enchanted creature, equipped creature.
- ``amount`` reads a number (digits, number words, X), ``count_phrase`` a count ('creatures you
  control', 'creature cards in your graveyard', 'cards in your hand'), ``for_each`` 'for each
  COUNT', ``equal_to`` 'equal to AMOUNT'.
"""

from __future__ import annotations

from dataclasses import dataclass

from horde.cards.grammar.ast import (
    Amount,
    CardCount,
    Count,
    Half,
    Kicked,
    Noun,
    Num,
    Obj,
    Player,
    Property,
    Ref,
    SelfRef,
    Sum,
    Times,
    VarX,
)
from horde.cards.grammar.lexer import NUM, PT, SELF, WORD
from horde.cards.grammar.parser import Parser, nonterminal
from horde.cards.grammar.words import (
    CARD_TYPES,
    COLOUR_WORDS,
    COLOURS,
    NUMBER_WORDS,
    STATES,
    SUBTYPES,
    is_plural,
    singular,
)
from horde.engine.cards import KEYWORDS

NUMBER_MAX_DIGITS = 6


# ---------------------------------------------------------------- numbers
@nonterminal("number")
def number(p: Parser) -> Amount:
    """A number: digits (at most six), a number word ('a', 'two', ...), X."""
    t = p.peek()
    if t is not None and t.kind == NUM and len(t.value) <= NUMBER_MAX_DIGITS:
        p.pos += 1
        return Num(int(t.value))
    if t is not None and t.kind == WORD:
        if t.value in NUMBER_WORDS:
            p.pos += 1
            return Num(NUMBER_WORDS[t.value])
        if t.value == "x":
            p.pos += 1
            return VarX()
    p.fail("a number")


@nonterminal("count")
def count(p: Parser) -> Amount:
    """A number that is not an article: 'two', '3', 'X' (never 'a')."""
    if p.at("a|an"):
        p.fail("a number")
    return number(p)


def whole(p: Parser) -> int:
    """A number that must be a known whole number (not X)."""
    n = number(p)
    if not isinstance(n, Num):
        p.fail("a whole number")
    return n.n


@nonterminal("pt")
def pt(p: Parser) -> tuple[int, int]:
    """A power/toughness change '+1/+1', '-2/-0' (signed numbers; X refused)."""
    t = p.peek()
    if t is None or t.kind != PT:
        p.fail("+N/+N")
    power, _, toughness = t.value.partition("/")
    if not (power[:1] in "+-" and toughness[:1] in "+-" and power[1:].isdigit() and toughness[1:].isdigit()) \
            or len(power) > NUMBER_MAX_DIGITS + 1 or len(toughness) > NUMBER_MAX_DIGITS + 1:
        p.fail("+N/+N")
    p.pos += 1
    return int(power), int(toughness)


# ---------------------------------------------------------------- players
# Multi-word player phrases, longest first, and what they are.
PLAYERS: tuple[tuple[tuple[str, ...], str], ...] = (
    (("each", "of", "your", "opponents"), "each_opponent"),
    (("each", "other", "player"), "each_other_player"),
    (("each", "opponent"), "each_opponent"),
    (("each", "player"), "each_player"),
    (("target", "opponent", "or", "planeswalker"), "target_opponent_or_planeswalker"),
    (("target", "player", "or", "planeswalker"), "target_player_or_planeswalker"),
    (("target", "player"), "target_player"),
    (("target", "opponent"), "target_opponent"),
    (("that", "player"), "that_player"),
    (("that", "spell's", "controller"), "that_spells_controller"),
    (("that", "creature's", "controller"), "its_controller"),
    (("that", "permanent's", "controller"), "its_controller"),
    (("its", "controller"), "its_controller"),
    (("its", "owner"), "its_owner"),
    (("their", "controller"), "its_controller"),
    (("their", "owner"), "its_owner"),
    (("defending", "player"), "defending_player"),
    (("an", "opponent"), "an_opponent"),
    (("you",), "you"),
)


_PLAYERS_BY_WORD: dict[str, list[tuple[tuple[str, ...], str]]] = {}
for _words, _kind in PLAYERS:
    _PLAYERS_BY_WORD.setdefault(_words[0], []).append((_words, _kind))


@nonterminal("player", first=tuple(_PLAYERS_BY_WORD))
def player(p: Parser) -> Player:
    """Who: you, each opponent, each player, each other player, target player (opponent), that
    player, its controller, its owner, that spell's controller, defending player, an opponent."""
    for words, kind in _PLAYERS_BY_WORD.get(p.word(), ()):
        if p.accept(*words):
            return Player(kind)
    p.fail("a player")


# ---------------------------------------------------------------- references back
REFERENCE_NOUNS = {"creature", "creatures", "card", "cards", "permanent", "permanents", "land", "lands",
                   "artifact", "artifacts", "enchantment", "enchantments", "token", "tokens", "spell", "spells",
                   "planeswalker", "planeswalkers", "player", "players", "source", "sources"}


@nonterminal("reference", first=("it", "them", "they", "that", "those", "the", "enchanted", "equipped"))
def reference(p: Parser) -> Ref:
    """A reference back: it, they, them, that creature, those cards, the exiled card, enchanted
    creature, equipped creature, the creature (that) ..."""
    if p.accept("it|them|they"):
        return Ref("it")
    if p.at("that|those") and p.word(1) in REFERENCE_NOUNS:
        kind = "that" if p.word() == "that" else "those"
        p.pos += 2
        return Ref(kind, singular(p.tokens[p.pos - 1].value))
    if p.at("the", "exiled") and p.word(2) in REFERENCE_NOUNS:
        p.pos += 3
        return Ref("the_exiled", singular(p.tokens[p.pos - 1].value))
    if p.at("enchanted|equipped") and p.word(1) in REFERENCE_NOUNS:
        kind = p.word()
        p.pos += 2
        return Ref(kind, singular(p.tokens[p.pos - 1].value))
    p.fail("it, that creature, ...")


@nonterminal("self", first=("~",))
def self_ref(p: Parser) -> SelfRef:
    p.kind(SELF)
    return SelfRef()


@nonterminal("it", first=("~", "it", "them", "they", "that", "those", "the", "enchanted", "equipped"))
def it_or_self(p: Parser) -> Obj:
    """The card itself or a reference back ('~ deals', 'it deals')."""
    if p.peek() is not None and p.peek().kind == SELF:  # type: ignore[union-attr]
        p.pos += 1
        return SelfRef()
    return reference(p)


# ---------------------------------------------------------------- noun phrases
def _term(word: str) -> tuple[str, str] | None:
    """A word of a noun phrase as (class, filter term): ('type', 'creature'), ('nontype',
    'nonartifact'), ('colour', 'black'), ('subtype', 'zombie'), ('state', 'tapped'), ('head',
    'card'), or None."""
    low = word.lower()
    base = singular(low)
    if base in CARD_TYPES:
        return ("type", base)
    if base in ("permanent", "card", "spell", "source"):
        return ("head", base)
    if base == "token" or low in ("token", "tokens"):
        return ("token", "token")
    if low in COLOUR_WORDS:
        return ("colour", low)
    if low in STATES:
        return ("state", low)
    if base in SUBTYPES:
        return ("subtype", base)
    if low.startswith("non"):
        rest = low[3:].lstrip("-")
        rest_base = singular(rest)
        if rest_base in CARD_TYPES:
            return ("nontype", "non" + rest_base)
        if rest in COLOURS or rest_base in SUBTYPES or rest in ("token", "legendary", "basic", "snow"):
            return ("non", "non" + (rest if rest in COLOURS or rest in ("token", "legendary", "basic", "snow")
                                    else rest_base))
    return None


def _kinds(words: list[tuple[str, str, str]]) -> tuple[tuple[str, ...], str, bool] | None:
    """The filter terms of one run of noun words (class, term, printed word), in the order
    the vocabulary writes them: the head's kind first, a type before it in front ('artifact
    creature'), the other modifiers after in printed order; the head ('permanent', 'card',
    'spell', or 'permanent' for a type or subtype head) and whether it is plural. None if the run
    has no head."""
    if not words:
        return None
    token = False
    if words[-1][0] == "token":
        token = True
        words = words[:-1]
        if not words:
            return ("token",), "permanent", False
    head_class, head_term, head_word = words[-1]
    if head_class not in ("type", "subtype", "head"):
        return None
    plural = is_plural(head_word)
    kinds: list[str] = []
    head = "permanent"
    if head_class == "head":
        head = head_term if head_term != "permanent" else "permanent"
        if head_term == "permanent":
            pass
    else:
        kinds.append(head_term)
    for cls, term, _ in words[:-1]:
        if cls == "type" and head not in ("card", "spell"):  # a card's terms stay in printed order
            kinds.insert(0, term)
        elif cls == "head":
            if term == "permanent":
                if head == "card":
                    kinds.append("permanent")  # 110.4: a permanent card
                    continue
                return None
            return None
        else:
            kinds.append(term)
    if token:
        kinds.append("token")
    return tuple(kinds), head, plural


def _run(p: Parser) -> list[tuple[str, str, str]]:
    """The longest run of noun words ending at a head noun (the position after the head); a
    comma between modifiers is part of it ('nonartifact, nonblack creature')."""
    words: list[tuple[str, str, str]] = []
    last_head = -1
    end_of_head = p.pos
    start = p.pos
    while True:
        t = p.peek()
        if t is not None and t.value == "," and words and words[-1][0] in ("nontype", "non", "colour", "state") \
                and _starts_noun(p, 1):
            p.pos += 1
            continue
        if t is None or t.kind != WORD:
            break
        found = _term(t.value)
        if found is None:
            break
        words.append((found[0], found[1], t.value))
        p.pos += 1
        if found[0] in ("type", "subtype", "head", "token"):
            last_head = len(words)
            end_of_head = p.pos
    if last_head < 0:
        p.pos = start
        p.fail("a noun")
    p.pos = end_of_head
    return words[:last_head]


# Relations after a noun: who controls it.
RELATIONS: tuple[tuple[tuple[str, ...], str], ...] = (
    (("you", "control"), "yours"),
    (("you", "don't", "control"), "notyours"),  # a teammate's too (H1: teammates are no opponents)
    (("an", "opponent", "controls"), "opponents"),
    (("your", "opponents", "control"), "opponents"),
    (("opponents", "control"), "opponents"),
    (("target", "player", "controls"), "target_player"),
    (("target", "opponent", "controls"), "target_opponent"),
    (("that", "player", "controls"), "theirs"),
)
ZONES: tuple[tuple[tuple[str, ...], str, str], ...] = (
    (("in", "your", "graveyard"), "graveyard", "yours"),
    (("from", "your", "graveyard"), "graveyard", "yours"),
    (("in", "all", "graveyards"), "graveyard", "all"),
    (("in", "a", "graveyard"), "graveyard", "all"),
    (("from", "a", "graveyard"), "graveyard", "all"),
    (("in", "their", "graveyard"), "graveyard", "theirs"),
    (("from", "their", "graveyard"), "graveyard", "theirs"),
    (("from", "their", "graveyards"), "graveyard", "theirs"),
    (("from", "all", "graveyards"), "graveyard", "all"),
    (("in", "their", "graveyards"), "graveyard", "theirs"),
    (("in", "that", "player's", "graveyard"), "graveyard", "theirs"),
    (("in", "target", "player's", "graveyard"), "graveyard", "target"),
    (("in", "your", "opponents'", "graveyards"), "graveyard", "opponents"),
    (("in", "an", "opponent's", "graveyard"), "graveyard", "opponents"),
    (("in", "the", "chosen", "player's", "graveyard"), "graveyard", "chosen"),
    (("in", "your", "hand"), "hand", "yours"),
    (("from", "your", "hand"), "hand", "yours"),
    (("in", "your", "library"), "library", "yours"),
    (("from", "your", "library"), "library", "yours"),
)


_RELATIONS_BY_WORD: dict[str, list[tuple[tuple[str, ...], str]]] = {}
for _words, _kind in RELATIONS:
    _RELATIONS_BY_WORD.setdefault(_words[0], []).append((_words, _kind))
_ZONES_BY_WORD: dict[str, list[tuple[tuple[str, ...], str, str]]] = {}
for _zone in ZONES:
    _ZONES_BY_WORD.setdefault(_zone[0][0], []).append(_zone)


def _post(p: Parser, head: str) -> tuple[list[str], list[str], str | None, str | None, str | None]:
    """Modifiers after the head: (shared terms, terms of the last alternative alone, relation,
    zone, whose). A keyword ('with flying') belongs to the last alternative ('artifact,
    enchantment, or creature with flying'); a comparison, a controller and a zone to all."""
    shared: list[str] = []
    last: list[str] = []
    relation = zone = whose = None
    while True:
        if p.at("with|without", "mana|power|toughness") or p.at("with|without", "total"):
            saved = p.pos
            without = p.word() == "without"
            p.pos += 1
            what = "mv" if p.accept("mana", "value") else p.next().value
            if what not in ("mv", "power", "toughness") or without:
                p.pos = saved
                break
            n = p.attempt(number)
            if not isinstance(n, Num) or not p.accept("or"):
                p.pos = saved
                break
            if p.accept("less"):
                shared.append(f"{what}<={n.n}")
            elif p.accept("greater") or p.accept("more"):
                shared.append(f"{what}>={n.n}")
            else:
                p.pos = saved
                break
            continue
        if p.at("with|without") and p.peek(1) is not None:
            saved = p.pos
            without = p.word() == "without"
            p.pos += 1
            keyword = _keyword_here(p)
            if keyword is None:
                p.pos = saved
                break
            last.append(("without-" if without else "with-") + keyword.replace(" ", "-"))
            continue
        found = False
        word = p.word()
        if relation is None:
            for words, kind in _RELATIONS_BY_WORD.get(word, ()):
                if p.accept(*words):
                    relation, found = kind, True
                    break
        if not found and zone is None and head == "card":
            for words, where, owner in _ZONES_BY_WORD.get(word, ()):
                if p.accept(*words):
                    zone, whose, found = where, owner, True
                    break
        if not found:
            break
    return shared, last, relation, zone, whose


def _keyword_here(p: Parser) -> str | None:
    """A keyword of the engine at this position (the longest), consumed; else None."""
    for length in (3, 2, 1):
        words = [p.word(k) for k in range(length)]
        if "" in words:
            continue
        phrase = " ".join(words)
        if phrase in KEYWORDS and phrase not in ("enters tapped", "unblockable", "can't block", "can't attack"):
            p.pos += length
            return phrase
    return None


@nonterminal("noun")
def noun(p: Parser) -> Noun:
    """A noun phrase (the module's paragraph)."""
    if p.accept("any", "target"):
        return Noun(det="target", head="any", alternatives=(("any",),))
    det = ""
    amount: Amount | None = None
    other = False
    if p.accept("up", "to"):
        amount, det = number(p), "up_to"
    elif p.accept("any", "number", "of"):
        det = "any_number"
    elif p.accept("another"):
        det, other, amount = "a", True, Num(1)
    elif p.at("target|each|all"):
        det = p.next().value
    elif p.at("a|an"):
        p.pos += 1
        det, amount = "a", Num(1)
    else:
        amount = p.attempt(count)
    if p.accept("other"):
        other = True
    if p.accept("target"):
        if det == "a":
            amount = None
        det = {"up_to": "up_to_target", "any_number": "any_number_target"}.get(det, "target")
    if p.accept("other"):
        other = True
    # players named by a noun phrase: 'target player', 'each opponent', 'target player or planeswalker'
    if p.at("player|players|opponent|opponents"):
        kind = singular(p.next().value)
        if p.accept("or", "planeswalker"):
            return Noun(det=det, head="player", alternatives=((kind,), ("planeswalker",)), count=amount)
        return Noun(det=det, head="player", alternatives=((kind,),), count=amount, other=other)
    first = _alternative(p)
    alternatives = list(first.terms)
    last_run = len(first.terms)  # how many alternatives the last run wrote ('blue or red creature': two)
    head, plural, bare = first.head, first.plural, not first.explicit
    listed: tuple[int, int] | None = None  # where a list of alternatives with commas began
    while True:
        saved = p.pos
        comma = False
        # 'all artifacts, creatures, and enchantments': every permanent of each kind
        union = det == "all" and (p.accept(",", "and") or p.accept("and"))
        if not (union or p.accept(",", "or") or p.accept("or") or p.accept("and/or")):
            if not p.accept(","):  # 'artifact, creature, or land': a list that ends with 'or'
                break
            comma = True
        more = p.attempt(_alternative)
        # 'creature or planeswalker'; 'instant or sorcery card' (the head is theirs too); never a card and a spell
        if more is None or (more.head != head and not (bare and more.explicit and head == "permanent")):
            p.pos = saved
            break
        terms = more.terms
        if first.modifiers and not more.modifiers:
            # 'attacking Wolf or Werewolf', 'nontoken Elf or Berserker', 'white or blue instant or sorcery
            # spell': the first's modifiers are the others' too; 'artifact creature or enchantment' is not sure
            if first.typed:
                p.pos = saved
                break
            terms = [t + m for t in more.terms for m in first.modifiers]
        if comma and listed is None:
            listed = (saved, len(alternatives))
        elif not comma:
            listed = None
        alternatives += terms
        last_run = len(terms)
        head, plural, bare = more.head, plural or more.plural, bare and not more.explicit
    if listed is not None:  # a comma with no 'or' after it: the noun phrase ended there
        p.pos = listed[0]
        alternatives = alternatives[:listed[1]]
    shared, last, relation, zone, whose = _post(p, head)
    if last:
        if len(alternatives) == last_run:
            shared = last + shared
        else:
            alternatives[-last_run:] = [a + tuple(last) for a in alternatives[-last_run:]]
    return Noun(det=det, alternatives=tuple(alternatives), shared=tuple(shared), other=other, relation=relation,
                head=head, count=amount, zone=zone, whose=whose, plural=plural)


@dataclass(frozen=True)
class _Alternative:
    """One alternative of a noun phrase as read (or two: 'attacking or blocking creature'): the
    terms it writes, its head, whether plural, whether its head was written ('card', 'spell',
    'permanent'), the terms of its modifiers for each alternative it writes ('nontoken', 'black'),
    and whether a card type modifies its head ('artifact creature')."""

    terms: list[tuple[str, ...]]
    head: str
    plural: bool
    explicit: bool
    modifiers: list[tuple[str, ...]]
    typed: bool


def _alternative(p: Parser) -> _Alternative:
    states = _state_alternatives(p)
    run = _run(p)
    kinds = _kinds(run)
    if kinds is None:
        p.fail("a noun")
    terms, head, plural = kinds
    explicit = run[-1][0] == "head" or (run[-1][0] == "token" and len(run) > 1 and run[-2][0] == "head")
    found = [tuple(terms) + (state,) for state in states] if states else [tuple(terms)]
    own = tuple(term for cls, term, _ in run[:-1] if cls in ("colour", "state", "non", "nontype"))
    modifiers = [own + (state,) for state in states] if states else [own]
    typed = head == "permanent" and any(cls == "type" for cls, _, _ in run[:-1])
    return _Alternative(found, head, plural, explicit, [m for m in modifiers if m], typed)


ADJECTIVES = ("attacking", "blocking", "tapped", "untapped", "white", "blue", "black", "red", "green", "colorless",
              "multicolored", "monocolored")


def _state_alternatives(p: Parser) -> list[str]:
    """'attacking or blocking', 'blue or red' before a head: what the alternatives differ by."""
    if p.word() in ADJECTIVES and p.word(1) == "or" and p.word(2) in ADJECTIVES:
        first = p.word()
        second = p.word(2)
        p.pos += 3
        return [first, second]
    return []


def _starts_noun(p: Parser, k: int) -> bool:
    t = p.peek(k)
    return t is not None and t.kind == WORD and (_term(t.value) is not None or t.value in ("attacking", "blocking"))


@nonterminal("target")
def target(p: Parser) -> Noun:
    """A targeted noun phrase: 'target creature', 'any target', 'target player or planeswalker'."""
    found = noun(p)
    if not found.targeted:
        p.fail("target ...")
    return found


@nonterminal("object")
def obj(p: Parser) -> Obj:
    """What an effect acts on: ~, a reference back, or a noun phrase."""
    t = p.peek()
    if t is not None and t.kind == SELF:
        p.pos += 1
        return SelfRef()
    found = p.attempt(reference)
    if found is not None:
        return found
    return noun(p)


# ---------------------------------------------------------------- counts and amounts
def _count_term(p: Parser) -> Amount:
    """One term of a count: 'creature you control', 'Zombie on the battlefield', 'creature card in
    your graveyard', 'card in your hand', 'time it was kicked'."""
    if p.accept("time", "it|~", "was", "kicked") or p.accept("time", "this", "spell", "was", "kicked"):
        return Kicked()
    if p.accept("card", "in", "your", "hand") or p.accept("cards", "in", "your", "hand"):
        return CardCount(Noun(head="card", alternatives=((),)), "hand", "yours")
    if p.accept("half", "the", "number", "of"):
        found = _count_term(p)
        p.expect(",", "rounded", "down")
        return Half(found)
    p.accept("the", "number", "of")
    found = noun(p)
    if found.det not in ("", "a", "other") and not (found.det == "" and found.other):
        p.fail("a count")
    if found.head == "card" and found.zone in ("graveyard", "hand"):
        return CardCount(found, found.zone, found.whose or "yours")
    if found.head == "card":
        p.fail("a count")
    p.accept("on", "the", "battlefield")
    return Count(found)


@nonterminal("count_phrase")
def count_phrase(p: Parser) -> Amount:
    """A count (the module's paragraph): terms joined by 'and each' or 'plus the number of'."""
    terms = [_count_term(p)]
    while p.at("and", "each") or p.at("plus", "the", "number", "of"):
        saved = p.pos
        p.accept("and", "each") or p.accept("plus")
        found = p.attempt(_count_term)
        if found is None:
            p.pos = saved
            break
        terms.append(found)
    return terms[0] if len(terms) == 1 else Sum(tuple(terms))


@nonterminal("for_each")
def for_each(p: Parser) -> Amount:
    """'for each COUNT'."""
    p.expect("for", "each")
    return count_phrase(p)


PROPERTIES = {"power": "power", "toughness": "toughness", "mana": "mana value", "loyalty": "loyalty"}


@nonterminal("property")
def prop(p: Parser) -> Property:
    """'its power', '~'s toughness', 'that creature's power', 'the sacrificed creature's power'."""
    if p.accept("its") or p.accept("their"):
        of: Obj = Ref("it")
    elif p.peek() is not None and p.peek().kind == SELF and p.word(1) == "'s":  # type: ignore[union-attr]
        p.pos += 2
        of = SelfRef()
    elif p.at("that") and p.word(1).endswith("'s"):
        word = p.word(1)[:-2]
        p.pos += 2
        of = Ref("that", singular(word))
    else:
        p.fail("its power, ~'s power, ...")
    name = p.next().value
    if name not in PROPERTIES:
        p.fail("power, toughness, mana value")
    if name == "mana":
        p.expect("value")
    return Property(of, PROPERTIES[name])


@nonterminal("equal_to")
def equal_to(p: Parser) -> Amount:
    """'equal to AMOUNT': a count, a property, a number."""
    p.expect("equal", "to")
    found = p.attempt(prop)
    if found is not None:
        return found
    if p.accept("the", "number", "of"):
        return count_phrase(p)
    return amount(p)


@nonterminal("amount")
def amount(p: Parser) -> Amount:
    """A number, optionally times a count: 'N', 'X', 'N ... for each COUNT' is the rule's."""
    return number(p)


def times(base: Amount, each: Amount | None) -> Amount:
    """``N for each COUNT``: N times the count."""
    if each is None:
        return base
    if base == Num(1):
        return each
    return Times(base, each)

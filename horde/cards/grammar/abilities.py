"""The grammar of abilities: a card's text as ``Line``s of ``Ability`` nodes.

    line     := keywords | modal | ability (sentence)*
    ability  := LOYALTY ":" effects                       (606, a planeswalker's)
              | ("When" | "Whenever" | "At") TRIGGER "," effects       (603)
              | COST ("," COST)* ":" effects               (602)
              | effects                                    (an instant's or sorcery's)
              | STATIC                                     (604)
    modal    := "Choose" ("one" | "two" | ...) "—" ("•" effects)+
    keywords := KEYWORD (("," | ";") KEYWORD)*

A sentence after the first of a triggered, activated, loyalty or spell ability continues it
when it reads as effects ('Destroy target creature. It can't be regenerated.'); else it starts
an ability of its own. A sentence no rule reads is a parse error of its line, with the position
where the grammar stopped; a line with an error is left out whole (an ability is read whole or
not at all).
"""

from __future__ import annotations

from collections.abc import Callable

from horde.cards.grammar.ast import (
    Ability,
    ActivatedAbility,
    Cost,
    Effect,
    Keyword,
    KeywordAbility,
    Line,
    LoyaltyAbility,
    ModalAbility,
    SpellAbility,
    StaticAbility,
    TriggeredAbility,
)
from horde.cards.grammar.compiled import Facts
from horde.cards.grammar.effects import effect_sentence
from horde.cards.grammar.lexer import BULLET, LOYALTY, MANA, NUM, PUNCT, QUOTE, WORD, LexError, Token, lex
from horde.cards.grammar.parser import NoParse, Parser
from horde.cards.grammar.registry import COSTS, STATICS, TRIGGERS, load_families

# Every keyword ability of the rules (702), for reading a line of keywords whole; which of them
# the engine plays is the translation's to say.
KEYWORD_NAMES = {
    "deathtouch", "defender", "double strike", "equip", "first strike", "flash", "flying", "haste", "hexproof",
    "indestructible", "intimidate", "lifelink", "protection", "reach", "shroud", "trample", "vigilance", "ward",
    "banding", "rampage", "cumulative upkeep", "flanking", "phasing", "buyback", "shadow", "cycling", "echo",
    "horsemanship", "fading", "kicker", "multikicker", "flashback", "madness", "fear", "morph", "megamorph",
    "amplify", "provoke", "storm", "affinity", "entwine", "modular", "sunburst", "bushido", "soulshift", "splice",
    "offering", "ninjutsu", "epic", "convoke", "dredge", "transmute", "bloodthirst", "haunt", "replicate",
    "forecast", "graft", "recover", "ripple", "split second", "suspend", "vanishing", "absorb", "aura swap",
    "delve", "fortify", "frenzy", "gravestorm", "poisonous", "transfigure", "champion", "changeling", "evoke",
    "hideaway", "prowl", "reinforce", "conspire", "persist", "wither", "retrace", "devour", "exalted", "unearth",
    "cascade", "annihilator", "level up", "rebound", "totem armor", "infect", "battle cry", "living weapon",
    "undying", "miracle", "soulbond", "overload", "scavenge", "unleash", "cipher", "evolve", "extort", "fuse",
    "bestow", "tribute", "dethrone", "hidden agenda", "outlast", "prowess", "dash", "exploit", "menace", "renown",
    "awaken", "devoid", "ingest", "myriad", "surge", "skulk", "emerge", "escalate", "melee", "crew", "fabricate",
    "partner", "undaunted", "improvise", "aftermath", "embalm", "eternalize", "afflict", "ascend", "assist",
    "jump-start", "mentor", "afterlife", "riot", "spectacle", "escape", "companion", "mutate", "encore", "boast",
    "foretell", "demonstrate", "daybound", "nightbound", "disturb", "decayed", "cleave", "training", "compleated",
    "reconfigure", "blitz", "casualty", "enlist", "read ahead", "ravenous", "squad", "landcycling",
    "swampwalk", "islandwalk", "forestwalk", "mountainwalk", "plainswalk", "landwalk", "desertwalk",
    "legendary landwalk", "nonbasic landwalk", "snow landwalk", "basic landcycling", "plainscycling",
    "islandcycling", "swampcycling", "mountaincycling", "forestcycling", "wizardcycling", "slivercycling",
    "typecycling", "hexproof from", "partner with", "friends forever", "double team",
    "backup", "bargain", "craft", "disguise", "plot", "saddle", "offspring", "gift", "toxic", "prototype",
    "umbra armor", "for mirrodin!", "living metal", "commander ninjutsu",
}
_LONGEST = max(len(k.split()) for k in KEYWORD_NAMES)
_KEYWORD_FIRST = frozenset(k.split()[0] for k in KEYWORD_NAMES)


def parse_lines(text: str, facts: Facts, split: Callable[[str], list[list[str]]]) -> list[Line]:
    """A normalised text's lines (``split`` cuts it), each with its abilities and the parse
    errors of the sentences not read."""
    load_families()
    out: list[Line] = []
    for sentences in split(text):
        out.append(parse_line(sentences, facts))
    return out


def parse_line(sentences: list[str], facts: Facts) -> Line:
    line = Line(list(sentences))
    current: _Open | None = None
    for i, text in enumerate(sentences):
        try:
            tokens = lex(text)
        except LexError as error:
            line.errors.append((i, f"at {text[error.offset:][:40]!r}: unexpected {text[error.offset]!r}"))
            _close(current, line)
            current = None
            continue
        tried: Parser | None = None
        if current is not None:
            tried = Parser(tokens, text)
            tried.state.update(current.state)
            if current.activated:
                limit = Parser(tokens, text).attempt(restriction)
                if limit is not None:
                    current.restrictions.append(limit)
                    current.sentences += (i,)
                    current.origins += ()
                    continue
            found = tried.attempt(lambda q: effect_sentence(q, continued=True))
            if found is not None:
                current.effects += found
                current.origins += (i,) * len(found)
                current.sentences += (i,)
                continue
            _close(current, line)
            current = None
        p = Parser(tokens, text)
        try:
            opened = ability(p, facts)
        except NoParse:
            # the reading that went furthest says best what the sentence is and where it stops
            furthest = tried if tried is not None and tried.furthest > p.furthest else p
            line.errors.append((i, furthest.error().describe()))
            if tokens and tokens[0].kind == LOYALTY and "Planeswalker" in facts.types:
                line.loyalty_unread[i] = tokens[0].value  # its place among the loyalty abilities counts (B3)
            continue
        if isinstance(opened, _Open):
            opened.sentences = (i,)
            opened.origins = (i,) * len(opened.effects)
            current = opened
        else:
            line.abilities.append(_with_sentences(opened, (i,)))
    _close(current, line)
    return line


class _Open:
    """An ability that later sentences may continue: its kind and parts so far."""

    def __init__(self, make: Callable[[tuple[Effect, ...], tuple[int, ...]], Ability], effects: tuple[Effect, ...],
                 state: dict[str, object]) -> None:
        self.make = make
        self.effects = effects
        self.origins: tuple[int, ...] = ()
        self.sentences: tuple[int, ...] = ()
        self.state = {k: v for k, v in state.items() if k != "subject"}
        self.restrictions: list[str] = []  # an activated ability's 'Activate only ...' (602.5)
        self.activated = False


def _close(current: _Open | None, line: Line) -> None:
    if current is not None:
        found = current.make(current.effects, current.origins)
        if current.restrictions and isinstance(found, ActivatedAbility):
            object.__setattr__(found, "restriction", " and ".join(current.restrictions))
        line.abilities.append(found)


RESTRICTIONS = (
    (("activate", "only", "as", "a", "sorcery", "and", "only", "once", "each", "turn"), "as a sorcery and once each turn"),
    (("activate", "only", "as", "a", "sorcery"), "as a sorcery"),
    (("activate", "only", "once", "each", "turn"), "once each turn"),
    (("activate", "only", "during", "your", "turn"), "during your turn"),
)


def restriction(p: Parser) -> str:
    """An activation restriction (602.5b): 'Activate only as a sorcery', 'only once each turn'."""
    for words, found in RESTRICTIONS:
        if p.accept(*words):
            p.end()
            return found
    p.fail("'Activate only ...'")


def _with_sentences(found: Ability, sentences: tuple[int, ...]) -> Ability:
    object.__setattr__(found, "sentences", sentences)
    return found


def ability(p: Parser, facts: Facts) -> Ability | _Open:
    """The ability a sentence starts (the module's paragraph)."""
    kw = p.attempt(keyword_line)
    if kw is not None:
        return kw
    if p.at("choose"):
        return modal(p, facts)
    t = p.peek()
    if t is not None and t.kind == LOYALTY:
        if "Planeswalker" not in facts.types:
            p.fail("an ability")
        p.pos += 1
        effects = effect_sentence(p)
        change = t.value
        return _Open(lambda e, o: _origins(LoyaltyAbility(change, e), o), effects, p.state)
    if p.at("when|whenever|at"):
        p.pos += 1
        trig = TRIGGERS.read(p, "a trigger")
        p.expect(",")
        effects = effect_sentence(p)
        return _Open(lambda e, o: _origins(TriggeredAbility(trig, e), o), effects, p.state)
    costs = p.attempt(_costs)
    if costs is not None:
        effects = effect_sentence(p)
        opened = _Open(lambda e, o: _origins(ActivatedAbility(costs, e), o), effects, p.state)
        opened.activated = True
        return opened
    if {"Instant", "Sorcery"} & facts.types and not p.at("~", "costs"):  # a spell's own cost reduction is static (601.2f)
        effects = effect_sentence(p)
        return _Open(lambda e, o: _origins(SpellAbility(e), o), effects, p.state)
    found = STATICS.read(p, "an ability")
    p.end()
    return StaticAbility(found)


def _origins(found: Ability, origins: tuple[int, ...]) -> Ability:
    object.__setattr__(found, "sentences", origins)
    return found


def _costs(p: Parser) -> tuple[Cost, ...]:
    """Activation costs up to the colon (602.1)."""
    costs = [COSTS.read(p, "a cost")]
    while p.accept(","):
        costs.append(COSTS.read(p, "a cost"))
    p.expect(":")
    return tuple(costs)


CHOOSE = (("one", "or", "more"), ("one", "or", "both"), ("any", "number"), ("one",), ("two",), ("three",),
          ("four",))


def modal(p: Parser, facts: Facts) -> ModalAbility:
    """'Choose one —' and its modes, each '• EFFECTS' (sentences of its own)."""
    p.expect("choose")
    for words in CHOOSE:
        if p.accept(*words):
            choose = " ".join(words)
            break
    else:
        p.fail("one, two, ...")
    p.expect("\u2014")
    modes: list[tuple[Effect, ...]] = []
    while p.peek() is not None:
        bullet = p.kind(BULLET)
        del bullet
        start = p.pos
        while p.peek() is not None and p.peek().kind != BULLET:  # type: ignore[union-attr]
            p.pos += 1
        modes.append(_mode(p.tokens[start:p.pos], p.text))
    if len(modes) < 2:
        p.fail("two or more modes")
    return ModalAbility(choose, tuple(modes))


def _mode(tokens: tuple[Token, ...], text: str) -> tuple[Effect, ...]:
    """One mode: sentences ending at full stops."""
    effects: tuple[Effect, ...] = ()
    sentence: list[Token] = []
    parts: list[tuple[Token, ...]] = []
    for t in tokens:
        if t.kind == PUNCT and t.value == ".":
            parts.append(tuple(sentence))
            sentence = []
        else:
            sentence.append(t)
    if sentence:
        parts.append(tuple(sentence))
    for n, part in enumerate(p for p in parts if p):
        q = Parser(part, text)
        try:
            effects += effect_sentence(q, continued=n > 0)
        except NoParse:
            raise NoParse from None
    if not effects:
        raise NoParse
    return effects


def keyword_line(p: Parser) -> KeywordAbility:
    """A line of keywords: 'Flying, haste', 'Equip {2}', 'Protection from black and from red',
    'Cumulative upkeep {1}', 'Ward—Pay 2 life'."""
    if p.word() not in _KEYWORD_FIRST:
        p.fail("a keyword")
    keywords = [_keyword(p)]
    while p.accept(",") or p.accept(";"):
        keywords.append(_keyword(p))
    p.end()
    return KeywordAbility(tuple(keywords))


def _keyword(p: Parser) -> Keyword:
    start = p.pos
    name = ""
    for length in range(_LONGEST, 0, -1):
        words = [p.word(k) for k in range(length)]
        if all(words) and " ".join(words) in KEYWORD_NAMES:
            name = " ".join(words)
            p.pos += length
            break
    if not name:
        p.fail("a keyword")
    if name == "protection":
        p.expect("from")
        qualities = [p.next().value]
        while p.accept("and", "from") or p.accept(",", "from") or p.accept(",", "and", "from"):
            qualities.append(p.next().value)
        return Keyword(name, number=",".join(qualities), text=p.text_between(start, p.pos))
    cost = ""
    number = ""
    t = p.peek()
    if t is not None and t.kind == MANA:
        begin = p.pos
        while p.peek() is not None and p.peek().kind == MANA:  # type: ignore[union-attr]
            p.pos += 1
        cost = "".join("{" + tok.value + "}" for tok in p.tokens[begin:p.pos])
    elif t is not None and (t.kind == NUM or t.value == "x"):
        p.pos += 1
        number = t.value
        if p.at("\u2014") and name == "suspend":  # 'Suspend 4—{1}{R}': time counters, then the cost (702.62a)
            p.pos += 1
            begin = p.pos
            while p.peek() is not None and p.peek().kind == MANA:  # type: ignore[union-attr]
                p.pos += 1
            cost = "".join("{" + tok.value + "}" for tok in p.tokens[begin:p.pos])
    elif p.at("\u2014"):
        p.pos += 1
        begin = p.pos
        while p.peek() is not None:
            p.pos += 1
        cost = p.text_between(begin, p.pos)
    elif t is not None and t.kind == WORD and name in ("partner with", "hexproof from", "enchant", "landwalk"):
        begin = p.pos
        while p.peek() is not None and p.peek().kind in (WORD, QUOTE) and p.word() not in (",", ";"):  # type: ignore[union-attr]
            p.pos += 1
        number = p.text_between(begin, p.pos)
    return Keyword(name, cost=cost, number=number, text=p.text_between(start, p.pos))

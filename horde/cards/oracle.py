"""The Oracle-text compiler: templated rules text to behaviour lines of the card-file syntax.

``compile_text(text, facts, tokens)`` reads a card's Oracle text sentence by sentence with a small
deterministic grammar and writes the lines a person would write in a card file
(``Enters: discard who=each_opponent count=1``, ``Keywords: flying``, ``Mana: G``, ``Equip: {2}``).
The catalogue's own loader then parses and checks those lines, so a compiled card and a
hand-written one go through the same checks. An ability is read whole or not at all: a sentence
the grammar does not know (or a part of one) makes its whole ability unread, and the card is
refused with each unread sentence quoted. The grammar knows only what the effect vocabulary
(``horde.engine.effects``) can say; where it can't be sure, it does not guess.

The grammar is a set of tables, so that a new template is one entry with its test: an ability
is a trigger (``TRIGGERS``, and ``WHEN_TRIGGERS`` for triggers about other objects, whose FILTER
is a noun phrase), activation costs (``COSTS``), a loyalty cost (``[+N]:`` as MTGJSON writes it),
modes, or a static ability (``STATICS``); its effect a clause of ``EFFECT_TEMPLATES`` (joined by
``and`` or ``, then``), made optional by "you may" and conditional by an intervening "if"
(``CONDITIONS``); keywords the vocabulary says in other words are ``KEYWORD_LINES``. One grammar
of noun phrases (``noun_filter``, ``card_filter``) and counts (``count_phrase``) serves them all.
``docs/cards.md`` lists every template.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Callable, Container, Mapping
from dataclasses import dataclass, field

from horde.cards.tokens import read_token, token_card
from horde.engine.cards import KEYWORDS, CardDef
from horde.engine.filters import COLOUR_TERMS, SUBTYPE_TERMS, compile_filter
from horde.limits import CARD_TEXT_MAX

NUMBERS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
           "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "twenty": 20}
NUMBER = r"(a|an|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|twenty|[0-9]{1,6}|X)"
PLURALS = {"elves": "elf", "dwarves": "dwarf", "wolves": "wolf", "werewolves": "werewolf"}
TYPES = {"creature": "creature", "artifact": "artifact", "enchantment": "enchantment", "land": "land",
         "planeswalker": "planeswalker", "instant": "instant", "sorcery": "sorcery", "permanent": None}
BASIC_MANA = {"Plains": "W", "Island": "U", "Swamp": "B", "Mountain": "R", "Forest": "G"}
# Counts Oracle text names that no noun phrase reads (``count_phrase`` reads the rest).
COUNTS = {
    "card in your hand": "hand:yours",
    "the number of cards in your hand": "hand:yours",
    "time it was kicked": "kicked",
    "time ~ was kicked": "kicked",
    "half the number of zombies you control, rounded down": "half:count:zombie yours",
}
# "Can't be regenerated": an argument of the destroy (or damage) effect before it.
NO_EFFECT = re.compile(r"(it|they) can't be regenerated( this turn)?|a creature dealt damage this way can't be "
                       r"regenerated this turn", re.I)


def modifies(sentence: str, effects: list[str]) -> bool:
    """A sentence that changes the effects before it rather than adding one: 'can't be
    regenerated' (``no_regeneration``), or a kicker's 'If ~ was kicked, it deals N damage
    instead' (the damage becomes its amount plus the difference for each kick)."""
    if no_regeneration(sentence, effects):
        return True
    m = re.fullmatch(r"If ~ was kicked, it deals ([0-9]{1,6}) damage instead", sentence)
    if m and effects:
        last = re.fullmatch(r"(damage(?:_all)? amount=)([0-9]{1,6})( .*)", effects[-1])
        if last and int(m[1]) > int(last[2]):
            effects[-1] = f'{last[1]}"{last[2]}+{int(m[1]) - int(last[2])}*kicked"{last[3]}'
            return True
    return False


def no_regeneration(sentence: str, effects: list[str]) -> bool:
    """'It (They) can't be regenerated' after a destroy effect, 'a creature dealt damage this way
    can't be regenerated this turn' after a damage effect: its ``regenerate=false``. False when
    the sentence is not one of them or follows no such effect."""
    if not NO_EFFECT.fullmatch(sentence):
        return False
    verbs = ("damage",) if sentence.lower().startswith("a creature") else ("destroy", "destroy_all")
    for i in range(len(effects) - 1, -1, -1):
        if effects[i].split()[0] in verbs:
            effects[i] += " regenerate=false"
            return True
    return False


@dataclass(frozen=True)
class Facts:
    """What the compiler needs to know of the card besides its text."""

    name: str
    types: frozenset[str]
    subtypes: frozenset[str] = frozenset()
    supertypes: frozenset[str] = frozenset()
    colours: frozenset[str] = frozenset()
    pt_star: bool = False  # printed */*
    x_cost: bool = False  # its mana cost has {X}


@dataclass
class Compiled:
    """What the compiler made of a text: the card-file lines of the abilities it read, and the
    sentences it could not read (their abilities are not in ``lines``: the card is exact only when
    ``unread`` is empty, and ``lines`` is then all of it)."""

    lines: list[str] = field(default_factory=list)
    unread: list[str] = field(default_factory=list)
    dropped: list[str] = field(default_factory=list)  # each ability not read, whole (the sentences of its line)
    keywords: list[str] = field(default_factory=list)
    made_from: dict[str, str] = field(default_factory=dict)  # each line -> the sentence(s) it was read from
    tokens: dict[str, CardDef] = field(default_factory=dict)  # the new token cards ``lines`` create, by name

    @property
    def ok(self) -> bool:
        return not self.unread


class Unread(Exception):
    """Raised inside the grammar: this ability is not understood."""


# ---------------------------------------------------------------- text to sentences


def normalise(text: str, name: str) -> str:
    """Reminder text dropped, the card's own name (and 'this creature' ...) as ``~``, the legacy
    'enters the battlefield' as 'enters', the minus sign as '-'."""
    text = text.replace("\u2212", "-").replace("\u2014", "—")
    # 606: a loyalty ability as MTGJSON writes it, its cost in brackets: '[+1]: ...', '[-2]: ...', '[0]: ...'
    text = re.sub(r"\[([+-]?(?:[0-9]{1,6}|X))\]:(?= )", r"\1:", text)
    text = re.sub(r"(?<![.\s])\s*\([^()]*\)(?=\s+[A-Z{])", ".", text)  # reminder text ending an ability on one line
    text = re.sub(r"\s*\([^()]*\)", "", text)
    names = {name}
    if "," in name:
        names.add(name.split(",")[0])
    for n in sorted(names, key=len, reverse=True):
        text = re.sub(rf"\b{re.escape(n)}\b", "~", text)
    text = re.sub(r"\b[Tt]his (creature|permanent|enchantment|artifact|land|card|spell|equipment|scheme)\b", "~", text)
    text = re.sub(r"(?m)^[A-Z][\w' ]+ — (?=(When|Whenever|At) )", "", text)  # ability words have no rules meaning
    return text.replace("enters the battlefield", "enters")


def sentences(text: str) -> list[list[str]]:
    """Lines (abilities as MTGJSON separates them) of sentences, trailing full stops removed.
    A 'Choose one —' line keeps its bullets as one sentence."""
    out = []
    text = re.sub(r"\s*•\s*", " • ", text)
    for line in text.split("\n"):
        line = line.strip()
        if not line:
            continue
        if '"' in line:  # an ability that grants quoted abilities: beyond the vocabulary
            out.append([line.rstrip(".")])
            continue
        parts: list[str] = []
        modal = re.search(r"\bChoose (?:one|two|three|one or more|one or both) —", line)
        head, tail = (line[:modal.start()], line[modal.start():]) if modal else (line, "")
        for piece in re.split(r"(?<=[.;])\s+(?=[A-Z~+\-{0-9])", head) if head.strip() else []:
            piece = piece.strip().rstrip(".").strip()
            if piece:
                parts.append(piece)
        if tail:
            parts.append(tail.strip().rstrip("."))
        out.append(parts)
    return out


# ---------------------------------------------------------------- small parts of the grammar


def number(word: str, ctx: _Context) -> str:
    """A count or amount as the vocabulary writes it: 2, X, or a named count."""
    word = word.lower()
    if word in NUMBERS:
        return str(NUMBERS[word])
    if word.isascii() and word.isdigit():
        return word
    if word == "x":
        if ctx.x_is:
            return ctx.x_is
        if ctx.facts.x_cost and ctx.hook in ("Cast", "Mode"):  # the X paid for the spell
            return "X"
    raise Unread


def per_each(base: str, each: str | None) -> str:
    """``N for each THING``: N times the count THING names (``count_phrase``)."""
    if each is None:
        return base
    count = count_phrase(each)
    if base == "X" or not base.isdigit() or "+" in count and base != "1":
        raise Unread
    return quote(count if base == "1" else f"{base}*{count}")


def count_phrase(phrase: str) -> str:
    """A count Oracle text names, as an amount of the vocabulary: 'creature you control' or
    'the number of creatures you control' (count:creature yours), 'creature card in your
    graveyard' (graveyard:creature yours), 'Zombies on the battlefield', parts joined by 'and
    each' or 'plus the number of'; Unread for anything else."""
    text = phrase.strip().lower()
    if text in COUNTS:
        return COUNTS[text]
    text = re.sub(r"^the number of ", "", text)
    terms = []
    for part in re.split(r" and each | plus the number of ", text):
        m = re.fullmatch(r"(.+?) in (your|all|their|that player's) graveyards?", part)
        if m:
            whose = {"your": " yours", "all": "", "their": " theirs", "that player's": " theirs"}[m[2]]
            other = m[1].startswith("other ")
            flt = card_filter(m[1][len("other "):] if other else m[1])
            terms.append(f"graveyard:{'nontoken' if flt == 'any' else flt}{' other' if other else ''}{whose}")
            continue
        m = re.fullmatch(r"(.+?) on the battlefield", part)
        terms.append(f"count:{noun_filter(m[1] if m else part, plural=True)}")
    return "+".join(terms)


def singular(word: str) -> str:
    low = word.lower()
    if low in PLURALS:
        return PLURALS[low]
    if low.endswith("s") and low[:-1] in SUBTYPE_TERMS | set(TYPES) | {"token"}:
        return low[:-1]
    return low


def keyword_list(text: str) -> list[str]:
    """'first strike, vigilance, trample, and haste' -> the keywords, each in KEYWORDS."""
    words = [w.strip().lower() for w in re.split(r",\s*(?:and\s+)?|\s+and\s+", text) if w.strip()]
    out = []
    for word in words:
        word = {"can't be blocked": "unblockable"}.get(word, word)
        if word not in KEYWORDS:
            raise Unread
        out.append(word)
    return out


def noun_filter(phrase: str, plural: bool = False) -> str:
    """A noun phrase ('other Zombie creatures you control', 'target nonartifact creature') as a
    filter of the vocabulary; raises Unread for anything it can't say (an 'or', an unknown type)."""
    text = phrase.strip().lower()
    text = re.sub(r",\s*(?=non-?)", " ", text)  # non-Angel, non-Demon, ...
    relation = None
    for ending, term in ((" you control", "yours"), (" an opponent controls", "opponents"),
                         (" your opponents control", "opponents"), (" you don't control", "opponents")):
        if text.endswith(ending):
            relation, text = term, text[: -len(ending)]
            break
    terms: list[str] = []
    m = re.fullmatch(r"(.+) with (mana value|power|toughness) ([0-9]{1,6}) or (less|greater)", text)
    if m:
        text = m[1]
        terms.append(f"{'mv' if m[2] == 'mana value' else m[2]}{'<=' if m[4] == 'less' else '>='}{m[3]}")
    if " and " in text:
        raise Unread
    if " or " in text:  # 'artifact or enchantment': alternatives, each with the same relation and terms
        parts = re.split(r",? or |, ", text)
        ending = {"yours": " you control", "opponents": " an opponent controls", None: ""}[relation]
        alternatives = [noun_filter(part + ending, plural) for part in parts]
        return " | ".join(f"{alternative} {' '.join(terms)}".strip() for alternative in alternatives)
    if text.endswith(" with flying"):
        text = text[: -len(" with flying")]
        terms.append("with-flying")
    elif text.endswith(" without flying"):
        text = text[: -len(" without flying")]
        terms.append("without-flying")
    words = text.split()
    if words and words[0] == "all":
        words = words[1:]
    other = False
    if words and words[0] in ("other", "another"):
        other, words = True, words[1:]
    if words and words[-1] in ("token", "tokens"):
        words = words[:-1]
        terms.append("token")
    if not words:
        raise Unread
    noun = singular(words[-1])
    kinds: list[str] = []
    if noun in TYPES:
        kind = TYPES[noun]
        if kind:
            kinds.append(kind)
    elif noun in SUBTYPE_TERMS:
        kinds.append(noun)
    else:
        raise Unread
    for word in words[:-1]:
        word = word.replace("-", "")
        base = word[3:] if word.startswith("non") else word
        if base in TYPES and TYPES[base] and word != base:
            kinds.append(word)
        elif base in TYPES and TYPES[base]:
            kinds.insert(0, base)
        elif base in COLOUR_TERMS or base in SUBTYPE_TERMS or base in ("token", "legendary"):
            kinds.append(word)
        elif word in ("tapped", "untapped", "attacking", "blocking"):
            kinds.append(word)
        else:
            raise Unread
    terms = kinds + terms + (["other"] if other else []) + ([relation] if relation else [])
    if not terms:
        raise Unread
    text = " ".join(terms)
    try:
        compile_filter(text)
    except ValueError:
        raise Unread from None
    return text


def card_filter(phrase: str) -> str:
    """'creature card', 'Zombie card', 'Dragon permanent card', 'card' (in a graveyard) as a filter."""
    words = phrase.lower().replace("-", "").split()
    if not words or words[-1] not in ("card", "cards"):
        raise Unread
    if " or " in phrase:  # 'instant or sorcery card': alternatives
        kinds = re.split(r",? or |, ", " ".join(words[:-1]))
        return " | ".join(card_filter(kind + " card") for kind in kinds)
    words = words[:-1]
    if not words:
        return "any"
    terms = []
    for word in words:
        base = word[3:] if word.startswith("non") else word
        if not (base in TYPES or base in SUBTYPE_TERMS or base in COLOUR_TERMS):  # 'permanent card': 110.4
            raise Unread
        terms.append(word)
    return " ".join(terms)


def quote(value: str) -> str:
    if '"' in value:  # a token named by its description, with a quoted ability: quoted as a shell would
        return shlex.quote(value)
    return f'"{value}"' if " " in value or "," in value else value


def pt_change(text: str) -> tuple[int, int]:
    m = re.fullmatch(r"([+-][0-9]{1,6})/([+-][0-9]{1,6})", text)
    if not m:
        raise Unread
    return int(m[1]), int(m[2])


def pt_args(power: int, toughness: int, keywords: list[str]) -> str:
    parts = []
    if power:
        parts.append(f"power={power}")
    if toughness:
        parts.append(f"toughness={toughness}")
    if keywords:
        parts.append(f"keywords={quote(','.join(keywords))}")
    return " ".join(parts)


# ---------------------------------------------------------------- effects


@dataclass
class _Context:
    facts: Facts
    tokens: Mapping[str, CardDef]
    hook: str = ""
    made: dict[str, CardDef] = field(default_factory=dict)  # new token cards of this text (``Compiled.tokens``)
    taken: Container[str] = ()  # names (lower case) a new token may not take: the catalogue's cards
    x_is: str | None = None
    target: str | None = None  # the filter of the last targeted effect
    group: str | None = None  # the filter of the last 'each creature ...' effect ('those creatures')


Template = Callable[[re.Match[str], _Context], list[str]]  # an effect template's reader: its match -> verbs


WHO = {"you": "you", "each opponent": "each_opponent", "each player": "each_player",
       "each other player": "each_other_player", "that player": "that_player", "target player": "target_player",
       "target opponent": "target_opponent"}
TARGET_WHO = {"target_player": "player", "target_opponent": "opponent"}


def token_for(description: str, ctx: _Context) -> str:
    """The token a create clause describes (111.4: '1/1 colorless Eldrazi Scion creature tokens with
    "Sacrifice ~: Add {C}."', 'Voja, a legendary 2/2 green and white Wolf creature token'), read by
    ``read_token``: the catalogue's token with exactly those facts (``token_card``), else a new
    token card, kept in ``ctx.made`` for the catalogue to add; Unread if the text describes no
    token the engine can play, or a new one whose name is another card's."""
    named = None
    m = re.fullmatch(r"([A-Z][\w' -]*), an? (.+)", description)  # 'Voja, a legendary ... token'
    if m:
        named, description = m[1], m[2]
    m = re.fullmatch(r"(.+? tokens?)(?: named ([^\"]+?))?(?: with (.+?))?(?: named ([^\"]+?))?", description)
    if m is None:
        raise Unread
    named = named or m[2] or m[4]
    if named:  # a token named after its card ('Kobolds of Kher Keep'): the name as printed
        named = named.replace("~", ctx.facts.name)
    token = read_token(m[1] + (f" named {named}" if named else "") + (f" with {m[3]}" if m[3] else ""))
    if isinstance(token, str):
        raise Unread
    known = {**ctx.tokens, **ctx.made}
    taken = _Taken(ctx.taken, ctx.facts.name.lower())
    card = token_card(token, known, f"created by {ctx.facts.name}", taken)
    if known.get(card.name) is card:
        return card.name
    if card.name in known or card.name.lower() in taken:  # a different token or a card has even that name
        raise Unread
    ctx.made[card.name] = card
    return card.name


@dataclass(frozen=True)
class _Taken:
    """The names a new token may not take: the catalogue's cards (lower case) and the card's own."""

    names: Container[str]
    own: str

    def __contains__(self, name: object) -> bool:
        return name == self.own or name in self.names


def effect(clause: str, ctx: _Context) -> list[str]:
    """One clause of an effect as verbs of the vocabulary (several for 'A and B', 'A, then B')."""
    clause = clause.strip()
    m = re.fullmatch(r"you may (.+)", clause, re.I)
    if m:  # 608.2d: an optional effect, its controller's choice; what follows it in the clause goes with it
        chosen, *more = conditioned(effect(m[1], ctx), "")
        return [chosen + " may=true"] + conditioned(more, "if=done")
    clause = re.sub(r"^have (~|it) deal ", r"\1 deals ", clause)
    clause = re.sub(r"^you (?=create )", "", clause)
    for template, build in EFFECT_TEMPLATES:
        m = re.fullmatch(template, clause, re.I)
        if m:
            saved = (ctx.target, ctx.group)
            try:
                return build(m, ctx)
            except Unread:
                ctx.target, ctx.group = saved
    # A and B / A, then B: each part an effect; a part without a subject takes the first one's.
    for joiner in (", then ", " and "):
        if joiner in clause:
            head, _, rest = clause.partition(joiner)
            first = effect(head, ctx)
            subject = re.match(r"(you|each opponent|each player|each other player|that player|target player|"
                               r"target opponent) ", head, re.I)
            if subject and not re.match(r"(you|each|that|target|~|it) ", rest, re.I):
                rest = subject[0] + rest
            return first + effect(rest, ctx)
    raise Unread


def conditioned(effects: list[str], condition: str) -> list[str]:
    """Effects each given a condition (``if=kicked``, ``if=done``; none: only checked), Unread
    if one already has a condition: a verb takes one."""
    if any(re.search(r" (if|unless)=", e) for e in effects):
        raise Unread
    return [f"{e} {condition}" if condition else e for e in effects]


def _who(m: re.Match[str], ctx: _Context) -> str:
    who = WHO[(m["who"] or "you").lower()]
    if who == "that_player" and ctx.hook not in ("EachUpkeep", "OpponentUpkeep", "CreatureDies", "HitsPlayer"):
        raise Unread
    if who in TARGET_WHO:  # one target per ability: the same player may be named again
        if ctx.target is not None and ctx.target != TARGET_WHO[who]:
            raise Unread
        ctx.target = TARGET_WHO[who]
    return who


def _draw(m: re.Match[str], ctx: _Context) -> list[str]:
    return [f"draw who={_who(m, ctx)} count={per_each(number(m['n'], ctx), m['each'])}"]


def _lose(m: re.Match[str], ctx: _Context) -> list[str]:
    return [f"lose_life who={_who(m, ctx)} amount={per_each(number(m['n'], ctx), m['each'])}"]


def _gain(m: re.Match[str], ctx: _Context) -> list[str]:
    who = _who(m, ctx)
    return [f"gain_life amount={per_each(number(m['n'], ctx), m['each'])}" + ("" if who == "you" else f" who={who}")]


def _discard(m: re.Match[str], ctx: _Context) -> list[str]:
    return [f"discard who={_who(m, ctx)} count={per_each(number(m['n'], ctx), m['each'])}"]


def _mill(m: re.Match[str], ctx: _Context) -> list[str]:
    return [f"mill who={_who(m, ctx)} count={number(m['n'], ctx)}"]


def _sacrifice(m: re.Match[str], ctx: _Context) -> list[str]:
    count = number(m["n"], ctx)
    return [f"each_player_sacrifices who={_who(m, ctx)} filter={quote(noun_filter(m['what']))} count={count}"]


def _tokens(m: re.Match[str], ctx: _Context) -> list[str]:
    count = per_each(number(m["n"], ctx) if m["n"] else "1", m["each"])
    token = token_for(m["what"], ctx)
    tapped = " tapped=true" if m["tapped"] else ""
    return [f"create_tokens token={quote(token)} count={count}{tapped}"]


def _named_token(m: re.Match[str], ctx: _Context) -> list[str]:
    return [f"create_tokens token={quote(token_for(m['what'], ctx))} count=1"]


# Targets that name players and planeswalkers together ("target player or planeswalker": H8's
# targets; "player" is each team player and the Horde, "opponent" the other side's players).
PLAYER_OR_PLANESWALKER = {"target player or planeswalker": "player | planeswalker",
                          "target opponent or planeswalker": "opponent | planeswalker"}


def _target(ctx: _Context, text: str) -> str:
    flt = PLAYER_OR_PLANESWALKER.get(text.lower())
    if flt is None:
        flt = "any" if text.lower() == "any target" else noun_filter(re.sub(r"^target ", "", text, flags=re.I))
    if not text.lower().startswith(("target ", "any target")):
        raise Unread
    if ctx.target is not None:
        raise Unread  # one target per ability
    ctx.target = flt
    return flt


SELF_HOOKS = ("Enters", "Attacks", "Blocks", "Dies", "DealtDamage", "Targeted", "Cycled")


def _self(m: re.Match[str], ctx: _Context) -> None:
    """'it' is the card itself only in a trigger about the card ('When ~ dies, it deals ...')."""
    if m["it"].lower() == "it" and ctx.hook not in SELF_HOOKS:
        raise Unread


def _damage(m: re.Match[str], ctx: _Context) -> list[str]:
    _self(m, ctx)
    amount = number(m["n"], ctx)
    to = m["to"]
    if to.lower() in ("each opponent", "each player"):
        return [f"damage_all amount={amount} who={WHO[to.lower()]}"]
    each = re.fullmatch(r"each (.+?)(?: and (each opponent|each player))?", to, re.I)
    if each:
        flt = noun_filter(each[1])
        ctx.group = flt
        players = f" who={WHO[each[2].lower()]}" if each[2] else ""
        return [f"damage_all amount={amount} filter={quote(flt)}{players}"]
    return [f"damage amount={amount} target={quote(_target(ctx, to))}"]


def _destroy(m: re.Match[str], ctx: _Context) -> list[str]:
    return [f"destroy target={quote(_target(ctx, m['what']))}"]


def _destroy_all(m: re.Match[str], ctx: _Context) -> list[str]:
    what = m["what"]
    except_for = re.fullmatch(r"(.+?) except for (\w+) and (\w+)", what, re.I)
    if except_for:
        flt = noun_filter(except_for[1], True).split()
        flt += ["non" + singular(except_for[2]), "non" + singular(except_for[3])]
        text = " ".join(flt)
        try:
            compile_filter(text)
        except ValueError:
            raise Unread from None
        return [f"destroy_all filter={quote(text)}"]
    return [f"destroy_all filter={quote(noun_filter(what, True))}"]


def _exile(m: re.Match[str], ctx: _Context) -> list[str]:
    return [f"exile target={quote(_target(ctx, m['what']))}"]


def _bounce(m: re.Match[str], ctx: _Context) -> list[str]:
    return [f"bounce target={quote(_target(ctx, m['what']))}"]


def _counter(m: re.Match[str], ctx: _Context) -> list[str]:
    if ctx.hook != "Cast":  # H10: a spell is countered only by a counterspell cast as it is cast
        raise Unread
    kind = (m["kind"] or "").strip().lower()
    if kind and kind not in ("creature", "noncreature"):
        raise Unread
    return ["counter_spell" + (f" filter={kind}" if kind else "")]


def _pump_target(m: re.Match[str], ctx: _Context) -> list[str]:
    power, toughness = pt_change(m["pt"]) if m["pt"] else (0, 0)
    keywords = keyword_list(m["kw"] or m["kw2"]) if m["kw"] or m["kw2"] else []
    return [f"pump on=target target={quote(_target(ctx, m['what']))} {pt_args(power, toughness, keywords)}".rstrip()]


def _pump_self(m: re.Match[str], ctx: _Context) -> list[str]:
    _self(m, ctx)
    power, toughness = pt_change(m["pt"]) if m["pt"] else (0, 0)
    keywords = keyword_list(m["kw"] or m["kw2"]) if m["kw"] or m["kw2"] else []
    return [f"pump on=self {pt_args(power, toughness, keywords)}".rstrip()]


def _pump_all(m: re.Match[str], ctx: _Context) -> list[str]:
    power, toughness = pt_change(m["pt"]) if m["pt"] else (0, 0)
    keywords = keyword_list(m["kw"] or m["kw2"]) if m["kw"] or m["kw2"] else []
    return [f"pump_all filter={quote(noun_filter(m['what'], True))} {pt_args(power, toughness, keywords)}".rstrip()]


def _counters(m: re.Match[str], ctx: _Context) -> list[str]:
    count = number(m["n"], ctx)
    on = m["on"]
    kind = " kind=minus" if m["kind"].startswith("-") else ""
    if on == "~":
        return [f"counters on=self count={count}{kind}"]
    each = re.fullmatch(r"each (.+)", on, re.I)
    if each:
        return [f"counters on=each count={count} filter={quote(noun_filter(each[1]))}{kind}"]
    return [f"counters on=target count={count} filter={quote(_target(ctx, on))}{kind}"]


def _poison(m: re.Match[str], ctx: _Context) -> list[str]:
    return [f"poison who={_who(m, ctx)} count={number(m['n'], ctx)}"]


def _return_card(m: re.Match[str], ctx: _Context) -> list[str]:
    count = number(m["n"], ctx) if m["n"] else "1"
    to = "hand" if m["to"].lower() == "your hand" else "battlefield"
    return [f"return_from_graveyard filter={quote(card_filter(m['what']))} to={to} count={count}"]


def _ramp(m: re.Match[str], ctx: _Context) -> list[str]:
    text = m["rest"].lower()
    forms = {
        ("a", "put that card onto the battlefield tapped"): (1, True, 0),
        ("a", "put it onto the battlefield tapped"): (1, True, 0),
        ("a", "put that card onto the battlefield"): (1, False, 0),
        ("a", "put it onto the battlefield"): (1, False, 0),
        ("a", "reveal it, put it into your hand"): (0, True, 1),
        ("up to two", "put them onto the battlefield tapped"): (2, True, 0),
        ("up to two", "reveal those cards, put one onto the battlefield tapped and the other into your hand"):
            (1, True, 1),
    }
    found = forms.get((m["n"].lower(), text))
    if found is None:
        raise Unread
    count, tapped, to_hand = found
    return [f"ramp count={count} tapped={'true' if tapped else 'false'} to_hand={to_hand}"]


def _reanimate(m: re.Match[str], ctx: _Context) -> list[str]:
    return [f"reanimate_all who={_who(m, ctx)} filter={quote(card_filter(m['what'] + ' card'))}"]


def _tap_those(m: re.Match[str], ctx: _Context) -> list[str]:
    if ctx.group is None:
        raise Unread
    return [f"tap_all filter={quote(ctx.group)}"]


def _tap_all(m: re.Match[str], ctx: _Context) -> list[str]:
    return [f"tap_all filter={quote(noun_filter(m['what'], True))}"]


def _its_controller(m: re.Match[str], ctx: _Context) -> list[str]:
    if ctx.target is None or ctx.target == "any":
        raise Unread
    return [f"lose_life who=target_controller amount={number(m['n'], ctx)}"]


def _it_is_self(ctx: _Context, verb: str) -> list[str]:
    """'it' names the card itself only in a trigger whose subject is the card."""
    if ctx.hook not in SELF_HOOKS + ("EndStep", "Upkeep"):
        raise Unread
    return [verb]


def _fixed(*verbs: str) -> Template:
    return lambda m, ctx: list(verbs)


SUBJECT = r"(?:(?P<who>you|each opponent|each player|each other player|that player|target player|target opponent) )?"
EACH = r"(?: for each (?P<each>[\w ]+?))?"
EFFECT_TEMPLATES = [
    (SUBJECT + rf"draws? (?P<n>{NUMBER}) cards?{EACH}", _draw),
    (SUBJECT + rf"loses? (?P<n>{NUMBER}) life{EACH}", _lose),
    (SUBJECT + rf"gains? (?P<n>{NUMBER}) life{EACH}", _gain),
    (SUBJECT + rf"discards? (?P<n>{NUMBER}) cards?{EACH}", _discard),
    (SUBJECT + rf"mills? (?P<n>{NUMBER}) cards?", _mill),
    (SUBJECT + rf"sacrifices? (?P<n>{NUMBER}) (?P<what>[\w -]+)", _sacrifice),
    (SUBJECT + r"returns? all (?P<what>[\w -]+?) cards from their graveyards? to the battlefield", _reanimate),
    (r"(?P<who>each opponent) chooses a permanent they control of each permanent type and sacrifices the rest",
     lambda m, ctx: [f"each_player_sacrifices who={_who(m, ctx)} filter=permanent keep=one_of_each_type"]),
    (rf"create (?P<n>{NUMBER}) (?P<tapped>tapped )?(?P<what>.+? creature tokens?(?: with .+?)?(?: named .+?)?){EACH}",
     _tokens),
    (r"create (?P<what>[A-Z][\w' -]*, an? .+ creature token)", _named_token),
    (rf"(?P<it>~|it) deals (?P<n>{NUMBER}) damage to (?P<to>.+)", _damage),
    (r"destroy (?P<what>target .+)", _destroy),
    (r"destroy all (?P<what>.+)", _destroy_all),
    (r"exile (?P<what>target .+)", _exile),
    (r"return (?P<what>target .+) to its owner's hand", _bounce),
    (r"counter target (?P<kind>\w+ )?spell", _counter),
    (r"(?P<what>target .+?) (?:gets (?P<pt>[+-][0-9]{1,6}/[+-][0-9]{1,6})(?: and gains (?P<kw>.+?))?|gains (?P<kw2>.+?)) "
     r"until end of turn", _pump_target),
    (r"(?P<it>~|it) (?:gets (?P<pt>[+-][0-9]{1,6}/[+-][0-9]{1,6})(?: and gains (?P<kw>.+?))?|gains (?P<kw2>.+?)) "
     r"until end of turn", _pump_self),
    (r"(?P<what>.+?) (?:get (?P<pt>[+-][0-9]{1,6}/[+-][0-9]{1,6})(?: and gain (?P<kw>.+?))?|gain (?P<kw2>.+?)) "
     r"until end of turn", _pump_all),
    (rf"put (?P<n>{NUMBER}) (?P<kind>\+1/\+1|-1/-1) counters? on (?P<on>.+)", _counters),
    (SUBJECT + rf"gets? (?P<n>{NUMBER}) poison counters?", _poison),
    (rf"return (?:up to (?P<n>{NUMBER}) )?target (?P<what>(?:[\w -]+? )?cards?) from your graveyard to "
     r"(?P<to>your hand|the battlefield)", _return_card),
    (r"search your library for (?P<n>a|up to two) basic land cards?, (?P<rest>.+), then shuffle", _ramp),
    (r"prevent all combat damage that would be dealt this turn", _fixed("fog")),
    (rf"any player may exile (?P<n>{NUMBER}) cards from their graveyard",
     lambda m, ctx: [f"any_player_exiles_from_graveyard count={number(m['n'], ctx)}"]),
    (r"if (?:a player|you) does?, (?P<rest>.+)", lambda m, ctx: conditioned(effect(m["rest"], ctx), "if=done")),
    (r"~ assigns no combat damage this turn", lambda m, ctx: _it_is_self(
        ctx, 'pump on=self keywords="assigns no combat damage"')),
    (r"sacrifice ~", _fixed("sacrifice_self")),
    (r"regenerate ~", _fixed("regenerate on=self")),
    (r"regenerate (?P<what>target .+)", lambda m, ctx: [f"regenerate on=target target={quote(_target(ctx, m['what']))}"]),
    (r"sacrifice it", lambda m, ctx: _it_is_self(ctx, "sacrifice_self")),
    (r"tap those creatures", _tap_those),
    (r"tap all (?P<what>.+)", _tap_all),
    (rf"its controller loses (?P<n>{NUMBER}) life", _its_controller),
    (r"if no creatures are on the battlefield, sacrifice ~", _fixed("sacrifice_self unless=count:creature")),
    (r"abandon ~", _fixed("abandon")),  # A1: an ongoing scheme
]


def effects_of(text: str, ctx: _Context) -> list[str]:
    """A whole effect sentence, with its 'where X is ...' read first."""
    ctx.x_is = None
    m = re.fullmatch(r"(.+), where X is (.+)", text)
    if m:
        ctx.x_is = quote(count_phrase(m[2]))
        text = m[1]
    m = re.fullmatch(r"if ([^,]+), (.+)", text, re.I)
    if m:  # 603.4: an intervening 'if': the condition of each of its effects
        try:
            holds = condition(m[1])
        except Unread:
            return effect(text, ctx)  # 'If you do, ...' and the like: an effect template's
        return conditioned(effects_of(m[2], ctx), f"if={quote(holds)}")
    return effect(text, ctx)


def _count_condition(what: str, whose: str, at_least: str | None = None) -> str:
    count = f"count:{noun_filter(what, plural=at_least is not None)} {whose}"
    return count if at_least is None else f"{count} >= {NUMBERS.get(at_least.lower(), at_least)}"


# Conditions (an intervening 'if', 603.4), each as the card-file condition it is written as: one
# entry a template, NOUN a noun phrase of the filter grammar (``noun_filter``).
CONDITIONS: list[tuple[str, Callable[[re.Match[str]], str]]] = [
    (r"(?:it|~) was kicked", lambda m: "kicked"),
    (r"you control an? (?P<what>.+)", lambda m: _count_condition(m["what"], "yours")),
    (rf"you control (?P<n>{NUMBER}) or more (?P<what>.+)",
     lambda m: _count_condition(m["what"], "yours", m["n"])),
    (r"an opponent controls an? (?P<what>.+)", lambda m: _count_condition(m["what"], "opponents")),
    (r"you have no cards in hand", lambda m: "hand:yours <= 0"),
]


def condition(text: str) -> str:
    """A condition of the vocabulary ('you control a Zombie': ``count:zombie yours``); Unread
    for one no entry of ``CONDITIONS`` reads."""
    for pattern, build in CONDITIONS:
        m = re.fullmatch(pattern, text.strip(), re.I)
        if m:
            return build(m)
    raise Unread


# ---------------------------------------------------------------- abilities


@dataclass
class _Ability:
    hooks: list[str]
    effects: list[str]
    ctx: _Context
    prefix: str = ""
    when: str | None = None
    source: list[str] = field(default_factory=list)  # the sentences read into it


TRIGGERS = [
    (r"~ enters", ["Enters"]),
    (r"~ enters or attacks", ["Enters", "Attacks"]),
    (r"~ enters or dies", ["Enters", "Dies"]),
    (r"~ attacks", ["Attacks"]),
    (r"~ blocks", ["Blocks"]),
    (r"~ attacks or blocks", ["Attacks", "Blocks"]),
    (r"~ dies", ["Dies"]),
    (r"a source deals damage to ~", ["DealtDamage"]),
    (r"~ becomes the target of a spell or ability", ["Targeted"]),
    (r"a player casts a spell", ["SpellCast"]),
    (r"the beginning of your upkeep", ["Upkeep"]),
    (r"the beginning of (?:each|each player's) upkeep", ["EachUpkeep"]),
    (r"the beginning of each opponent's upkeep", ["OpponentUpkeep"]),
    (r"the beginning of (?:the|each) end step", ["EndStep"]),
    (r"you set ~ in motion", ["SetInMotion"]),  # A1: a scheme
    (r"you cycle ~", ["Cycled"]),
    (r"~ deals combat damage to a player", ["HitsPlayer"]),
]


def _self_matches(flt: str, facts: Facts) -> bool:
    """Whether the card itself passes a filter's card terms ('~ or another Zombie': itself included)."""
    for term in flt.split():
        negate = term.startswith("non") and term not in ("nontoken", "nonlegendary")
        word = term[3:] if negate else term
        if word in TYPES:
            kind = TYPES[word]  # None: 'permanent', which every permanent card is
            hit = kind is None or kind.capitalize() in facts.types
        elif word in COLOUR_TERMS:
            hit = COLOUR_TERMS[word] in facts.colours
        elif word in SUBTYPE_TERMS:
            hit = word.capitalize() in facts.subtypes
        elif word in ("token", "nontoken"):
            hit = (word == "token") == ("Token" in facts.supertypes)
            negate = False
        elif word in ("yours", "other"):
            hit = word == "yours"
            negate = False
        else:
            return False
        if hit == negate:
            return False
    return True


def _spell_filter(m: re.Match[str]) -> str:
    flt = card_filter(m["what"] + " card")
    if flt == "any" or "|" in flt:
        raise Unread
    return f"{flt} yours"


def _another(m: re.Match[str]) -> str:
    return noun_filter(("other " if m["article"].lower() == "another" else "") + m["what"])


# Triggers about other objects (603.2): (pattern, hook, the when= filter of the match, whether the
# card itself must match it: '~ or another FILTER'). One entry a template; WHAT is a noun phrase
# of the filter grammar. 'A creature enters' includes the card itself (603.6a), 'another' not.
WHEN_TRIGGERS: list[tuple[str, str, Callable[[re.Match[str]], str], bool]] = [
    (r"~ or another (?P<what>.+) dies", "CreatureDies", lambda m: noun_filter(m["what"]), True),
    (r"~ or another (?P<what>.+) enters", "PermanentEnters", lambda m: noun_filter(m["what"]), True),
    (r"you cast an? (?P<what>.+) spell", "SpellCast", _spell_filter, False),
    (r"(?P<article>a|an|another) (?P<what>.+) dies", "CreatureDies", _another, False),
    (r"(?P<article>a|an|another) (?P<what>.+) enters", "PermanentEnters", _another, False),
    (r"(?P<article>a|an|another) (?P<what>.+ you control) attacks", "CreatureAttacks", _another, False),
]


def trigger(condition: str, rest: str, ctx: _Context) -> _Ability:
    """``When/Whenever/At CONDITION, EFFECT``."""
    condition = condition.strip()
    for pattern, hooks in TRIGGERS:
        if re.fullmatch(pattern, condition, re.I):
            ctx.hook = hooks[0]
            return _Ability(hooks, effects_of(rest, ctx), ctx=ctx)
    for pattern, hook, when, itself in WHEN_TRIGGERS:
        m = re.fullmatch(pattern, condition, re.I)
        if m:
            flt = when(m)
            if itself and not _self_matches(flt, ctx.facts):
                raise Unread  # '~ or another Zombie': the card itself must be one
            ctx.hook = hook
            return _Ability([hook], effects_of(rest, ctx), when=flt, ctx=ctx)
    if re.fullmatch(r"~ becomes the target of a spell", condition, re.I):
        m = re.fullmatch(rf"that spell's controller loses (?P<n>{NUMBER}) life", rest, re.I)
        if not m:
            raise Unread
        return _Ability(["TargetedBySpell"], [f"lose_life who=caster amount={number(m['n'], ctx)}"], ctx=ctx)
    m = re.fullmatch(r"an? (.+) deals damage to you", condition, re.I)
    if m and rest.lower() == "destroy it":
        return _Ability(["ControllerDamaged"], ["destroy_that_source"], when=noun_filter(m[1]), ctx=ctx)
    raise Unread


PT = r"(?P<pt>[+-][0-9]{1,6}/[+-][0-9]{1,6})"
Static = tuple[list[str], list[str]]  # what a static ability is written as: (behaviour lines, keywords)


def _aura(ctx: _Context) -> None:
    if "Aura" not in ctx.facts.subtypes:
        raise Unread


def _enchant(m: re.Match[str], ctx: _Context) -> Static:
    _aura(ctx)  # 303.4a: 'Enchant FILTER' says what an Aura may be attached to
    what = m["what"].lower()
    return [f"Enchant: {what if what in ('player', 'opponent') else noun_filter(what)}"], []


def _attached(m: re.Match[str], ctx: _Context) -> Static:
    kw = m["kw"] or m["kw2"] or m["kw3"]
    keywords = keyword_list(kw) if kw else []
    if m["unblockable"]:
        keywords = ["unblockable"] + keywords
    if m["cant"]:
        keywords = ["can't attack", "can't block"]
    power, toughness = pt_change(m["pt"]) if m["pt"] else (0, 0)
    return [f"{m['what']}: anthem {pt_args(power, toughness, keywords)}".rstrip()], []


def _enchanted_player(m: re.Match[str], ctx: _Context) -> Static:
    _aura(ctx)
    power, toughness = pt_change(m["pt"])
    return [f'Static: anthem filter="creature enchanted" {pt_args(power, toughness, [])}'], []


def _anthem(m: re.Match[str], ctx: _Context) -> Static:
    if m["what"].lower().startswith(("target", "~")):
        raise Unread
    power, toughness = pt_change(m["pt"]) if m.groupdict().get("pt") else (0, 0)
    keywords = keyword_list(m["kw"]) if m["kw"] else []
    return [f"Static: anthem filter={quote(noun_filter(m['what'], True))} {pt_args(power, toughness, keywords)}"
            .rstrip()], []


def _cost_reduction(m: re.Match[str], ctx: _Context) -> Static:
    kind = singular(m["kind"])
    if kind not in TYPES and kind not in SUBTYPE_TERMS:
        raise Unread
    return [f"Static: cost_reduction filter={kind} amount={m['n']}"], []


def _pt_equals(m: re.Match[str], ctx: _Context) -> Static:
    if not ctx.facts.pt_star:  # 604.3: the characteristic-defining ability of a */* creature
        raise Unread
    return [f"Static: pt_equals amount={quote(count_phrase(m['count']))}"], []


def _enters_with_counters(m: re.Match[str], ctx: _Context) -> Static:
    kind = " kind=minus" if m["kind"].startswith("-") else ""
    return [f"Enters: counters on=self count={per_each(number(m['n'], ctx), m['each'])}{kind}"], []


def _fixed_static(lines: list[str], keywords: list[str] | None = None) -> Callable[[re.Match[str], _Context], Static]:
    return lambda m, ctx: (list(lines), list(keywords or []))


# Static abilities (604), the first entry whose pattern matches and whose reader does not refuse
# it: one entry a template. FILTER is a noun phrase of the filter grammar (``noun_filter``).
STATICS: list[tuple[str, Callable[[re.Match[str], _Context], Static]]] = [
    (r"~ (?P<kw>enters tapped|can't block|can't attack|can't be blocked)",
     lambda m, ctx: ([], [{"can't be blocked": "unblockable"}.get(m["kw"], m["kw"])])),
    (r"Enchant (?P<what>.+)", _enchant),
    (r"(?P<what>Equipped|Enchanted) creature (?:gets " + PT + r"(?: and has (?P<kw>.+))?|has (?P<kw2>.+)|"
     r"(?P<unblockable>can't be blocked)(?: and has (?P<kw3>.+))?|(?P<cant>can't attack or block))", _attached),
    (r"Creatures enchanted player controls get " + PT, _enchanted_player),
    (r"(?P<what>.+?) get " + PT + r"(?: and have (?P<kw>.+))?", _anthem),
    (r"(?P<what>.+?) have (?P<kw>.+)", _anthem),
    (r"(?P<kind>\w+) spells you cast cost \{(?P<n>[0-9]{1,6})\} less to cast", _cost_reduction),
    (r"~'s power and toughness are each equal to (?P<count>.+)", _pt_equals),
    (rf"~ enters with (?P<n>{NUMBER}) (?P<kind>\+1/\+1|-1/-1) counters? on it(?: for each (?P<each>.+))?",
     _enters_with_counters),
    (r"You may cast ~ from your graveyard", _fixed_static(["CastFromGraveyard:"])),
    (r"If ~ would be dealt damage, prevent that damage and remove a \+1/\+1 counter from it",
     _fixed_static(["Static: damage_removes_counters"])),
    (r"~ can be your commander", _fixed_static([])),  # 903.3d: a rule of building a deck, nothing in a game
    (r"Players can't gain life", _fixed_static(["Static: cant_gain_life"])),
    (r"Cards in graveyards lose all abilities", _fixed_static(["Static: graveyards_lose_abilities"])),
]


def static(sentence: str, ctx: _Context) -> Static:
    """A static ability: (behaviour lines, keywords), by the first entry of ``STATICS`` that reads it."""
    for pattern, read in STATICS:
        m = re.fullmatch(pattern, sentence)
        if m:
            try:
                return read(m, ctx)
            except Unread:
                continue
    raise Unread


# Activation costs, each as the card-file cost it is written as (602.1).
COSTS = {"Sacrifice another creature": "sacrifice another creature", "Sacrifice another Zombie": "sacrifice another zombie",
         "Sacrifice ~": "sacrifice this", "Exile ~": "exile this", "Discard a card": "discard a card"}
COST_PART = re.compile(r"\{T\}|(?:\{[0-9WUBRGC]+\})+|Pay [0-9]{1,3} life|" + "|".join(COSTS))


def activated(cost: str, rest: str, ctx: _Context) -> tuple[str, list[str] | None]:
    """``COSTS: EFFECT``: a mana ability (returns the Mana field) or an Activated line."""
    parts = [p.strip() for p in cost.split(",")]
    if not all(COST_PART.fullmatch(p) for p in parts):
        raise Unread
    if parts == ["{T}"]:
        mana = mana_ability(rest)
        if mana is not None:
            return f"Mana: {mana}", None
    costs = ", ".join(COSTS.get(p, p.lower() if p.startswith("Pay ") else p) for p in parts)
    ctx.hook = "Activated"
    return f"Activated: {costs} -> ", effects_of(rest, ctx)


def mana_ability(text: str) -> str | None:
    """'Add {G}', 'Add {C}{C}', 'Add {U} or {B}', 'Add one mana of any color' as a Mana field."""
    if re.fullmatch(r"Add one mana of any colou?r(?: in your commander's colou?r identity)?", text):
        return "any"
    m = re.fullmatch(r"Add ((?:\{[WUBRGC]\})+)", text)
    if m:
        return " ".join(re.findall(r"[WUBRGC]", m[1]))
    m = re.fullmatch(r"Add \{([WUBRGC])\} or \{([WUBRGC])\}", text)
    if m:
        return f"{m[1]}/{m[2]}"
    return None


# Keywords the engine has no word for but the vocabulary can say, each as its card-file lines.
KEYWORD_LINES = {
    # 702.108: whenever you cast a noncreature spell, this creature gets +1/+1 until end of turn
    "prowess": ['SpellCast: pump on=self power=1 toughness=1 when="noncreature yours"'],
    # 702.114: the card is colorless, which its facts (MTGJSON's colors) already say
    "devoid": [],
    # 702.124: two commanders; a rule of building a deck, nothing in a game
    "partner": [],
}


def keyword_sentence(sentence: str) -> tuple[list[str], list[str]] | None:
    """A line of keywords ('Flying, vigilance', 'Trample; shroud', 'Equip {2}', 'Flashback {2}{G}'):
    (keywords, field lines), or None if it is not one."""
    keywords, fields = [], []
    for part in re.split(r"[,;]\s*", sentence):
        part = part.strip()
        m = re.fullmatch(r"[Pp]rotection from (\w+)((?: and from \w+)*)", part)
        if m:  # 'protection from black and from red': one keyword per quality
            for quality in [m[1]] + re.findall(r"and from (\w+)", m[2]):
                if f"protection from {quality.lower()}" not in KEYWORDS:
                    return None
                keywords.append(f"protection from {quality.lower()}")
            continue
        m = re.fullmatch(r"(Equip|Flashback|Kicker|Multikicker|Cycling|Unearth) ((?:\{[0-9WUBRGCX]+\})+)", part)
        if m:
            fields.append(f"{m[1]}: {m[2]}")
            continue
        word = part.lower()
        if word in KEYWORD_LINES:  # a keyword the vocabulary says in other words
            fields.extend(KEYWORD_LINES[word])
            continue
        if word not in KEYWORDS or word in ("enters tapped", "unblockable", "can't block", "can't attack",
                                            "assigns no combat damage"):
            return None
        keywords.append(word)
    return keywords, fields


def compile_text(text: str, facts: Facts, tokens: Mapping[str, CardDef], taken: Container[str] = ()) -> Compiled:
    """Compile a card's Oracle text; see the module's paragraph for the templates it knows.

    ``facts``: the card's name and types (its own name is read as ``~``); ``tokens``: the
    catalogue's tokens by name: a token the text creates is the one with exactly its facts, else a
    new token card in ``Compiled.tokens`` (111.4), for the caller to add to its catalogue, named by
    its subtypes, or by its description when a token or a name of ``taken`` (the catalogue's
    cards, lower case) has that name. Deterministic. A text longer than a card's may be
    (``CARD_TEXT_MAX``) is not read at all."""
    out = Compiled()
    if len(text or "") > CARD_TEXT_MAX:
        out.unread.append(f"(a text of {len(text):,} characters: a card's text has at most {CARD_TEXT_MAX:,})")
        return out
    text = normalise(text or "", facts.name)
    # (loyalty change, prefix, effects or None if unread, sentences, the line it is on)
    loyalty: list[tuple[int, str, list[str] | None, str, int]] = []
    unread_lines: set[int] = set()
    for number_of_line, line in enumerate(sentences(text)):
        ability: _Ability | None = None
        unread: list[str] = []
        pending: list[str] = []  # lines of this line's abilities
        for sentence in line:
            if ability is not None:  # a sentence may continue the ability before it
                if modifies(sentence, ability.effects):
                    continue
                saved = (ability.ctx.target, ability.ctx.group)
                try:
                    ability.effects.extend(effects_of(sentence, ability.ctx))
                    ability.source.append(sentence)
                    continue
                except Unread:
                    ability.ctx.target, ability.ctx.group = saved
                _finish(ability, pending, loyalty, out.made_from, number_of_line)
                ability = None
            before = len(pending)
            try:
                ability = _ability(sentence, _Context(facts, tokens, made=out.tokens, taken=taken), out, pending)
            except Unread:
                unread.append(sentence)
                change = re.match(r"([+-]?[0-9]{1,6}|[+-]X): ", sentence)
                if change and "Planeswalker" in facts.types:  # its place among the loyalty abilities counts (B3)
                    loyalty.append((int(change[1].replace("X", "0")), "", None, sentence, number_of_line))
                continue
            for made in pending[before:]:
                out.made_from[made] = sentence
            if ability is not None:
                ability.source.append(sentence)
        if ability is not None:
            _finish(ability, pending, loyalty, out.made_from, number_of_line)
        for made in pending:
            out.made_from.setdefault(made, "")
        if unread:  # an ability is read whole or not at all: the line's other abilities go with it
            out.unread.extend(unread)
            out.dropped.append(". ".join(line))
            unread_lines.add(number_of_line)
        else:
            out.lines.extend(pending)
    minus = [i for i, (cost, *_) in enumerate(loyalty) if cost < 0]
    for i, (cost, prefix, effects, source, on_line) in enumerate(loyalty):
        if effects is None or on_line in unread_lines:
            continue
        # B3: the last of three or more loyalty abilities, a minus after another minus, is the ultimate
        hook = "Plus" if cost >= 0 else ("Ultimate" if i == len(loyalty) - 1 and len(loyalty) >= 3
                                         and len(minus) >= 2 else "Minus")
        out.lines.append(f"{hook}: {prefix}{' ; '.join(effects)}")
        out.made_from[out.lines[-1]] = source
    if "Land" in facts.types and not any(line.startswith("Mana:") for line in out.lines):
        basic = [BASIC_MANA[t] for t in ("Plains", "Island", "Swamp", "Mountain", "Forest") if t in facts.subtypes]
        if basic:  # 305.6: a basic land type's own mana ability
            out.lines.append("Mana: " + "/".join(basic))
            out.made_from[out.lines[-1]] = "(its basic land type)"
    if out.keywords:
        out.lines.insert(0, "Keywords: " + ", ".join(out.keywords))
        out.made_from[out.lines[0]] = "(keywords)"
    out.made_from = {line: out.made_from.get(line, "") for line in out.lines}
    # only the new tokens of the abilities read (an ability not read whole creates none)
    out.tokens = {name: card for name, card in out.tokens.items()
                  if any(f"token={quote(name)}" in line for line in out.lines)}
    return out


def _ability(sentence: str, ctx: _Context, out: Compiled, pending: list[str]) -> _Ability | None:
    """Read the sentence that starts an ability (``ctx``: a new context of the card); returns the
    ability if later sentences may continue it."""
    facts = ctx.facts
    kw = keyword_sentence(sentence)
    if kw is not None:
        out.keywords.extend(k for k in kw[0] if k not in out.keywords)
        pending.extend(kw[1])
        return None
    choose = re.match(r"Choose (one|two|three|one or more|one or both) —", sentence)
    if choose:
        modes = [m.strip().rstrip(".") for m in sentence[choose.end():].split("•") if m.strip()]
        if len(modes) < 2 or not {"Instant", "Sorcery"} & facts.types:
            raise Unread
        if choose[1] != "one":
            pending.append(f"Choose: {choose[1]}")
        for mode in modes:
            mode_ctx = _Context(facts, ctx.tokens, hook="Mode", made=ctx.made, taken=ctx.taken)
            effects: list[str] = []
            for part in (p for p in re.split(r"\.\s+", mode) if p):
                if not modifies(part, effects):
                    effects += effects_of(part, mode_ctx)
            pending.append(f"Mode: {' ; '.join(effects)}")
        return None
    m = re.fullmatch(r"([+-]?[0-9]{1,6}|[+-]X): (.+)", sentence)
    if m and "Planeswalker" in facts.types:
        ctx.hook = "Loyalty"
        ability = _Ability(["Loyalty"], effects_of(m[2], ctx), prefix=f"{m[1]}: ", ctx=ctx)
        return ability
    m = re.fullmatch(r"(When|Whenever|At) ([^,]+), (.+)", sentence)
    if m:
        return trigger(m[2], m[3], ctx)
    m = re.fullmatch(r"If you do, it costs \{1\} more to cast for each (.+)", sentence)
    if m and pending and pending[-1] == "CastFromGraveyard:":
        pending[-1] = f"CastFromGraveyard: extra={quote(count_phrase(m[1]))}"
        return None
    m = re.fullmatch(r"((?:\{[0-9WUBRGC]+\})+): Return ~ from your graveyard to (the battlefield|your hand)( tapped)?",
                     sentence)
    if m:
        to = "battlefield" if m[2] == "the battlefield" else "hand"
        pending.append(f"GraveyardActivated: {m[1]} -> return_self to={to}" + (" tapped=true" if m[3] else ""))
        return None
    m = re.fullmatch(r"([^:\"]+): (.+)", sentence)
    if m and COST_PART.match(m[1]):
        prefix, verbs = activated(m[1], m[2], ctx)
        if verbs is None:
            pending.append(prefix)
            return None
        return _Ability(["Activated"], verbs, prefix=prefix, ctx=ctx)
    if {"Instant", "Sorcery"} & facts.types:
        ctx.hook = "Cast"
        return _Ability(["Cast"], effects_of(sentence, ctx), ctx=ctx)
    lines, keywords = static(sentence, ctx)
    out.keywords.extend(k for k in keywords if k not in out.keywords)
    pending.extend(lines)
    return None


def _finish(ability: _Ability, pending: list[str], loyalty: list[tuple[int, str, list[str] | None, str, int]],
            made_from: dict[str, str], on_line: int) -> None:
    """Write a finished ability's lines (a loyalty ability waits until all are known)."""
    source = ". ".join(ability.source)
    if ability.hooks == ["Loyalty"]:
        cost = int(ability.prefix.split(":")[0].replace("X", "0"))
        loyalty.append((cost, ability.prefix, ability.effects, source, on_line))
        return
    when = f" when={quote(ability.when)}" if ability.when else ""
    body = " ; ".join(e + when for e in ability.effects)
    for hook in ability.hooks:
        line = f"{ability.prefix}{body}" if hook == "Activated" else f"{hook}: {body}"
        pending.append(line)
        made_from[line] = source

"""Tokens from the text that makes them: a card's "create ..." clause or a Horde list's description.

The text that creates a token describes it completely (111.4): "create two 1/1 colorless Eldrazi
Spawn creature tokens with "Sacrifice this creature: Add {C}."" gives its power and toughness,
colours, types and subtypes, keywords and abilities. ``read_token(text)`` reads such a text, or a
Horde list's shorter description ("2/2 black Zombie", "1/1 colorless Eldrazi Spawn with
'Sacrifice this creature: Add {C}.'"), into a ``Token``, or says in one sentence why it can't:
the Oracle-text compiler calls it for the tokens a card creates (with ``token_card`` for the
card to play), and the catalogue for the tokens a Horde list describes. ``matching_token`` finds the catalogue's token a description
names (the bundled ``decks/cards/tokens.txt`` holds the common Horde tokens), and
``missing_token`` is the message for a token a list names that nothing defines: how to define
it, never a guess at an unrelated card.

A described token has keywords the engine knows, mana abilities ("{T}: Add {G}.", and
"Sacrifice this creature: Add {C}.", which a team player activates when it pays: the Horde
never pays mana, H7) and nothing else. Any other ability is refused, with the way to write it
by hand.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Container, Iterable, Mapping
from dataclasses import dataclass

from horde.engine.cards import COLOURS, KEYWORDS, CardDef, ManaAbility, ManaCost
from horde.engine.cards import CREATURE_TYPES as ENGINE_CREATURE_TYPES
from horde.limits import quoted

COLOUR_WORDS = {"white": "W", "blue": "U", "black": "B", "red": "R", "green": "G", "colorless": "", "colourless": ""}
NUMBER_WORDS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
                "eight": 8, "nine": 9, "ten": 10}
TOKEN_PT_MAX = 99  # the largest power or toughness a described token may have (the largest printed is 20/20)
TOKEN_COUNT_MAX = 99

# The creature types (205.3m), for telling a token's name ('Ooze', 'Zombie Giant') from a card's
# ('All Is Dust'): a list names a token by its creature types (``horde.engine.cards``).
CREATURE_TYPES = ENGINE_CREATURE_TYPES


def reads_as_token_name(name: str) -> bool:
    """Whether a name reads as a token's: one to three words, each a creature type (205.3m), in
    the singular or the plural ('Ooze', 'Zombie Giant', 'Eldrazi Spawns'); a card's name ('All Is
    Dust', 'Living Death', 'Smallpox') does not."""
    words = name.lower().split()
    return 0 < len(words) <= 3 and all(w in CREATURE_TYPES or (w.endswith("s") and w[:-1] in CREATURE_TYPES)
                                       for w in words)


_QUOTE_OPEN = "\"'\u201c\u2018"
_QUOTE_CLOSE = {"\"": "\"", "'": "'", "\u201c": "\u201d", "\u2018": "\u2019"}
_COLOUR = r"(?:white|blue|black|red|green|colou?rless)"
_DESCRIPTION = re.compile(
    r"(?:create\s+(?P<count>a|an|one|two|three|four|five|six|seven|eight|nine|ten|[0-9]{1,2})\s+)?"
    r"(?P<tapped>tapped\s+)?(?P<legendary>legendary\s+)?"
    r"(?P<power>[0-9]{1,2}|X|\*)/(?P<toughness>[0-9]{1,2}|X|\*)\s+"
    rf"(?P<colours>{_COLOUR}(?:(?:,\s+and\s+|,\s+|\s+and\s+){_COLOUR})*)\s+"
    r"(?P<subtypes>[a-z][\w'-]*(?:\s+[a-z][\w'-]*)*?)"
    r"(?P<types>(?:\s+(?:artifact|enchantment))*)(?:\s+creature)?(?:\s+tokens?)?"
    r"(?:\s+named\s+(?P<named>(?-i:[A-Z][\w' ,-]*?)))?"
    r"(?:\s+with\s+(?P<with>.+?))?\s*\.?",
    re.IGNORECASE,
)
_MANA_ABILITY = re.compile(r"\{T\}: Add (?P<mana>(?:\{[WUBRGC]\})+|one mana of any colou?r)\.?", re.IGNORECASE)
_SACRIFICE_MANA = re.compile(r"Sacrifice (?:this creature|this artifact|this token|it|~): Add (?P<mana>\{[WUBRGC]\}|one mana of "
                             r"any colou?r)\.?", re.IGNORECASE)
# Quoted abilities that are a keyword the engine knows (the WOE Rat's "This creature can't block.").
_KEYWORD_ABILITIES = {"this creature can't block.": "can't block", "this creature can't block": "can't block",
                      "this creature can't attack.": "can't attack", "this creature can't attack": "can't attack"}


@dataclass(frozen=True)
class Token:
    """A creature token as a text describes it, and the card the engine plays for it."""

    name: str
    power: int
    toughness: int
    colours: frozenset[str]
    types: frozenset[str]  # Creature, and Artifact or Enchantment when the text says so
    subtypes: tuple[str, ...]
    legendary: bool = False
    keywords: frozenset[str] = frozenset()
    mana: tuple[frozenset[str], ...] = ()  # its "{T}: Add ..." abilities' mana, as a card file's Mana line
    sacrifice_mana: tuple[frozenset[str], ...] = ()  # "Sacrifice this creature: Add {C}.": the mana it adds
    abilities: tuple[str, ...] = ()  # its quoted abilities as printed
    count: int = 1  # how many a "create" clause makes
    tapped: bool = False  # a "create ... tapped" clause

    def card(self, source: str = "") -> CardDef:
        """The token as a card of the engine (no mana cost; 111.4)."""
        text = " ".join(self.abilities)
        return CardDef(
            name=self.name, cost=ManaCost(), types=self.types, subtypes=frozenset(self.subtypes),
            supertypes=frozenset({"Token"} | ({"Legendary"} if self.legendary else set())),
            power=self.power, toughness=self.toughness, keywords=self.keywords, colours=self.colours,
            identity=self.colours | frozenset(c for unit in self.mana + self.sacrifice_mana for c in unit if c in COLOURS),
            mana_abilities=self.mana_abilities(), text=text, source=source)

    def mana_abilities(self) -> tuple[ManaAbility, ...]:
        """Its mana abilities: "{T}: Add ..." and "Sacrifice this creature: Add ..." (605.1a)."""
        abilities: tuple[ManaAbility, ...] = (ManaAbility(self.mana),) if self.mana else ()
        if self.sacrifice_mana:
            units = " ".join("any" if "*" in unit else "/".join(sorted(unit)) for unit in self.sacrifice_mana)
            abilities += (ManaAbility(self.sacrifice_mana, tap=False, sacrifice=True,
                                      text=f"sacrifice this -> {units}"),)
        return abilities

    def describe(self) -> str:
        """The token as a Horde list can describe it: '1/1 colorless Eldrazi Spawn with "..."'."""
        colours = " and ".join(word for word, letter in COLOUR_WORDS.items() if letter and letter in self.colours)
        words = [f"{self.power}/{self.toughness}", colours or "colorless", " ".join(self.subtypes)]
        words += [t.lower() for t in ("Artifact", "Enchantment") if t in self.types]
        granted = {_KEYWORD_ABILITIES.get(a.lower()) for a in self.abilities}
        extras = sorted(self.keywords - granted) + [f'"{a}"' for a in self.abilities]
        text = ("legendary " if self.legendary else "") + " ".join(words)
        if self.name != " ".join(self.subtypes):
            text += f" named {self.name}"
        return f"{text} with {' and '.join(extras)}" if extras else text


def read_token(text: str) -> Token | str:
    """The creature token a text describes, or why it can't be read (one sentence).

    ``text`` is a card's create clause ("create two 1/1 colorless Eldrazi Spawn creature tokens
    with "Sacrifice this creature: Add {C}."", "Create a 3/3 green Dinosaur creature token with
    trample") or a Horde list's description of a token ("2/2 black Zombie", "1/1 white Spirit
    with flying"); single, double or curly quotes around abilities. Deterministic; no catalogue."""
    text = " ".join(text.split())
    m = _DESCRIPTION.fullmatch(text)
    if m is None:
        return (f"{quoted(text)} does not read as a token: expected power/toughness, colours and subtypes, e.g. "
                "'2/2 black Zombie' or '1/1 colorless Eldrazi Spawn with \"Sacrifice this creature: Add {C}.\"'")
    if not (m["power"].isdigit() and m["toughness"].isdigit()):
        return (f"{quoted(text)}: a token whose power and toughness are {m['power']}/{m['toughness']} is set by "
                "the card that makes it; write the token in a card file")
    power, toughness = int(m["power"]), int(m["toughness"])
    if power > TOKEN_PT_MAX or toughness > TOKEN_PT_MAX:
        return f"{quoted(text)}: a token's power and toughness are at most {TOKEN_PT_MAX} here"
    count_word = (m["count"] or "a").lower()
    count = NUMBER_WORDS[count_word] if count_word in NUMBER_WORDS else int(count_word)
    if not 1 <= count <= TOKEN_COUNT_MAX:
        return f"{quoted(text)}: expected to create from 1 to {TOKEN_COUNT_MAX} tokens"
    colours = frozenset(COLOUR_WORDS[w.lower()] for w in re.findall(_COLOUR, m["colours"], re.I)) - {""}
    types = frozenset({"Creature"} | {w.title() for w in m["types"].split()})
    subtypes = tuple(word[:1].upper() + word[1:] for word in m["subtypes"].split())  # 205.3: capitalised
    keywords: set[str] = set()
    mana: list[frozenset[str]] = []
    sacrifice_mana: list[frozenset[str]] = []
    abilities: list[str] = []
    if m["with"]:
        parts = _with_parts(m["with"])
        if isinstance(parts, str):
            return f"{quoted(text)}: {parts}"
        for part, is_quoted in parts:
            if not is_quoted:
                keyword = part.lower()
                if keyword not in KEYWORDS:
                    return (f"{quoted(text)}: {quoted(part)} is not a keyword the engine knows (docs/cards.md lists "
                            "them); write the token in a card file")
                keywords.add(keyword)
                continue
            ability = part if part.endswith(".") else part + "."
            if _SACRIFICE_MANA.fullmatch(ability):  # the compiler writes the token's "this creature" as ~
                ability = re.sub(r"^Sacrifice (?:~|it|this token)(?=:)", "Sacrifice this creature", ability)
            abilities.append(ability)
            granted = _KEYWORD_ABILITIES.get(ability.lower())
            mana_ability = _MANA_ABILITY.fullmatch(ability)
            if granted is not None:
                keywords.add(granted)
            elif mana_ability is not None:
                mana.extend(_mana_units(mana_ability["mana"]))
            elif (sacrifice := _SACRIFICE_MANA.fullmatch(ability)) is not None:
                sacrifice_mana.extend(_mana_units(sacrifice["mana"]))  # 605.1a: a mana ability; the Horde never pays mana (H7)
            else:
                return (f"{quoted(text)}: the ability {quoted(ability)} is beyond what a described token can say; "
                        "write the token in a card file (docs/cards.md)")
    name = m["named"].strip() if m["named"] else " ".join(subtypes)
    return Token(name=name, power=power, toughness=toughness, colours=colours, types=types, subtypes=subtypes,
                 legendary=bool(m["legendary"]), keywords=frozenset(keywords), mana=tuple(mana),
                 sacrifice_mana=tuple(sacrifice_mana),
                 abilities=tuple(abilities), count=count, tapped=bool(m["tapped"]))


def _with_parts(text: str) -> list[tuple[str, bool]] | str:
    """What follows "with": keywords and quoted abilities joined by commas and "and", each as
    (its text, whether it was quoted); or why it can't be split."""
    parts: list[tuple[str, bool]] = []
    rest = text.strip()
    while rest:
        rest = re.sub(r"^(?:,\s*)?(?:and\s+)?", "", rest, flags=re.I)
        if not rest:
            break
        if rest[0] in _QUOTE_OPEN:
            close = rest.find(_QUOTE_CLOSE[rest[0]], 1)
            if rest[0] == "'":  # an apostrophe inside (can't) is not the closing quote: the last one is
                close = _closing_single_quote(rest)
            if close < 0:
                return f"an ability opened with {rest[0]} is not closed"
            parts.append((rest[1:close].strip(), True))
            rest = rest[close + 1:].strip()
            continue
        m = re.match(r"([^,\"'\u201c\u2018]+?)(?=\s*,|\s+and\s+|$)", rest)
        if m is None or not m[1].strip():
            return f"expected keywords or quoted abilities after 'with', got {quoted(rest)}"
        parts.append((m[1].strip(), False))
        rest = rest[m.end():].strip()
    return parts


def _closing_single_quote(text: str) -> int:
    """The index of the single quote that closes the one opening ``text``: the first one followed
    by the end, a comma or ' and ' (an apostrophe inside a word is not)."""
    for i in range(1, len(text)):
        if text[i] == "'" and re.match(r"\s*(?:$|,|and\b|\.$)", text[i + 1:]):
            return i
    return -1


def _mana_units(mana: str) -> list[frozenset[str]]:
    if mana.lower().startswith("one mana"):
        return [frozenset({"*"})]
    return [frozenset({symbol}) for symbol in re.findall(r"\{([WUBRGC])\}", mana.upper())]


def matching_token(token: Token, tokens: Mapping[str, CardDef]) -> CardDef | None:
    """The catalogue token (``tokens`` by name) that is this token: the same name, power and
    toughness, colours, types, keywords and mana abilities, and no behaviour beyond them."""
    card = tokens.get(token.name)
    if card is None:
        return None
    same = (card.power == token.power and card.toughness == token.toughness and card.colours == token.colours
            and card.types == token.types and card.subtypes == frozenset(token.subtypes)
            and ("Legendary" in card.supertypes) == token.legendary and card.keywords == token.keywords
            and tuple(a.key() for a in card.mana_abilities) == tuple(a.key() for a in token.mana_abilities())
            and not card.hooks and card.pt_amount is None)
    return card if same else None


def described_token(text: str, tokens: Mapping[str, CardDef], taken: Container[str] = ()) -> CardDef | str | None:
    """A Horde list's token description as the card to play: the catalogue's token when one is
    this token, else a new token card named by its subtypes (or, when a different token or a card
    has that name: ``taken``, lower-case names, by its description); why it can't be read (a
    string) when it reads as a description but can't be played; None when ``text`` is no
    description at all (a card's name)."""
    text = re.sub(r"\s+tokens?$", "", " ".join(text.split()), flags=re.I)
    if not re.match(r"(?:legendary\s+)?(?:[0-9]{1,2}|X|\*)/(?:[0-9]{1,2}|X|\*)\s", text, re.I):
        return None
    token = read_token(text)
    if isinstance(token, str):
        return token
    return token_card(token, tokens, "described in a decklist", taken)


def token_card(token: Token, tokens: Mapping[str, CardDef], source: str = "", taken: Container[str] = ()) -> CardDef:
    """The card to play for a token read from text: the catalogue's token (``tokens`` by name)
    when one is this token (``matching_token``), else a new token card named by its subtypes, or
    by its description when a different token, or a name of ``taken`` (lower case), has it. A new card is the caller's
    to add to its catalogue (the compiler, for a token a card creates: ``create_tokens
    token=NAME count=Token.count``)."""
    found = matching_token(token, tokens)
    if found is not None:
        return found
    if token.name in tokens or token.name.lower() in taken:
        token = Token(**{**token.__dict__, "name": token.describe()})
        found = matching_token(token, tokens)  # the same token, named by its description before
        if found is not None:
            return found
    return token.card(source=source)


def missing_token(name: str, tokens: Mapping[str, CardDef], cards: Iterable[str] = ()) -> str:
    """The message for a token a list names that no card file defines: how to define it (a
    description in the list, or a card file), with the catalogue's tokens whose name is close;
    ``cards``, when the name may also be a misspelt card's, the names of the cards to suggest
    (only a close one: 'Dinosaur' is never 'Gigantosaurus')."""
    close = difflib.get_close_matches(name, list(tokens), n=3, cutoff=0.75)
    close += [c for c in difflib.get_close_matches(name, list(cards), n=3, cutoff=0.85) if c not in close]
    hint = f" (close names: {', '.join(repr(c) for c in close[:3])})" if close else ""
    what = "card or token" if cards else "token"
    subtype = " ".join(w[:1].upper() + w[1:] for w in name.split()) or "Zombie"
    return (f"unknown {what} {quoted(name)}{hint}: a token is described in the list by its power/toughness, "
            f"colours, subtypes and keywords, e.g. '20 2/2 black {subtype}' or '20 1/1 white {subtype} with flying', "
            f"or defined in a card file given with --cards ('Name: {subtype}', 'Type: Token Creature — {subtype}', "
            "'Colors: B', 'PT: 2/2'; docs/cards.md)")

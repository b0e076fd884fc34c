"""Keywords (702): those the engine plays by name (``horde.engine.cards.KEYWORDS``), protection
from a colour or from creatures, artifacts or everything, the keywords with a cost written as a
field (Equip, Flashback, Kicker, Multikicker, Cycling, Unearth), and the keywords the vocabulary
says in other words (``KEYWORD_LINES``)."""

from __future__ import annotations

from horde.cards.grammar.ast import Keyword
from horde.cards.grammar.registry import translates
from horde.cards.grammar.translate import Context, NotExpressible, mana_only
from horde.engine.cards import KEYWORDS

# Keywords the engine has no word for but the vocabulary can say, each as its card-file lines.
KEYWORD_LINES = {
    # 702.108: whenever you cast a noncreature spell, this creature gets +1/+1 until end of turn
    "prowess": ['SpellCast: pump on=self power=1 toughness=1 when="noncreature yours"'],
    # 702.114: the card is colorless, which its facts (MTGJSON's colors) already say
    "devoid": [],
    # 702.124: two commanders; a rule of building a deck, nothing in a game
    "partner": [],
}
# Keywords with a cost, each a field of the card file.
COST_FIELDS = {"equip": "Equip", "flashback": "Flashback", "kicker": "Kicker", "multikicker": "Multikicker",
               "cycling": "Cycling", "unearth": "Unearth"}
# Names in KEYWORDS that are no keyword of a printed keyword line.
NOT_PRINTED = {"enters tapped", "unblockable", "can't block", "can't attack", "assigns no combat damage"}


@translates(Keyword)
def _(node: Keyword, ctx: Context) -> tuple[list[str], list[str]]:
    name = node.name
    if name == "protection":  # 'protection from black and from red': one keyword per quality
        words = []
        for quality in node.number.split(","):
            word = f"protection from {quality}"
            if word not in KEYWORDS:
                raise NotExpressible(f"the keyword {word!r}")
            words.append(word)
        return [], words
    if name in COST_FIELDS:
        if not mana_only(node.cost, x=True) or node.number:
            raise NotExpressible(f"{name} with a cost other than mana")
        return [f"{COST_FIELDS[name]}: {node.cost}"], []
    if node.cost or node.number:
        raise NotExpressible(f"the keyword {node.text!r}")
    if name in KEYWORD_LINES:
        return list(KEYWORD_LINES[name]), []
    if name not in KEYWORDS or name in NOT_PRINTED:
        raise NotExpressible(f"the keyword {name!r}")
    return [], [name]

"""Library searches: 'search your library for a basic land card, put it onto the battlefield
tapped, then shuffle' and the other shapes of a basic land search the ``ramp`` verb plays."""

from __future__ import annotations

from dataclasses import dataclass

from horde.cards.grammar.ast import Effect, Noun
from horde.cards.grammar.nouns import noun
from horde.cards.grammar.parser import Parser
from horde.cards.grammar.registry import effect, translates
from horde.cards.grammar.translate import Context, NotExpressible


@dataclass(frozen=True)
class Search(Effect):
    """A search of your library: for what, and where what is found goes ('battlefield',
    'battlefield tapped', 'hand revealed', 'split': one onto the battlefield tapped, the other
    into your hand)."""

    what: Noun
    put: str


PUTS = (
    (("put", "that", "card", "onto", "the", "battlefield", "tapped"), "battlefield tapped"),
    (("put", "it", "onto", "the", "battlefield", "tapped"), "battlefield tapped"),
    (("put", "that", "card", "onto", "the", "battlefield"), "battlefield"),
    (("put", "it", "onto", "the", "battlefield"), "battlefield"),
    (("reveal", "it", ",", "put", "it", "into", "your", "hand"), "hand revealed"),
    (("put", "them", "onto", "the", "battlefield", "tapped"), "battlefield tapped"),
    (("reveal", "them", ",", "put", "them", "into", "your", "hand"), "hand revealed"),
    (("reveal", "those", "cards", ",", "put", "one", "onto", "the", "battlefield", "tapped", "and", "the", "other",
      "into", "your", "hand"), "split"),
)


@effect(first=("search",))
def search(p: Parser) -> Search:
    p.expect("search", "your", "library", "for")
    what = noun(p)
    p.expect(",")
    for words, put in PUTS:
        if p.accept(*words):
            p.expect(",", "then", "shuffle")
            return Search(what, put)
    p.fail("where the card found goes")


FORMS = {("a", "battlefield tapped"): (1, True, 0), ("a", "battlefield"): (1, False, 0),
         ("a", "hand revealed"): (0, True, 1), ("2", "battlefield tapped"): (2, True, 0), ("2", "split"): (1, True, 1),
         ("2", "hand revealed"): (0, True, 2)}


@translates(Search)
def _(node: Search, ctx: Context) -> list[str]:
    what = node.what
    if len(what.alternatives) != 1 or set(what.alternatives[0]) != {"basic", "land"} or what.head != "card" \
            or what.shared or what.relation:
        raise NotExpressible("a search for anything but basic lands")
    how = "a" if what.det == "a" else "2" if what.det == "up_to" and getattr(what.count, "n", 0) == 2 else ""
    found = FORMS.get((how, node.put))
    if found is None:
        raise NotExpressible("this search of basic lands")
    count, tapped, to_hand = found
    return [f"ramp count={count} tapped={'true' if tapped else 'false'} to_hand={to_hand}"]

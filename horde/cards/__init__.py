"""The card pipeline: decklist text, the card index (MTGJSON's printed facts), the Oracle-text
compiler, the catalogue (every card name resolved to a definition the engine reads, checked against
the verbs) and Horde and team decks. It reads the engine's card definitions and verbs, never the
team, the composition root or anything above."""


def name_key(name: str) -> str:
    """The key a card name is found by: its words, in lower case, with the ligature æ read as
    "ae", so that old lists' ``AEthersnipe`` and ``Æther Gale`` find the card files' ``Aethersnipe``
    and ``Aether Gale`` (and the other way round)."""
    return " ".join(name.split()).lower().replace("æ", "ae")

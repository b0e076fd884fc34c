"""The card pipeline: decklist text, the card index (MTGJSON's printed facts), the Oracle-text
compiler, the catalogue (every card name resolved to a definition the engine reads, checked against
the verbs) and Horde and team decks. It reads the engine's card definitions and verbs, never the
team, the composition root or anything above."""

"""The trace: one event per thing that happens, kept only when a trace was asked for, and the
schema of every event (``EVENTS``), from which ``docs/events.md`` is made.

Callers test ``game.drivers.trace is not None`` before building an event, so a game without a
trace builds none. Every event has ``turn`` (int, from 1; 0 before the first turn), ``side``
(``"team"`` or ``"horde"``: who acts, or whose permanent it is) and ``event`` (its name), then
the fields its entry in ``EVENTS`` lists, always all of them. One numbering runs through every
event: team players are numbered from 1 in every field that names one (``player``,
``target_player``, ``equipment_to``), ``null`` where the Horde acts; permanents are named by
their card and ``id``; a target is ``target`` (the name shown: a card, ``"player N"`` or
``"the Horde"``) with ``target_id`` (a permanent's id) or ``target_player`` (a team player).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from horde.engine.state import Game, Side


def log(game: Game, event: str, side: Side, **fields: Any) -> None:
    """Record one event of the trace (only called when ``game.drivers.trace`` is not None)."""
    trace = game.drivers.trace
    if trace is not None:
        trace.append({"turn": game.turn, "side": side, "event": event, **fields})


@dataclass(frozen=True)
class Field:
    """One field of an event: its name, its JSON type and what it holds."""

    name: str
    kind: str  # "int", "str", "bool", "list[str]", each optionally "|null"
    doc: str


@dataclass(frozen=True)
class EventKind:
    """One kind of event: what it records, the rule it follows, and its fields."""

    doc: str
    fields: tuple[Field, ...] = ()


COMMON = (
    Field("turn", "int", "the turn number (H2), counting both sides' turns from 1; 0 before the first"),
    Field("side", "str", "'team' or 'horde': who acts, or whose permanent it is"),
    Field("event", "str", "the event's name"),
)
PLAYER = Field("player", "int|null", "the team player, from 1; null for the Horde")
TEAM_PLAYER = Field("player", "int", "the team player, from 1")
CARD = Field("card", "str", "the card's name")
ID = Field("id", "int", "the permanent's id, unique in the game")
NAME = Field("name", "str", "the boss's or lieutenant's card")
EFFECTS = Field("effects", "str", "the ability's verbs as written in the card file, ' ; ' between them")
TEXT = Field("text", "str", "the ability as printed on its card (its verbs where the text can't be matched)")
AMOUNT = Field("amount", "int", "how much")
TEAM_LIFE = Field("team_life", "int", "the team's shared life after it (H1)")
TARGET = Field("target", "str", "the target as shown: a card's name, 'player N' or 'the Horde'")
TARGET_ID = Field("target_id", "int|null", "the target permanent's id; null for a player or the Horde")
TARGET_PLAYER = Field("target_player", "int|null", "the targeted team player, from 1; null otherwise")

EVENTS: dict[str, EventKind] = {
    "opening_hand": EventKind("a team player keeps its opening hand (C3)", (
        TEAM_PLAYER, Field("mulligans", "int", "mulligans taken"), Field("cards", "int", "cards kept"))),
    "banned_removed": EventKind("a team player drew a card of the banlist: it leaves the game (no zone holds it) "
                                "and the player draws again (R3)", (
        TEAM_PLAYER, CARD)),
    "reveal": EventKind("the Horde reveals the top of its library (H5, H5e)", (
        Field("cards", "list[str]", "the cards revealed, in order"),
        Field("library", "int", "cards left in the Horde's library"))),
    "cast": EventKind("a spell is cast: by a team player, or by the Horde for free (H5, H7)", (
        PLAYER, CARD,
        Field("origin", "str|null", "'hand' or 'command' (C2) for a team player, 'flashback' or 'graveyard' (either "
                                    "side) for a card cast from a graveyard, 'aftermath' for an aftermath half cast "
                                    "from there (702.127), 'adventure' for a creature cast from exile (715.4); null "
                                    "for the Horde's revealed cards; keyword ways: 'evoke', 'dash', 'retrace', "
                                    "'overload', and for a card cast without paying its mana cost 'cascade', "
                                    "'suspend' or 'rebound' (702); 'card' is the face cast"),
        Field("token", "bool", "a token card of the Horde deck (H5t)"),
        Field("kicked", "int", "times its kicker was paid (H7: the Horde kicks once, a multikicker horde_x times)"))),
    "flash": EventKind("a team player casts an instant or a flash card after the Horde's attackers are declared, "
                       "before blocks (the cast follows)", (TEAM_PLAYER, CARD)),
    "cycle": EventKind("a team player cycles a card: pays its cycling cost, discards it and draws (702.29)", (
        TEAM_PLAYER, CARD)),
    "cascade": EventKind("cascade exiles cards from the top of its caster's library until a nonland card of lesser mana "
                         "value, which may be cast without paying its mana cost (702.85)", (
        CARD, Field("found", "str|null", "the card found (cast, or put on the bottom with the rest); null: none"),
        Field("exiled", "int", "the other cards exiled, put on the bottom in a random order"), PLAYER)),
    "storm": EventKind("storm copies its spell for each other spell cast before it this turn (702.40)", (
        CARD, Field("copies", "int", "the copies made"), PLAYER)),
    "suspend": EventKind("a card is exiled from its owner's hand with time counters rather than cast; at the last "
                         "one's removal, in its owner's upkeep, it is cast without paying its mana cost (702.62)", (
        CARD, Field("time", "int", "its time counters"), PLAYER)),
    "unearth": EventKind("a card returns from its owner's graveyard by unearth, with haste; it is exiled at the next "
                         "end step (702.84)", (CARD, PLAYER)),
    "graveyard_ability": EventKind("an ability of a card in a graveyard is activated (Reassembling Skeleton)", (
        CARD, PLAYER, EFFECTS)),
    "counter": EventKind("a team player counters a Horde spell (H10)", (
        TEAM_PLAYER, Field("card", "str", "the counterspell"), Field("countered", "str", "the Horde spell"))),
    "mode": EventKind("the mode a modal spell resolves with (H9 for the Horde)", (
        CARD, Field("mode", "str", "the mode's verbs as written in the card file"))),
    "target": EventKind("an effect's target is chosen (the Horde's at random: H9)", (
        Field("card", "str|null", "the card whose effect targets"), TARGET, TARGET_ID, TARGET_PLAYER)),
    "enters": EventKind("a permanent enters the battlefield", (
        CARD, ID, Field("player", "int|null", "its controller, a team player from 1; null for the Horde"),
        Field("tapped", "bool", "it entered tapped"))),
    "exile_from_graveyard": EventKind("as a permanent enters, cards are exiled from its controller's graveyard with it "
                                      "(607.2a: Sutured Ghoul's power and toughness count them)", (
        Field("card", "str", "the permanent entering"),
        Field("cards", "list[str]", "the cards exiled, in the order they lay in the graveyard"))),
    "leaves": EventKind("a permanent leaves the battlefield", (
        CARD, ID, Field("to", "str", "'graveyard', 'exile', 'hand' or 'library'"))),
    "counters": EventKind("+1/+1 or -1/-1 counters are put on a permanent (704.5q: the two kinds cancel out)", (
        CARD, ID, Field("kind", "str", "'+1/+1' or '-1/-1'"), Field("added", "int", "counters put on it"),
        Field("total", "int", "its counters of that kind now, after any of the other kind cancelled"))),
    "poison": EventKind("a team player gets poison counters (infect; H13: 15 lose the game)", (
        TEAM_PLAYER, Field("added", "int", "poison counters given"), Field("total", "int", "the player's poison counters now"))),
    "regenerate": EventKind("a creature regenerates instead of being destroyed: it is tapped, its damage removed, "
                            "and it leaves combat", (
        CARD, ID, Field("paid", "str|null", "the cost of the regeneration ability activated as it would be destroyed "
                                          "(the Horde pays any mana: H7); null for a shield made earlier this turn"))),
    "protection": EventKind("damage to a permanent is prevented: it has protection from the source (702.16)", (
        CARD, ID, Field("source", "str", "the source's card"), AMOUNT)),
    "control": EventKind("a permanent changes controller: an Aura takes it, or it returns when the Aura leaves "
                         "(613.1b); side: its new controller's", (
        CARD, ID, Field("player", "int|null", "its new controller, from 1; null for the Horde"))),
    "tax_paid": EventKind("a team player pays what an opponent's card asks so that its effect does not happen "
                          "('unless that player pays {1}')", (
        TEAM_PLAYER, Field("card", "str|null", "the card whose ability asked"), Field("cost", "str", "what it paid"))),
    "search": EventKind("a player searches its library and puts the card it finds somewhere (701.19; the Horde's "
                        "at random: H9)", (
        CARD, PLAYER, Field("to", "str", "where the card goes: 'hand', 'battlefield', 'top' (of the library, "
                                         "after the shuffle) or 'graveyard'"))),
    "enchant": EventKind("an Aura enters attached to the permanent or player it enchants (the Horde's at random: H9)", (
        Field("card", "str", "the Aura"), ID, TARGET, TARGET_ID, TARGET_PLAYER)),
    "aura_falls_off": EventKind("an Aura attached to an illegal object or to nothing goes to the graveyard (704.5m)", (
        Field("card", "str", "the Aura"), ID)),
    "legend_rule": EventKind("a player controls two or more legendary permanents of one name: it keeps one and the "
                             "rest go to the graveyard (704.5j), tokens too", (CARD, ID)),
    "shield_removed": EventKind("a shield counter absorbs damage or a destruction (L4)", (
        CARD, ID, Field("shields", "int", "shield counters left"))),
    "equip": EventKind("a team player pays an equip cost", (
        TEAM_PLAYER, Field("equipment", "str", "the equipment"), Field("creature", "str", "the creature"))),
    "activate": EventKind("a team player activates an ability (main phases, beginning of combat, after attackers or blocks)", (TEAM_PLAYER, CARD, EFFECTS, TEXT)),
    "mana_ability": EventKind("a team player activates a mana ability with a cost or a rider to pay a cost (605.3a: a "
                              "Signet, a pain land's coloured mana, an Eldrazi Spawn); what it adds that the cost does "
                              "not take floats (106.4)", (
        TEAM_PLAYER, CARD, ID, Field("ability", "str", "the ability as its card file's Mana line writes it"),
        Field("mana", "str", "the mana it added, one unit each, a choice of colours written W/U"))),
    "attack": EventKind("a creature attacks (H8: a Horde creature attacks a random team player or team "
                        "planeswalker, as `horde_attacks` says)", (
        CARD, ID, Field("power", "int", "its power as it attacks"),
        Field("target", "str", "'player N' or a team planeswalker's name for a Horde attacker, 'the Horde' for a "
                               "team attacker"),
        Field("target_id", "int|null", "the attacked planeswalker's id; null when it attacks a player or the Horde"),
        TARGET_PLAYER)),
    "loyalty_ability": EventKind("a team player activates a loyalty ability of its planeswalker (606: once a turn, "
                                 "sorcery speed; the cost is paid before it resolves)", (
        TEAM_PLAYER, CARD, ID, Field("change", "int", "the loyalty the cost adds (+) or removes (-)"), EFFECTS,
        TEXT, Field("loyalty_before", "int", "loyalty before the cost"),
        Field("loyalty_after", "int", "loyalty after the cost"))),
    "planeswalker_dies": EventKind("a planeswalker with no loyalty is put into its owner's graveyard (704.5i; the "
                                   "leaves event follows)", (CARD, ID)),
    "block": EventKind("an attacker is blocked", (
        Field("attacker", "str", "the attacking creature"), Field("blockers", "list[str]", "its blockers"))),
    "damage": EventKind("damage is dealt to a permanent or a team player (side: who dealt it)", (
        Field("source", "str|null", "the permanent that dealt it; null for a spell"), TARGET, TARGET_ID,
        TARGET_PLAYER, AMOUNT,
        Field("team_life", "int|null", "the team's life after it, when a team player was dealt it (H1)"),
        Field("combat", "bool", "combat damage"),
        Field("as_counters", "bool", "dealt as -1/-1 counters (wither, infect) or, to a player, as poison "
                                     "counters (infect)"))),
    "damage_prevented": EventKind("combat damage is prevented this turn", (
        Field("reason", "str", "why: 'fog'"),)),
    "prevention": EventKind("damage a Horde source would deal a team player outside combat is prevented (at a "
                            "table: as much as its players say they prevent)", (
        TEAM_PLAYER, AMOUNT, Field("source", "str|null", "the permanent that would deal it; null for a spell"))),
    "mill": EventKind("damage to the Horde mills its library (H11)", (
        AMOUNT, Field("milled", "int", "cards milled (damage beyond the library is lost)"),
        Field("library", "int", "cards left in the Horde's library"))),
    "life_lost": EventKind("the team loses life", (AMOUNT, TEAM_LIFE, Field(
        "source", "str|null", "the card whose ability or spell made the team lose it; null when no card did"))),
    "life_gained": EventKind("the team gains life", (AMOUNT, TEAM_LIFE)),
    "discard": EventKind("a card is discarded (the Horde's at random: H9)", (CARD, PLAYER)),
    "graveyard_exiled": EventKind("a player exiles cards from its graveyard for an effect", (
        PLAYER, Field("cards", "int", "cards exiled"))),
    "boss_arrives": EventKind("the boss appears at the Horde's first turn (B1)", (
        NAME, Field("loyalty", "int", "its starting loyalty"))),
    "boss_ability": EventKind("the boss activates a loyalty ability (B3, B4)", (
        NAME, Field("roll", "int|null", "the d20; null when it was too low for every minus ability"),
        Field("ability", "str", "'plus', 'minus' or 'ultimate'"), EFFECTS, TEXT,
        Field("loyalty_before", "int", "loyalty before"), Field("loyalty_after", "int", "loyalty after (B2: not below 0)"))),
    "boss_vanishes": EventKind("the boss vanishes as the team wins (B6)"),
    "lieutenant_roll": EventKind("the lieutenants' entry roll (L2)", (
        Field("roll", "int", "the d20"), Field("counters", "int", "entry counters added"),
        Field("total", "int", "roll plus counters"), Field("entered", "bool", "a lieutenant enters"))),
    "lieutenant_enters": EventKind("a lieutenant enters (L3)", (
        NAME, Field("shields", "int", "its shield counters (L4)"),
        Field("equipment", "str|null", "the equipment attached to it"))),
    "lieutenant_defeated": EventKind("a lieutenant is exiled with time counters instead of leaving (L6)", (
        NAME, Field("time_counters", "int", "its d20 time counters"),
        Field("equipment_to", "int|null", "the team player, from 1, its equipment goes to; null: back to the list"))),
    "time_counter_removed": EventKind("an exiled lieutenant loses a time counter (L7)", (
        NAME, Field("reason", "str", "'horde_turn' or 'damage'"), Field("left", "int", "time counters left"))),
    "lieutenant_acts": EventKind("a lieutenant activates an ability instead of attacking (L8)", (NAME, EFFECTS, TEXT)),
    "emblems": EventKind("the Horde's emblem counter grows at the end of its turn (V2)", (
        Field("emblems", "int", "the Horde's emblems now"), Field("counter", "int", "the counter now (below 10)"))),
    "team_wins": EventKind("the team wins by an opponent's own rule (F8, V10)", (
        Field("reason", "str", "the rule, in words"),)),
    "extra_turn": EventKind("the opponent takes an extra turn (F: Strike the Weak Spot)"),
    "heads_grow": EventKind("a Head left the battlefield: the Hydra reveals its top two cards (F3)", (
        Field("cards", "list[str]", "the cards revealed"), Field("heads", "int", "Heads among them, put onto the battlefield"))),
    "hydra_bites": EventKind("the Hydra's untapped Heads deal damage to each player (F2)", (
        Field("heads", "int", "untapped Heads"), Field("amount", "int", "damage to each player (an elite Head 2)"))),
    "redirected": EventKind("damage the team would deal to the opponent goes to a creature it chooses (F6, G3)", (
        AMOUNT, TARGET, TARGET_ID, TARGET_PLAYER)),
    "to_graveyard_instead": EventKind("a challenge deck's card that would go to a hand or exile goes to its "
                                      "graveyard instead (F9, M6, G6)", (
        CARD, Field("instead_of", "str", "'hand' or 'exile'"))),
    "burn_bodies": EventKind("the team chooses for this combat: burn the Horde's graveyard or mill (V5)", (
        Field("burn", "bool", "true: the combat damage exiles cards of the Horde's graveyard"),)),
    # The variants (RULES.md A, Z).
    "scheme_set_in_motion": EventKind("the Horde sets its top scheme in motion after its reveal and cast (A1, 904.9)", (
        CARD, Field("ongoing", "bool", "an ongoing scheme: it stays face up until abandoned (904.11); else it goes "
                                       "to the bottom of the scheme deck (904.10)"))),
    "scheme_abandoned": EventKind("an ongoing scheme is abandoned: face down to the bottom of the scheme deck (A1, "
                                  "904.11)", (CARD, Field("schemes", "int", "schemes in the scheme deck now"))),
    "self_or_others": EventKind("the chosen opponent of a 'self or others' scheme answers (A1)", (
        TEAM_PLAYER, CARD, Field("choice", "str", "'self' or 'others'"))),
    "player_falls": EventKind("a team player reduced to 0 life becomes a zombie (Z1, Z2) and what it may still do (Z3)", (
        TEAM_PLAYER, Field("master", "str", "its master, the controller of the lethal source: 'the Horde' or 'player N'"),
        Field("life", "int", "its life, back to its start (Z1)"),
        Field("may_attack", "bool", "it may still attack (Z3: not when its master is the Horde)"),
        Field("may_target", "bool", "it may still target with its spells and abilities (Z3)"))),
    "player_removed": EventKind("a team player who lost otherwise leaves the game (Z4)", (
        TEAM_PLAYER, Field("reason", "str", "why, in words"))),
    # Added for the play log (issue 16); every other event is as it was.
    "turn_begins": EventKind("a turn begins (H2); side: whose turn it is", (
        Field("number", "int", "that side's own count of its turns, from 1 (the opponent's turns counted apart)"),)),
    "draw": EventKind("a team player draws a card during the game (the opening hand is in opening_hand)", (
        TEAM_PLAYER, CARD)),
    "land_played": EventKind("a team player plays a land (its enters event follows)", (TEAM_PLAYER, CARD)),
    "command_zone": EventKind("a commander goes to its owner's command zone instead (C2: 903.11-12); the "
                              "leaves event before it names where it would have gone", (
        TEAM_PLAYER, CARD, Field("instead_of", "str", "'graveyard' or 'exile'"))),
    "decision": EventKind("a team decision and what the team holds as it is taken: only with `horde play "
                          "--hands`, which shows every hand at every decision of the team", (
        Field("kind", "str", "the decision's kind (horde/engine/decisions.py: 'cast', 'attackers', 'blocks', ...)"),
        Field("player", "int|null", "the deciding team player, from 1; null for a decision of the whole team "
                                    "(attackers, blocks, fog)"),
        Field("answer", "str", "the answer, in words"),
        Field("hands", "list[str]", "each team player's hand and mana, one entry per player: 'player N (M of K "
                                    "mana open): card, card, ...'"))),
    "game_over": EventKind("the game ends (H12, H13, H14)", (
        Field("winner", "str", "'team', 'horde', 'stall' or 'aborted' (H15)"), TEAM_LIFE,
        Field("horde_library", "int", "cards left in the Horde's library"))),
}

_TYPES: dict[str, tuple[type, ...]] = {"int": (int,), "str": (str,), "bool": (bool,), "list[str]": (list,)}


def problems(event: dict[str, Any]) -> list[str]:
    """What is wrong with one event against ``EVENTS``: unknown kind, missing or extra fields,
    values of the wrong type. An empty list: the event is as documented."""
    kind = EVENTS.get(event.get("event", ""))
    if kind is None:
        return [f"unknown event {event.get('event')!r}"]
    found = []
    fields = COMMON + kind.fields
    names = [f.name for f in fields]
    for name in sorted(set(event) - set(names)):
        found.append(f"{event['event']}: field {name!r} is not documented")
    for field in fields:
        if field.name not in event:
            found.append(f"{event['event']}: field {field.name!r} is missing")
            continue
        value = event[field.name]
        base, _, null = field.kind.partition("|")
        if value is None:
            if not null:
                found.append(f"{event['event']}: field {field.name!r} is null")
            continue
        ok = isinstance(value, _TYPES[base]) and not (base == "int" and isinstance(value, bool))
        if ok and base == "list[str]":
            ok = all(isinstance(item, str) for item in value)
        if not ok:
            found.append(f"{event['event']}: field {field.name!r} = {value!r} is not {field.kind}")
    return found


def markdown() -> str:
    """docs/events.md: every event with its fields and their types (a test keeps the file equal)."""
    lines = [
        "# Trace events",
        "",
        "`horde play --json` prints one JSON object per line, one per event of the game, in the order",
        "they happened (`horde play` prints the same events as readable lines). This file is made from",
        "the schema in `horde/engine/events.py` (`EVENTS`), and a test checks every event of several traced",
        "games against it.",
        "",
        "Issue 16 added the events `turn_begins`, `draw`, `land_played` and `command_zone`, and the",
        "field `text` of `boss_ability`, `lieutenant_acts`, `activate` and `loyalty_ability`; every",
        "other event and field is as it was.",
        "",
        "Every event has these fields, then the fields of its kind below, always all of them:",
        "",
        "| field | type | what it holds |",
        "|---|---|---|",
    ]
    lines += [f"| `{f.name}` | {f.kind} | {f.doc} |" for f in COMMON]
    lines += [
        "",
        "One numbering runs through every event: team players are numbered from 1 in every field that",
        "names one (`player`, `target_player`, `equipment_to`), and such a field is `null` where the",
        "Horde acts (`side` says so). A permanent is named by its card and its `id`. A target, of an",
        "effect, of damage or of an attack, has one shape: `target` (the name shown: a card's name,",
        "`\"player N\"` or `\"the Horde\"`), with `target_id` (a permanent's id) or `target_player`",
        "(a team player, from 1), the other `null`.",
        "",
    ]
    for name, kind in EVENTS.items():
        lines += [f"## `{name}`", "", kind.doc[0].upper() + kind.doc[1:] + ".", ""]
        if kind.fields:
            lines += ["| field | type | what it holds |", "|---|---|---|"]
            lines += [f"| `{f.name}` | {f.kind} | {f.doc} |" for f in kind.fields]
        else:
            lines.append("No fields beyond `turn`, `side` and `event`.")
        lines.append("")
    return "\n".join(lines)

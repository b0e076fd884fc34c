"""The play log: a traced game (``docs/events.md``) as a Magic player would write it up, for
``horde play``. Turn headers say whose turn it is and that side's own count; plays, draws and
casts are by player; a permanent that a cast or a land play puts onto the battlefield is not
announced twice; the boss's and lieutenants' abilities are quoted from their cards; a commander
that would die goes to the command zone; the lieutenant entry roll is explained by its rule (L2);
a loss of life names the card that caused it, and a run of the same loss is told once with how
many times.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

OPPONENTS = {"horde": "the Horde", "hydra": "the Hydra", "battle": "the Horde", "god": "Xenagos"}
ENTRY = 18  # L2: a total of 18 or more lets a lieutenant enter
NUMBERS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven"}


def _count(n: int, noun: str) -> str:
    return f"{NUMBERS.get(n, str(n))} {noun}{'' if n == 1 else 's'}"


def _player(n: int | None) -> str:
    """Who acts, as the first words of a line: 'The Horde' or 'Player N'."""
    return "The Horde" if n is None else f"Player {n}"


def render(events: Iterable[dict[str, Any]], opponent: str = "horde",
           is_creature: Callable[[str], bool] = lambda name: True) -> list[str]:
    """The lines of the play log of a game's events: a header line per turn, then one indented
    line per event worth telling. ``opponent`` is the setup's opponent knob; ``is_creature``
    tells creature cards by name (a creature that goes to the graveyard dies)."""
    rival = OPPONENTS.get(opponent, "the Horde")
    events = grouped(events)
    lines: list[str] = []
    quiet: list[tuple[str, int | None]] = []  # (card, player) whose next 'enters' is already told
    shown: list[str] = []  # the hands the last decision shown printed (horde play --hands)
    for i, e in enumerate(events):
        kind = e["event"]
        if kind == "turn_begins":
            whose = "the team's" if e["side"] == "team" else f"{rival}'s"
            lines.append(f"\n== Turn {e['turn']}: {whose} turn {e['number']}")
            continue
        if kind == "enters" and (e["card"], e["player"]) in quiet:
            quiet.remove((e["card"], e["player"]))
            continue
        if kind == "cast" or kind == "land_played":
            quiet.append((e["card"], e["player"]))
        elif kind == "lieutenant_enters":
            quiet.append((e["name"], None))
            if e["equipment"]:
                quiet.append((e["equipment"], None))
        following = events[i + 1] if i + 1 < len(events) else None
        if kind == "decision":
            if e["hands"] == shown:  # the hands as the last decision showed them: the decision alone
                lines.append("  " + describe(e, rival, following).split("\n")[0])
                continue
            shown = e["hands"]
        if kind == "leaves" and e["to"] == "graveyard" and not is_creature(e["card"]):
            line = f"{e['card']} is put into the graveyard"
        else:
            line = describe(e, rival, following)
        if line:
            lines.append("  " + line if kind != "game_over" else "\n" + line)
    return lines


def grouped(events: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """The events with each run of the same loss of life (same turn, source and amount, one
    after another) told once, with how many times (``times``) and the team's life after the last."""
    merged: list[dict[str, Any]] = []
    for e in events:
        last = merged[-1] if merged else None
        if (e["event"] == "life_lost" and last is not None and last["event"] == "life_lost"
                and (last["turn"], last.get("source"), last["amount"]) == (e["turn"], e.get("source"), e["amount"])):
            merged[-1] = {**last, "times": last.get("times", 1) + 1, "team_life": e["team_life"]}
        else:
            merged.append(e)
    return merged


def describe(e: dict[str, Any], rival: str = "the Horde", following: dict[str, Any] | None = None) -> str:
    """One event in words ('' for an event the line before already tells)."""
    kind = e["event"]
    if kind == "opening_hand":
        if e["mulligans"] == 0:
            return f"Player {e['player']} keeps {_count(e['cards'], 'card')}"
        return (f"Player {e['player']} mulligans {'once' if e['mulligans'] == 1 else _count(e['mulligans'], 'time')}"
                f" and keeps {_count(e['cards'], 'card')}")
    if kind == "decision":  # horde play --hands: the decision, then each player's hand and mana
        who = "The team" if e["player"] is None else f"Player {e['player']}"
        hands = "\n      ".join(e["hands"])
        return f"[{who} decides {e['kind']}: {e['answer']}]\n      {hands}"
    if kind == "draw":
        return f"Player {e['player']} draws {e['card']}"
    if kind == "land_played":
        return f"Player {e['player']} plays {e['card']}"
    if kind == "reveal":
        cards = ", ".join(e["cards"]) or "nothing"
        return f"The Horde reveals {cards} ({_count(e['library'], 'card')} left in its library)"
    if kind == "cast":
        kicked = "" if not e.get("kicked") else (" kicked" if e["kicked"] == 1 else f" kicked {e['kicked']} times")
        where = {"command": " from the command zone", "flashback": " from its graveyard (flashback)",
                 "graveyard": " from its graveyard"}.get(e["origin"] or "", "")
        if e["player"] is None:
            return f"The Horde casts {e['card']}{kicked}{where}" + (" (a token card)" if e["token"] else "")
        return f"Player {e['player']} casts {e['card']}{kicked}{where}"
    if kind == "enters":
        owner = "the Horde" if e["player"] is None else f"player {e['player']}"
        return f"{e['card']} enters the battlefield under {owner}'s control" + (" tapped" if e["tapped"] else "")
    if kind == "leaves":
        if following is not None and following["event"] == "command_zone" and following["card"] == e["card"]:
            return ""  # told by the command-zone line
        if e["to"] == "graveyard":
            return f"{e['card']} dies"
        return {"exile": f"{e['card']} is exiled", "hand": f"{e['card']} returns to its owner's hand",
                "library": f"{e['card']} is put on top of its owner's library"}.get(e["to"], f"{e['card']} leaves")
    if kind == "command_zone":
        went = "would die" if e["instead_of"] == "graveyard" else "would be exiled"
        return (f"{e['card']} {went}; player {e['player']} puts it into the command zone instead "
                "(C2: 903.11)")
    if kind == "attack":
        walker = ", a planeswalker: H8" if e["side"] == "horde" and e["target_id"] is not None else ""
        return f"{e['card']} attacks {e['target']} ({e['power']} power{walker})"
    if kind == "loyalty_ability":
        return (f"Player {e['player']} activates {e['card']}'s \"{e['text']}\" (loyalty {e['loyalty_before']} -> "
                f"{e['loyalty_after']})")
    if kind == "planeswalker_dies":
        return f"{e['card']} has no loyalty left and goes to its owner's graveyard (704.5i)"
    if kind == "block":
        return f"{', '.join(e['blockers'])} blocks {e['attacker']}"
    if kind == "damage":
        source = e["source"] or "a spell"
        life = f" (team life {e['team_life']})" if e["team_life"] is not None else ""
        if e.get("as_counters"):
            life = " as poison counters" if e["target_player"] else " as -1/-1 counters"
        return f"{source} deals {e['amount']} damage to {e['target']}{life}"
    if kind == "mill":
        return (f"{e['amount']} damage to the Horde mills {_count(e['milled'], 'card')} (H11; "
                f"{_count(e['library'], 'card')} left)")
    if kind == "life_lost":
        times = f"x{e['times']}, " if e.get("times", 1) > 1 else ""
        source = f"{e['source']}; " if e.get("source") else ""
        return f"The team loses {e['amount']} life ({times}{source}team life {e['team_life']})"
    if kind == "life_gained":
        return f"The team gains {e['amount']} life (team life {e['team_life']})"
    if kind == "counter":
        return f"Player {e['player']} casts {e['card']}, countering {e['countered']} (H10)"
    if kind == "counters":
        return f"{e['card']} gets {_count(e['added'], e.get('kind', '+1/+1') + ' counter')} ({e['total']} on it)"
    if kind == "poison":
        return f"Player {e['player']} gets {_count(e['added'], 'poison counter')} ({e['total']} now)"
    if kind == "unearth":
        return f"{_player(e['player'])} unearths {e['card']}"
    if kind == "graveyard_ability":
        return f"{_player(e['player'])} activates {e['card']} from its graveyard: {e['effects']}"
    if kind == "flash":
        return f"Player {e['player']} casts {e['card']} with flash before blocks"
    if kind == "cycle":
        return f"Player {e['player']} cycles {e['card']}"
    if kind == "enchant":
        return f"{e['card']} enchants {e['target']}"
    if kind == "legend_rule":
        return f"{e['card']} goes to the graveyard: its controller keeps another of that name (legend rule, 704.5j)"
    if kind == "aura_falls_off":
        return f"{e['card']} is attached to nothing it may enchant and goes to the graveyard (704.5m)"
    if kind == "protection":
        return f"{e['card']} has protection from {e['source']}: its {e['amount']} damage is prevented"
    if kind == "regenerate":
        paid = f" (paid {e['paid']})" if e.get("paid") else ""
        return f"{e['card']} regenerates{paid}: tapped, damage removed, out of combat"
    if kind == "discard":
        return f"{_player(e['player'])} discards {e['card']}"
    if kind == "equip":
        return f"Player {e['player']} equips {e['equipment']} to {e['creature']}"
    if kind == "damage_prevented":
        return "All combat damage this turn is prevented"
    if kind == "prevention":
        return f"{e['amount']} damage that {e['source'] or 'a Horde spell'} would deal to player {e['player']} is prevented"
    if kind == "boss_arrives":
        return f"{e['name']} arrives as the Horde's boss with {e['loyalty']} loyalty (B1)"
    if kind == "boss_ability":
        if e["roll"] is None:
            why = "its loyalty is too low for a minus ability, so a plus ability (B3)"
        else:
            rolled = "plus" if e["roll"] <= 12 else "minus" if e["roll"] <= 18 else "ultimate"
            band = {"plus": "1-12: the plus ability", "minus": "13-18: the minus ability",
                    "ultimate": "19-20: the ultimate"}[rolled]
            why = f"d20 roll {e['roll']}, {band} (B3)"
            if rolled != e["ability"] and e["ability"] == "plus":
                why += "; it has no minus ability it can use there, so a plus ability"
            elif rolled != e["ability"]:
                why += "; it can't pay for that one, so the dearest minus ability it can"
        return (f"{e['name']} activates \"{e['text']}\" (loyalty {e['loyalty_before']} -> {e['loyalty_after']}): "
                f"{why}")
    if kind == "lieutenant_roll":
        total = f"{e['roll']} + {_count(e['counters'], 'entry counter')} = {e['total']}"
        if e["entered"]:
            return f"Lieutenant entry roll: d20 {total}, {ENTRY} or more: a lieutenant enters (L2)"
        return (f"Lieutenant entry roll: d20 {total}, below {ENTRY}: no lieutenant enters, and the "
                f"Horde gets an entry counter (L2)")
    if kind == "lieutenant_enters":
        equipment = f", equipped with {e['equipment']}" if e["equipment"] else ""
        return (f"Lieutenant {e['name']} enters the battlefield under the Horde's control with "
                f"{_count(e['shields'], 'shield counter')}{equipment} (L3)")
    if kind == "shield_removed":
        return f"A shield counter on {e['card']} is removed instead ({e['shields']} left, L4)"
    if kind == "lieutenant_defeated":
        to = f"; its equipment goes to player {e['equipment_to']}" if e["equipment_to"] else ""
        return f"Lieutenant {e['name']} is exiled with {_count(e['time_counters'], 'time counter')} (L6){to}"
    if kind == "time_counter_removed":
        why = "at the beginning of the Horde's turn" if e["reason"] == "horde_turn" else "as a Horde creature deals damage to a player"
        return f"{e['name']} loses a time counter {why} ({e['left']} left, L7)"
    if kind == "lieutenant_acts":
        return f"Lieutenant {e['name']} activates \"{e['text']}\" instead of attacking (L8)"
    if kind == "activate":
        return f"Player {e['player']} activates {e['card']}: \"{e['text']}\""
    if kind == "mana_ability":
        return f"Player {e['player']} activates {e['card']} for mana ({e['ability']}): {e['mana']}"
    if kind == "mode":
        return f"{e['card']}: mode {e['mode']}"
    if kind == "target":
        return f"{e['card']} targets {e['target']}"
    if kind == "boss_vanishes":
        return "The boss vanishes with the Horde (B6)"
    if kind == "graveyard_exiled":
        return f"{_player(e['player'])} exiles {_count(e['cards'], 'card')} from its graveyard"
    if kind == "banned_removed":
        return f"Player {e['player']} draws {e['card']}, banned (R3): it leaves the game and the player draws again"
    if kind == "emblems":
        return f"The Horde's emblem counter is {e['counter']}: it has {_count(e['emblems'], 'emblem')} (V2)"
    if kind == "team_wins":
        return f"The team wins: {e['reason']}"
    if kind == "extra_turn":
        return f"{rival[0].upper() + rival[1:]} takes an extra turn"
    if kind == "scheme_set_in_motion":
        return f"The Horde sets {e['card']} in motion" + (" (ongoing: it stays face up)" if e["ongoing"] else "")
    if kind == "scheme_abandoned":
        return f"The Horde abandons {e['card']} ({_count(e['schemes'], 'scheme')} in its deck)"
    if kind == "self_or_others":
        return f"Player {e['player']} chooses {e['choice']} for {e['card']}"
    if kind == "player_falls":
        limits = ("it may still attack and target, but not" if e["may_attack"] and e["may_target"]
                  else "it may no longer attack nor target, nor")
        return (f"Player {e['player']} falls to {e['master']} and fights on as a zombie at {e['life']} life: "
                f"{limits} harm itself or its master")
    if kind == "player_removed":
        return f"Player {e['player']} leaves the game: {e['reason']} (Z4)"
    if kind == "heads_grow":
        return f"A Head left: the Hydra reveals {', '.join(e['cards']) or 'nothing'}; {e['heads']} Head(s) grow back (F3)"
    if kind == "hydra_bites":
        return f"The Hydra's {e['heads']} untapped Head(s) bite: {e['amount']} damage to each player (F2)"
    if kind == "redirected":
        return f"{e['amount']} damage to the opponent is dealt to {e['target']} instead"
    if kind == "to_graveyard_instead":
        return f"{e['card']} goes to the Horde's graveyard instead of its {e['instead_of']}"
    if kind == "burn_bodies":
        return "The team burns the bodies: its combat damage exiles the Horde's graveyard (V5)" if e["burn"] else \
            "The team mills the Horde with its combat damage (V5)"
    if kind == "game_over":
        winner = {"team": "the team wins", "horde": f"{rival} wins", "stall": "a stall (H14)"}.get(e["winner"], e["winner"])
        return f"Game over: {winner} (team life {e['team_life']}, {_count(e['horde_library'], 'card')} left in the Horde's library)"
    return f"{kind}: " + ", ".join(f"{k}={v}" for k, v in e.items() if k not in ("turn", "side", "event"))


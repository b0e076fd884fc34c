"""The decisions the engine offers a team policy, and the check of each answer.

At each team decision the engine (``horde.engine.rules.ask``) builds a ``Decision``: its kind (one of
``KINDS``), the deciding player and the legal options. The policy returns one option, or a
selection of them for the kinds in ``SELECTIONS``, and ``check_choice`` refuses anything else.
This module sits below both the rules and the policies, so that imports run one way.
"""

from __future__ import annotations

from collections.abc import Callable
from random import Random
from typing import Any, Protocol

from horde.errors import HordeError

# What each kind of decision offers and what the policy returns.
KINDS = {
    "mulligan": "options ('keep', 'mulligan'); subject: the hand; count: mulligans taken so far",
    "bottom": "options: the hand; return a list of exactly `count` cards to put on the bottom (C3)",
    "paris_exile": "options: the hand; return a list of cards to exile for a partial Paris mulligan",
    "land": "options: lands in hand (and a modal double-faced card's land face), and None",
    "cast": "options: (card, origin) pairs it can pay for, and None; origin 'hand' or 'command' (a card of two faces: "
            "each face it may cast, a fused split card as one card), 'flashback', 'graveyard', 'aftermath' (a half cast "
            "from the graveyard), 'adventure' (a creature on an adventure, from exile), 'retrace' (702.81), 'evoke' or "
            "'dash' (alternative costs: 702.74, 702.109), 'suspend' (exiled with time counters rather than cast: 702.62)",
    "target": "options: legal targets (permanents, player indexes, or 'horde'); subject: the card",
    "attackers": "options: creatures that can attack the Horde; return a list of them",
    "blocks": "options: legal (blocker, attacker) pairs; return a list of pairs, each blocker once",
    "flash": "options: (card, origin) pairs of instants and flash cards it can pay for now, and None: after the Horde's "
             "attackers are declared, before blocks; subject: the attackers",
    "cycle": "options: cards in its hand it can cycle now, and None (first main phase)",
    "counter": "options: (player, counterspell) pairs and None; subject: the Horde spell (H10)",
    "fog": "options: (player, fog card) pairs (from hand, or a flashback fog from its graveyard) and None; subject: "
           "the damage expected after blocks",
    "graveyard": "options: (card, how) pairs of what it can do with cards in its graveyard: how is 'unearth' or a "
                 "graveyard ability (a tuple of effects); and None (first main phase, after casting)",
    "equip": "options: (equipment, creature) pairs it can pay for, and None",
    "activate": "options: (permanent, ability) pairs it can pay for now, and None; subject: the moment (first_main, "
                "second_main; attack: beginning of its combat; blocked: after the Horde's blocks; horde_attacks: the Horde's attackers declared; "
                "blocks: after its own)",
    "loyalty": "options: (planeswalker, loyalty ability) pairs it may activate now (each planeswalker once a turn, "
               "sorcery speed, a minus ability only with enough loyalty: 606), and None (either main phase)",
    "search": "options: the different basic lands (or land cards a search may find) in its library; subject: True "
              "onto the battlefield, False to hand",
    "tutor": "options: the different cards of its library a search may find (701.19); subject: (the card searching, "
             "where the card goes: 'hand', 'battlefield', 'top' or 'graveyard')",
    "reanimate": "options: (owner, card) pairs of the cards in graveyards it may put onto the battlefield under its "
                 "control (owner: a team player's index, -1 the Horde); subject: the card doing it",
    "divide": "options: legal targets (permanents, player indexes, 'horde'); return a list of exactly `count` of them, "
              "one per point of damage, a target repeated as often as it is dealt a point (601.2d), at most "
              "subject[2] different ones; subject: (the card, the damage, the most targets)",
    "pay": "options (True, False): whether it pays what an opponent's card asks so that its effect does not happen "
           "('unless that player pays {1}'); subject: (card, effect, the cost)",
    "mode": "options: the modes of a modal spell it can carry out (each a tuple of effects); subject: the card",
    "modes": "options: the modes of a 'choose two' or 'choose one or more' spell it can carry out; return a list of "
             "them (at least `count`, as many as the card allows: is_legal checks); subject: the card",
    "exile_graveyard": "options: team players with enough cards in their graveyard, and None; subject: how many",
    "exile_cards": "options: the graveyard; return a list of exactly `count` cards to exile",
    "exile_with": "options: the cards of its graveyard a permanent entering may exile ('As ~ enters, exile any number "
                  "of creature cards from your graveyard': 607.2a); return a list of any of them; subject: its card",
    "sacrifice": "options: permanents to sacrifice",
    "discard": "options: cards in hand to discard",
    "return": "options: cards in the graveyard to return",
    "player": "options: the players it may choose as a permanent enters ('As ~ enters, choose a player': Sewer "
              "Nemesis): 'horde' and each team player in the game (an index); subject: the card",
    "colour": "options: the colour letters it may choose as a permanent enters ('As ~ enters, choose a color': "
              "Coldsteel Heart, a Thriving land); subject: the card",
    "pay_life": "options (True, False): whether it pays life as a permanent enters so that it enters untapped (a "
                "shock land's 'you may pay 2 life. If you don't, it enters tapped'); subject: (card, the life)",
    "return_own": "options: its permanents it may return to their owner's hand (a bounce land's 'return a land you "
                  "control'), and None when it may sacrifice the land instead; subject: the land that entered",
    "scry": "options: the cards on top of its library it looks at, the top first (701.22); return a list of those "
            "to put on the bottom, the rest staying on top in the same order; subject: the card that scries",
    "kick": "options: how many times it may pay the spell's kicker (0, 1; multikicker: 0 to what it can pay); "
            "subject: the card",
    "buyback": "options (True, False): whether it pays the spell's buyback cost (702.27: the spell returns to its "
               "hand as it resolves); subject: the card",
    "cast_free": "options (True, False): whether it casts a card without paying its mana cost (cascade's find, "
                 "702.85; a rebound card, 702.88); subject: the card",
    "echo": "options (True, False): whether it pays the echo cost of a permanent (702.30), else sacrifices it; "
            "subject: the permanent",
    "devour": "options: its other creatures; return a list of those it sacrifices as the devouring creature "
              "(subject) enters (702.82: `count` +1/+1 counters for each)",
    "may": "options (True, False): whether it does an optional effect ('you may', 608.2d); subject: (card, "
           "effect, its target or None)",
    "regenerate": "options: the creature's regeneration ability (a tuple of effects) and None; subject: the creature "
                  "about to be destroyed",
    # The published automated opponents and the variants (RULES.md F, M, G, V).
    "redirect": "options: the opponent's creatures damage to it is dealt to instead (F6, G3); subject: the damage",
    "horde_choice": "options: what the Hydra chooses among, chosen by the team (F7); subject: (kind, card): "
                    "kind 'harm', 'help', 'sacrifice', 'discard', 'return', 'mode', 'target' or 'tap'",
    "may_sacrifice": "options: permanents it may sacrifice, and None; subject: the life or damage it suffers if not",
    "tap": "options: the opponent's untapped permanents it taps (F: Distract the Hydra)",
    "exile": "options: its creatures, one to exile (F: Swallow the Hero Whole)",
    "must_block": "options: free creatures that can block the attacker (subject) that must be blocked if able (M4)",
    "burn": "options (False, True): True exiles this combat's damage from the Horde's graveyard instead of "
            "milling (V5); subject: (Horde library, Horde graveyard)",
    # The variants (RULES.md A, Z).
    "self_or_others": "options ('self', 'others'): the chosen opponent of a 'self or others' scheme answers (A1); "
                      "subject: the scheme",
    "abandon_scheme": "options: the team's permanents it may sacrifice; return a list of exactly `count` of them to "
                      "abandon the scheme (subject), or an empty list (A1: My Forces Are Innumerable)",
    "keep": "options: its permanents of a kind; the one it keeps, the rest being sacrificed (A1: No One Will Hear "
            "Your Cries) or put into the graveyard (704.5j: its legendary permanents of one name, tokens too)",
}
SELECTIONS = {"attackers", "blocks", "bottom", "paris_exile", "exile_cards", "modes", "abandon_scheme", "exile_with",
              "scry", "divide", "devour"}


class PolicyError(HordeError):
    """A policy that can't be loaded, takes no such parameter, or made an illegal choice."""


class Decision:
    """One choice the engine offers a team policy. A plain class rather than a dataclass: the
    compiled build makes one for every decision, and a dataclass's generated ``__init__`` runs
    interpreted there."""

    __slots__ = ("kind", "player", "options", "subject", "count", "is_legal")

    def __init__(self, kind: str, player: int, options: Any, subject: Any = None, count: int = 1,
                 is_legal: Callable | None = None) -> None:
        self.kind = kind
        self.player = player  # the deciding team player, or -1 for the team as a whole
        self.options = options
        self.subject = subject
        self.count = count
        self.is_legal = is_legal  # for selections with rules beyond the options (menace, L5)

    def __repr__(self) -> str:
        return (f"Decision(kind={self.kind!r}, player={self.player!r}, options={self.options!r}, "
                f"subject={self.subject!r}, count={self.count!r}, is_legal={self.is_legal!r})")


class Chooser(Protocol):
    """What the engine asks: an object with ``choose(decision, view)`` and its own random stream
    ``rng``, set for every game (``horde.team.policies.Policy``)."""

    rng: Random

    def choose(self, decision: Decision, view: Any) -> Any: ...


def check_choice(decision: Decision, choice: Any) -> None:
    """Raise PolicyError unless ``choice`` is legal for ``decision``."""
    options = decision.options
    if decision.kind not in SELECTIONS:
        for option in options:  # most answers are one of the options itself
            if option is choice:
                return
        if choice not in options:  # 'in' compares by identity, then by equality
            raise PolicyError(f"illegal choice for '{decision.kind}': {choice!r} is not one of the options")
        return
    if not isinstance(choice, list | tuple):
        raise PolicyError(f"'{decision.kind}' expects a list, got {choice!r}")
    if decision.kind == "divide":  # a target may be named once per point of damage it is dealt (601.2d)
        for item in choice:
            if not any(option is item for option in options) and item not in options:
                raise PolicyError(f"illegal target for 'divide': {item!r}")
        if len(choice) != decision.count:
            raise PolicyError(f"'divide' needs exactly {decision.count} points, got {len(choice)}")
    elif decision.kind == "blocks":
        used = set()
        for pair in choice:
            if pair not in options:
                raise PolicyError(f"illegal block {pair!r}")
            if id(pair[0]) in used:
                raise PolicyError(f"{pair[0]!r} blocks twice")
            used.add(id(pair[0]))
    else:
        remaining = list(options)
        for item in choice:
            for i, o in enumerate(remaining):
                if o is item:
                    del remaining[i]
                    break
            else:
                raise PolicyError(f"illegal selection for '{decision.kind}': {item!r}")
        if decision.kind in ("bottom", "exile_cards") and len(choice) != decision.count:
            raise PolicyError(f"'{decision.kind}' needs exactly {decision.count} cards, got {len(choice)}")
    if decision.is_legal is not None and not decision.is_legal(choice):
        raise PolicyError(f"illegal '{decision.kind}': {choice!r} breaks a rule (menace, L5 for lieutenants, or "
                          "the number of modes)")

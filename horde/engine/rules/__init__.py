"""The rules of the Horde format (RULES.md), one room per part of the game; comments cite the
rule IDs. This package re-exports every public rule, so ``from horde import rules`` and
``rules.power(game, p)`` read the same whichever room a rule lives in:

- ``horde.engine.characteristics`` (below the filters): where things are, power, toughness, keywords,
  anthems and equipment, the L5 protection of lieutenants;
- ``abilities``: triggered abilities, resolving effects and their targets, asking the team (H9);
- ``zones``: entering and leaving the battlefield, destruction and shields (L4), counters,
  drawing (R3), discarding, milling, searching;
- ``damage``: damage and life (H1, H11, L4, L5, L7);
- ``checks``: state-based actions, the ends of the game and the stack of triggers (H12, H13, H13a);
- ``mana``: paying costs (C2, C4);
- ``casting``: team spells, the Horde casting its cards (H7) and counterspells (H10);
- ``combat``: blocking and combat damage (H8);
- ``keyword_abilities``: keyword abilities applied at their own points (702: cascade, storm, exalted, dash,
  myriad's copies, typecycling, echo);
- ``schemes``: abandoning an ongoing scheme, choosing an opponent, "until end of turn" effects (A1);
- ``zombies``: each player's own life, fallen heroes and their masters (Z1-Z5).

Every function takes the ``Game`` and changes it by the rule book. Randomness comes only from the
game's own streams (``game.horde_rng`` for the Horde's choices, H9). Team choices are asked of the
policy through ``ask``; the policy only chooses and the engine checks the choice. The rules never
import the verbs (``horde.engine.effects``: a card's effects carry their function) nor the boss
(``horde.engine.boss`` is reached through the hook points the engine wires, L6 and L7).

State-based actions and the triggers that wait for them follow H13a in one place
(``checks.check_state``): every action that applies at once, repeated until none applies, the
game's end checked there; then the triggered abilities put on the stack and resolved one at a time.
Simplifications of ordinary Magic, applied the same way everywhere: the abilities that trigger on
leaving the battlefield (dies, leaves, put into a graveyard, undying and persist) wait for the stack
while an event is carried out; the others (enters, attacks, upkeep, damage dealt) resolve at once,
in the order they trigger; the team casts instants in the Horde's turn only to counter a Horde
spell or to prevent combat damage.
"""

from __future__ import annotations

from horde.engine.characteristics import (
    all_permanents,
    apply_own_statics,
    apply_statics,
    board_of,
    creatures,
    graveyard_of,
    hand_of,
    has_keyword,
    horde_power,
    keywords,
    on_battlefield,
    power,
    protected,
    protected_from,
    side_name,
    static_active,
    static_bonus,
    summoning_sick,
    toughness,
    watchers,
)
from horde.engine.rules.abilities import (
    Trigger,
    ask,
    became_target,
    choose_card,
    choose_sacrifice,
    choose_target,
    decider,
    harms,
    has_legal_target,
    horde_pick,
    legal_targets,
    may,
    pays_tax,
    resolve,
    resolve_spell,
    run_hook,
    target_fields,
    target_still_legal,
    trigger,
    trigger_hook,
)
from horde.engine.rules.casting import (
    castable,
    counter_window,
    cyclable,
    cycle,
    exile_upkeep,
    graveyard_casts,
    graveyard_uses,
    horde_cast,
    horde_graveyard,
    one_spell_cast,
    reveal_and_cast_top,
    spell_cast_triggers,
    team_cast,
    use_graveyard,
)
from horde.engine.rules.checks import (
    check_state,
    state_based_actions,
)
from horde.engine.rules.choices import (
    smart_choice,
)
from horde.engine.rules.combat import (
    LANDWALK,
    blocks_allowed,
    can_block,
    combat_damage,
    end_combat,
    legal_blocks,
)
from horde.engine.rules.damage import (
    controller_damaged,
    damage_horde,
    damage_many,
    damage_permanent,
    damage_player,
    gain_life,
    give_poison,
    lose_life,
    prevent_combat_damage,
)
from horde.engine.rules.keyword_abilities import (
    dash_end_step,
    echo,
    end_of_combat,
    exalted,
    keyword_state,
    mark,
)
from horde.engine.rules.mana import (
    RIDERS,
    activate,
    available_mana,
    can_pay,
    colour_counts,
    empty_pools,
    mana_options,
    mana_units,
    pay,
    spell_cost,
    unit_colours,
)
from horde.engine.rules.schemes import (
    abandon,
    end_of_turn_effects,
    self_or_others,
)
from horde.engine.rules.zombies import (
    ability_harms,
    in_game,
    individual,
    may_attack,
    may_target,
)
from horde.engine.rules.zones import (
    add_counters,
    any_player_exiles_from_graveyard,
    aura_is_legal,
    auras_apply,
    bounce,
    change_control,
    destroy,
    died,
    discard,
    draw,
    enchant,
    exile,
    graveyard_abilities_work,
    held_in_place,
    leave_battlefield,
    mill,
    pump,
    put_onto_battlefield,
    regenerates,
    regeneration_ability,
    remove_counters,
    remove_from_combat,
    remove_shield,
    sacrifice,
    sacrifice_options,
    scry_cards,
    search_basic_lands,
    unearth,
    went_to_graveyard,
)
from horde.engine.state import (
    HORDE_CONTROLLER,
    Game,
    Permanent,
)

__all__ = [
    "board_of",
    "all_permanents",
    "watchers",
    "on_battlefield",
    "graveyard_of",
    "hand_of",
    "side_name",
    "power",
    "toughness",
    "has_keyword",
    "keywords",
    "summoning_sick",
    "static_bonus",
    "protected",
    "protected_from",
    "static_active",
    "apply_statics",
    "apply_own_statics",
    "creatures",
    "horde_power",
    "run_hook",
    "resolve",
    "resolve_spell",
    "legal_targets",
    "has_legal_target",
    "choose_target",
    "harms",
    "may",
    "target_fields",
    "target_still_legal",
    "became_target",
    "ask",
    "choose_sacrifice",
    "choose_card",
    "horde_pick",
    "smart_choice",
    "reveal_and_cast_top",
    "held_in_place",
    "went_to_graveyard",
    "put_onto_battlefield",
    "enchant",
    "aura_is_legal",
    "leave_battlefield",
    "died",
    "destroy",
    "sacrifice",
    "exile",
    "graveyard_abilities_work",
    "unearth",
    "bounce",
    "remove_shield",
    "add_counters",
    "remove_counters",
    "regenerates",
    "regeneration_ability",
    "remove_from_combat",
    "pump",
    "draw",
    "discard",
    "mill",
    "any_player_exiles_from_graveyard",
    "sacrifice_options",
    "scry_cards",
    "search_basic_lands",
    "damage_permanent",
    "damage_many",
    "damage_player",
    "damage_horde",
    "give_poison",
    "controller_damaged",
    "lose_life",
    "gain_life",
    "prevent_combat_damage",
    "check_state",
    "state_based_actions",
    "trigger",
    "trigger_hook",
    "Trigger",
    "available_mana",
    "spell_cost",
    "can_pay",
    "colour_counts",
    "mana_units",
    "mana_options",
    "unit_colours",
    "activate",
    "pay",
    "empty_pools",
    "castable",
    "graveyard_casts",
    "graveyard_uses",
    "horde_graveyard",
    "use_graveyard",
    "cycle",
    "cyclable",
    "team_cast",
    "one_spell_cast",
    "spell_cast_triggers",
    "horde_cast",
    "counter_window",
    "can_block",
    "legal_blocks",
    "blocks_allowed",
    "combat_damage",
    "end_combat",
    "LANDWALK",
    "exile_upkeep",
    "dash_end_step",
    "echo",
    "end_of_combat",
    "exalted",
    "keyword_state",
    "mark",
    "abandon",
    "end_of_turn_effects",
    "self_or_others",
    "ability_harms",
    "in_game",
    "individual",
    "may_attack",
    "may_target",
    "decider",
    "pays_tax",
    "auras_apply",
    "change_control",
    "HORDE_CONTROLLER",
    "Permanent",
]


def _mana_damage(game: Game, source: Permanent, player: int, amount: int) -> None:
    damage_player(game, source, player, player, amount)  # a pain land: "~ deals 1 damage to you"


# What activating a mana ability does beyond mana is done by the rules of zones and damage, which
# pay their own costs through horde.engine.rules.mana (docs/cards.md).
RIDERS.sacrifice = sacrifice
RIDERS.damage = _mana_damage
RIDERS.gain = gain_life

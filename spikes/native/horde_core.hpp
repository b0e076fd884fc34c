// The Horde's turn in C++ on card data compiled to integer IDs: a measured prototype of a native
// core, NOT the product (docs/speed.md, "A native core: spike"). It plays the Horde's side of
// the reference scenario (R1 recipe library, H4 untap and upkeep, H5 reveal and cast, H7-H8
// every creature attacking a random team player, combat damage, state-based checks, the end
// step) against a team with no board and no cards in hand, with the same random draws as the
// Python engine, so that the Python engine (solitaire.py) can be its oracle event by event.
// Verbs are a switch over opcodes; a card whose verbs are outside the prototype's vocabulary is
// refused by the compiler (compile_cards.py) unless its body alone is asked for (timing only).
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "pyrandom.hpp"

namespace spike {

constexpr int HORDE = -1;  // the controller index of every Horde permanent
constexpr int NONE = -1;

enum Hook { ENTERS, ATTACKS, CAST, DIES, CREATURE_DIES, SPELL_CAST, TARGETED, N_HOOKS };
enum Verb { CREATE_TOKENS, LOSE_LIFE, ANTHEM, ZOMBIE_ARMY, MILL, PUMP, DESTROY_ALL, SACRIFICE_SELF, NOOP };
enum Who { YOU, EACH_OPPONENT, EACH_PLAYER };
enum Event { EV_REVEAL, EV_CAST, EV_ENTERS, EV_LEAVES, EV_ATTACK, EV_DAMAGE, EV_LIFE_LOST, EV_COUNTERS,
             EV_TARGET, EV_TURN_END };
enum Winner { PLAYING, TEAM_WINS, HORDE_WINS };
enum Type { CREATURE = 1, ENCHANTMENT = 2, SORCERY = 4, INSTANT = 8, ARTIFACT = 16, LAND = 32 };
enum Keyword { ENTERS_TAPPED = 1, VIGILANCE = 2, DEFENDER = 4, CANT_ATTACK = 8 };

// A filter compiled to masks: every required bit set, no forbidden bit set, and the relations.
struct Filter {
    uint32_t types = 0, subtypes = 0, colours = 0, not_subtypes = 0;
    int token = 0;     // 0 any, 1 token, 2 nontoken
    bool other = false;
    int relation = 0;  // 0 any, 1 yours, 2 opponents
};

// One effect: a verb and its arguments as integers (the meaning of a, b, c depends on the verb).
struct Op {
    int verb = NOOP, who = YOU, a = 0, b = 0, c = 0;
    int filter = NONE, target = NONE, when = NONE;  // indexes into Data::filters
};

struct Card {
    int power = 0, toughness = 0;
    bool creature = false, token = false, permanent = true;
    uint32_t types = 0, subtypes = 0, colours = 0, keywords = 0;
    std::array<std::vector<Op>, N_HOOKS> hooks;
    std::vector<Op> anthems;
};

// What the compiler hands over: the cards, the filters, the recipe (R1) and the setup.
struct Data {
    std::vector<Card> cards;
    std::vector<Filter> filters;
    std::vector<int> creatures, spells;  // the recipe pools
    int base_token = 0, giant_token = 0, army_token = 0;
    int creatures_low = 5, creatures_high = 6, spells_low = 3, spells_high = 4;
    int players = 4, cards_per_player = 25, giants = 3, armies = 2, start_life = 80, team_library = 99;
    uint32_t zombie = 0, army = 0;  // the subtype bits zombie_army looks for
};

struct Permanent {
    int id, card, controller;
    bool tapped = false, deck_card = false, attacking = false;
    int plus = 0, temp_power = 0, temp_toughness = 0, defender = -1;
};

struct Context {
    int card, permanent, controller;
    int target = NONE;  // a permanent id
};

// R1 and H3: the Horde's library, top card last, exactly as decks.build_horde_library makes it.
inline std::vector<int> build_library(const Data& d, PyRandom& rng) {
    auto draw_from = [&](const std::vector<int>& pool, int n, std::vector<int>& out) {
        while (n > 0 && !pool.empty()) {
            int take = std::min<int>(n, int(pool.size()));
            for (int c : rng.sample(pool, size_t(take))) out.push_back(c);
            n -= take;
        }
    };
    int creatures = 0, spells = 0;
    for (int i = 0; i < d.players; ++i) creatures += rng.randint(d.creatures_low, d.creatures_high);
    for (int i = 0; i < d.players; ++i) spells += rng.randint(d.spells_low, d.spells_high);
    std::vector<int> cards;
    draw_from(d.creatures, creatures, cards);
    draw_from(d.spells, spells, cards);
    for (int i = 0; i < d.giants * d.players; ++i) cards.push_back(d.giant_token);
    for (int i = 0; i < d.armies * d.players; ++i) cards.push_back(d.army_token);
    size_t size = size_t(d.cards_per_player * d.players);
    rng.shuffle(cards);
    if (cards.size() > size) cards.resize(size);
    while (cards.size() < size) cards.push_back(d.base_token);  // R1: base tokens fill the rest
    rng.shuffle(cards);
    return cards;
}

class Game {
  public:
    Game(const Data& data, const std::string& seed_text, std::vector<int>* trace)
        : d(data), rng(seed_text), trace(trace) {
        library = build_library(d, rng);
        team_life = d.start_life;
        team_library.assign(size_t(d.players), d.team_library);
    }

    const Data& d;
    PyRandom rng;  // the Horde's stream: library and H9 choices
    std::vector<int>* trace;
    std::vector<int> library, graveyard, pending;
    std::vector<Permanent> board;  // the Horde's battlefield, in order of entry
    std::vector<int> statics;      // ids of permanents with anthems
    std::vector<int> team_library;
    std::array<int, N_HOOKS> hooked{};
    int team_life = 0, next_id = 0, turn = 0, horde_turns = 0, winner = PLAYING, tokens_gone = 0;
    long revealed = 0, attacks = 0;

    // H4: one whole Horde turn; the game stops between steps once it is over.
    void horde_turn() {
        ++horde_turns;
        untap_and_upkeep();
        if (winner) return;
        reveal_and_cast();
        if (winner) return;
        combat();
        if (winner) return;
        end_step();
    }

    void log(int kind, int a = 0, int b = 0, int c = 0, int e = 0, int f = 0) {
        if (trace) trace->insert(trace->end(), {kind, turn, a, b, c, e, f});
    }

  private:
    Permanent* find(int id) {
        for (auto& p : board)
            if (p.id == id) return &p;
        return nullptr;
    }

    bool matches(int filter, const Context& ctx, const Permanent& p) const {
        const Filter& f = d.filters[size_t(filter)];
        const Card& c = d.cards[size_t(p.card)];
        if ((c.types & f.types) != f.types || (c.subtypes & f.subtypes) != f.subtypes ||
            (c.colours & f.colours) != f.colours || (c.subtypes & f.not_subtypes))
            return false;
        if ((f.token == 1 && !c.token) || (f.token == 2 && c.token)) return false;
        if (f.other && p.id == ctx.permanent) return false;
        if (f.relation == 1 && p.controller != ctx.controller) return false;
        if (f.relation == 2 && (p.controller == HORDE) == (ctx.controller == HORDE)) return false;
        return true;
    }

    // Power and toughness with counters, until-end-of-turn changes and anthems.
    std::pair<int, int> bonus(const Permanent& p) {
        int dp = 0, dt = 0;
        for (int id : statics) {
            const Permanent* source = find(id);
            Context ctx{source->card, source->id, source->controller};
            for (const Op& op : d.cards[size_t(source->card)].anthems)
                if (matches(op.filter, ctx, p)) { dp += op.a; dt += op.b; }
        }
        return {dp, dt};
    }
    int power(const Permanent& p) {
        const Card& c = d.cards[size_t(p.card)];
        if (!c.creature) return 0;
        return c.power + p.plus + p.temp_power + (statics.empty() ? 0 : bonus(p).first);
    }
    int toughness(const Permanent& p) {
        const Card& c = d.cards[size_t(p.card)];
        if (!c.creature) return 0;
        return c.toughness + p.plus + p.temp_toughness + (statics.empty() ? 0 : bonus(p).second);
    }

    void track(const Card& c, int change) {
        for (int h = 0; h < N_HOOKS; ++h)
            if (!c.hooks[size_t(h)].empty()) hooked[size_t(h)] += change;
    }

    int put_onto_battlefield(int card, bool tapped, bool created) {
        const Card& c = d.cards[size_t(card)];
        Permanent p{next_id++, card, HORDE};
        p.deck_card = c.token && !created;
        p.tapped = tapped || (c.keywords & ENTERS_TAPPED);
        board.push_back(p);
        if (!c.anthems.empty()) statics.push_back(p.id);
        track(c, 1);
        log(EV_ENTERS, card, p.id, p.tapped);
        if (!c.hooks[ENTERS].empty()) resolve(c.hooks[ENTERS], Context{card, p.id, HORDE});
        return p.id;
    }

    enum To { GRAVEYARD };
    void leave_battlefield(int id) {
        auto it = std::find_if(board.begin(), board.end(), [&](const Permanent& p) { return p.id == id; });
        if (it == board.end()) return;
        Permanent p = *it;
        board.erase(it);
        const Card& c = d.cards[size_t(p.card)];
        track(c, -1);
        statics.erase(std::remove(statics.begin(), statics.end(), id), statics.end());
        log(EV_LEAVES, p.card, id, GRAVEYARD);
        if (!c.token)
            graveyard.push_back(p.card);
        else if (p.deck_card)
            ++tokens_gone;  // H6: a token that leaves the battlefield ceases to exist
        if (c.creature) died(p);
    }

    // Dies and CreatureDies triggers; the dying creature looks back in time for its own.
    void died(const Permanent& dead) {
        const Card& c = d.cards[size_t(dead.card)];
        if (!c.hooks[DIES].empty()) resolve(c.hooks[DIES], Context{dead.card, dead.id, dead.controller});
        if (!c.hooks[CREATURE_DIES].empty()) creature_dies(dead, dead);
        if (!hooked[CREATURE_DIES]) return;
        std::vector<Permanent> watchers(board);
        for (const Permanent& w : watchers)
            if (!d.cards[size_t(w.card)].hooks[CREATURE_DIES].empty()) creature_dies(w, dead);
    }
    void creature_dies(const Permanent& watcher, const Permanent& dead) {
        Context ctx{watcher.card, watcher.id, watcher.controller};
        for (const Op& op : d.cards[size_t(watcher.card)].hooks[CREATURE_DIES]) {
            if (op.when != NONE && !matches(op.when, ctx, dead)) continue;
            std::vector<Op> one{op};
            resolve(one, ctx);
        }
    }

    // H9: the Horde picks a target at random among the legal ones (the team has none here).
    int choose_target(const Op& op, const Context& ctx) {
        std::vector<int> options;
        for (const Permanent& p : board)
            if (matches(op.target, ctx, p)) options.push_back(p.id);
        if (options.empty()) return NONE;
        int target = options[rng.below(uint32_t(options.size()))];
        const Permanent* p = find(target);
        log(EV_TARGET, ctx.card, p->card);
        const Card& c = d.cards[size_t(p->card)];
        if (!c.hooks[TARGETED].empty()) resolve(c.hooks[TARGETED], Context{p->card, p->id, p->controller});
        return target;
    }

    void resolve(const std::vector<Op>& ops, Context ctx) {
        for (const Op& op : ops) {
            if (op.target != NONE && ctx.target == NONE) {
                ctx.target = choose_target(op, ctx);
                if (ctx.target == NONE || !find(ctx.target)) continue;
            }
            run(op, ctx);
        }
    }

    // The team players an effect's WHO names (the Horde loses no life and mills itself: H11).
    void each_team_player(int who, int controller, auto&& f) {
        if (who == YOU && controller == HORDE) return;
        for (int i = 0; i < d.players; ++i) f(i);
    }

    // The verbs: one case each.
    void run(const Op& op, const Context& ctx) {
        switch (op.verb) {
            case CREATE_TOKENS:
                for (int i = 0; i < op.b; ++i) put_onto_battlefield(op.a, op.c, true);
                break;
            case LOSE_LIFE:
                each_team_player(op.who, ctx.controller, [&](int) {
                    if (op.a > 0) { team_life -= op.a; log(EV_LIFE_LOST, op.a, team_life); }
                });
                break;
            case ZOMBIE_ARMY: {  // R2: X counters on each Zombie, X = Zombie Armies (once: army_trigger)
                int armies = 0;
                for (const Permanent& p : board) {
                    uint32_t s = d.cards[size_t(p.card)].subtypes;
                    armies += (s & d.army) && (s & d.zombie);
                }
                std::vector<int> ids;
                for (const Permanent& p : board)
                    if (d.cards[size_t(p.card)].subtypes & d.zombie) ids.push_back(p.id);
                for (int id : ids) {
                    Permanent* p = find(id);
                    p->plus += armies;
                    if (armies) log(EV_COUNTERS, p->card, id, armies, p->plus);
                }
                break;
            }
            case MILL:
                each_team_player(op.who, ctx.controller, [&](int i) {
                    team_library[size_t(i)] -= std::min(op.a, team_library[size_t(i)]);
                });
                if (op.who != EACH_OPPONENT)
                    for (int i = 0; i < op.a && !library.empty(); ++i) {
                        graveyard.push_back(library.back());
                        library.pop_back();
                    }
                break;
            case PUMP: {
                Permanent* p = find(op.c ? ctx.target : ctx.permanent);
                if (p) { p->temp_power += op.a; p->temp_toughness += op.b; }
                break;
            }
            case DESTROY_ALL: {
                std::vector<int> doomed;
                for (const Permanent& p : board)
                    if (matches(op.filter, ctx, p)) doomed.push_back(p.id);
                for (int id : doomed) leave_battlefield(id);  // nothing here is indestructible or shielded
                break;
            }
            case SACRIFICE_SELF:
                leave_battlefield(ctx.permanent);
                break;
            default:
                break;  // ANTHEM is read by bonus(); NOOP: a static that means nothing to the Horde
        }
    }

    // State-based actions (creatures with no toughness die), then the ends of the game (H12, H13).
    void check_state() {
        for (;;) {
            std::vector<int> dead;
            for (Permanent& p : board) {
                const Card& c = d.cards[size_t(p.card)];
                if (!c.creature || c.toughness + p.plus + p.temp_toughness > 0) continue;
                if (toughness(p) <= 0) dead.push_back(p.id);
            }
            for (int id : dead) leave_battlefield(id);
            if (dead.empty()) break;
        }
        if (winner) return;
        if (team_life <= 0) {
            winner = HORDE_WINS;  // H13
        } else if (library.empty() && pending.empty()) {
            bool creature = false;
            for (const Permanent& p : board) creature |= d.cards[size_t(p.card)].creature;
            if (!creature) winner = TEAM_WINS;  // H12
        }
    }

    void spell_cast_triggers() {
        if (!hooked[SPELL_CAST]) return;
        std::vector<Permanent> watchers(board);
        for (const Permanent& w : watchers) {
            const Card& c = d.cards[size_t(w.card)];
            if (!c.hooks[SPELL_CAST].empty()) resolve(c.hooks[SPELL_CAST], Context{w.card, w.id, w.controller});
        }
    }

    // H7: the Horde casts for free; the team has nothing to counter with here (H10).
    void horde_cast(int card) {
        const Card& c = d.cards[size_t(card)];
        log(EV_CAST, card);
        spell_cast_triggers();
        if (c.permanent) {
            put_onto_battlefield(card, false, false);
        } else {
            resolve(c.hooks[CAST], Context{card, NONE, HORDE});
            graveyard.push_back(card);
        }
        check_state();
    }

    void untap_and_upkeep() {
        for (Permanent& p : board) p.tapped = false;
        check_state();  // no upkeep triggers in the prototype's vocabulary
    }

    // H5: reveal until a nontoken card, cast the tokens first, then the nontoken card.
    void reveal_and_cast() {
        std::vector<int> shown;
        while (!library.empty()) {
            int card = library.back();
            library.pop_back();
            shown.push_back(card);
            const Card& c = d.cards[size_t(card)];
            if (!(c.token && c.creature)) break;
        }
        revealed += long(shown.size());
        log(EV_REVEAL, int(shown.size()));
        for (int card : shown) log(EV_REVEAL, card);
        for (int card : shown)
            if (d.cards[size_t(card)].token) pending.push_back(card);
        for (int card : shown)
            if (!d.cards[size_t(card)].token) pending.push_back(card);
        while (!pending.empty()) {
            int card = pending.front();
            pending.erase(pending.begin());
            horde_cast(card);
            if (winner) break;
        }
    }

    // H8: every Horde creature attacks a random team player; no blocks here; combat damage.
    void combat() {
        std::vector<int> attackers;
        for (Permanent& p : board) {
            const Card& c = d.cards[size_t(p.card)];
            if (c.creature && !p.tapped && !(c.keywords & (DEFENDER | CANT_ATTACK))) attackers.push_back(p.id);
        }
        if (attackers.empty()) return;
        for (int id : attackers) {
            Permanent* a = find(id);
            a->attacking = true;
            a->defender = int(rng.below(uint32_t(d.players)));  // H8: a random team player
            if (!(d.cards[size_t(a->card)].keywords & VIGILANCE)) a->tapped = true;
            ++attacks;
            log(EV_ATTACK, a->card, id, power(*a), a->defender + 1);
        }
        for (int id : attackers) {
            Permanent* a = find(id);
            if (a && !d.cards[size_t(a->card)].hooks[ATTACKS].empty()) {
                resolve(d.cards[size_t(a->card)].hooks[ATTACKS], Context{a->card, id, HORDE});
                if (winner) return;
            }
        }
        check_state();
        if (winner) return;
        std::vector<std::pair<int, int>> hits;  // (defender, amount): every amount before any is dealt
        for (int id : attackers)
            if (Permanent* a = find(id)) hits.emplace_back(a->defender, std::max(0, power(*a)));
        for (auto [defender, amount] : hits)
            if (amount > 0) {
                team_life -= amount;
                log(EV_DAMAGE, defender + 1, amount, team_life);
            }
        check_state();
        if (winner) return;
        for (Permanent& p : board) p.attacking = false;
        check_state();
    }

    void end_step() {
        check_state();
        if (winner) return;
        for (Permanent& p : board) p.temp_power = p.temp_toughness = 0;
    }
};

// The spike's game: Horde turns until the game ends or the Horde's library is empty (or 60 turns).
inline Game& play_solitaire(Game& game) {
    while (!game.winner && game.horde_turns < 60) {
        ++game.turn;
        game.horde_turn();
        game.log(EV_TURN_END, game.team_life, int(game.library.size()), int(game.graveyard.size()),
                 int(game.board.size()));
        if (game.library.empty()) break;
    }
    return game;
}

}  // namespace spike

// horde_native: Python bindings (pybind11) of the native-core spike. A measured prototype, not
// the product: nothing in the horde package imports it, and make test / make demo never build it.
// `make spike` builds it (build.py) and runs the comparisons and timings (bench.py).
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <chrono>
#include <tuple>

#include "horde_core.hpp"

namespace py = pybind11;
using namespace spike;

using OpRow = std::tuple<int, int, int, int, int, int, int, int, int>;  // hook, verb, who, a, b, c, filter, target, when
using AnthemRow = std::tuple<int, int, int>;                             // filter, power, toughness
using CardRow = std::tuple<int, int, bool, bool, bool, uint32_t, uint32_t, uint32_t, uint32_t,
                           std::vector<OpRow>, std::vector<AnthemRow>>;
using FilterRow = std::tuple<uint32_t, uint32_t, uint32_t, uint32_t, int, bool, int>;

static Data make_data(const std::vector<CardRow>& cards, const std::vector<FilterRow>& filters, const py::dict& recipe) {
    Data d;
    for (const auto& row : cards) {
        Card c;
        std::tie(c.power, c.toughness, c.creature, c.token, c.permanent, c.types, c.subtypes, c.colours,
                 c.keywords, std::ignore, std::ignore) = row;
        for (const auto& [hook, verb, who, a, b, cc, filter, target, when] : std::get<9>(row))
            c.hooks[size_t(hook)].push_back(Op{verb, who, a, b, cc, filter, target, when});
        for (const auto& [filter, power, toughness] : std::get<10>(row))
            c.anthems.push_back(Op{ANTHEM, YOU, power, toughness, 0, filter});
        d.cards.push_back(c);
    }
    for (const auto& [types, subtypes, colours, not_subtypes, token, other, relation] : filters)
        d.filters.push_back(Filter{types, subtypes, colours, not_subtypes, token, other, relation});
    auto get = [&](const char* key) { return recipe[key].cast<int>(); };
    d.creatures = recipe["creatures"].cast<std::vector<int>>();
    d.spells = recipe["spells"].cast<std::vector<int>>();
    d.base_token = get("base_token");
    d.giant_token = get("giant_token");
    d.army_token = get("army_token");
    d.creatures_low = get("creatures_low");
    d.creatures_high = get("creatures_high");
    d.spells_low = get("spells_low");
    d.spells_high = get("spells_high");
    d.players = get("players");
    d.cards_per_player = get("cards_per_player");
    d.giants = get("giants");
    d.armies = get("armies");
    d.start_life = get("start_life");
    d.team_library = get("team_library");
    d.zombie = recipe["zombie"].cast<uint32_t>();
    d.army = recipe["army"].cast<uint32_t>();
    return d;
}

static py::int_ words_to_int(const std::vector<uint32_t>& words) {
    std::string bytes;
    for (uint32_t w : words)
        for (int i = 0; i < 4; ++i) bytes.push_back(char(w >> (8 * i)));
    return py::int_(py::module_::import("builtins").attr("int").attr("from_bytes")(py::bytes(bytes), "little"));
}

PYBIND11_MODULE(horde_native, m) {
    m.doc() = "The native-core spike: CPython's random.Random in C++, and the Horde's turn on compiled card data.";

    py::class_<PyRandom>(m, "Random")
        .def(py::init<const std::string&>(), "random.Random(text), seed version 2")
        .def("getrandbits", [](PyRandom& r, int k) { return words_to_int(r.bits_words(k)); })
        .def("random", &PyRandom::random)
        .def("randbelow", &PyRandom::below)
        .def("randrange", &PyRandom::randrange)
        .def("randint", &PyRandom::randint)
        .def("shuffle", [](PyRandom& r, std::vector<int> x) { r.shuffle(x); return x; })
        .def("sample", [](PyRandom& r, const std::vector<int>& x, size_t k) { return r.sample(x, k); })
        .def("bits_block", [](PyRandom& r, int k, size_t n) {
            std::vector<uint32_t> out(n);
            for (auto& v : out) v = r.bits(k);
            return out;
        }, "n draws of getrandbits(k), k <= 32")
        .def("below_block", [](PyRandom& r, uint32_t bound, size_t n) {
            std::vector<uint32_t> out(n);
            for (auto& v : out) v = r.below(bound);
            return out;
        }, "n draws of randrange(bound)");

    m.def("sha512", [](const py::bytes& data) {
        std::string s = data;
        uint8_t out[64];
        sha512(reinterpret_cast<const uint8_t*>(s.data()), s.size(), out);
        return py::bytes(reinterpret_cast<const char*>(out), 64);
    });

    py::class_<Data>(m, "Data");
    m.def("make_data", &make_data, "compiled cards, filters and the recipe (compile_cards.py makes them)");

    m.def("library", [](const Data& d, const std::string& seed) {
        PyRandom rng(seed);
        return build_library(d, rng);
    }, "the Horde's library for the Horde stream seeded with this text, top card last");

    m.def("play", [](const Data& d, const std::string& seed) {
        std::vector<int> trace;
        Game game(d, seed, &trace);
        play_solitaire(game);
        return trace;
    }, "one game's events, 7 integers each (kind, turn, five values)");

    // Games from seed text to the end in C++ alone ("game"), or only their Horde stream seeded
    // ("seed") or their library built ("library"): the time, and totals to check against.
    m.def("run", [](const Data& d, const std::string& head, int first, int count, const std::string& tail,
                    const std::string& part) {
        auto start = std::chrono::steady_clock::now();
        long turns = 0, revealed = 0, attacks = 0, life = 0, cards = 0;
        for (int i = first; i < first + count; ++i) {
            std::string seed = head + std::to_string(i) + tail;
            if (part == "seed") {
                PyRandom rng(seed);
                cards += rng.bits(1);
                continue;
            }
            if (part == "library") {
                PyRandom rng(seed);
                cards += long(build_library(d, rng).size());
                continue;
            }
            Game game(d, seed, nullptr);
            play_solitaire(game);
            turns += game.horde_turns;
            revealed += game.revealed;
            attacks += game.attacks;
            life += game.team_life;
        }
        double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        py::dict out;
        out["seconds"] = seconds;
        out["horde_turns"] = turns;
        out["revealed"] = revealed;
        out["attacks"] = attacks;
        out["team_life"] = life;
        out["cards"] = cards;
        return out;
    }, py::arg("data"), py::arg("head"), py::arg("first"), py::arg("count"), py::arg("tail"),
       py::arg("part") = "game");
}

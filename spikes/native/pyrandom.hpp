// CPython's random.Random (3.11), bit for bit, for a native core that must play the same games
// as the Python engine: SHA-512 (FIPS 180-4) for text seeds, MT19937 with init_by_array,
// getrandbits, _randbelow_with_getrandbits (randrange, randint, choice), shuffle, random() and
// sample. pyrandom.py is the same algorithm in plain Python, checked against random.Random.
// Part of the native-core spike (docs/speed.md), not of the product.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <unordered_set>
#include <vector>

namespace spike {

// ---------------------------------------------------------------- SHA-512 (FIPS 180-4)

inline void sha512(const uint8_t* data, size_t size, uint8_t out[64]) {
    static const uint64_t K[80] = {
        0x428a2f98d728ae22ULL, 0x7137449123ef65cdULL, 0xb5c0fbcfec4d3b2fULL, 0xe9b5dba58189dbbcULL,
        0x3956c25bf348b538ULL, 0x59f111f1b605d019ULL, 0x923f82a4af194f9bULL, 0xab1c5ed5da6d8118ULL,
        0xd807aa98a3030242ULL, 0x12835b0145706fbeULL, 0x243185be4ee4b28cULL, 0x550c7dc3d5ffb4e2ULL,
        0x72be5d74f27b896fULL, 0x80deb1fe3b1696b1ULL, 0x9bdc06a725c71235ULL, 0xc19bf174cf692694ULL,
        0xe49b69c19ef14ad2ULL, 0xefbe4786384f25e3ULL, 0x0fc19dc68b8cd5b5ULL, 0x240ca1cc77ac9c65ULL,
        0x2de92c6f592b0275ULL, 0x4a7484aa6ea6e483ULL, 0x5cb0a9dcbd41fbd4ULL, 0x76f988da831153b5ULL,
        0x983e5152ee66dfabULL, 0xa831c66d2db43210ULL, 0xb00327c898fb213fULL, 0xbf597fc7beef0ee4ULL,
        0xc6e00bf33da88fc2ULL, 0xd5a79147930aa725ULL, 0x06ca6351e003826fULL, 0x142929670a0e6e70ULL,
        0x27b70a8546d22ffcULL, 0x2e1b21385c26c926ULL, 0x4d2c6dfc5ac42aedULL, 0x53380d139d95b3dfULL,
        0x650a73548baf63deULL, 0x766a0abb3c77b2a8ULL, 0x81c2c92e47edaee6ULL, 0x92722c851482353bULL,
        0xa2bfe8a14cf10364ULL, 0xa81a664bbc423001ULL, 0xc24b8b70d0f89791ULL, 0xc76c51a30654be30ULL,
        0xd192e819d6ef5218ULL, 0xd69906245565a910ULL, 0xf40e35855771202aULL, 0x106aa07032bbd1b8ULL,
        0x19a4c116b8d2d0c8ULL, 0x1e376c085141ab53ULL, 0x2748774cdf8eeb99ULL, 0x34b0bcb5e19b48a8ULL,
        0x391c0cb3c5c95a63ULL, 0x4ed8aa4ae3418acbULL, 0x5b9cca4f7763e373ULL, 0x682e6ff3d6b2b8a3ULL,
        0x748f82ee5defb2fcULL, 0x78a5636f43172f60ULL, 0x84c87814a1f0ab72ULL, 0x8cc702081a6439ecULL,
        0x90befffa23631e28ULL, 0xa4506cebde82bde9ULL, 0xbef9a3f7b2c67915ULL, 0xc67178f2e372532bULL,
        0xca273eceea26619cULL, 0xd186b8c721c0c207ULL, 0xeada7dd6cde0eb1eULL, 0xf57d4f7fee6ed178ULL,
        0x06f067aa72176fbaULL, 0x0a637dc5a2c898a6ULL, 0x113f9804bef90daeULL, 0x1b710b35131c471bULL,
        0x28db77f523047d84ULL, 0x32caab7b40c72493ULL, 0x3c9ebe0a15c9bebcULL, 0x431d67c49c100d4cULL,
        0x4cc5d4becb3e42b6ULL, 0x597f299cfc657e2aULL, 0x5fcb6fab3ad6faecULL, 0x6c44198c4a475817ULL};
    uint64_t h[8] = {0x6a09e667f3bcc908ULL, 0xbb67ae8584caa73bULL, 0x3c6ef372fe94f82bULL,
                     0xa54ff53a5f1d36f1ULL, 0x510e527fade682d1ULL, 0x9b05688c2b3e6c1fULL,
                     0x1f83d9abfb41bd6bULL, 0x5be0cd19137e2179ULL};
    auto rotr = [](uint64_t x, int n) { return (x >> n) | (x << (64 - n)); };
    // The message, a 1 bit, zeros, and its length in bits as 128 bits: whole 128-byte blocks.
    std::vector<uint8_t> msg(data, data + size);
    msg.push_back(0x80);
    while (msg.size() % 128 != 112) msg.push_back(0);
    for (int i = 0; i < 8; ++i) msg.push_back(0);
    uint64_t bits = uint64_t(size) * 8;
    for (int i = 7; i >= 0; --i) msg.push_back(uint8_t(bits >> (8 * i)));
    for (size_t block = 0; block < msg.size(); block += 128) {
        uint64_t w[80];
        for (int t = 0; t < 16; ++t) {
            w[t] = 0;
            for (int b = 0; b < 8; ++b) w[t] = (w[t] << 8) | msg[block + 8 * t + b];
        }
        for (int t = 16; t < 80; ++t) {
            uint64_t s0 = rotr(w[t - 15], 1) ^ rotr(w[t - 15], 8) ^ (w[t - 15] >> 7);
            uint64_t s1 = rotr(w[t - 2], 19) ^ rotr(w[t - 2], 61) ^ (w[t - 2] >> 6);
            w[t] = w[t - 16] + s0 + w[t - 7] + s1;
        }
        uint64_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], hh = h[7];
        for (int t = 0; t < 80; ++t) {
            uint64_t t1 = hh + (rotr(e, 14) ^ rotr(e, 18) ^ rotr(e, 41)) + ((e & f) ^ (~e & g)) + K[t] + w[t];
            uint64_t t2 = (rotr(a, 28) ^ rotr(a, 34) ^ rotr(a, 39)) + ((a & b) ^ (a & c) ^ (b & c));
            hh = g; g = f; f = e; e = d + t1; d = c; c = b; b = a; a = t1 + t2;
        }
        h[0] += a; h[1] += b; h[2] += c; h[3] += d; h[4] += e; h[5] += f; h[6] += g; h[7] += hh;
    }
    for (int i = 0; i < 8; ++i)
        for (int b = 0; b < 8; ++b) out[8 * i + b] = uint8_t(h[i] >> (56 - 8 * b));
}

// ---------------------------------------------------------------- MT19937 as CPython uses it

class PyRandom {
  public:
    static constexpr int N = 624, M = 397;

    // random.Random(text): seed version 2, the bytes and their SHA-512 digest as one big integer.
    explicit PyRandom(const std::string& text) {
        std::vector<uint8_t> bytes(text.begin(), text.end());
        uint8_t digest[64];
        sha512(bytes.data(), bytes.size(), digest);
        bytes.insert(bytes.end(), digest, digest + 64);
        seed_big_endian(bytes);
    }

    uint32_t genrand_uint32() {
        if (index_ >= N) twist();
        uint32_t y = mt_[index_++];
        y ^= y >> 11;
        y ^= (y << 7) & 0x9d2c5680U;
        y ^= (y << 15) & 0xefc60000U;
        return y ^ (y >> 18);
    }

    // getrandbits(k) for k <= 32.
    uint32_t bits(int k) { return k == 0 ? 0 : genrand_uint32() >> (32 - k); }

    // getrandbits(k) for any k: 32-bit words, least significant first, the last one cut.
    std::vector<uint32_t> bits_words(int k) {
        std::vector<uint32_t> words;
        for (; k > 0; k -= 32) {
            uint32_t r = genrand_uint32();
            if (k < 32) r >>= 32 - k;
            words.push_back(r);
        }
        return words;
    }

    double random() {
        uint32_t a = genrand_uint32() >> 5, b = genrand_uint32() >> 6;
        return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0);
    }

    // _randbelow_with_getrandbits: draws of n's bit length until one is below n (0 < n < 2**32).
    uint32_t below(uint32_t n) {
        int k = 32 - __builtin_clz(n);
        uint32_t r = bits(k);
        while (r >= n) r = bits(k);
        return r;
    }

    int randrange(int start, int stop) { return start + int(below(uint32_t(stop - start))); }
    int randint(int a, int b) { return randrange(a, b + 1); }

    template <class T>
    void shuffle(std::vector<T>& x) {
        for (size_t i = x.size() - 1; i > 0 && i < x.size(); --i) {
            size_t j = below(uint32_t(i + 1));
            std::swap(x[i], x[j]);
        }
    }

    // sample(population, k): the pool method up to 21 + 4**ceil(log4(3k)) items, else the set
    // method (3k is never a power of 4, so whole-number arithmetic finds CPython's power).
    template <class T>
    std::vector<T> sample(const std::vector<T>& population, size_t k) {
        size_t n = population.size(), setsize = 21;
        if (k > 5) {
            size_t power = 1;
            while (power < 3 * k) power *= 4;
            setsize += power;
        }
        std::vector<T> result(k);
        if (n <= setsize) {
            std::vector<T> pool(population);
            for (size_t i = 0; i < k; ++i) {
                size_t j = below(uint32_t(n - i));
                result[i] = pool[j];
                pool[j] = pool[n - i - 1];
            }
        } else {
            std::unordered_set<size_t> selected;
            for (size_t i = 0; i < k; ++i) {
                size_t j = below(uint32_t(n));
                while (selected.count(j)) j = below(uint32_t(n));
                selected.insert(j);
                result[i] = population[j];
            }
        }
        return result;
    }

  private:
    uint32_t mt_[N];
    int index_ = N;

    // The integer whose big-endian bytes these are, split into 32-bit words from the least
    // significant (leading zero bytes dropped, at least one word), then init_by_array.
    void seed_big_endian(const std::vector<uint8_t>& bytes) {
        size_t start = 0;
        while (start < bytes.size() && bytes[start] == 0) ++start;
        std::vector<uint32_t> key;
        for (size_t end = bytes.size(); end > start;) {
            uint32_t word = 0;
            size_t from = end >= start + 4 ? end - 4 : start;
            for (size_t i = from; i < end; ++i) word = (word << 8) | bytes[i];
            key.push_back(word);
            end = from;
        }
        if (key.empty()) key.push_back(0);
        init_by_array(key);
    }

    void init_genrand(uint32_t s) {
        mt_[0] = s;
        for (int i = 1; i < N; ++i) mt_[i] = 1812433253U * (mt_[i - 1] ^ (mt_[i - 1] >> 30)) + uint32_t(i);
        index_ = N;
    }

    void init_by_array(const std::vector<uint32_t>& key) {
        init_genrand(19650218U);
        size_t i = 1, j = 0, length = key.size();
        for (size_t k = N > length ? N : length; k; --k) {
            mt_[i] = (mt_[i] ^ ((mt_[i - 1] ^ (mt_[i - 1] >> 30)) * 1664525U)) + key[j] + uint32_t(j);
            ++i;
            ++j;
            if (i >= size_t(N)) { mt_[0] = mt_[N - 1]; i = 1; }
            if (j >= length) j = 0;
        }
        for (size_t k = N - 1; k; --k) {
            mt_[i] = (mt_[i] ^ ((mt_[i - 1] ^ (mt_[i - 1] >> 30)) * 1566083941U)) - uint32_t(i);
            ++i;
            if (i >= size_t(N)) { mt_[0] = mt_[N - 1]; i = 1; }
        }
        mt_[0] = 0x80000000U;
    }

    void twist() {
        static const uint32_t mag01[2] = {0, 0x9908b0dfU};
        int k = 0;
        for (; k < N - M; ++k) {
            uint32_t y = (mt_[k] & 0x80000000U) | (mt_[k + 1] & 0x7fffffffU);
            mt_[k] = mt_[k + M] ^ (y >> 1) ^ mag01[y & 1];
        }
        for (; k < N - 1; ++k) {
            uint32_t y = (mt_[k] & 0x80000000U) | (mt_[k + 1] & 0x7fffffffU);
            mt_[k] = mt_[k + (M - N)] ^ (y >> 1) ^ mag01[y & 1];
        }
        uint32_t y = (mt_[N - 1] & 0x80000000U) | (mt_[0] & 0x7fffffffU);
        mt_[N - 1] = mt_[M - 1] ^ (y >> 1) ^ mag01[y & 1];
        index_ = 0;
    }
};

}  // namespace spike

"""CPython's ``random.Random`` (3.11) written out in plain Python: MT19937, text seeds (version
2: the UTF-8 bytes followed by their SHA-512 digest, read as one big-endian integer, split into
32-bit words from the least significant, fed to ``init_by_array``), ``getrandbits``,
``_randbelow_with_getrandbits`` (``randrange``, ``randint``, ``choice``), ``shuffle``,
``random`` and ``sample``, exactly as ``Lib/random.py`` and ``Modules/_randommodule.c`` do.

It is the written specification of what the native core's generator (``pyrandom.hpp``)
implements, checked against ``random.Random`` by tests that need no compiler. It is part of the
native-core spike, not of the product: nothing in ``horde`` imports it.
"""

from __future__ import annotations

import hashlib

N, M = 624, 397
MASK = 0xFFFFFFFF


class MersenneRandom:
    """A stream that gives the same draws as ``random.Random(seed)`` for a str, bytes or int seed."""

    def __init__(self, seed: str | bytes | int):
        self.state = [0] * N
        self.index = N
        if isinstance(seed, str):
            seed = seed.encode()
        if isinstance(seed, bytes):
            seed = int.from_bytes(seed + hashlib.sha512(seed).digest(), "big")  # seed version 2
        seed = abs(seed)
        key = []
        while True:
            key.append(seed & MASK)  # 32-bit words, least significant first
            seed >>= 32
            if not seed:
                break
        self._init_by_array(key)

    def _init_genrand(self, s: int) -> None:
        mt = self.state
        mt[0] = s
        for i in range(1, N):
            mt[i] = (1812433253 * (mt[i - 1] ^ (mt[i - 1] >> 30)) + i) & MASK
        self.index = N

    def _init_by_array(self, key: list[int]) -> None:
        self._init_genrand(19650218)
        mt = self.state
        i, j = 1, 0
        for _ in range(max(N, len(key))):
            mt[i] = ((mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1664525)) + key[j] + j) & MASK
            i += 1
            j += 1
            if i >= N:
                mt[0] = mt[N - 1]
                i = 1
            if j >= len(key):
                j = 0
        for _ in range(N - 1):
            mt[i] = ((mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1566083941)) - i) & MASK
            i += 1
            if i >= N:
                mt[0] = mt[N - 1]
                i = 1
        mt[0] = 0x80000000  # the most significant bit is 1: a non-zero initial state

    def _twist(self) -> None:
        mt = self.state
        for k in range(N):
            y = (mt[k] & 0x80000000) | (mt[(k + 1) % N] & 0x7FFFFFFF)
            mt[k] = mt[(k + M) % N] ^ (y >> 1) ^ (0x9908B0DF if y & 1 else 0)
        self.index = 0

    def genrand_uint32(self) -> int:
        if self.index >= N:
            self._twist()
        y = self.state[self.index]
        self.index += 1
        y ^= y >> 11
        y ^= (y << 7) & 0x9D2C5680
        y ^= (y << 15) & 0xEFC60000
        return y ^ (y >> 18)

    def getrandbits(self, k: int) -> int:
        """k random bits; above 32 the words are joined least significant first, the last one
        cut to the bits that remain (as ``_random_Random_getrandbits_impl``)."""
        if k <= 32:
            return self.genrand_uint32() >> (32 - k) if k else 0
        result, shift = 0, 0
        while k > 0:
            word = self.genrand_uint32()
            if k < 32:
                word >>= 32 - k
            result |= word << shift
            shift += 32
            k -= 32
        return result

    def random(self) -> float:
        a, b = self.genrand_uint32() >> 5, self.genrand_uint32() >> 6
        return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0)

    def randbelow(self, n: int) -> int:
        """``_randbelow_with_getrandbits``: bits of n's length until one is below n."""
        k = n.bit_length()
        r = self.getrandbits(k)
        while r >= n:
            r = self.getrandbits(k)
        return r

    def randrange(self, start: int, stop: int | None = None) -> int:
        if stop is None:
            return self.randbelow(start)
        return start + self.randbelow(stop - start)

    def randint(self, a: int, b: int) -> int:
        return self.randrange(a, b + 1)

    def choice(self, seq):
        return seq[self.randbelow(len(seq))]

    def shuffle(self, x: list) -> None:
        for i in range(len(x) - 1, 0, -1):
            j = self.randbelow(i + 1)
            x[i], x[j] = x[j], x[i]

    def sample(self, population, k: int) -> list:
        """The pool method for small populations, the set method for large ones; the limit is
        21 + 4 ** ceil(log4(3k)) for k > 5, worked out here in whole numbers (3k is never a power
        of 4, so the floating-point logarithm CPython uses gives the same power)."""
        n = len(population)
        setsize = 21
        if k > 5:
            power = 1
            while power < 3 * k:
                power *= 4
            setsize += power
        result = [None] * k
        if n <= setsize:
            pool = list(population)
            for i in range(k):
                j = self.randbelow(n - i)
                result[i] = pool[j]
                pool[j] = pool[n - i - 1]
        else:
            selected: set[int] = set()
            for i in range(k):
                j = self.randbelow(n)
                while j in selected:
                    j = self.randbelow(n)
                selected.add(j)
                result[i] = population[j]
        return result

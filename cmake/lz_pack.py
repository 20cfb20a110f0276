#!/usr/bin/env python3
"""lz_pack.py IN OUT: IN's bytes, JSON newlines and indentation removed, packed with a small LZ77
for embedding (the catalog and the validation residuals are about a third of the WebAssembly
modules; the embed card's module has a 1 MB first-load budget). Unpacked by core/src/embedded.cpp:

    "LZ1" varint(size) then repeated: varint(literal count) literals varint(match length)
    [varint(distance) when the length is > 0]; a match length of 0 ends the stream.

Greedy matching on 4-byte hashes with a bounded chain: a few seconds at most, deterministic."""
import re
import sys

MIN_MATCH, MAX_MATCH, WINDOW, CHAIN = 4, 1 << 16, 1 << 16, 48


def varint(n):
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        out.append(b | (0x80 if n else 0))
        if not n:
            return bytes(out)


def pack(data):
    out = bytearray(b"LZ1" + varint(len(data)))
    heads = {}
    i, lit = 0, 0
    n = len(data)

    def insert(p):
        if p + MIN_MATCH <= n:
            heads.setdefault(data[p:p + MIN_MATCH], []).append(p)

    while i < n:
        best_len, best_dist = 0, 0
        if i + MIN_MATCH <= n:
            for p in reversed(heads.get(data[i:i + MIN_MATCH], [])[-CHAIN:]):
                if i - p > WINDOW:
                    break
                k = MIN_MATCH
                while i + k < n and k < MAX_MATCH and data[p + k] == data[i + k]:
                    k += 1
                if k > best_len:
                    best_len, best_dist = k, i - p
        if best_len >= MIN_MATCH:
            out += varint(i - lit) + data[lit:i] + varint(best_len) + varint(best_dist)
            for p in range(i, i + best_len):
                insert(p)
            i += best_len
            lit = i
        else:
            insert(i)
            i += 1
    out += varint(n - lit) + data[lit:n] + varint(0)
    return bytes(out)


def main():
    src, dst = sys.argv[1], sys.argv[2]
    data = open(src, "rb").read()
    if src.endswith(".json"):
        data = re.sub(rb"\n *", b"", data)  # a raw newline never sits inside a JSON string
    open(dst, "wb").write(pack(data))


if __name__ == "__main__":
    main()

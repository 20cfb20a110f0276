#!/usr/bin/env python3
"""lz_pack.py IN OUT: IN's bytes, JSON newlines and indentation removed, compressed for embedding
(the catalog, the validation residuals and the model-change log are about a tenth of the
WebAssembly modules; the embed card's module has a 1 MB first-load budget). Unpacked by
core/src/embedded.cpp:

    "DF1" varint(original size) crc32(original, 4 bytes little-endian) then one raw DEFLATE
    stream (RFC 1951)

written by Python's zlib at its best compression. DEFLATE (LZ77 with Huffman-coded literals,
lengths and distances) takes these files to about two thirds of what the byte-oriented LZ77 this
replaced reached. The bytes depend on the zlib the build machine has (zlib or zlib-ng pack
differently); every build's stream unpacks to the same text, which the CRC-32 checks."""
import re
import sys
import zlib


def varint(n):
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        out.append(b | (0x80 if n else 0))
        if not n:
            return bytes(out)


def pack(data):
    deflate = zlib.compressobj(9, zlib.DEFLATED, -15, 9)  # raw stream: no zlib header or checksum
    crc = zlib.crc32(data).to_bytes(4, "little")
    return b"DF1" + varint(len(data)) + crc + deflate.compress(data) + deflate.flush()


def main():
    src, dst = sys.argv[1], sys.argv[2]
    data = open(src, "rb").read()
    if src.endswith(".json"):
        data = re.sub(rb"\n *", b"", data)  # a raw newline never sits inside a JSON string
    open(dst, "wb").write(pack(data))


if __name__ == "__main__":
    main()

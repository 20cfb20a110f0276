// embedded.cpp: the unpacker of cmake/lz_pack.py's format: "DF1", the original size as a varint,
// the original's CRC-32 (4 bytes, little-endian), then one raw DEFLATE stream (RFC 1951), which
// Python's zlib writes at build time. The decoder
// below follows the RFC's description (stored, fixed-code and dynamic-code blocks); bounds are
// checked on every read and the CRC-32 on the output, so a damaged array gives an empty string
// (the loaders then report it) rather than a crash or different text.
#include "llmplan/embedded.hpp"

#include <array>
#include <cstdint>

namespace llmplan::detail {

namespace {

constexpr int kMaxBits = 15;       // the longest Huffman code DEFLATE allows
constexpr int kLitLenCodes = 288;  // literal/length alphabet (286 used, 288 in the fixed code)
constexpr int kDistCodes = 30;     // distance alphabet
constexpr std::uint64_t kMaxSize = 1u << 30;
constexpr std::uint64_t kMaxExpansion = 1032;  // DEFLATE writes at most 258 bytes per 2 bits

// CRC-32 (ISO-HDLC: reflected polynomial 0xEDB88320, as zlib.crc32 computes it).
std::uint32_t crc32(const std::string& s) {
  static const std::array<std::uint32_t, 256> table = [] {
    std::array<std::uint32_t, 256> t{};
    for (std::uint32_t n = 0; n < 256; ++n) {
      std::uint32_t c = n;
      for (int k = 0; k < 8; ++k) c = c & 1 ? 0xEDB88320u ^ (c >> 1) : c >> 1;
      t[n] = c;
    }
    return t;
  }();
  std::uint32_t c = 0xFFFFFFFFu;
  for (const char ch : s) c = table[(c ^ static_cast<unsigned char>(ch)) & 0xFF] ^ (c >> 8);
  return c ^ 0xFFFFFFFFu;
}

// Bits are read least significant first, bytes in order (RFC 1951 §3.1.1).
struct BitReader {
  const unsigned char* data;
  unsigned long size;
  unsigned long pos = 0;
  unsigned long buffer = 0;
  int count = 0;
  bool ok = true;

  unsigned bits(int n) {
    while (count < n) {
      if (pos >= size) {
        ok = false;
        return 0;
      }
      buffer |= static_cast<unsigned long>(data[pos++]) << count;
      count += 8;
    }
    const unsigned v = static_cast<unsigned>(buffer & ((1ul << n) - 1));
    buffer >>= n;
    count -= n;
    return v;
  }
  void to_byte_boundary() { buffer = 0, count = 0; }
};

// A canonical Huffman code: how many codes of each length, and the symbols in code order.
struct Huffman {
  std::array<int, kMaxBits + 1> count{};
  std::array<int, kLitLenCodes> symbol{};
};

// Builds the code from each symbol's length (0: unused). False for an over-subscribed set of
// lengths; an incomplete one is kept (a stream with a single distance code has one), and decoding
// fails if it ever reads a code that is not there.
bool build(Huffman& h, const int* lengths, int n) {
  h.count.fill(0);
  for (int s = 0; s < n; ++s) ++h.count[lengths[s]];
  int left = 1;
  for (int len = 1; len <= kMaxBits; ++len) {
    left = left * 2 - h.count[len];
    if (left < 0) return false;
  }
  std::array<int, kMaxBits + 2> offset{};
  for (int len = 1; len <= kMaxBits; ++len) offset[len + 1] = offset[len] + h.count[len];
  for (int s = 0; s < n; ++s)
    if (lengths[s] != 0) h.symbol[offset[lengths[s]]++] = s;
  return true;
}

// Reads one symbol: codes of one length are consecutive integers, each length's first code
// following the last of the shorter ones, doubled (RFC 1951 §3.2.2).
int decode(BitReader& in, const Huffman& h) {
  int code = 0, first = 0, index = 0;
  for (int len = 1; len <= kMaxBits; ++len) {
    code |= static_cast<int>(in.bits(1));
    if (!in.ok) return -1;
    const int n = h.count[len];
    if (code - first < n) return h.symbol[index + code - first];
    index += n;
    first = (first + n) << 1;
    code <<= 1;
  }
  return -1;
}

// Lengths 3-258 and distances 1-32768: a base and how many extra bits follow (RFC 1951 §3.2.5).
constexpr std::array<int, 29> kLengthBase = {3,  4,  5,  6,  7,  8,  9,  10, 11,  13,  15,  17,  19,  23, 27,
                                             31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258};
constexpr std::array<int, 29> kLengthExtra = {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2,
                                              2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0};
constexpr std::array<int, kDistCodes> kDistBase = {1,    2,    3,    4,    5,    7,    9,    13,    17,    25,
                                                   33,   49,   65,   97,   129,  193,  257,  385,   513,   769,
                                                   1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577};
constexpr std::array<int, kDistCodes> kDistExtra = {0, 0, 0, 0, 1, 1, 2, 2,  3,  3,  4,  4,  5,  5,  6,
                                                    6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13};

// One block's symbols until its end-of-block code.
bool inflate_codes(BitReader& in, const Huffman& lit, const Huffman& dist, std::string& out, unsigned long total) {
  for (;;) {
    const int s = decode(in, lit);
    if (s < 0) return false;
    if (s < 256) {
      if (out.size() >= total) return false;
      out.push_back(static_cast<char>(s));
      continue;
    }
    if (s == 256) return true;
    const int l = s - 257;
    if (l >= static_cast<int>(kLengthBase.size())) return false;
    const unsigned long length = kLengthBase[l] + in.bits(kLengthExtra[l]);
    const int d = decode(in, dist);
    if (d < 0 || d >= kDistCodes) return false;
    const unsigned long distance = kDistBase[d] + in.bits(kDistExtra[d]);
    if (!in.ok || distance > out.size() || out.size() + length > total) return false;
    const size_t from = out.size() - distance;
    for (unsigned long k = 0; k < length; ++k) out.push_back(out[from + k]);  // may overlap: byte by byte
  }
}

bool inflate_stored(BitReader& in, std::string& out, unsigned long total) {
  in.to_byte_boundary();
  if (in.size - in.pos < 4) return false;
  const unsigned len = in.data[in.pos] | in.data[in.pos + 1] << 8;
  const unsigned nlen = in.data[in.pos + 2] | in.data[in.pos + 3] << 8;
  in.pos += 4;
  if ((len ^ 0xFFFFu) != nlen || len > in.size - in.pos || out.size() + len > total) return false;
  out.append(reinterpret_cast<const char*>(in.data + in.pos), len);
  in.pos += len;
  return true;
}

bool inflate_fixed(BitReader& in, std::string& out, unsigned long total) {
  static const std::array<Huffman, 2> codes = [] {
    std::array<int, kLitLenCodes> lengths{};
    for (int s = 0; s < kLitLenCodes; ++s) lengths[s] = s < 144 ? 8 : s < 256 ? 9 : s < 280 ? 7 : 8;
    std::array<Huffman, 2> c;
    build(c[0], lengths.data(), kLitLenCodes);
    lengths.fill(5);
    build(c[1], lengths.data(), kDistCodes);
    return c;
  }();
  return inflate_codes(in, codes[0], codes[1], out, total);
}

bool inflate_dynamic(BitReader& in, std::string& out, unsigned long total) {
  const int nlen = static_cast<int>(in.bits(5)) + 257;
  const int ndist = static_cast<int>(in.bits(5)) + 1;
  const int ncode = static_cast<int>(in.bits(4)) + 4;
  if (!in.ok || nlen > 286 || ndist > kDistCodes) return false;
  // The code-length code's lengths come in this order (RFC 1951 §3.2.7).
  constexpr std::array<int, 19> kOrder = {16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15};
  std::array<int, 19> code_lengths{};
  for (int i = 0; i < ncode; ++i) code_lengths[kOrder[i]] = static_cast<int>(in.bits(3));
  Huffman lencode;
  if (!in.ok || !build(lencode, code_lengths.data(), 19)) return false;
  std::array<int, kLitLenCodes + kDistCodes> lengths{};
  for (int i = 0; i < nlen + ndist;) {
    const int s = decode(in, lencode);
    if (s < 0) return false;
    if (s < 16) {
      lengths[i++] = s;
      continue;
    }
    int value = 0, repeat = 0;
    if (s == 16) {
      if (i == 0) return false;  // nothing to repeat
      value = lengths[i - 1];
      repeat = 3 + static_cast<int>(in.bits(2));
    } else {
      repeat = s == 17 ? 3 + static_cast<int>(in.bits(3)) : 11 + static_cast<int>(in.bits(7));
    }
    if (!in.ok || i + repeat > nlen + ndist) return false;
    while (repeat-- > 0) lengths[i++] = value;
  }
  if (lengths[256] == 0) return false;  // a block must be able to end
  Huffman lit, dist;
  if (!build(lit, lengths.data(), nlen) || !build(dist, lengths.data() + nlen, ndist)) return false;
  return inflate_codes(in, lit, dist, out, total);
}

}  // namespace

std::string unpack_embedded(const unsigned char* data, unsigned long size) {
  if (size < 3 || data[0] != 'D' || data[1] != 'F' || data[2] != '1') return {};
  unsigned long i = 3;
  std::uint64_t total = 0;
  for (int shift = 0;; shift += 7) {
    if (i >= size || shift > 28) return {};  // 5 varint bytes reach past kMaxSize
    const unsigned char b = data[i++];
    total |= static_cast<std::uint64_t>(b & 0x7F) << shift;
    if (!(b & 0x80)) break;
  }
  if (size - i < 4) return {};
  const std::uint32_t crc =
      data[i] | data[i + 1] << 8 | data[i + 2] << 16 | static_cast<std::uint32_t>(data[i + 3]) << 24;
  i += 4;
  if (total > kMaxSize || total > (size - i) * kMaxExpansion) return {};
  std::string out;
  out.reserve(static_cast<size_t>(total));
  BitReader in{data + i, size - i};
  for (bool last = false; !last;) {
    last = in.bits(1) != 0;
    const unsigned type = in.bits(2);
    if (!in.ok) return {};
    bool ok = false;
    if (type == 0) ok = inflate_stored(in, out, total);
    if (type == 1) ok = inflate_fixed(in, out, total);
    if (type == 2) ok = inflate_dynamic(in, out, total);
    if (!ok) return {};
  }
  return out.size() == total && crc32(out) == crc ? out : std::string();
}

}  // namespace llmplan::detail

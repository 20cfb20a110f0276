// embedded.cpp: the unpacker of cmake/lz_pack.py's format. Bounds are checked on every read, so a
// damaged array gives an empty string (the loaders then report it) rather than a crash.
#include "llmplan/embedded.hpp"

namespace llmplan::detail {

std::string unpack_embedded(const unsigned char* data, unsigned long size) {
  unsigned long i = 0;
  bool ok = true;
  const auto varint = [&]() -> unsigned long {
    unsigned long v = 0;
    for (int shift = 0; shift < 63; shift += 7) {
      if (i >= size) break;
      const unsigned char b = data[i++];
      v |= static_cast<unsigned long>(b & 0x7F) << shift;
      if (!(b & 0x80)) return v;
    }
    ok = false;
    return 0;
  };
  if (size < 3 || data[0] != 'L' || data[1] != 'Z' || data[2] != '1') return {};
  i = 3;
  const unsigned long total = varint();
  std::string out;
  if (!ok || total > (1ul << 30)) return {};
  out.reserve(total);
  for (;;) {
    const unsigned long literals = varint();
    if (!ok || literals > size - i || out.size() + literals > total) return {};
    out.append(reinterpret_cast<const char*>(data + i), literals);
    i += literals;
    const unsigned long length = varint();
    if (!ok) return {};
    if (length == 0) break;
    const unsigned long distance = varint();
    if (!ok || distance == 0 || distance > out.size() || out.size() + length > total) return {};
    const size_t from = out.size() - distance;
    for (unsigned long k = 0; k < length; ++k) out.push_back(out[from + k]);  // may overlap: byte by byte
  }
  return out.size() == total ? out : std::string();
}

}  // namespace llmplan::detail

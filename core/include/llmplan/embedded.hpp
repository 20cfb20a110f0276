// embedded.hpp: data files compiled into the binaries packed by cmake/lz_pack.py (the catalog
// sections and the validation residuals), unpacked once when first read.
#pragma once
#include <string>

namespace llmplan::detail {

// The original bytes of a packed file ("DF1", varint size, then a raw DEFLATE stream:
// cmake/lz_pack.py says the format); empty when the data is not a well-formed packed file.
std::string unpack_embedded(const unsigned char* data, unsigned long size);

}  // namespace llmplan::detail

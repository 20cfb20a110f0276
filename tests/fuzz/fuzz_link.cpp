// fuzz_link: the URL decoder on arbitrary bytes. It must never crash, hang or throw, and what it
// returns must always be a scenario/question the parser accepts (or be marked invalid), and
// re-encode and decode to itself. libFuzzer entry point; tests/fuzz/mutate_main.cpp drives it
// where libFuzzer is unavailable.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "llmplan/catalog.hpp"
#include "llmplan/link.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string link(reinterpret_cast<const char*>(data), size);
  const llmplan::Catalog& catalog = llmplan::builtin_catalog();
  const llmplan::LinkDecode d = llmplan::decode_link(link, catalog);
  if (!d.valid) return 0;
  // A valid decode is a fixed point: encoding it and decoding again gives the same input.
  const llmplan::LinkEncode e = llmplan::encode_link(d.input_json, catalog);
  if (!e.ok) std::abort();
  const llmplan::LinkDecode again = llmplan::decode_link(e.fragment, catalog);
  if (!again.valid || !again.notices.empty() || again.input_json != d.input_json) std::abort();
  // The model version: at least 1 as read, and a fresh link is the current model with nothing to list.
  if (d.model_version < 1 || (d.model_version >= llmplan::kModelVersion) != d.model_changes.empty()) std::abort();
  if (again.model_version != llmplan::kModelVersion || !again.model_changes.empty()) std::abort();
  return 0;
}

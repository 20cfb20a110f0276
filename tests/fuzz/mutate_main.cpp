// mutate_main: a seeded mutation loop for a libFuzzer target, for compilers without libFuzzer.
// Usage: fuzz_X_loop RUNS SEED_FILE...   Deterministic (fixed PRNG seed): each run mutates a
// corpus entry (bit flips, byte insertions, deletions, duplications, splices with another entry,
// interesting bytes '&', '=', '%', '#', '{', '"', digits) and may keep the mutant as a new entry.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

namespace {

uint64_t state = 0x9e3779b97f4a7c15ULL;
uint64_t next() {  // xorshift64*
  state ^= state >> 12;
  state ^= state << 25;
  state ^= state >> 27;
  return state * 0x2545f4914f6cdd1dULL;
}
size_t below(size_t n) { return n ? static_cast<size_t>(next() % n) : 0; }

std::string mutate(std::string s, const std::vector<std::string>& corpus) {
  static const char interesting[] = "&=%#{}[]\":,.-+eE0123456789 \x00\xff";
  const int steps = 1 + static_cast<int>(below(4));
  for (int k = 0; k < steps; ++k) {
    switch (below(6)) {
      case 0:
        if (!s.empty()) s[below(s.size())] ^= static_cast<char>(1 << below(8));
        break;
      case 1: s.insert(below(s.size() + 1), 1, interesting[below(sizeof interesting - 1)]); break;
      case 2:
        if (!s.empty()) s.erase(below(s.size()), 1 + below(8));
        break;
      case 3:
        if (!s.empty()) {
          const std::string piece = s.substr(below(s.size()), 1 + below(16));
          s.insert(below(s.size() + 1), piece);
        }
        break;
      case 4: {
        const std::string& o = corpus[below(corpus.size())];
        if (!o.empty()) {
          const std::string piece = o.substr(below(o.size()), 1 + below(32));
          s.insert(below(s.size() + 1), piece);
        }
      } break;
      case 5:
        if (!s.empty()) s[below(s.size())] = static_cast<char>(below(256));
        break;
    }
  }
  if (s.size() > 65536) s.resize(65536);
  return s;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s RUNS SEED_FILE...\n", argv[0]);
    return 2;
  }
  const long runs = std::strtol(argv[1], nullptr, 10);
  std::vector<std::string> corpus;
  for (int i = 2; i < argc; ++i) {
    std::ifstream in(argv[i], std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    corpus.push_back(ss.str());
  }
  for (long r = 0; r < runs; ++r) {
    const std::string input = mutate(corpus[below(corpus.size())], corpus);
    LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t*>(input.data()), input.size());
    if (corpus.size() < 256 && below(64) == 0) corpus.push_back(input);  // keep some variety
  }
  std::printf("%ld inputs, no crash\n", runs);
  return 0;
}

// source_files.hpp: files of this source tree read by the tests (LLMPLAN_SOURCE_DIR, set by
// tests/CMakeLists.txt), whatever folder ctest or Node runs them from.
#pragma once
#include <fstream>
#include <sstream>
#include <string>

namespace llmplan::test {

// The text of `relative` (e.g. "tests/validation/cases.json"), or "" when it cannot be read.
inline std::string read_source_file(const std::string& relative) {
  for (const std::string& path : {std::string(LLMPLAN_SOURCE_DIR) + "/" + relative, relative}) {
    std::ifstream in(path);
    if (!in) continue;
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
  }
  return "";
}

}  // namespace llmplan::test

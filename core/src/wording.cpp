// wording.cpp: filling the templates of wording.hpp.
#include "llmplan/wording.hpp"

#include <algorithm>

namespace llmplan {

std::string fill_template(std::string text, const std::vector<std::pair<std::string, std::string>>& args) {
  std::string out;
  size_t at = 0;
  for (size_t open = text.find('{'); open != std::string::npos; open = text.find('{', at)) {
    const size_t close = text.find('}', open);
    if (close == std::string::npos) break;
    const std::string name = text.substr(open + 1, close - open - 1);
    const auto arg = std::find_if(args.begin(), args.end(), [&name](const auto& a) { return a.first == name; });
    out += text.substr(at, open - at);
    out += arg != args.end() ? arg->second : text.substr(open, close - open + 1);
    at = close + 1;
  }
  return out + text.substr(at);
}

std::string fill_positional(std::string text, const std::vector<std::string>& args) {
  std::vector<std::pair<std::string, std::string>> named;
  for (size_t i = 0; i < args.size(); ++i) named.emplace_back(std::to_string(i), args[i]);
  return fill_template(std::move(text), named);
}

}  // namespace llmplan

// llmplan CLI: the native front end of the same core the web app runs.
//   llmplan estimate FILE|- [--format json|table]    scenario JSON in, result JSON out
//   llmplan catalog list                              model ids of the built-in catalog
// Exit codes: 0 success, 2 invalid input or usage (message names the field), 1 internal error.
#include <cstdio>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "llmplan/catalog.hpp"
#include "llmplan/estimate.hpp"
#include "llmplan/units.hpp"

namespace {

const char* kHelp =
    "llmplan " LLMPLAN_VERSION ": GPU, time and cost planner for training large language models\n"
    "\n"
    "Usage:\n"
    "  llmplan estimate FILE|- [--format json|table]\n"
    "      Read a scenario JSON (a file, or '-' for standard input) and print the estimate.\n"
    "      --format json (default) prints the result JSON; --format table a summary for people.\n"
    "  llmplan catalog list\n"
    "      Print the model preset ids of the built-in catalog.\n"
    "  llmplan --help | --version\n"
    "\n"
    "Exit status: 0 success; 2 invalid scenario or usage (the message names the field and the\n"
    "allowed range); 1 internal error. Scenario fields and defaults: see README.md.\n";

int usage_error(const std::string& message) {
  std::fprintf(stderr, "llmplan: %s\nRun 'llmplan --help' for usage.\n", message.c_str());
  return 2;
}

bool read_input(const std::string& path, std::string& out, std::string& error) {
  if (path == "-") {
    out.assign(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
    return true;
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    error = "cannot read scenario file '" + path + "'";
    return false;
  }
  std::ostringstream ss;
  ss << in.rdbuf();
  out = ss.str();
  return true;
}

void print_table(const std::string& body) {
  using llmplan::format_bytes;
  const auto r = nlohmann::json::parse(body);
  const auto& m = r["memory"];
  const auto& b = m["per_gpu_bytes"];
  const auto& l = r["layout"];
  std::printf("Parameters        %s\n", llmplan::format_count(r["model"]["params"]["total"].get<double>()).c_str());
  std::printf("Layout            %d GPUs = TP %d x PP %d x DP %d, ZeRO-%d, micro-batch %d, global batch %d\n",
              l["gpus"].get<int>(), l["tp"].get<int>(), l["pp"].get<int>(), l["dp"].get<int>(), l["zero"].get<int>(),
              l["micro_batch"].get<int>(), l["global_batch"].get<int>());
  std::printf("Memory per GPU (%s pipeline stage)\n", m["stage"].get<std::string>().c_str());
  for (const char* k : {"weights", "gradients", "optimizer", "activations", "logits", "buffers", "runtime", "total"})
    std::printf("  %-15s %12s  %12s\n", k, format_bytes(b[k].get<double>()).c_str(),
                format_bytes(b[k].get<double>(), llmplan::ByteUnit::binary).c_str());
  std::printf("  %-15s %12s\n", "capacity", format_bytes(m["capacity_bytes"].get<double>()).c_str());
  std::printf("Fits              %s (headroom %s); largest micro-batch that fits: %d\n",
              m["fits"].get<bool>() ? "yes" : "NO", format_bytes(m["headroom_bytes"].get<double>()).c_str(),
              m["max_micro_batch"].get<int>());
  for (const auto& w : r["warnings"])
    std::printf("Warning [%s] %s\n", w["code"].get<std::string>().c_str(), w["message"].get<std::string>().c_str());
}

int cmd_estimate(const std::vector<std::string>& args) {
  std::string file, format = "json";
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--format" && i + 1 < args.size()) {
      format = args[++i];
    } else if (args[i].rfind("--format=", 0) == 0) {
      format = args[i].substr(9);
    } else if (file.empty() && (args[i] == "-" || args[i][0] != '-')) {
      file = args[i];
    } else {
      return usage_error("estimate: unexpected argument '" + args[i] + "'");
    }
  }
  if (file.empty()) return usage_error("estimate: missing FILE (use '-' for standard input)");
  if (format != "json" && format != "table") return usage_error("--format must be json or table; got '" + format + "'");
  std::string text, error;
  if (!read_input(file, text, error)) return usage_error(error);
  const llmplan::JsonResponse r = llmplan::estimate_json(text, llmplan::builtin_catalog());
  if (!r.ok) {
    std::fprintf(stderr, "llmplan: invalid scenario: %s\n", r.error.message.c_str());
    return 2;
  }
  if (format == "table") {
    print_table(r.body);
  } else {
    std::printf("%s\n", r.body.c_str());
  }
  return 0;
}

int cmd_catalog(const std::vector<std::string>& args) {
  if (args.size() != 1 || args[0] != "list") return usage_error("catalog: the only subcommand is 'list'");
  const llmplan::Catalog& c = llmplan::builtin_catalog();
  std::printf("# catalog %s (as of %s)\n# models\n", c.catalog_version.c_str(), c.as_of.c_str());
  for (const auto& m : c.models) std::printf("%-16s %s\n", m.id.c_str(), m.name.c_str());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty()) return usage_error("missing command");
  if (args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
    std::fputs(kHelp, stdout);
    return 0;
  }
  if (args[0] == "--version") {
    std::printf("llmplan %s (catalog %s)\n", LLMPLAN_VERSION, llmplan::builtin_catalog().catalog_version.c_str());
    return 0;
  }
  const std::string cmd = args[0];
  args.erase(args.begin());
  try {
    if (cmd == "estimate") return cmd_estimate(args);
    if (cmd == "catalog") return cmd_catalog(args);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "llmplan: internal error: %s\n", e.what());
    return 1;
  }
  return usage_error("unknown command '" + cmd + "'");
}

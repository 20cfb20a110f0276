// Keeps the command-line examples of Markdown files true: every `$ build/native/llmplan ...` line of
// a ```sh block is run and its output must be the lines that follow it in the block. A `$ cat NAME`
// line gives the file NAME those commands read: the lines after it, up to the next `$ ` line.
// Lines of a block that no `$ ` line precedes (set-up commands) are not run.
//
//   doc_examples --check CLI FILE...    exit 1 with a diff when an example's output is stale
//   doc_examples --update CLI FILE...   rewrite every example's output from CLI
//
// The commands run through /bin/sh in a fresh folder holding the `cat` files, with
// build/native/llmplan replaced by CLI, so an example may use $(...) (a link made by `link encode`).
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include <unistd.h>

namespace {

namespace fs = std::filesystem;

constexpr std::string_view kCliPath = "build/native/llmplan";
constexpr std::string_view kPrompt = "$ ";

std::vector<std::string> read_lines(const fs::path& path) {
  std::ifstream in(path);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

bool starts_with(const std::string& s, std::string_view prefix) { return s.rfind(prefix, 0) == 0; }

std::string replace_all(const std::string& s, std::string_view from, std::string_view to) {
  std::string out;
  size_t done = 0;
  for (size_t at = s.find(from); at != std::string::npos; at = s.find(from, done)) {
    out.append(s, done, at - done).append(to);
    done = at + from.size();
  }
  return out.append(s, done);
}

std::string quoted(const std::string& s) {
  std::string out = "'";
  out += replace_all(s, "'", "'\\''");
  out += "'";
  return out;
}

// The command's standard output (standard error is left to the terminal: an example shows what
// a user sees on stdout).
std::string run(const std::string& command, const fs::path& dir) {
  const std::string line = "cd " + quoted(dir.string()) + " && " + command;
  FILE* pipe = popen(line.c_str(), "r");
  if (!pipe) return "";
  std::string out;
  char buffer[4096];
  for (size_t n; (n = fread(buffer, 1, sizeof buffer, pipe)) > 0;) out.append(buffer, n);
  pclose(pipe);
  return out;
}

std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

struct Outcome {
  std::vector<std::string> lines;  // the file with every example's output as the CLI prints it
  int examples = 0;
  int stale = 0;
  bool quiet = false;  // --update: rewrite without listing what changed
};

// One ```sh block from `begin` (the line after the fence) to its closing fence.
size_t process_block(const std::vector<std::string>& in, size_t begin, const std::string& cli, const fs::path& dir,
                     const fs::path& file, Outcome& o) {
  size_t i = begin;
  auto block_end = [&](size_t k) { return k >= in.size() || starts_with(in[k], "```"); };
  auto body_end = [&](size_t k) {
    while (!block_end(k) && !starts_with(in[k], kPrompt)) ++k;
    return k;
  };
  while (!block_end(i)) {
    if (!starts_with(in[i], kPrompt)) {
      o.lines.push_back(in[i++]);
      continue;
    }
    const std::string command = in[i].substr(kPrompt.size());
    o.lines.push_back(in[i++]);
    const size_t end = body_end(i);
    const std::vector<std::string> shown(in.begin() + static_cast<long>(i), in.begin() + static_cast<long>(end));
    if (starts_with(command, "cat ")) {
      std::ofstream(dir / command.substr(4)) << [&] {
        std::string text;
        for (const auto& l : shown) text += l + "\n";
        return text;
      }();
      o.lines.insert(o.lines.end(), shown.begin(), shown.end());
    } else if (starts_with(command, std::string(kCliPath))) {
      ++o.examples;
      const auto actual = split_lines(run(replace_all(command, kCliPath, cli), dir));
      if (actual != shown) {
        ++o.stale;
        if (!o.quiet)
          std::cerr << file.string() << ":" << i << ": the output of `" << command << "` differs; it prints:\n";
        if (!o.quiet)
          for (const auto& l : actual) std::cerr << "  | " << l << "\n";
      }
      o.lines.insert(o.lines.end(), actual.begin(), actual.end());
    } else {
      o.lines.insert(o.lines.end(), shown.begin(), shown.end());
    }
    i = end;
  }
  return i;
}

Outcome process(const fs::path& file, const std::string& cli, const fs::path& dir, bool quiet) {
  const auto in = read_lines(file);
  Outcome o;
  o.quiet = quiet;
  for (size_t i = 0; i < in.size();) {
    o.lines.push_back(in[i]);
    if (in[i] != "```sh") {
      ++i;
      continue;
    }
    i = process_block(in, i + 1, cli, dir, file, o);
    if (i < in.size()) o.lines.push_back(in[i++]);
  }
  return o;
}

}  // namespace

int main(int argc, char** argv) {
  const std::vector<std::string> args(argv + 1, argv + argc);
  if (args.size() < 3 || (args[0] != "--check" && args[0] != "--update")) {
    std::cerr << "usage: doc_examples --check|--update CLI FILE...\n";
    return 2;
  }
  const bool update = args[0] == "--update";
  const std::string cli = fs::absolute(args[1]).string();
  int stale = 0;
  for (size_t k = 2; k < args.size(); ++k) {
    const fs::path file = args[k];
    if (!fs::is_regular_file(file)) {
      std::cerr << file.string() << ": no such file\n";
      return 2;
    }
    const fs::path dir = fs::temp_directory_path() / ("llmplan-doc-examples-" + std::to_string(getpid()));
    fs::remove_all(dir);
    fs::create_directories(dir);
    const Outcome o = process(file, cli, dir, update);
    fs::remove_all(dir);
    if (o.examples == 0) {
      std::cerr << file.string() << ": no `$ " << kCliPath << "` example found\n";
      return 2;
    }
    if (update && o.stale > 0) {
      std::ofstream out(file);
      for (const auto& l : o.lines) out << l << "\n";
      std::cout << file.string() << ": " << o.stale << " of " << o.examples << " examples rewritten\n";
    } else if (!update) {
      stale += o.stale;
      std::cout << file.string() << ": " << o.examples - o.stale << " of " << o.examples << " examples current\n";
    }
  }
  if (stale > 0)
    std::cerr << "regenerate with: doc_examples --update CLI FILE... (after a documented change of the figures)\n";
  return stale > 0 ? 1 : 0;
}

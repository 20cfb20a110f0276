// yaml_lite.cpp: the strict YAML-subset reader of yaml_lite.hpp. Lines are read once into
// (number, indent, text) with comments stripped; a recursive descent over them builds the value,
// each block node at one indentation, each recursion counted against kMaxYamlDepth.
#include "yaml_lite.hpp"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <map>
#include <vector>

namespace llmplan::detail {

using ojson = nlohmann::ordered_json;

namespace {

struct Line {
  int no = 0;
  int indent = 0;
  std::string text;  // without indentation, comment and trailing spaces
};

bool is_space(char c) { return c == ' ' || c == '\t'; }

std::string_view trim(std::string_view s) {
  while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
  return s;
}

bool one_of(std::string_view s, std::initializer_list<const char*> names) {
  for (const char* n : names)
    if (s == n) return true;
  return false;
}

// Appends code point `cp` as UTF-8.
void put_utf8(std::string& out, unsigned cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

class Parser {
 public:
  Parser(std::vector<Line> lines, YamlError& err) : lines_(std::move(lines)), err_(err) {}

  ojson document() {
    if (lines_.empty()) return ojson();  // an empty document is null
    ojson v = node(0, 0);
    if (failed()) return discarded();
    if (pos_ < lines_.size()) return fail(lines_[pos_].no, "unexpected indentation (or a dedent to no open level)");
    return v;
  }

 private:
  std::vector<Line> lines_;
  size_t pos_ = 0;
  YamlError& err_;

  static ojson discarded() { return ojson(ojson::value_t::discarded); }
  bool failed() const { return err_.line != 0; }
  ojson fail(int line, const std::string& message) {
    if (!failed()) err_ = {line, message};
    return discarded();
  }

  static bool is_item(const std::string& t) { return t == "-" || (t.size() >= 2 && t[0] == '-' && t[1] == ' '); }

  // Position of the ':' that ends a key (followed by a space or the end), outside quotes, or npos.
  static size_t key_colon(std::string_view t) {
    size_t i = 0;
    if (!t.empty() && (t[0] == '"' || t[0] == '\'')) {
      const char q = t[0];
      for (i = 1; i < t.size(); ++i) {
        if (q == '"' && t[i] == '\\') {
          ++i;
        } else if (t[i] == q) {
          if (q == '\'' && i + 1 < t.size() && t[i + 1] == '\'') {
            ++i;
          } else {
            break;
          }
        }
      }
      if (i >= t.size()) return std::string_view::npos;
      ++i;
    }
    for (; i < t.size(); ++i)
      if (t[i] == ':' && (i + 1 == t.size() || t[i + 1] == ' ')) return i;
    return std::string_view::npos;
  }

  ojson node(int min_indent, int depth) {
    if (depth > kMaxYamlDepth)
      return fail(lines_[pos_].no, "nested deeper than " + std::to_string(kMaxYamlDepth) + " levels");
    const Line& l = lines_[pos_];
    if (l.indent < min_indent) return fail(l.no, "unexpected indentation");
    return is_item(l.text) ? seq(l.indent, depth) : map(l.indent, depth);
  }

  ojson map(int indent, int depth) {
    ojson obj = ojson::object();
    std::map<std::string, int> seen;
    while (pos_ < lines_.size() && lines_[pos_].indent == indent && !failed()) {
      const Line& l = lines_[pos_];
      if (is_item(l.text)) return fail(l.no, "a list item ('- ') where a 'key: value' line was expected");
      const size_t c = key_colon(l.text);
      if (c == std::string_view::npos)
        return fail(l.no, "expected 'key: value' (a key, a colon and a space); got '" + l.text.substr(0, 60) + "'");
      const std::string_view raw_key = trim(std::string_view(l.text).substr(0, c));
      std::string key;
      if (!key_text(raw_key, l.no, key)) return discarded();
      if (const auto it = seen.find(key); it != seen.end())
        return fail(l.no, "key '" + key + "' written twice (first on line " + std::to_string(it->second) + ")");
      seen[key] = l.no;
      const std::string rest(trim(std::string_view(l.text).substr(c + 1)));
      const int line_no = l.no;
      ++pos_;
      ojson value;
      if (rest.empty()) {
        if (pos_ < lines_.size() && lines_[pos_].indent > indent)
          value = node(indent + 1, depth + 1);
        else if (pos_ < lines_.size() && lines_[pos_].indent == indent && is_item(lines_[pos_].text))
          value = seq(indent, depth + 1, true);  // "key:" then "- item" at the key's indentation
      } else {
        value = inline_value(rest, line_no, depth + 1);
      }
      if (failed()) return discarded();
      obj[key] = std::move(value);
    }
    return failed() ? discarded() : obj;
  }

  ojson seq(int indent, int depth, bool compact = false) {
    ojson arr = ojson::array();
    while (pos_ < lines_.size() && lines_[pos_].indent == indent && is_item(lines_[pos_].text) && !failed()) {
      Line& l = lines_[pos_];
      size_t off = 1;
      while (off < l.text.size() && l.text[off] == ' ') ++off;
      const std::string rest = l.text.substr(off);
      ojson value;
      if (rest.empty()) {
        ++pos_;
        if (pos_ < lines_.size() && lines_[pos_].indent > indent) value = node(indent + 1, depth + 1);
      } else if (is_item(rest) || key_colon(rest) != std::string_view::npos) {
        // "- key: value" opens a map (or "- - x" a list) whose further lines align with its first key.
        l.indent = indent + static_cast<int>(off);
        l.text = rest;
        value = node(l.indent, depth + 1);
      } else {
        const int line_no = l.no;
        ++pos_;
        value = inline_value(rest, line_no, depth + 1);
      }
      if (failed()) return discarded();
      arr.push_back(std::move(value));
    }
    if (!compact && !failed() && pos_ < lines_.size() && lines_[pos_].indent == indent && !is_item(lines_[pos_].text))
      return fail(lines_[pos_].no, "a 'key: value' line where a list item ('- ') was expected");
    return failed() ? discarded() : arr;
  }

  bool key_text(std::string_view raw, int line, std::string& out) {
    if (raw.empty()) return fail(line, "a key is missing before ':'"), false;
    if (raw[0] == '"' || raw[0] == '\'') {
      size_t end = 0;
      if (!quoted(raw, 0, line, out, end)) return false;
      if (end != raw.size()) return fail(line, "text after the key's closing quote"), false;
      return true;
    }
    if (!plain_start_ok(raw, line)) return false;
    out = std::string(raw);
    return true;
  }

  // Refuses the YAML features outside the subset, by the character a plain value or key starts with.
  bool plain_start_ok(std::string_view s, int line) {
    switch (s[0]) {
      case '&': return fail(line, "anchors (&) are not supported"), false;
      case '*': return fail(line, "aliases (*) are not supported"), false;
      case '!': return fail(line, "tags (!) are not supported"), false;
      case '|':
      case '>':
        return fail(line, "block scalars (| and >) are not supported: write the string on one line, in quotes"), false;
      case '{': return fail(line, "flow maps ({...}) are not supported: write one 'key: value' per line"), false;
      case '?': return fail(line, "complex keys (?) are not supported"), false;
      case '%':
      case '@':
      case '`': return fail(line, std::string("a plain value cannot start with '") + s[0] + "': quote it"), false;
      case '[':
      case ']':
      case '}':
      case ',': return fail(line, std::string("unexpected '") + s[0] + "'"), false;
      default: return true;
    }
  }

  // A quoted string starting at s[i]; `end` is the index after its closing quote.
  bool quoted(std::string_view s, size_t i, int line, std::string& out, size_t& end) {
    const char q = s[i];
    out.clear();
    for (size_t k = i + 1; k < s.size(); ++k) {
      const char c = s[k];
      if (c == q) {
        if (q == '\'' && k + 1 < s.size() && s[k + 1] == '\'') {
          out += '\'';
          ++k;
          continue;
        }
        end = k + 1;
        return true;
      }
      if (q == '"' && c == '\\') {
        if (++k >= s.size()) break;
        switch (s[k]) {
          case '\\': out += '\\'; break;
          case '"': out += '"'; break;
          case '/': out += '/'; break;
          case 'n': out += '\n'; break;
          case 't': out += '\t'; break;
          case 'r': out += '\r'; break;
          case '0': out += '\0'; break;
          case 'u': {
            if (k + 4 >= s.size()) return fail(line, "\\u needs four hex digits"), false;
            unsigned cp = 0;
            for (int d = 1; d <= 4; ++d) {
              const char h = s[k + d];
              const int v = h >= '0' && h <= '9'   ? h - '0'
                            : h >= 'a' && h <= 'f' ? h - 'a' + 10
                            : h >= 'A' && h <= 'F' ? h - 'A' + 10
                                                   : -1;
              if (v < 0) return fail(line, "\\u needs four hex digits"), false;
              cp = cp * 16 + static_cast<unsigned>(v);
            }
            if (cp >= 0xD800 && cp <= 0xDFFF) return fail(line, "\\u escapes of surrogates are not supported"), false;
            put_utf8(out, cp);
            k += 4;
          } break;
          default: return fail(line, std::string("unknown escape '\\") + s[k] + "' in a double-quoted string"), false;
        }
        continue;
      }
      out += c;
    }
    return fail(line, std::string("the string's closing ") + (q == '"' ? "double" : "single") +
                          " quote is missing (a quoted string must end on its line)"),
           false;
  }

  ojson inline_value(const std::string& s, int line, int depth) {
    if (s[0] == '"' || s[0] == '\'') {
      std::string out;
      size_t end = 0;
      if (!quoted(s, 0, line, out, end)) return discarded();
      if (!trim(std::string_view(s).substr(end)).empty()) return fail(line, "text after the closing quote");
      return out;
    }
    if (s[0] == '[') {
      size_t i = 0;
      ojson v = flow(s, i, line, depth);
      if (failed()) return discarded();
      if (!trim(std::string_view(s).substr(i)).empty()) return fail(line, "text after the flow list's closing ']'");
      return v;
    }
    if (!plain_start_ok(s, line)) return discarded();
    if (key_colon(s) != std::string_view::npos)
      return fail(line, "a second ': ' in a value (a map on one line is not supported; quote the value)");
    return yaml_plain_scalar(s);
  }

  // A flow list starting at s[i] == '['; on return i is after its ']'.
  ojson flow(std::string_view s, size_t& i, int line, int depth) {
    if (depth > kMaxYamlDepth) return fail(line, "nested deeper than " + std::to_string(kMaxYamlDepth) + " levels");
    ojson arr = ojson::array();
    ++i;
    while (true) {
      while (i < s.size() && s[i] == ' ') ++i;
      if (i >= s.size()) return fail(line, "the flow list's closing ']' is missing (a flow list must end on its line)");
      if (s[i] == ']') {
        ++i;
        return arr;
      }
      if (s[i] == '[') {
        arr.push_back(flow(s, i, line, depth + 1));
        if (failed()) return discarded();
      } else if (s[i] == '"' || s[i] == '\'') {
        std::string out;
        size_t end = 0;
        if (!quoted(s, i, line, out, end)) return discarded();
        arr.push_back(out);
        i = end;
      } else {
        size_t j = i;
        while (j < s.size() && s[j] != ',' && s[j] != ']') ++j;
        const std::string_view item = trim(s.substr(i, j - i));
        if (item.empty()) return fail(line, "an empty item in a flow list");
        if (!plain_start_ok(item, line)) return discarded();
        if (key_colon(item) != std::string_view::npos)
          return fail(line, "a 'key: value' inside a flow list is not supported");
        arr.push_back(yaml_plain_scalar(item));
        i = j;
      }
      while (i < s.size() && s[i] == ' ') ++i;
      if (i < s.size() && s[i] == ',') {
        ++i;
      } else if (i < s.size() && s[i] != ']') {
        return fail(line, "expected ',' or ']' in a flow list");
      }
    }
  }
};

// Splits the text into lines without comments, refusing tabs, directives and further documents.
bool read_lines(std::string_view text, std::vector<Line>& out, YamlError& err) {
  int no = 0;
  bool content = false;
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view raw = text.substr(start, end - start);
    start = end + 1;
    ++no;
    if (!raw.empty() && raw.back() == '\r') raw.remove_suffix(1);
    int indent = 0;
    while (static_cast<size_t>(indent) < raw.size() && raw[static_cast<size_t>(indent)] == ' ') ++indent;
    std::string_view t = raw.substr(static_cast<size_t>(indent));
    // Strip a comment: '#' at the start or after a space, outside quotes. Refuse tabs outside them.
    char quote = 0;
    size_t cut = t.size();
    for (size_t i = 0; i < t.size(); ++i) {
      const char c = t[i];
      if (quote) {
        if (quote == '"' && c == '\\') {
          ++i;
        } else if (c == quote) {
          quote = 0;
        }
        continue;
      }
      if (c == '#' && (i == 0 || t[i - 1] == ' ' || t[i - 1] == '\t')) {
        cut = i;
        break;
      }
      if (c == '\t') {
        err = {no, "a tab character: YAML indents and separates with spaces"};
        return false;
      }
      // A quote opens a string only where a scalar starts (after ': ', '- ', '[', ',' or at the start).
      if ((c == '"' || c == '\'') &&
          (i == 0 || t[i - 1] == ' ' || t[i - 1] == '[' || t[i - 1] == ',' || t[i - 1] == '-'))
        quote = c;
    }
    t = trim(t.substr(0, cut));
    if (t.empty()) continue;
    if (t == "---" || t.substr(0, 4) == "--- ") {
      if (content || t != "---") {
        err = {no, "a second document or '---' with content: only one YAML document is read"};
        return false;
      }
      continue;
    }
    if (t == "...") {
      err = {no, "a document end marker (...): only one YAML document is read"};
      return false;
    }
    if (t[0] == '%') {
      err = {no, "YAML directives (%) are not supported"};
      return false;
    }
    content = true;
    out.push_back({no, indent, std::string(t)});
  }
  return true;
}

bool is_int_text(std::string_view s) {
  size_t i = (s[0] == '-' || s[0] == '+') ? 1 : 0;
  if (i >= s.size()) return false;
  for (; i < s.size(); ++i)
    if (s[i] < '0' || s[i] > '9') return false;
  return true;
}

bool is_float_text(std::string_view s) {
  size_t i = (s[0] == '-' || s[0] == '+') ? 1 : 0;
  size_t digits = 0;
  while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i, ++digits;
  if (i < s.size() && s[i] == '.') {
    ++i;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i, ++digits;
  }
  if (digits == 0) return false;
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < s.size() && (s[i] == '-' || s[i] == '+')) ++i;
    size_t exp = 0;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i, ++exp;
    if (exp == 0) return false;
  }
  return i == s.size();
}

}  // namespace

ojson yaml_plain_scalar(std::string_view s) {
  s = trim(s);
  if (s.empty() || one_of(s, {"~", "null", "Null", "NULL"})) return ojson();
  if (one_of(s, {"true", "True", "TRUE", "yes", "Yes", "YES", "on", "On", "ON"})) return true;
  if (one_of(s, {"false", "False", "FALSE", "no", "No", "NO", "off", "Off", "OFF"})) return false;
  const std::string text(s);
  if (is_int_text(s)) {
    errno = 0;
    const long long v = std::strtoll(text.c_str(), nullptr, 10);
    if (errno != ERANGE) return v;
  }
  if (is_float_text(s)) {
    errno = 0;
    const double v = std::strtod(text.c_str(), nullptr);
    if (errno != ERANGE && std::isfinite(v)) return v;
  }
  return text;
}

ojson parse_yaml_lite(std::string_view text, YamlError& err) {
  err = {};
  std::vector<Line> lines;
  if (!read_lines(text, lines, err)) return ojson(ojson::value_t::discarded);
  Parser p(std::move(lines), err);
  return p.document();
}

}  // namespace llmplan::detail

// json_path.hpp: a scenario document's fields by dotted path ("parallel.tp"), the way the field
// table names them: read, set (creating the objects on the way) and erase (removing the objects
// it leaves empty, so a document stays minimal). For nlohmann::json and ordered_json alike.
#pragma once
#include <string>
#include <string_view>
#include <type_traits>

namespace llmplan {

// The value at `path`, or nullptr when a key is missing or a step is not an object.
template <class J>
const J* json_at(const J& root, std::string_view path) {
  const J* v = &root;
  while (true) {
    const size_t dot = path.find('.');
    if (!v->is_object()) return nullptr;
    const auto it = v->find(std::string(path.substr(0, dot)));
    if (it == v->end()) return nullptr;
    v = &*it;
    if (dot == std::string_view::npos) return v;
    path.remove_prefix(dot + 1);
  }
}

// Sets the value at `path`; a step that is missing or not an object becomes an empty object.
template <class J>
void json_set(J& root, std::string_view path, std::type_identity_t<J> value) {
  J* v = &root;
  while (true) {
    const size_t dot = path.find('.');
    const std::string key(path.substr(0, dot));
    if (dot == std::string_view::npos) {
      (*v)[key] = std::move(value);
      return;
    }
    if (!v->contains(key) || !(*v)[key].is_object()) (*v)[key] = J::object();
    v = &(*v)[key];
    path.remove_prefix(dot + 1);
  }
}

// Erases the value at `path`, then every enclosing object that is left empty.
template <class J>
void json_erase(J& root, std::string_view path) {
  const size_t dot = path.rfind('.');
  J* parent = dot == std::string_view::npos ? &root : const_cast<J*>(json_at(root, path.substr(0, dot)));
  if (!parent || !parent->is_object()) return;
  parent->erase(std::string(dot == std::string_view::npos ? path : path.substr(dot + 1)));
  if (dot != std::string_view::npos && parent->empty()) json_erase(root, path.substr(0, dot));
}

}  // namespace llmplan

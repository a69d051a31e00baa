#include "report/spec_match.hpp"

#include <regex.h>

namespace gpunet::report {

namespace {

// Compiles `ere`, runs `use` on it, frees it. Returns false when the pattern does not compile.
template <class F>
bool with_compiled(const std::string& ere, F&& use) {
  regex_t re;
  if (regcomp(&re, ere.c_str(), REG_EXTENDED | REG_NOSUB) != 0) return false;
  const bool result = use(re);
  regfree(&re);
  return result;
}

}  // namespace

bool valid_pattern(const std::string& ere) {
  return with_compiled(ere, [](const regex_t&) { return true; });
}

bool pattern_found(const std::string& ere, const std::string& text) {
  return with_compiled(ere, [&](const regex_t& re) { return regexec(&re, text.c_str(), 0, nullptr, 0) == 0; });
}

}  // namespace gpunet::report

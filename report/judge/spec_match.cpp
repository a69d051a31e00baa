#include "report/judge/spec_match.hpp"

#include <regex.h>

#include <algorithm>
#include <cctype>
#include <vector>

namespace gpunet::report {

namespace {

// Saturating arithmetic: the estimate only needs to know that it passed the limit.
constexpr std::size_t kCap = kMaxPatternStates + 1;
std::size_t add(std::size_t a, std::size_t b) { return std::min(kCap, a + b); }
std::size_t mul(std::size_t a, std::size_t b) { return a == 0 || b == 0 ? 0 : (a > kCap / b ? kCap : std::min(kCap, a * b)); }

// The index just past the bracket expression that starts at i ('['), or npos when it never closes.
std::size_t bracket_end(const std::string& s, std::size_t i) {
  std::size_t j = i + 1;
  if (j < s.size() && s[j] == '^') ++j;
  if (j < s.size() && s[j] == ']') ++j;  // a leading ']' is a member
  while (j < s.size() && s[j] != ']') {
    if (s[j] == '[' && j + 1 < s.size() && (s[j + 1] == ':' || s[j + 1] == '.' || s[j + 1] == '=')) {
      const auto close = s.find(std::string{s[j + 1], ']'}, j + 2);  // [:alpha:], [.a.], [=a=]
      if (close == std::string::npos) return std::string::npos;
      j = close + 2;
    } else {
      ++j;
    }
  }
  return j < s.size() ? j + 1 : std::string::npos;
}

// "{m}", "{m,}", "{m,n}" at i: the largest number of copies it makes and the index past it; copies 0
// when it is not a repetition (then regcomp judges the brace).
std::pair<std::size_t, std::size_t> repetition(const std::string& s, std::size_t i) {
  std::size_t j = i + 1, m = 0, n = 0;
  bool digits = false, comma = false, upper = false;
  for (; j < s.size() && s[j] != '}'; ++j) {
    const char c = s[j];
    if (std::isdigit(static_cast<unsigned char>(c))) {
      std::size_t& v = comma ? n : m;
      v = std::min<std::size_t>(v * 10 + static_cast<std::size_t>(c - '0'), 1000000);
      digits = true;
      upper = upper || comma;
    } else if (c == ',' && !comma) {
      comma = true;
    } else {
      return {0, i + 1};
    }
  }
  if (j >= s.size() || !digits) return {0, i + 1};
  const std::size_t copies = !comma ? m : upper ? std::max(m, n) : m + 1;  // {m,}: m copies and a star
  return {std::max<std::size_t>(copies, 1), j + 1};
}

struct Group {
  std::size_t total = 0;  // states of the group's content so far
  std::size_t last = 0;   // states of the last atom (what a repetition copies)
};

// Empty when the expansion stays bounded; else the problem.
std::string expansion_problem(const std::string& s) {
  std::vector<Group> stack{Group{}};
  auto atom = [&](std::size_t states) {
    stack.back().total = add(stack.back().total, states);
    stack.back().last = states;
  };
  for (std::size_t i = 0; i < s.size();) {
    const char c = s[i];
    if (c == '\\') {
      if (i + 1 < s.size() && s[i + 1] >= '1' && s[i + 1] <= '9')
        return "holds the back-reference \\" + std::string(1, s[i + 1]) +
               " (not extended regular expression syntax, and matching it takes exponential time; remove it)";
      atom(1);
      i += 2;
    } else if (c == '[') {
      const std::size_t end = bracket_end(s, i);
      if (end == std::string::npos) return "";  // regcomp reports the unclosed bracket
      atom(1);
      i = end;
    } else if (c == '(') {
      if (stack.size() > kMaxPatternNesting)
        return "nests groups deeper than " + std::to_string(kMaxPatternNesting) + " levels (write a simpler pattern)";
      stack.push_back(Group{});
      ++i;
    } else if (c == ')' && stack.size() > 1) {
      const std::size_t inner = std::max<std::size_t>(stack.back().total, 1);
      stack.pop_back();
      atom(inner);
      ++i;
    } else if (c == '{') {
      const auto [copies, next] = repetition(s, i);
      if (copies == 0) {
        atom(1);
      } else {
        Group& g = stack.back();
        g.total = add(g.total, mul(g.last, copies - 1));
        g.last = mul(g.last, copies);
      }
      i = next;
    } else {
      atom(1);  // a character, '.', '|', or a '*', '+', '?' (which add a state, not copies)
      ++i;
    }
    if (stack.back().total >= kCap || stack.back().last >= kCap)
      return "counted repetitions expand it to more than " + std::to_string(kMaxPatternStates) +
             " states (compiling it would take seconds and gigabytes; use fewer or smaller {m,n})";
  }
  return "";
}

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

std::string pattern_problem(const std::string& ere) {
  if (ere.size() > kMaxPatternBytes)
    return "is " + std::to_string(ere.size()) + " bytes long (at most " + std::to_string(kMaxPatternBytes) +
           "; a pattern for interface or device names needs far less)";
  if (ere.find('\0') != std::string::npos) return "holds a NUL byte (remove it)";
  if (auto why = expansion_problem(ere); !why.empty()) return why;
  if (!with_compiled(ere, [](const regex_t&) { return true; })) return "is not a valid regular expression";
  return "";
}

bool pattern_found(const std::string& ere, const std::string& text) {
  if (!pattern_problem(ere).empty()) return false;
  return with_compiled(ere, [&](const regex_t& re) { return regexec(&re, text.c_str(), 0, nullptr, 0) == 0; });
}

}  // namespace gpunet::report

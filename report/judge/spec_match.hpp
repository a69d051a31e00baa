// Name patterns of the acceptance spec (nic.match): POSIX extended regular expressions, searched
// anywhere in the name (anchor with ^ and $). regcomp/regexec rather than std::regex: the same
// dialect as grep -E, and no false -Wmaybe-uninitialized from libstdc++'s <regex> under sanitizers.
//
// Bounded work: glibc's regcomp expands a counted repetition into copies of its operand, so
// ((a{255}){255}){255} would need 16 million states (seconds and gigabytes). A pattern is refused before
// it is compiled when it is longer than kMaxPatternBytes, when its expansion (every atom counted once per
// copy that counted repetitions make) exceeds kMaxPatternStates, when groups nest deeper than
// kMaxPatternNesting, or when it holds a back-reference (\1..\9: exponential matching, not ERE).
// Matching a bounded pattern against a short name (an interface or device name) is then bounded too.
#pragma once

#include <cstddef>
#include <string>

namespace gpunet::report {

inline constexpr std::size_t kMaxPatternBytes = 256;
inline constexpr std::size_t kMaxPatternStates = 2000;
inline constexpr std::size_t kMaxPatternNesting = 16;

// Empty when `ere` is a bounded, valid extended regular expression; else what is wrong, e.g.
// "repetitions expand it to more than 2000 states (...)".
std::string pattern_problem(const std::string& ere);
bool pattern_found(const std::string& ere, const std::string& text);  // false for a refused pattern

}  // namespace gpunet::report

// Name patterns of the acceptance spec (nic.match): POSIX extended regular expressions, searched
// anywhere in the name (anchor with ^ and $). regcomp/regexec rather than std::regex: the same
// dialect as grep -E, and no false -Wmaybe-uninitialized from libstdc++'s <regex> under sanitizers.
#pragma once

#include <string>

namespace gpunet::report {

bool valid_pattern(const std::string& ere);
bool pattern_found(const std::string& ere, const std::string& text);  // false for an invalid pattern

}  // namespace gpunet::report

#include "report/model/json_unique_keys.hpp"

#include <algorithm>
#include <cmath>

#include "common/strings.hpp"

namespace gpunet::report {

bool UniqueKeySax::value() {
  if (!frames_.empty() && !frames_.back().object) ++frames_.back().index;
  return true;
}

bool UniqueKeySax::start_object(std::size_t n) {
  value();
  frames_.push_back(Frame{true, {}, nullptr, 0});
  return inner_.start_object(n);
}

bool UniqueKeySax::start_array(std::size_t n) {
  value();
  frames_.push_back(Frame{false, {}, nullptr, 0});
  return inner_.start_array(n);
}

bool UniqueKeySax::end_object() {
  frames_.pop_back();
  return inner_.end_object();
}

bool UniqueKeySax::end_array() {
  frames_.pop_back();
  return inner_.end_array();
}

bool UniqueKeySax::seen_before(Frame& f, const std::string& k) {
  if (f.many) {
    if (!f.many->insert(k).second) return true;
  } else if (std::find(f.keys.begin(), f.keys.end(), k) != f.keys.end()) {
    return true;
  } else if (f.keys.size() + 1 > kSearchedInPlace) {
    f.many = std::make_unique<std::unordered_set<std::string>>(f.keys.begin(), f.keys.end());
    f.many->insert(k);
  }
  if (f.many) {  // only the key being read is kept in order
    f.keys.resize(1);
    f.keys[0] = k;
  } else {
    f.keys.push_back(k);
  }
  return false;
}

bool UniqueKeySax::key(string_t& k) {
  Frame& top = frames_.back();
  if (seen_before(top, k)) {
    top.keys.push_back(k);  // the path names the repeated key
    std::string shown = printable(k);
    if (shown.size() > 80) shown = shown.substr(0, 77) + "...";
    std::string where = path();
    if (where.size() > 160) where = "..." + where.substr(where.size() - 157);
    refusal_ = "duplicate key \"" + shown + "\" at " + where +
                 " (a key may appear once per object; readers disagree on which one counts: remove one)";
    return false;
  }
  return inner_.key(k);
}

bool UniqueKeySax::in_range(double v, const string_t& text) {
  const double size = std::fabs(v);
  if (v == 0 || (size >= kSmallestFileNumber && size <= kLargestFileNumber)) return true;
  std::string shown = printable(text);
  if (shown.size() > 40) shown = shown.substr(0, 37) + "...";
  std::string where = path();
  if (where.size() > 160) where = "..." + where.substr(where.size() - 157);
  refusal_ = (where.empty() ? std::string() : where + ": ") + "the number " + shown +
             " is out of range (a number in a gpunet-bench file is 0 or between 1e-100 and 1e100 in size)";
  return false;
}

std::string UniqueKeySax::path() const {
  std::string out;
  for (const Frame& f : frames_) {
    if (f.object) {
      out += (out.empty() ? "" : ".") + (f.keys.empty() ? std::string() : printable(f.keys.back()));
    } else if (f.index > 0) {
      out += "[" + std::to_string(f.index - 1) + "]";
    }
  }
  return out;
}

}  // namespace gpunet::report

#include "report/model/json_unique_keys.hpp"

#include "common/strings.hpp"

namespace gpunet::report {

bool UniqueKeySax::value() {
  if (!frames_.empty() && !frames_.back().object) ++frames_.back().index;
  return true;
}

bool UniqueKeySax::start_object(std::size_t n) {
  value();
  frames_.push_back(Frame{true, {}, {}, 0});
  return inner_.start_object(n);
}

bool UniqueKeySax::start_array(std::size_t n) {
  value();
  frames_.push_back(Frame{false, {}, {}, 0});
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

bool UniqueKeySax::key(string_t& k) {
  Frame& top = frames_.back();
  top.key = k;
  if (!top.keys.insert(k).second) {
    std::string shown = printable(k);
    if (shown.size() > 80) shown = shown.substr(0, 77) + "...";
    std::string where = path();
    if (where.size() > 160) where = "..." + where.substr(where.size() - 157);
    duplicate_ = "duplicate key \"" + shown + "\" at " + where +
                 " (a key may appear once per object; readers disagree on which one counts: remove one)";
    return false;
  }
  return inner_.key(k);
}

std::string UniqueKeySax::path() const {
  std::string out;
  for (const Frame& f : frames_) {
    if (f.object) {
      out += (out.empty() ? "" : ".") + printable(f.key);
    } else if (f.index > 0) {
      out += "[" + std::to_string(f.index - 1) + "]";
    }
  }
  return out;
}

}  // namespace gpunet::report

#include "report/model/json_parse.hpp"

#include <algorithm>
#include <utility>
#include <vector>

#include "common/quote.hpp"
#include "common/strings.hpp"
#include "report/model/json_unique_keys.hpp"

namespace gpunet::report {

using gpunet::json;

namespace {

// "[json.exception.out_of_range.406] number overflow ..." -> "number overflow ...".
std::string without_exception_prefix(const std::string& what) {
  const auto close = what.find("] ");
  return what.rfind("[json.exception.", 0) == 0 && close != std::string::npos ? what.substr(close + 2) : what;
}

std::string line_and_column(std::string_view text, std::size_t position) {
  const std::size_t end = std::min(position, text.size());
  const std::size_t newlines = static_cast<std::size_t>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(end), '\n'));
  const auto last = text.substr(0, end).rfind('\n');
  const std::size_t column = last == std::string_view::npos ? end : end - last - 1;
  return "line " + std::to_string(newlines + 1) + ", column " + std::to_string(column);
}

std::string shortened(std::string field) {
  constexpr std::size_t kShown = 80;
  field = printable(field);
  if (field.size() > kShown) field = field.substr(0, kShown) + "...";
  return field;
}

// Builds the tree from SAX events and knows the field path of the value being read.
class BoundedDomSax final : public nlohmann::json_sax<json> {
 public:
  BoundedDomSax(std::string_view text, std::size_t max_depth, const StreamedMembers* streamed)
      : text_(text), max_depth_(max_depth), streamed_(streamed) {}

  bool null() override { return put(nullptr); }
  bool boolean(bool v) override { return put(v); }
  bool number_integer(number_integer_t v) override { return put(v); }
  bool number_unsigned(number_unsigned_t v) override { return put(v); }
  bool number_float(number_float_t v, const string_t&) override { return put(v); }
  bool string(string_t& v) override { return put(std::move(v)); }
  bool binary(binary_t& v) override { return put(json::binary(std::move(v))); }
  bool start_object(std::size_t) override { return open(json::object()); }
  bool start_array(std::size_t) override { return open(json::array()); }
  bool end_object() override { return close(); }
  bool end_array() override { return close(); }
  bool key(string_t& k) override {
    frames_.back().key = std::move(k);
    return true;
  }
  bool parse_error(std::size_t position, const std::string&, const nlohmann::detail::exception& e) override {
    error_ = describe_json_error(text_, position, e, field());
    return false;
  }

  json take() { return std::move(root_); }
  const std::string& error() const { return error_; }

 private:
  struct Frame {
    json* container;
    std::string key;
  };

  json* place(json v) {
    if (frames_.empty()) {
      root_ = std::move(v);
      return &root_;
    }
    json& top = *frames_.back().container;
    if (top.is_array()) {
      top.push_back(std::move(v));
      return &top.back();
    }
    return &top.get_ref<json::object_t&>().insert_or_assign(frames_.back().key, std::move(v)).first->second;
  }
  bool put(json v) {
    place(std::move(v));
    return true;
  }
  bool open(json container) {
    if (frames_.size() >= max_depth_) {
      error_ = too_deep_message(field(), max_depth_);
      return false;
    }
    frames_.push_back({place(std::move(container)), {}});
    return true;
  }
  bool close() {
    if (streamed_ && frames_.size() == 3 && frames_[0].container->is_object() && frames_[0].key == streamed_->under &&
        frames_[1].container->is_object()) {  // a member of the streamed object: handed over, not kept
      json value = std::move(*frames_[2].container);
      frames_[1].container->erase(frames_[1].key);
      frames_.pop_back();
      streamed_->take(frames_[1].key, std::move(value));
      return true;
    }
    frames_.pop_back();
    return true;
  }

  // "bandwidth[0].min": where the next value goes.
  std::string field() const {
    std::string out;
    for (std::size_t i = 0; i < frames_.size(); ++i) {
      const Frame& f = frames_[i];
      if (f.container->is_array()) {  // an outer array already holds the element being read
        const std::size_t size = f.container->size();
        out += "[" + std::to_string(i + 1 < frames_.size() && size > 0 ? size - 1 : size) + "]";
      } else if (!f.key.empty()) {
        out += (out.empty() ? "" : ".") + f.key;
      }
    }
    return shortened(out);
  }

  std::string_view text_;
  std::size_t max_depth_;
  const StreamedMembers* streamed_;
  json root_;
  std::vector<Frame> frames_;
  std::string error_;
};

}  // namespace

std::string describe_json_error(std::string_view text, std::size_t position, const nlohmann::detail::exception& e,
                                const std::string& field) {
  const std::string what = without_exception_prefix(e.what());
  const std::string at = field.empty() ? "" : shortened(field) + ": ";
  // "parse error at line L, column C: ...": the field read last may not be where the syntax broke.
  // nlohmann's "last read: '...'" can quote kilobytes of the file: clipped to 120 characters.
  if (dynamic_cast<const nlohmann::detail::parse_error*>(&e) != nullptr) return clip_quoted(what, 120);
  std::string problem = what;
  if (const auto quote = what.find('\''); what.rfind("number overflow", 0) == 0 && quote != std::string::npos)
    problem = "the number " + what.substr(quote + 1, what.size() - quote - 2) +
              " is too large (write a finite number, at most about 1.8e308)";
  return at + problem + " at " + line_and_column(text, position);
}

std::string too_deep_message(const std::string& field, std::size_t max_depth) {
  return (field.empty() ? std::string() : shortened(field) + ": ") + "nested deeper than " + std::to_string(max_depth) +
         " levels (no gpunet-bench file nests that deep; give the right file)";
}

namespace {

JsonParsed parse_with(std::string_view text, std::size_t max_depth, const StreamedMembers* streamed) {
  BoundedDomSax sax(text, max_depth, streamed);
  UniqueKeySax unique(sax);
  JsonParsed out;
  const bool ok = json::sax_parse(text.begin(), text.end(), &unique);
  if (!ok) {
    out.key_or_number_refused = !unique.refusal().empty();
    out.error = out.key_or_number_refused ? unique.refusal() : sax.error().empty() ? "not complete JSON" : sax.error();
    return out;
  }
  out.value = sax.take();
  return out;
}

}  // namespace

JsonParsed parse_json_text(std::string_view text, std::size_t max_depth) { return parse_with(text, max_depth, nullptr); }

JsonParsed parse_json_text(std::string_view text, const StreamedMembers& streamed, std::size_t max_depth) {
  return parse_with(text, max_depth, &streamed);
}

}  // namespace gpunet::report

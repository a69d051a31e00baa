#include "report/model/report_reader.hpp"

#include "common/strings.hpp"
#include "report/model/json_fields.hpp"
#include "report/model/json_parse.hpp"
#include "report/model/json_unique_keys.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <vector>

namespace gpunet::report {

namespace {

using gpunet::json;

// Builds one JSON value from SAX events.
class DomBuilder {
 public:
  bool active() const { return active_; }
  void begin() {
    root_ = json();
    stack_.clear();
    active_ = true;
  }
  json take() { return std::move(root_); }
  // Returns true when the value is complete.
  bool value(json v) {
    place(std::move(v));
    return finish_if_done();
  }
  void start(json container) { stack_.push_back(place(std::move(container))); }
  bool end() {
    stack_.pop_back();
    return finish_if_done();
  }
  void key(std::string k) { key_ = std::move(k); }
  std::size_t depth() const { return stack_.size(); }

 private:
  json* place(json v) {
    if (stack_.empty()) {
      root_ = std::move(v);
      return &root_;
    }
    json& top = *stack_.back();
    if (top.is_array()) {
      top.push_back(std::move(v));
      return &top.back();
    }
    json& slot = top[key_];
    slot = std::move(v);
    return &slot;
  }
  bool finish_if_done() {
    if (!stack_.empty()) return false;
    active_ = false;
    return true;
  }
  json root_;
  std::vector<json*> stack_;
  std::string key_;
  bool active_ = false;
};

// A scalar from the parser, before it is known which field it fills.
struct Scalar {
  enum class Type { null, boolean, integer, floating, string } type = Type::null;
  bool b = false;
  int64_t i = 0;
  double d = 0;
  std::string s;
};

class ReportSax final : public nlohmann::json_sax<json> {
 public:
  explicit ReportSax(std::string_view text) : text_(text) {}
  bool null() override { return scalar(Scalar{}); }
  bool boolean(bool v) override { return scalar(Scalar{Scalar::Type::boolean, v, 0, 0, {}}); }
  bool number_integer(number_integer_t v) override {
    return scalar(Scalar{Scalar::Type::integer, false, v, static_cast<double>(v), {}});
  }
  bool number_unsigned(number_unsigned_t v) override {
    if (v > static_cast<number_unsigned_t>(INT64_MAX))
      return scalar(Scalar{Scalar::Type::floating, false, 0, static_cast<double>(v), {}});
    return scalar(Scalar{Scalar::Type::integer, false, static_cast<int64_t>(v), static_cast<double>(v), {}});
  }
  bool number_float(number_float_t v, const string_t&) override {
    return scalar(Scalar{Scalar::Type::floating, false, 0, v, {}});
  }
  bool string(string_t& v) override { return scalar(Scalar{Scalar::Type::string, false, 0, 0, std::move(v)}); }
  bool binary(binary_t&) override { return fail("binary values are not JSON"); }

  bool start_object(std::size_t) override { return start(json::object()); }
  bool start_array(std::size_t) override { return start(json::array()); }
  bool end_object() override { return end(); }
  bool end_array() override { return end(); }

  bool key(string_t& k) override {
    if (dom_.active()) {
      dom_.key(std::move(k));
    } else if (depth_ == 1) {
      top_key_ = std::move(k);
    } else {
      field_ = std::move(k);
    }
    return true;
  }

  bool parse_error(std::size_t position, const std::string&, const nlohmann::detail::exception& e) override {
    syntax_error_ = describe_json_error(text_, position, e, in_results_ ? where() + field_ : top_key_);
    return false;
  }

  // After the parse.
  bool syntax_ok() const { return syntax_error_.empty(); }
  const std::string& syntax_error() const { return syntax_error_; }
  const std::string& error() const { return error_; }
  bool saw_schema_version() const { return schema_version_.has_value(); }
  std::optional<int> schema_version() const { return schema_version_; }
  json& rest() { return rest_; }
  std::vector<Record>& records() { return records_; }
  bool top_is_object() const { return top_is_object_; }

 private:
  // Structure: depth 1 = the report object; results elements at depth 2 (records), their fields at
  // depth 3, time_us fields at depth 4. Any other value is handed to the DOM builder.
  bool start(json container) {
    // Levels open now: the report object and the results array count as in the file.
    const std::size_t open = static_cast<std::size_t>(depth_) + (in_results_ ? 1 : 0) + dom_.depth();
    if (open >= kMaxJsonDepth)
      return fail(too_deep_message(in_results_ ? where() + field_ : top_key_, kMaxJsonDepth));
    if (dom_.active()) {
      dom_.start(std::move(container));
      return true;
    }
    ++depth_;
    if (depth_ == 1) {
      top_is_object_ = container.is_object();
      return top_is_object_ || fail("not a JSON object");
    }
    if (depth_ == 2 && !in_results_ && top_key_ == "results") {
      if (container.is_array()) {
        in_results_ = true;
        --depth_;  // the array does not count: records sit at depth 2
        return true;
      }
      return fail("results is not an array");
    }
    if (in_results_ && depth_ == 2) {
      if (!container.is_object()) return fail(where() + "is not an object");
      record_ = Record{};
      seen_ = 0;
      return true;
    }
    if (in_results_ && depth_ == 3 && field_ == "time_us" && container.is_object()) return true;
    if (in_results_ && depth_ == 4) return fail(where() + "time_us." + field_ + " is not a number");
    // A free-form value: a record's extra or figure, or a top-level part.
    if (in_results_ && depth_ == 3 && field_ != "extra" && field_ != "figure")
      return fail(where() + field_ + " has the wrong type");
    --depth_;
    dom_.begin();
    dom_.start(std::move(container));
    return true;
  }

  bool end() {
    if (dom_.active()) {
      if (dom_.end()) return placed(dom_.take());
      return true;
    }
    if (in_results_ && depth_ == 1) {  // the results array closes
      in_results_ = false;
      return true;
    }
    if (in_results_ && depth_ == 2) {
      if ((seen_ & kRequired) != kRequired) return fail(where() + "lacks suite, name or status");
      records_.push_back(std::move(record_));
      record_.extra = json::object();
    }
    --depth_;
    return true;
  }

  // A completed free-form value.
  bool placed(json v) {
    if (in_results_ && depth_ == 2 && field_ == "figure") {
      try {
        record_.figure = v.get<Figure>();
      } catch (const FieldError& e) {
        return fail(where() + e.within("figure").what());
      } catch (const std::exception& e) {
        return fail(where() + "figure: " + e.what());
      }
      return true;
    }
    if (in_results_ && depth_ == 2) {
      record_.extra = std::move(v);
      return true;
    }
    rest_[top_key_] = std::move(v);
    return true;
  }

  bool scalar(Scalar v) {
    if (dom_.active()) {
      dom_.value(to_json(std::move(v)));
      return true;
    }
    if (depth_ == 0) return fail("not a JSON object");
    if (in_results_ && depth_ == 1) return fail(where() + "is not an object");
    if (depth_ == 1) {
      if (top_key_ == "schema_version") {
        if (v.type != Scalar::Type::integer || v.i < 0 || v.i > 1000000) return fail("schema_version is not an integer");
        schema_version_ = static_cast<int>(v.i);
        return true;
      }
      if (top_key_ == "results") return fail("results is not an array");
      rest_[top_key_] = to_json(std::move(v));
      return true;
    }
    if (in_results_ && depth_ == 2) return record_field(std::move(v));
    if (in_results_ && depth_ == 3) return time_field(v);
    return true;
  }

  static json to_json(Scalar v) {
    switch (v.type) {
      case Scalar::Type::null: return nullptr;
      case Scalar::Type::boolean: return v.b;
      case Scalar::Type::integer: return v.i;
      case Scalar::Type::floating: return v.d;
      case Scalar::Type::string: return std::move(v.s);
    }
    return nullptr;
  }

  bool record_field(Scalar v);
  bool time_field(const Scalar& v);

  std::string where() const { return "record " + std::to_string(records_.size() + 1) + ": "; }
  bool fail(const std::string& msg) {
    if (error_.empty()) error_ = printable(msg);
    return false;
  }

  static constexpr unsigned kSuite = 1, kName = 2, kStatus = 4, kRequired = kSuite | kName | kStatus;

  std::string_view text_;
  DomBuilder dom_;
  int depth_ = 0;
  bool in_results_ = false;
  bool top_is_object_ = false;
  std::string top_key_, field_;
  std::optional<int> schema_version_;
  json rest_ = json::object();
  std::vector<Record> records_;
  Record record_;
  unsigned seen_ = 0;
  std::string error_, syntax_error_;
};

bool ReportSax::record_field(Scalar v) {
  const std::string& f = field_;
  auto str = [&](std::string& out, unsigned bit) {
    if (v.type != Scalar::Type::string) return fail(where() + f + " is not a string");
    out = std::move(v.s);
    seen_ |= bit;
    return true;
  };
  // Integers may be written as integral floating-point numbers (1024.0), as nlohmann reads them.
  const bool integral = v.type == Scalar::Type::integer ||
                        (v.type == Scalar::Type::floating && v.d == std::floor(v.d) && std::fabs(v.d) < 9e15);
  const int64_t iv = v.type == Scalar::Type::integer ? v.i : static_cast<int64_t>(v.d);
  auto int64 = [&](int64_t& out) {
    if (!integral) return fail(where() + f + " is not an integer");
    out = iv;
    return true;
  };
  auto int32 = [&](int& out) {
    if (!integral || iv < INT32_MIN || iv > INT32_MAX) return fail(where() + f + " is not an integer");
    out = static_cast<int>(iv);
    return true;
  };
  auto number = [&](double& out) {
    if (v.type != Scalar::Type::integer && v.type != Scalar::Type::floating) return fail(where() + f + " is not a number");
    out = v.d;
    return true;
  };
  auto named = [&](auto& out, auto from_string, unsigned bit) {  // an enum by its name; throws on others
    std::string s;
    if (!str(s, bit)) return false;
    try {
      out = from_string(s);
    } catch (const std::exception& e) {
      return fail(where() + e.what());
    }
    return true;
  };
  if (f == "suite") return str(record_.suite, kSuite);
  if (f == "name") return str(record_.name, kName);
  if (f == "variant") return str(record_.variant, 0);
  if (f == "dtype") return str(record_.dtype, 0);
  if (f == "op") return str(record_.op, 0);
  if (f == "host") return str(record_.host, 0);
  if (f == "reason") return str(record_.reason, 0);
  if (f == "check") return str(record_.check, 0);
  if (f == "bytes") return int64(record_.bytes);
  if (f == "count") return int64(record_.count);
  if (f == "wrong") return int64(record_.wrong);
  if (f == "ranks") return int32(record_.ranks);
  if (f == "rank") return int32(record_.rank);
  if (f == "algbw_GBps") return number(record_.algbw_GBps);
  if (f == "busbw_GBps") return number(record_.busbw_GBps);
  if (f == "status") return named(record_.status, status_from_string, kStatus);
  if (f == "kind") return named(record_.kind, record_kind_from_string, 0);
  if (f == "extra") {  // a scalar extra, kept as it is
    record_.extra = to_json(std::move(v));
    return true;
  }
  if (f == "time_us") return fail(where() + "time_us is not an object");
  return true;  // unknown fields are ignored, as from_json does
}

bool ReportSax::time_field(const Scalar& v) {
  if (v.type != Scalar::Type::integer && v.type != Scalar::Type::floating)
    return fail(where() + "time_us." + field_ + " is not a number");
  TimeStats& t = record_.time_us;
  if (field_ == "min") t.min = v.d;
  else if (field_ == "p50") t.p50 = v.d;
  else if (field_ == "mean") t.mean = v.d;
  else if (field_ == "p99") t.p99 = v.d;
  else if (field_ == "max") t.max = v.d;
  else if (field_ == "stddev") t.stddev = v.d;
  else if (field_ == "cv") t.cv = v.d;
  else if (field_ == "samples") {
    if (v.type != Scalar::Type::integer) return fail(where() + "time_us.samples is not an integer");
    t.samples = v.i;
  }
  return true;
}

}  // namespace

std::size_t records_room(std::size_t bytes) { return std::min<std::size_t>(bytes / 512, std::size_t{1} << 24); }

ReportText read_report_json(std::string_view text) {
  ReportText out;
  ReportSax sax(text);
  sax.records().reserve(records_room(text.size()));
  UniqueKeySax unique(sax);
  json::sax_parse(text.begin(), text.end(), &unique);
  // Not one JSON object with schema_version first: the caller reads it as JSON lines.
  if (!sax.saw_schema_version()) return out;
  out.schema_version = *sax.schema_version();
  if (!unique.refusal().empty()) {
    out.kind = ReportText::Kind::invalid;
    out.key_or_number_refused = true;
    out.error = unique.refusal();
    return out;
  }
  if (!sax.error().empty() || !sax.syntax_ok()) {
    out.kind = ReportText::Kind::invalid;
    out.error = !sax.error().empty()        ? sax.error()
                : !sax.syntax_error().empty() ? sax.syntax_error()
                                              : "not complete JSON";
    return out;
  }
  try {
    json& rest = sax.rest();
    rest["schema_version"] = out.schema_version;
    rest["results"] = json::array();
    Report rep = rest.get<Report>();
    rep.results = std::move(sax.records());
    out.report = std::move(rep);
    out.kind = ReportText::Kind::report;
  } catch (const std::exception& e) {
    out.kind = ReportText::Kind::invalid;
    out.error = first_line(e.what());
  }
  return out;
}

}  // namespace gpunet::report

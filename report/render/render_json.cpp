// report.json: the complete Report (at scale, the flows json_flows_kept.hpp keeps). Written record by
// record (one record per line inside "results") rather than through one JSON tree of the whole report.
// Invalid UTF-8 in a string is replaced, never fatal.
#include <charconv>
#include <cmath>
#include <sstream>

#include "report/render/renderers.hpp"
#include "report/text/escape.hpp"
#include "report/judge/verdicts_outputs.hpp"

namespace gpunet::report {

namespace {

using gpunet::json;

void put(std::string& out, const json& j) { out += j.dump(-1, ' ', false, json::error_handler_t::replace); }

void put_string(std::string& out, const std::string& s) { append_json_string(out, s, InvalidUtf8::replace); }

template <typename T>
void put_number(std::string& out, T v) {
  if constexpr (std::is_floating_point_v<T>) {
    if (!std::isfinite(v)) {
      out += "null";  // as nlohmann writes it
      return;
    }
  }
  char buf[32];
  const auto res = std::to_chars(buf, buf + sizeof buf, v);
  out.append(buf, res.ptr);
}

// A nested value pretty-printed at the second level of indentation.
void put_nested(std::string& out, const json& j) {
  const std::string text = j.dump(2, ' ', false, json::error_handler_t::replace);
  for (char c : text) {
    out += c;
    if (c == '\n') out += "  ";
  }
}

// Writes `"key": value` pairs separated by commas.
class Fields {
 public:
  explicit Fields(std::string& out) : out_(out) {}
  template <typename T>
  Fields& number(const char* k, T v) {
    key(k);
    put_number(out_, v);
    return *this;
  }
  Fields& string(const char* k, const std::string& v) {
    key(k);
    put_string(out_, v);
    return *this;
  }
  Fields& value(const char* k, const json& v) {
    key(k);
    put(out_, v);
    return *this;
  }
  Fields& raw(const char* k) {  // the caller writes the value
    key(k);
    return *this;
  }

 private:
  void key(const char* k) {
    if (!first_) out_ += ", ";
    first_ = false;
    out_ += '"';
    out_ += k;
    out_ += "\": ";
  }
  std::string& out_;
  bool first_ = true;
};

void put_record(std::string& out, const Record& r) {
  out += '{';
  Fields f(out);
  f.string("suite", r.suite).string("name", r.name).string("variant", r.variant);
  f.number("bytes", r.bytes).number("count", r.count).string("dtype", r.dtype).string("op", r.op);
  f.number("ranks", r.ranks).number("rank", r.rank).string("host", r.host);
  f.string("status", to_string(r.status)).string("reason", r.reason).raw("time_us");
  out += '{';
  const TimeStats& t = r.time_us;
  Fields(out).number("min", t.min).number("p50", t.p50).number("mean", t.mean).number("p99", t.p99)
      .number("max", t.max).number("stddev", t.stddev).number("cv", t.cv).number("samples", t.samples);
  out += '}';
  f.number("algbw_GBps", r.algbw_GBps).number("busbw_GBps", r.busbw_GBps).string("check", r.check);
  f.number("wrong", r.wrong);
  if (r.kind != RecordKind::unstated) f.string("kind", to_string(r.kind));
  if (extra_held_apart(r)) {
    f.value("extra", written_extra(r));
  } else {
    f.value("extra", r.extra);
  }
  if (r.figure) f.value("figure", json(*r.figure));
  out += '}';
}

}  // namespace

void render_json(const Report& rep, const RunVerdict& verdict, std::ostream& os) { render_json(rep, verdict, FlowsKept{}, os); }

void render_json(const Report& rep, const RunVerdict& verdict, const FlowsKept& kept, std::ostream& os) {
  std::string out;  // one part at a time
  out += "{\n  \"schema_version\": ";
  put_number(out, rep.schema_version);
  out += ",\n  \"provenance\": ";
  put_nested(out, json(rep.provenance));
  out += ",\n  \"results\": [";
  bool first = true;
  for (size_t i = 0; i < rep.results.size(); ++i) {
    if (!kept.whole.empty() && !kept.whole[i]) continue;
    out += first ? "\n    " : ",\n    ";
    first = false;
    put_record(out, rep.results[i]);
    os << out;
    out.clear();
  }
  out += first ? "],\n  \"topology\": " : "\n  ],\n  \"topology\": ";
  put_nested(out, rep.topology);
  out += ",\n  \"findings\": ";
  put_nested(out, rep.findings);
  out += ",\n  \"extra\": ";
  json extra = rep.extra.is_object() ? rep.extra : json::object();
  extra["run_verdict"] = to_json(verdict);  // the judgement's, never read back
  if (!kept.summary.is_null()) extra[kFlowsInPartKey] = kept.summary;
  put_nested(out, extra);
  out += "\n}\n";
  os << out;
}

std::string render_json(const Report& rep) {
  std::ostringstream os;
  render_json(rep, stored_judgement(rep).verdict, os);
  return std::move(os).str();
}

}  // namespace gpunet::report

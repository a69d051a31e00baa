// The baseline file: written a figure a line, read strictly (a figure a line where it is laid out as
// written, json_member_lines.hpp), and its size against what --baseline reads.
#include "report/judge/baseline.hpp"

#include <filesystem>
#include <ostream>
#include <sstream>

#include "common/input_file.hpp"
#include "report/judge/spec_reader.hpp"
#include "report/model/file_write.hpp"
#include "report/model/json_access.hpp"
#include "report/model/json_file.hpp"
#include "report/model/json_member_lines.hpp"
#include "report/text/escape.hpp"

namespace gpunet::report {

using gpunet::json;
using BaselineReader = StrictReader<BaselineError>;

namespace {

std::vector<double> numbers(const BaselineReader& rd, const json& j, const std::string& path, const char* key) {
  std::vector<double> out;
  if (const auto* v = json_field(j, key)) {
    const auto& arr = rd.array(*v, BaselineReader::join(path, key));
    for (std::size_t i = 0; i < arr.size(); ++i)
      out.push_back(rd.number(arr[i], BaselineReader::join(path, key) + "[" + std::to_string(i) + "]", 0, 1e18, false));
  }
  return out;
}

BaselineFigure figure(const BaselineReader& rd, const json& j, const std::string& path) {
  rd.object(j, path, {"suite", "test", "kind", "metric", "subject", "unit", "hosts", "higher_is_better", "value", "min",
                      "samples", "samples_total", "samples_from", "history", "rail"});
  BaselineFigure f;
  const auto str = [&](const char* key, std::string& out, bool required) {
    const auto* v = json_field(j, key);
    if (!v && required) rd.fail(BaselineReader::join(path, key), "missing (required)");
    if (v) out = rd.string(*v, BaselineReader::join(path, key), !required);
  };
  str("suite", f.suite, true), str("test", f.test, true), str("kind", f.kind, false), str("metric", f.metric, true);
  str("subject", f.subject, false), str("unit", f.unit, false), str("samples_from", f.samples_from, false);
  if (const auto* v = json_field(j, "hosts")) {
    const auto& arr = rd.array(*v, BaselineReader::join(path, "hosts"));
    for (std::size_t i = 0; i < arr.size(); ++i) f.hosts.push_back(rd.string(arr[i], BaselineReader::join(path, "hosts"), false));
  }
  if (const auto* v = json_field(j, "higher_is_better")) f.higher_is_better = rd.boolean(*v, BaselineReader::join(path, "higher_is_better"));
  f.value = rd.number(rd.required(j, path, "value"), BaselineReader::join(path, "value"), 0, 1e18, false);
  if (const auto* v = json_field(j, "min")) f.min = rd.number(*v, BaselineReader::join(path, "min"), 0, 1e18, false);
  f.samples = numbers(rd, j, path, "samples");
  f.history = numbers(rd, j, path, "history");
  f.samples_total = static_cast<int64_t>(f.samples.size());
  if (const auto* v = json_field(j, "samples_total"))
    f.samples_total = rd.integer(*v, BaselineReader::join(path, "samples_total"), 0, INT64_MAX);
  if (const auto* v = json_field(j, "rail")) f.rail = static_cast<int>(rd.integer(*v, BaselineReader::join(path, "rail"), 0, 1023));
  return f;
}

json figure_json(const BaselineFigure& f) {
  json out{{"suite", f.suite},     {"test", f.test},       {"kind", f.kind},
           {"metric", f.metric},   {"subject", f.subject}, {"unit", f.unit},
           {"hosts", f.hosts},     {"higher_is_better", f.higher_is_better},
           {"value", f.value},     {"min", f.min},         {"samples", f.samples},
           {"samples_total", f.samples_total}, {"samples_from", f.samples_from}, {"history", f.history}};
  if (f.rail >= 0) out["rail"] = f.rail;
  return out;
}

// figure_json(f).dump(), byte for byte, written without the tree: a saved baseline of 1,024 hosts and
// each run the history stores write a million figures. Keys in the tree's order (alphabetical); a
// number as the tree writes it; a string as the tree writes it, refusing invalid UTF-8 as the tree's
// dump does.
class FigureText {
 public:
  explicit FigureText(std::string& out) : out_(out) {}
  void write(const BaselineFigure& f) {
    out_ += '{';
    key("higher_is_better").raw(f.higher_is_better ? "true" : "false");
    key("history").numbers(f.history);
    key("hosts").strings(f.hosts);
    key("kind").string(f.kind);
    key("metric").string(f.metric);
    key("min").number(f.min);
    if (f.rail >= 0) key("rail").raw(std::to_string(f.rail));
    key("samples").numbers(f.samples);
    key("samples_from").string(f.samples_from);
    key("samples_total").raw(std::to_string(f.samples_total));
    key("subject").string(f.subject);
    key("suite").string(f.suite);
    key("test").string(f.test);
    key("unit").string(f.unit);
    key("value").number(f.value);
    out_ += '}';
  }

 private:
  FigureText& key(const char* k) {
    if (out_.back() != '{') out_ += ',';
    out_ += '"';
    out_ += k;
    out_ += "\":";
    return *this;
  }
  void raw(const std::string& text) { out_ += text; }
  void string(const std::string& s) { append_json_string(out_, s, InvalidUtf8::refuse); }
  void number(double v) { out_ += json(v).dump(); }  // the tree's own formatting (1.0, 1e+300, null)
  template <class T, class Put>
  void list(const std::vector<T>& items, Put put) {
    out_ += '[';
    for (std::size_t i = 0; i < items.size(); ++i) {
      if (i) out_ += ',';
      put(items[i]);
    }
    out_ += ']';
  }
  void numbers(const std::vector<double>& v) { list(v, [&](double x) { number(x); }); }
  void strings(const std::vector<std::string>& v) { list(v, [&](const std::string& x) { string(x); }); }
  std::string& out_;
};

json header_json(const Baseline& b) {
  return json{{"gpunet_baseline", kBaselineVersion},
              {"created", b.created},
              {"git_commit", b.git_commit},
              {"hosts", b.hosts},
              {"rule", rule_json(b.rule)}};
}

// Everything but the figures, strictly; `doc` must hold a "figures" object (its members are read
// apart: figures_from_json).
Baseline header_from_json(const BaselineReader& rd, const json& doc, const std::string& source) {
  if (!doc.is_object()) rd.fail("", "expected an object, got " + BaselineReader::got(doc));
  const auto* version = json_field(doc, "gpunet_baseline");
  if (!version) rd.fail("gpunet_baseline", "missing (this is not a gpunet-bench baseline; make one with --save-baseline)");
  const auto file_version = rd.integer(*version, "gpunet_baseline", 0, INT64_MAX);
  if (file_version < kBaselineVersion)
    rd.fail("gpunet_baseline", BaselineReader::got(*version) +
                                   " was written by an older gpunet-bench that keyed figures by the bytes a flow received; "
                                   "re-save it from its run: gpunet-bench report RUN/report.json --save-baseline " + source);
  if (file_version != kBaselineVersion)
    rd.fail("gpunet_baseline", BaselineReader::got(*version) + " is not supported (this program reads version " +
                                   std::to_string(kBaselineVersion) + ")");
  rd.object(doc, "", {"gpunet_baseline", "created", "git_commit", "hosts", "rule", "figures"});
  Baseline b;
  if (const auto* v = json_field(doc, "created")) b.created = rd.string(*v, "created", true);
  if (const auto* v = json_field(doc, "git_commit")) b.git_commit = rd.string(*v, "git_commit", true);
  if (const auto* v = json_field(doc, "hosts")) {
    const auto& arr = rd.array(*v, "hosts");
    for (std::size_t i = 0; i < arr.size(); ++i) b.hosts.push_back(rd.string(arr[i], "hosts[" + std::to_string(i) + "]", true));
  }
  if (const auto* v = json_field(doc, "rule")) {
    rd.object(*v, "rule", {"min_samples", "alpha", "min_effect_pct", "noise_factor", "default_rate_spread_pct",
                           "default_time_spread_pct", "min_history", "time_band_quantile"});
    if (const auto* x = json_field(*v, "min_samples")) b.rule.min_samples = static_cast<int>(rd.integer(*x, "rule.min_samples", 3, 1000000));
    if (const auto* x = json_field(*v, "alpha")) b.rule.alpha = rd.number(*x, "rule.alpha", 0, 0.5, true);
    if (const auto* x = json_field(*v, "min_effect_pct")) b.rule.min_effect_pct = rd.number(*x, "rule.min_effect_pct", 0, 1000, false);
    if (const auto* x = json_field(*v, "noise_factor")) b.rule.noise_factor = rd.number(*x, "rule.noise_factor", 0, 100, false);
    if (const auto* x = json_field(*v, "default_rate_spread_pct"))
      b.rule.default_rate_spread_pct = rd.number(*x, "rule.default_rate_spread_pct", 0, 1000, false);
    if (const auto* x = json_field(*v, "default_time_spread_pct"))
      b.rule.default_time_spread_pct = rd.number(*x, "rule.default_time_spread_pct", 0, 1000, false);
    if (const auto* x = json_field(*v, "time_band_quantile"))
      b.rule.time_band_quantile = rd.number(*x, "rule.time_band_quantile", 0.5, 1, false);
    if (const auto* x = json_field(*v, "min_history"))
      b.rule.min_history = static_cast<int>(rd.integer(*x, "rule.min_history", 1, static_cast<int64_t>(kMaxHistory)));
  }
  const auto* figures = json_field(doc, "figures");
  if (!figures) rd.fail("figures", "missing (required)");
  if (!figures->is_object()) rd.fail("figures", "expected an object, got " + BaselineReader::got(*figures));
  return b;
}

void figures_from_json(const BaselineReader& rd, const json& figures, Baseline& b) {
  for (const auto& [key, f] : figures.items()) b.figures[key] = figure(rd, f, "figures." + key);
}

}  // namespace

json baseline_to_json(const Baseline& b) {
  json out = header_json(b);
  json& figures = out["figures"] = json::object();
  for (const auto& [key, f] : b.figures) figures[key] = figure_json(f);
  return out;
}

void write_baseline(std::ostream& os, const Baseline& b) {
  const std::string head = header_json(b).dump(1);  // "{\n \"created\": ...\n}"
  os << head.substr(0, head.size() - 2) << ",\n \"figures\": {";
  const char* between = "\n  ";
  std::string line;
  for (const auto& [key, f] : b.figures) {
    line = between;
    append_json_string(line, key, InvalidUtf8::refuse);
    line += ": ";
    FigureText(line).write(f);
    os << line;
    between = ",\n  ";
  }
  os << (b.figures.empty() ? "}" : "\n }") << "\n}\n";
}

Baseline baseline_from_json(const json& doc, const std::string& source) {
  const BaselineReader rd(source);
  Baseline b = header_from_json(rd, doc, source);
  figures_from_json(rd, *json_field(doc, "figures"), b);
  return b;
}

json rule_json(const CompareRule& r) {
  return json{{"min_samples", r.min_samples},
              {"alpha", r.alpha},
              {"min_effect_pct", r.min_effect_pct},
              {"noise_factor", r.noise_factor},
              {"default_rate_spread_pct", r.default_rate_spread_pct},
              {"default_time_spread_pct", r.default_time_spread_pct},
              {"min_history", r.min_history},
              {"time_band_quantile", r.time_band_quantile}};
}

namespace {

// A baseline whose figures `parse` hands over one at a time (StreamedMembers): each becomes a
// BaselineFigure as it is parsed, and the tree of a million (an all-pairs matrix of 1,024 nodes) is
// never built. A figure that does not read is said after the checks of the rest of the document (an
// older version's figures read wrong, and its version says why).
template <class Parse>
Baseline streamed_baseline(const std::string& source, Parse&& parse) {
  const BaselineReader rd(source);
  std::map<std::string, BaselineFigure> figures;
  std::optional<std::string> problem;
  const StreamedMembers streamed{"figures", [&](const std::string& key, json f) {
                                   if (problem) return;
                                   try {
                                     figures.emplace_hint(figures.end(), key, figure(rd, f, "figures." + key));  // in key order, as written
                                   } catch (const BaselineError& e) {
                                     problem = e.what();
                                   }
                                 }};
  const json doc = parse(streamed);
  Baseline b = header_from_json(rd, doc, source);
  if (problem) throw BaselineError(*problem);
  figures_from_json(rd, *json_field(doc, "figures"), b);  // what was not streamed: a scalar, which does not read
  b.figures.merge(figures);
  return b;
}

// The baseline in `text`, from `source`: a figure a line by the JSON lines parser where the text is
// laid out as write_baseline writes it (json_member_lines.hpp), some three times faster; else, and
// wherever that way meets anything it does not take, through `parse` (streamed_baseline), which words
// every error.
template <class Parse>
Baseline baseline_of_text(std::string_view text, const std::string& source, Parse&& parse) {
  const BaselineReader rd(source);
  std::map<std::string, BaselineFigure> figures;
  const auto rest = read_member_lines(text, "figures", [&](std::string&& key, json&& f) {
    try {
      const std::size_t before = figures.size();
      BaselineFigure fig = figure(rd, f, "figures." + key);
      figures.emplace_hint(figures.end(), std::move(key), std::move(fig));  // in key order, as written
      return figures.size() > before;
    } catch (const BaselineError&) {
      return false;
    }
  });
  const JsonParsed doc = rest ? parse_json_text(*rest) : JsonParsed{};
  if (rest && doc.ok()) {
    try {
      Baseline b = header_from_json(rd, doc.value, source);  // its "figures" is {}: they were read a line each
      b.figures = std::move(figures);
      return b;
    } catch (const BaselineError&) {
    }
  }
  figures.clear();
  return streamed_baseline(source, parse);
}

}  // namespace

Baseline load_baseline(const std::string& path) {
  const std::string text = read_input_file<BaselineError>(path, kBaselineInput);
  return baseline_of_text(text, path, [&](const StreamedMembers& s) {
    return json_file_text<BaselineError>(path, kBaselineInput, text, &s);
  });
}

Baseline baseline_from_text(std::string_view text, const std::string& source) {
  return baseline_of_text(text, source, [&](const StreamedMembers& s) {
    JsonParsed parsed = parse_json_text(text, s);
    if (!parsed.ok()) throw BaselineError(printable(source + ": not valid JSON: " + parsed.error));
    return std::move(parsed.value);
  });
}

std::string baseline_text(const Baseline& b) {
  std::ostringstream os;
  write_baseline(os, b);
  return std::move(os).str();
}

std::size_t save_baseline(const std::string& path, const Baseline& b) {
  try {
    write_file_replacing(path, [&](std::ostream& os) { write_baseline(os, b); });
    return static_cast<std::size_t>(std::filesystem::file_size(path));
  } catch (const std::runtime_error& e) {
    throw BaselineError("--save-baseline: " + std::string(e.what()));
  }
}

std::optional<std::string> baseline_too_large(const std::string& path, std::size_t bytes) {
  if (bytes <= kBaselineInput.max_bytes) return std::nullopt;
  return path + " is " + std::to_string(bytes / kMiB) + " MiB, more than the " +
         std::to_string(kBaselineInput.max_bytes / kMiB) + " MiB a " + kBaselineInput.what +
         " may be: --baseline will refuse it; save the baseline of a run this size from a sampled matrix "
         "(--tcp-pairs random:K)";
}

}  // namespace gpunet::report

#include "report/render/results_jsonl.hpp"

#include <sys/mman.h>

#include <algorithm>
#include <deque>
#include <future>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "common/input_file.hpp"
#include "common/strings.hpp"
#include "report/model/json_fields.hpp"
#include "report/model/json_lines_parser.hpp"
#include "report/model/legacy_figure.hpp"
#include "report/model/report_reader.hpp"
#include "report/render/results_memory.hpp"

namespace gpunet::report {

using gpunet::json;

namespace {

// One line, parsed: what a worker thread makes of it, before it is taken in file order.
struct LineRead {
  enum class What { blank, record, meta, not_json, refused, problem } what = What::blank;
  RecordLine read;  // record: it, its link facts, CPU cost and timeline held apart, its links' texts
  std::optional<Provenance> provenance;   // meta
  std::optional<json> topology;           // meta
  std::string error;  // not_json, refused: the parser's words; problem: "is not ..." or ": field: ..."
};

// The paths a line's parser holds apart: a record's link facts, the same for every flow of a host.
std::vector<HeldPath> held_link_paths() { return {{"extra", link_key(LinkEnd::own)}, {"extra", link_key(LinkEnd::destination)}}; }

LineRead read_line(JsonLinesParser& parser, std::string_view line) {
  LineRead out;
  if (line.find_first_not_of(" \t\r") == std::string_view::npos) return out;
  if (auto direct = parser.parse_record(line)) {  // a record as this version writes it, without its tree
    out.read = std::move(*direct);
    out.what = LineRead::What::record;
    return out;
  }
  JsonLineParsed read = parser.parse_holding_apart(line);
  JsonParsed& parsed = read.parsed;
  if (!parsed.ok()) {
    out.what = parsed.key_or_number_refused ? LineRead::What::refused : LineRead::What::not_json;
    out.error = std::move(parsed.error);
    return out;
  }
  json& j = parsed.value;
  out.what = LineRead::What::problem;
  if (!j.is_object()) {
    out.error = "is not a JSON object";
    return out;
  }
  try {
    if (j.contains("suite")) {
      out.read = JsonLinesParser::record_of_tree(read);
      out.what = LineRead::What::record;
    } else if (j.contains("provenance") || j.contains("topology")) {
      if (j.contains("provenance")) out.provenance = j.at("provenance").get<Provenance>();
      if (j.contains("topology")) out.topology = std::move(j.at("topology"));
      out.what = LineRead::What::meta;
    } else {
      out.error = "is not a result record (no \"suite\")";
    }
  } catch (const FieldError& e) {
    out.error = ": " + std::string(e.what());
  } catch (const std::exception& e) {
    out.error = "is not a valid result record: " + first_line(e.what());
  }
  return out;
}

// Asks the kernel to back a large room with huge pages where it can (transparent huge pages in madvise
// mode): a million records touch 1.5 GB, which in 4 KiB pages is 360,000 page faults.
void huge_pages(void* p, std::size_t bytes) {
  constexpr std::uintptr_t kHuge = std::uintptr_t{2} << 20;
  const auto begin = (reinterpret_cast<std::uintptr_t>(p) + kHuge - 1) & ~(kHuge - 1);
  const auto end = (reinterpret_cast<std::uintptr_t>(p) + bytes) & ~(kHuge - 1);
  if (end > begin) madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);
}

// Takes the lines in file order into one Report.
class JsonlLines {
 public:
  // What the lines are: a file given to `gpunet-bench report` (of any version, holding at least one
  // record), or a run's own results.jsonl read back (as this version wrote it, perhaps no record).
  enum class Source { given, own };

  // `bytes`: the file's size, which sets the records' room (records_room).
  JsonlLines(const std::string& path, std::size_t bytes, Source source = Source::given) : path_(path), source_(source) {
    rep_.results.reserve(records_room(bytes));
    huge_pages(rep_.results.data(), rep_.results.capacity() * sizeof(Record));
  }

  // Takes one line; false once the file is refused (then finish() says why) or ends early.
  bool take(LineRead&& line, bool has_newline) {
    stopped_ = !take_line(std::move(line), has_newline);
    return !stopped_;
  }

  LoadedResults finish() {
    if (!error_.empty()) return results_refused(error_);
    if (source_ == Source::own) {
      out_.report = std::move(rep_);
      return std::move(out_);
    }
    if (rep_.results.empty()) return results_refused(path_ + ": holds no result records" + kResultsFileHint);
    // Lines carry no schema version: records without a figure may be from version 1.
    const bool legacy = std::none_of(rep_.results.begin(), rep_.results.end(), [](const Record& r) { return r.figure.has_value(); });
    if (legacy) rep_.schema_version = 1;
    upgrade_legacy_report(rep_);
    out_.report = std::move(rep_);
    return std::move(out_);
  }

  bool stopped() const { return stopped_; }  // refused, or cut off
  // Refused at its first line, which is no JSON: a report.json written over several lines, say.
  bool unparsable_first_line() const { return unparsable_first_; }

 private:
  bool take_line(LineRead&& line, bool has_newline) {
    ++line_no_;
    switch (line.what) {
      case LineRead::What::blank: return true;
      case LineRead::What::record:
        share_links(line);
        share_parameters(line.read.record);
        rep_.results.push_back(std::move(line.read.record));
        return true;
      case LineRead::What::meta:
        if (line.provenance) rep_.provenance = std::move(*line.provenance);
        if (line.topology) rep_.topology = std::move(*line.topology);
        return true;
      case LineRead::What::refused: return refuse(at() + ": " + line.error);
      case LineRead::What::not_json:
        // Cut off by a dying run: the last line, without its newline, after at least one good record.
        if (!has_newline && !rep_.results.empty()) {
          out_.warnings.push_back(at() + " is incomplete (the run stopped while writing it); skipped it");
          return false;
        }
        unparsable_first_ = line_no_ == 1;
        return refuse(at() + " is not valid JSON: " + line.error + kResultsFileHint);
      case LineRead::What::problem:  // "is not ..." or ": field: ..."
        return refuse(at() + (line.error.front() == ':' ? "" : " ") + line.error + kResultsFileHint);
    }
    return false;
  }

  // Equal link facts are one object for all the records that carry them: a matrix's million flows
  // hold two links a host, not two a flow.
  void share_links(LineRead& line) {
    for (const LinkEnd end : {LinkEnd::own, LinkEnd::destination}) {
      std::string& text = line.read.link_texts[static_cast<size_t>(end)];
      if (text.empty()) continue;
      auto& facts = end == LinkEnd::own ? line.read.record.link : line.read.record.dst_link;
      const auto [known, fresh] = links_.try_emplace(std::move(text), facts);
      if (!fresh) facts = known->second;
    }
  }

  // Equal figure parameters are one map for all the records that carry them.
  void share_parameters(Record& r) {
    if (!r.figure || r.figure->parameters.empty()) return;
    FigureParameters& p = r.figure->parameters;
    const auto [known, fresh] = parameters_.try_emplace(p.map(), p);
    if (!fresh) p = known->second;
  }

  std::string at() const { return path_ + ": line " + std::to_string(line_no_); }
  bool refuse(std::string why) {
    error_ = std::move(why);
    return false;
  }

  std::string path_;
  Source source_;
  std::size_t line_no_ = 0;
  Report rep_;
  LoadedResults out_;
  std::string error_;
  std::unordered_map<std::string, std::shared_ptr<const json>> links_;  // by their text
  std::map<FigureParameters::Map, FigureParameters> parameters_;
  bool unparsable_first_ = false;
  bool stopped_ = false;
};

// Lines gathered into batches, each parsed on a thread of its own (two at a time), the results taken
// in file order. Each line is copied into its batch: the line reader's buffer moves on under it. A
// batch's buffers and a parser (its held link facts) serve again once its lines are taken.
class BatchedLines {
 public:
  explicit BatchedLines(JsonlLines& sink) : sink_(sink) {}
  ~BatchedLines() { in_flight_.clear(); }  // each future waits for its thread

  // False once the sink stopped taking lines (the lines after that are not needed).
  bool add(std::string_view line, bool has_newline) {
    if (!batch_) batch_ = idle_batch();
    batch_->spans.emplace_back(batch_->text.size(), line.size());
    batch_->text.append(line);
    batch_->newline.push_back(has_newline);
    if (batch_->text.size() >= kBatchBytes) submit();
    return open_;
  }

  // Takes every line still in flight.
  void finish() {
    if (batch_) submit();
    while (!in_flight_.empty() && open_) take_oldest();
  }

 private:
  static constexpr std::size_t kBatchBytes = 4 << 20;
  static constexpr std::size_t kThreads = 2;

  struct Batch {
    std::string text;                                        // the lines, one after another
    std::vector<std::pair<std::size_t, std::size_t>> spans;  // each line's offset and size in text
    std::vector<bool> newline;                               // whether each line ended with one
    std::vector<LineRead> reads;                             // each line, parsed
    std::string_view line(std::size_t i) const { return std::string_view(text).substr(spans[i].first, spans[i].second); }
    void clear() { text.clear(), spans.clear(), newline.clear(), reads.clear(); }
  };
  struct InFlight {
    std::unique_ptr<Batch> batch;
    std::unique_ptr<JsonLinesParser> parser;
    std::future<void> read;
  };

  static void read_batch(JsonLinesParser& parser, Batch& b) {
    b.reads.reserve(b.newline.size());
    for (std::size_t i = 0; i < b.newline.size(); ++i) b.reads.push_back(read_line(parser, b.line(i)));
  }

  std::unique_ptr<Batch> idle_batch() {
    if (idle_batches_.empty()) return std::make_unique<Batch>();
    auto b = std::move(idle_batches_.back());
    idle_batches_.pop_back();
    return b;
  }

  std::unique_ptr<JsonLinesParser> idle_parser() {
    if (idle_parsers_.empty()) return std::make_unique<JsonLinesParser>(held_link_paths());
    auto p = std::move(idle_parsers_.back());
    idle_parsers_.pop_back();
    return p;
  }

  void submit() {
    if (in_flight_.size() >= kThreads) take_oldest();
    if (!open_) {
      batch_.reset();
      return;
    }
    InFlight f{std::move(batch_), idle_parser(), {}};
    f.read = std::async(std::launch::async, [&p = *f.parser, &b = *f.batch] { read_batch(p, b); });
    in_flight_.push_back(std::move(f));
  }

  void take_oldest() {
    InFlight f = std::move(in_flight_.front());
    in_flight_.pop_front();
    f.read.get();
    Batch& b = *f.batch;
    for (std::size_t i = 0; i < b.reads.size() && open_; ++i) open_ = sink_.take(std::move(b.reads[i]), b.newline[i]);
    b.clear();
    idle_batches_.push_back(std::move(f.batch));
    idle_parsers_.push_back(std::move(f.parser));
  }

  JsonlLines& sink_;
  bool open_ = true;
  std::unique_ptr<Batch> batch_;
  std::deque<InFlight> in_flight_;
  std::vector<std::unique_ptr<Batch>> idle_batches_;
  std::vector<std::unique_ptr<JsonLinesParser>> idle_parsers_;
};

struct LinesFileError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Every line of the file at `path` into `lines`, read as it is parsed; the reason the file could not
// be read to its end, if it could not.
std::optional<std::string> read_file_lines(const std::string& path, JsonlLines& lines) {
  std::optional<std::string> read_error;
  BatchedLines batches(lines);
  try {
    read_input_lines<LinesFileError>(path, kResultsInput, [&](std::string_view line, bool has_newline) {
      return batches.add(line, has_newline);
    });
  } catch (const LinesFileError& e) {
    read_error = e.what();
  }
  batches.finish();  // a line before the one that could not be read may refuse the file first
  return read_error;
}

}  // namespace

LoadedResults results_refused(const std::string& msg) {
  LoadedResults r;
  r.error = printable(msg);
  return r;
}

LoadedResults read_results_jsonl(const std::string& path, std::string_view text) {
  JsonlLines lines(path, text.size());
  {
    BatchedLines batches(lines);
    for (size_t begin = 0; begin < text.size();) {
      const size_t newline = text.find('\n', begin);
      const bool has_newline = newline != std::string_view::npos;
      const std::string_view line = text.substr(begin, has_newline ? newline - begin : std::string_view::npos);
      begin = has_newline ? newline + 1 : text.size();
      if (!batches.add(line, has_newline)) break;
    }
    batches.finish();
  }
  return lines.finish();
}

LoadedResults read_large_results_jsonl(const std::string& path, std::size_t bytes) {
  JsonlLines lines(path, bytes);
  const auto read_error = read_file_lines(path, lines);
  if (read_error && !lines.stopped()) return results_refused(*read_error);
  if (lines.unparsable_first_line())
    return results_refused(path + ": is larger than the " + std::to_string(kResultsInput.max_bytes >> 20) +
                              " MiB a report.json may be, and not a results.jsonl (re-render from the run's results.jsonl)");
  return lines.finish();
}

LoadedResults read_own_results_jsonl(const std::string& path) {
  const std::size_t bytes = input_file_size(path).value_or(0);
  if (auto why = results_beyond_memory(path, bytes)) return results_refused(*why);
  JsonlLines lines(path, bytes, JsonlLines::Source::own);
  const auto read_error = read_file_lines(path, lines);
  if (read_error && !lines.stopped()) return results_refused(*read_error);
  return lines.finish();
}

}  // namespace gpunet::report

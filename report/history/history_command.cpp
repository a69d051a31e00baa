#include "report/history/history_command.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <map>

#include "common/strings.hpp"
#include "report/analysed/analyse.hpp"
#include "report/judge/baseline.hpp"
#include "report/model/file_write.hpp"
#include "report/history/history_store.hpp"
#include "report/history/history_view.hpp"
#include "report/render/outputs.hpp"

namespace gpunet::report::history {

namespace {

constexpr const char* kPrefix = "gpunet-bench history: ";

std::string folder_of(const std::string& path) {
  const auto slash = path.find_last_of('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

// One report file, read and analysed as `gpunet-bench report` reads it, as a history entry.
std::optional<HistoryRun> read_report_run(const std::string& path, std::ostream& err) {
  LoadedResults loaded = load_results(path);
  for (const auto& w : loaded.warnings) err << kPrefix << w << "\n";
  if (!loaded.report) {
    err << kPrefix << loaded.error << "\n";
    return std::nullopt;
  }
  const Analysed a = analyse(std::move(*loaded.report));
  try {
    return history_run_of(a, path);
  } catch (const std::invalid_argument& e) {
    err << kPrefix << e.what() << "\n";
    return std::nullopt;
  }
}

int import_reports(const HistoryRequest& req, std::ostream& out, std::ostream& err) {
  std::vector<HistoryRun> runs;
  for (const auto& path : req.reports) {
    auto run = read_report_run(path, err);
    if (!run) return 2;  // nothing imported: fix the file and run the same command again
    runs.push_back(std::move(*run));
  }
  try {
    HistoryStore store(req.file, HistoryStore::Mode::write);
    int added = 0;
    for (const auto& run : runs) added += store.add_run(run) ? 1 : 0;
    out << "# " << req.file << ": imported " << added << " run(s)";
    if (added < static_cast<int>(runs.size())) out << "; " << runs.size() - static_cast<size_t>(added) << " already there";
    out << "; " << store.run_count() << " runs in all\n";
  } catch (const HistoryError& e) {
    err << kPrefix << e.what() << "\n";
    return 2;
  }
  return 0;
}

// A baseline of the newest good run, with the values of the older good runs as each figure's history.
int save_history_baseline(const HistoryRequest& req, const HistoryStore& store, int64_t since, std::ostream& out, std::ostream& err) {
  const auto runs = store.good_runs(since, req.last);
  if (runs.empty()) {
    err << kPrefix << req.file << ": no run without a FAIL verdict" << (req.since.empty() ? "" : " since " + req.since)
        << " to take a baseline from\n";
    return 2;
  }
  Baseline b;
  try {
    std::vector<Baseline> baselines;
    for (const auto& r : runs) baselines.push_back(baseline_from_text(r.baseline, req.file + " run " + r.run_id));
    b = baselines.front();
    for (auto& [key, fig] : b.figures) {
      fig.history.clear();
      for (auto it = baselines.rbegin(); it + 1 != baselines.rend(); ++it)
        if (const auto f = it->figures.find(key); f != it->figures.end()) fig.history.push_back(f->second.value);
      if (fig.history.size() > kMaxHistory) fig.history.erase(fig.history.begin(), fig.history.end() - static_cast<long>(kMaxHistory));
    }
  } catch (const std::exception& e) {  // a stored baseline that does not read back: the file was edited
    err << kPrefix << req.file << ": a stored run's baseline is damaged: " << e.what() << "\n";
    return 2;
  }
  try {
    if (const auto warning = baseline_too_large(req.save_baseline, save_baseline(req.save_baseline, b)))
      err << kPrefix << "warning: " << *warning << "\n";
  } catch (const BaselineError& e) {
    err << kPrefix << e.what() << "\n";
    return 3;
  }
  out << "# baseline of the run of " << runs.front().start_time << " with the values of " << runs.size() - 1
      << " earlier good run(s) as its noise history: " << req.save_baseline << "\n";
  return 0;
}

int render(const HistoryRequest& req, std::ostream& out, std::ostream& err) {
  int64_t since = INT64_MIN;
  if (!req.since.empty()) {
    const auto t = parse_utc_time(req.since);
    if (!t) {
      err << kPrefix << "--since '" << req.since << "': not a UTC time (give YYYY-MM-DD or YYYY-MM-DDTHH:MM[:SS][Z])\n";
      return 2;
    }
    since = *t;
  }
  try {
    const HistoryStore store(req.file, HistoryStore::Mode::read);
    if (!req.save_baseline.empty()) return save_history_baseline(req, store, since, out, err);
    const auto view = history_view(store.figures(since), req.file, req.figure, req.since);
    if (view.runs == 0) {
      err << kPrefix << req.file << ": no runs" << (req.since.empty() ? "" : " since " + req.since) << "\n";
      return 2;
    }
    if (view.figures.empty()) {
      err << kPrefix << "--figure '" << req.figure << "' matches no figure (names look like 'vm:0 -> vm:1 tcp goodput')\n";
      return 2;
    }
    const std::string dir = req.out_dir.empty() ? folder_of(req.file) : req.out_dir;
    std::filesystem::create_directories(dir);
    write_file_replacing(dir + "/history.md", render_history_md(view));
    write_file_replacing(dir + "/history.html", render_history_html(view));
    write_file_replacing(dir + "/history.csv", [&](std::ostream& os) { render_history_csv(view, os); });
    out << "# " << view.runs << " runs, " << view.figures.size() << " figures: " << dir << "/history.md, " << dir << "/history.html, "
        << dir << "/history.csv\n";
    for (const auto& f : view.figures)
      for (const auto* drops : {&f.hour_drops, &f.weekday_drops})
        for (const auto& d : *drops) out << "#   " << drop_sentence(f.series, d) << "\n";
  } catch (const HistoryError& e) {
    err << kPrefix << e.what() << "\n";
    return 2;
  } catch (const std::exception& e) {  // the outputs cannot be written
    err << kPrefix << e.what() << " (choose a writable directory with -o)\n";
    return 3;
  }
  return 0;
}

}  // namespace

int run_history_command(const HistoryRequest& req, std::ostream& out, std::ostream& err) {
  return req.action == HistoryRequest::Action::import ? import_reports(req, out, err) : render(req, out, err);
}

int record_history(const std::string& path, const Analysed& analysed, const std::string& source, std::ostream& out,
                   std::ostream& err) {
  try {
    const HistoryRun run = history_run_of(analysed, source);
    HistoryStore store(path, HistoryStore::Mode::write);
    const bool added = store.add_run(run);
    out << "# history: " << (added ? "added this run to " : "this run is already in ") << path << " (" << store.run_count() << " runs)\n";
    return 0;
  } catch (const std::invalid_argument& e) {
    err << "gpunet-bench: error: --history: " << e.what() << "\n";
    return 2;
  } catch (const HistoryError& e) {
    err << "gpunet-bench: error: --history " << e.what() << " (the report files are written)\n";
    return 3;
  }
}

std::string history_file_problem(const std::string& path) {
  if (!std::filesystem::exists(path)) {
    const std::string dir = folder_of(path);
    if (::access(dir.c_str(), W_OK | X_OK) != 0)
      return printable(path + ": cannot be created (" + dir + " is not a writable directory); give a path in one");
    return "";
  }
  try {
    HistoryStore store(path, HistoryStore::Mode::read);
  } catch (const HistoryError& e) {
    const std::string what = e.what();
    return what.find("holds no runs yet") != std::string::npos ? "" : what;
  }
  return "";
}

}  // namespace gpunet::report::history

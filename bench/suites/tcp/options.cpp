#include "bench/suites/tcp/options.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <random>
#include <sstream>

#include "bench/core/cli_float.hpp"
#include "bench/core/cli_size.hpp"
#include "bench/core/sizes.hpp"
#include "bench/suites/tcp/rails.hpp"
#include "common/strings.hpp"
#include "report/judge/spec.hpp"

namespace gpunet::bench::tcp {

namespace {

constexpr double kMaxLinkRateBps = 1e15;  // 1 Pbit/s: far above any link, far below overflow

const std::vector<std::string> kTests{"neighbours", "matrix", "one-to-many", "many-to-one", "latency"};
// Known but not run by default (they load the whole network on purpose).
const std::vector<std::string> kOptInTests{"fabric", "congestion"};

// all, ring or random:K into cfg; the one-line error ("" when fine).
std::string parse_pairs(const std::string& v, TcpConfig& t) {
  if (v.empty() || v == "all" || v == "ring") {
    t.pairs = v.empty() ? "all" : v;
    return "";
  }
  const std::string bad = "--tcp-pairs: '" + v + "' is not all, ring or random:K with K from 1 to 4096 (e.g. random:3)";
  if (v.rfind("random:", 0) != 0) return bad;
  const std::string k = v.substr(7);
  if (k.empty() || k.size() > 4 || !std::all_of(k.begin(), k.end(), [](unsigned char ch) { return std::isdigit(ch); })) return bad;
  t.pairs_k = std::stoi(k);
  if (t.pairs_k < 1 || t.pairs_k > 4096) return bad;
  t.pairs = "random";
  return "";
}

}  // namespace

std::string pairs_text(const TcpConfig& t) { return t.pairs == "random" ? "random:" + std::to_string(t.pairs_k) : t.pairs; }

std::optional<double> parse_rate(const std::string& text) {
  if (text.empty()) return std::nullopt;
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (end == text.c_str() || !std::isfinite(v) || !(v > 0)) return std::nullopt;
  std::string unit(end);
  if (unit.find('B') != std::string::npos) return std::nullopt;  // bytes: not a link rate
  std::transform(unit.begin(), unit.end(), unit.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  double mult = 1;
  if (!unit.empty() && std::string("kmgt").find(unit[0]) != std::string::npos) {
    mult = unit[0] == 'k' ? 1e3 : unit[0] == 'm' ? 1e6 : unit[0] == 'g' ? 1e9 : 1e12;
    unit.erase(0, 1);
  }
  if (!unit.empty() && unit != "bit" && unit != "b" && unit != "bps" && unit != "b/s" && unit != "bit/s") return std::nullopt;
  const double bps = v * mult;
  if (!std::isfinite(bps) || bps > kMaxLinkRateBps) return std::nullopt;
  return bps;
}

void add_options(CLI::App& app, Config& c, OptionText& text) {
  auto& t = c.tcp;
  const std::string g = "TCP suite";
  app.add_option("--tcp-if", t.iface,
                 "Interface name or CIDR the tcp suite listens on and connects from (default: loopback on one "
                 "node, else the first non-loopback IPv4 address that is up); several, comma-separated, one per "
                 "rail (rail k of a node pairs with rail k of the others; matrix, neighbours, fans and latency run on every "
                 "rail), or 'rails': the up IPv4 interfaces the topology pairs with a GPU, else every one other than the "
                 "control channel's")
      ->type_name("IF|CIDR[,...]|rails")->group(g);
  app.add_option("--rails", text.at("--rails"),
                 "With several --tcp-if rails: run each test's rails at the same time (together, the load "
                 "training puts on them) or one-at-a-time (to isolate)")
      ->check(CLI::IsMember({"together", "one-at-a-time"}))->default_str("together")->type_name("MODE")->group(g);
  app.add_option("--tcp-tests", text.at("--tcp-tests"),
                 "tcp tests to run: " + join(kTests, ",") + "; also fabric (each leaf's uplink, needs --fabric FILE) and "
                 "congestion (victim pairs alone and under incast and all-to-all load: docs/congestion.md)")
      ->type_name("LIST")->default_str(join(TcpConfig{}.tests, ","))->group(g);
  app.add_option("--tcp-streams", t.streams, "Parallel streams per flow; neighbour pairs run 1 and, when more, this many")
      ->check(CLI::Range(1, 64))->capture_default_str()->group(g);
  add_float_option(app, "--tcp-time", t.time_s, 0.1, 3600.0, "Seconds per bandwidth measurement")->group(g);
  add_size_option(app, "--tcp-bytes", t.bytes, "Bytes per flow instead of --tcp-time")->group(g);
  add_size_option(app, "--tcp-msg", t.msg_bytes, "Bytes per send() and recv()")->default_str("128K")->group(g);
  add_size_option(app, "--tcp-sndbuf", t.sndbuf, "SO_SNDBUF (default: kernel autotuning)")->group(g);
  add_size_option(app, "--tcp-rcvbuf", t.rcvbuf, "SO_RCVBUF (default: kernel autotuning)")->group(g);
  app.add_flag("--tcp-bidir", t.bidir, "Neighbour pairs send in both directions at once")->group(g);
  app.add_option("--tcp-matrix-direction", text.at("--tcp-matrix-direction"),
                 "The matrix's rounds: both (each pair's two directions at once, one flow time a round, as on a "
                 "full-duplex link) or one-way (one direction and then the other, twice the time; to look at a "
                 "half-duplex suspicion). Re-tests of suspects always run one direction at a time")
      ->check(CLI::IsMember({"both", "one-way"}))->default_str("both")->type_name("MODE")->group(g);
  add_float_option(app, "--tcp-interval", t.interval_s, 0.001, 60.0, "Seconds per timeline interval")->group(g);
  add_size_option(app, "--tcp-lat-size", t.lat_bytes, "Ping-pong message size")->default_str("14")->group(g);
  add_float_option(app, "--tcp-lat-time", t.lat_time_s, 0.01, 3600.0, "Seconds of ping-pong per pair")->group(g);
  add_float_option(app, "--tcp-timeout", t.timeout_s, 0.1, 600.0,
                   "Seconds a connect may take and a stream may stay silent before that flow is failed")->group(g);
  add_float_option(app, "--tcp-suspect", t.suspect, 0.0, 1.0,
                   "A pair below this fraction of the best pair or of its ceiling is a suspect and is re-tested")
      ->group(g);
  app.add_option("--tcp-pairs", text.at("--tcp-pairs"),
                 "The matrix's pairs: all (every pair, N-1 rounds), ring (each node with its two neighbours) or "
                 "random:K (each node with at least K random partners, half across leaf switches and half within with --fabric; the seed is printed, see --tcp-pairs-seed)")
      ->type_name("all|ring|random:K")->default_str("all")->group(g);
  app.add_option("--tcp-pairs-seed", t.pairs_seed, "Seed of --tcp-pairs random:K (default: drawn at start-up and printed)")
      ->type_name("N")->group(g);
  app.add_option("--tcp-retest-rounds", t.retest_rounds,
                 "At most this many rounds of re-tests of the matrix's suspects (disjoint pairs at once); what does not "
                 "fit is listed in the report, not re-tested")
      ->check(CLI::Range(1, 1000))->capture_default_str()->group(g);
  add_float_option(app, "--tcp-dip", t.dip, 0.0, 1.0,
                   "A timeline interval below this fraction of the flow's median is a dip")->group(g);
  app.add_option("--link-rate", text.at("--link-rate"),
                 "The link's rate when the NIC can't tell (e.g. 10G, 25Gbit, 2.5G; SI bit/s); sets the TCP ceiling")
      ->type_name("RATE")->group(g);
  add_float_option(app, "--duration", t.duration_s, 0.1, 86400.0,
                   "Stability mode: run each chosen tcp test this many seconds (default test: neighbours) and report "
                   "the timeline, min/p1/p50 and dips")
      ->default_str("")
      ->group(g);
  app.add_option("--tcp-live", t.live,
                 "Interval lines on the console while flows run, as iperf3 prints them (transfer, Gb/s, "
                 "retransmits, cwnd, dips), and final sender/receiver lines: auto (with --duration), on, off")
      ->check(CLI::IsMember({"auto", "on", "off"}))
      ->capture_default_str()
      ->group(g);
  add_float_option(app, "--tcp-live-interval", t.live_interval_s, 0.1, 3600.0, "Seconds per live interval line")->group(g);
}

namespace {

// Whether --spec promises tcp latency: a latency promise names no pair, so it covers every pair, and
// the latency test must then measure every pair, not the ring's neighbours. A spec that cannot be
// read is reported once, by the acceptance inputs, before anything is measured.
bool spec_promises_tcp_latency(const Config& c) {
  if (c.spec_path.empty()) return false;
  try {
    const auto spec = report::load_spec(c.spec_path, c.spec_names);
    return std::any_of(spec.latency.begin(), spec.latency.end(),
                       [](const report::LatencyPromise& l) { return l.sel.suite == "tcp" && l.sel.name == "latency"; });
  } catch (const std::exception&) {
    return false;
  }
}

}  // namespace

std::string finish_options(Config& c, const OptionText& text, const CLI::App& app) {
  auto& t = c.tcp;
  if (app.count("--tcp-tests")) {
    std::vector<std::string> tests;
    std::stringstream ss(text.get("--tcp-tests"));
    for (std::string item; std::getline(ss, item, ',');) {
      if (item.empty()) continue;
      if (std::find(kTests.begin(), kTests.end(), item) == kTests.end() &&
          std::find(kOptInTests.begin(), kOptInTests.end(), item) == kOptInTests.end())
        return "--tcp-tests: unknown test '" + item + "' (known: " + join(kTests, ",") + "," + join(kOptInTests, ",") + ")";
      tests.push_back(item);
    }
    if (tests.empty()) return "--tcp-tests: empty list";
    t.tests = tests;
  }
  const auto ifaces = parse_iface_list(t.iface);
  if (const auto* why = std::get_if<std::string>(&ifaces)) return *why;
  t.ifaces = std::get<std::vector<std::string>>(ifaces);
  t.rails_one_at_a_time = text.get("--rails") == "one-at-a-time";
  t.matrix_one_way = text.get("--tcp-matrix-direction") == "one-way";
  if (t.rails_one_at_a_time && t.ifaces.size() < 2 && t.ifaces != std::vector<std::string>{"rails"})
    return "--rails one-at-a-time needs several rails: give --tcp-if IF0,IF1,... or --tcp-if rails";
  if (!text.get("--link-rate").empty()) {
    const auto r = parse_rate(text.get("--link-rate"));
    if (!r) return "--link-rate: bad rate '" + text.get("--link-rate") + "' (use a finite rate up to 1000T, e.g. 10G, 25Gbit, 2.5G)";
    t.link_rate_bps = *r;
  }
  if (t.duration_s > 0) {
    if (!app.count("--tcp-tests")) t.tests = {"neighbours"};
    t.time_s = t.duration_s;
    t.lat_time_s = t.duration_s;
    if (!app.count("--timeout"))
      c.timeout_s = std::max(c.timeout_s, t.duration_s + 2 * t.timeout_s + 60);
    else if (c.timeout_s < t.duration_s + 2 * t.timeout_s + 10)
      return "--duration " + std::to_string(static_cast<long long>(t.duration_s)) +
             " s does not fit in --timeout; raise --timeout above " +
             std::to_string(static_cast<long long>(t.duration_s + 2 * t.timeout_s + 10)) + " s";
    if (t.bytes > 0) return "--duration and --tcp-bytes exclude each other";
  } else if (c.timeout_s < t.time_s + 2 * t.timeout_s + 2) {
    // Every measurement is one watchdog step; it must fit.
    if (std::find(c.suites.begin(), c.suites.end(), "tcp") != c.suites.end())
      return "--timeout " + std::to_string(c.timeout_s) + " s is too short for --tcp-time plus two --tcp-timeout";
  }
  t.latency_every_pair = spec_promises_tcp_latency(c);
  if (const std::string why = parse_pairs(text.get("--tcp-pairs"), t); !why.empty()) return why;
  if (!app.count("--tcp-pairs-seed")) t.pairs_seed = std::random_device{}() % 1000000;
  t.live_lines = !c.quiet && (t.live == "on" || (t.live == "auto" && t.duration_s > 0));
  if (t.msg_bytes > (256 << 20)) return "--tcp-msg: at most 256M";
  if (t.lat_bytes > (1 << 20)) return "--tcp-lat-size: at most 1M";
  if (t.sndbuf > (1LL << 30) || t.rcvbuf > (1LL << 30)) return "--tcp-sndbuf/--tcp-rcvbuf: at most 1G";
  return "";
}

}  // namespace gpunet::bench::tcp

#include "report/render/svg_heatmap_blocks.hpp"

#include <algorithm>
#include <tuple>

#include "report/render/svg_common.hpp"
#include "report/text/escape.hpp"
#include "report/text/text_format.hpp"

namespace gpunet::report {

namespace {

constexpr size_t kLabelledHosts = 12;
constexpr double kLabelStep = 12;  // px between two labels on one axis

// Lower is worse: a failed flow, then a bad one (below the threshold, blamed or above its ceiling),
// then a good one; within each, the lower share of the reference.
std::tuple<int, double> badness(const HeatmapCell& c) {
  if (!c.value) return {0, 0.0};
  return {c.good ? 2 : 1, c.vs_reference};
}

std::string range_text(const std::vector<std::string>& labels, size_t from, size_t to) {
  return to - from == 1 ? labels[from] : labels[from] + " … " + labels[to - 1];
}

// Positions along one axis for labels wanted at `at` (sorted), pushed apart to kLabelStep.
std::vector<double> spread(std::vector<double> at) {
  for (size_t k = 1; k < at.size(); ++k) at[k] = std::max(at[k], at[k - 1] + kLabelStep);
  return at;
}

}  // namespace

std::vector<size_t> hosts_to_label(const Heatmap& h, size_t limit) {
  const size_t n = h.labels.size();
  std::vector<size_t> measured(n, 0), bad(n, 0);
  for (size_t i = 0; i < n; ++i)
    for (size_t j = 0; j < n; ++j) {
      const HeatmapCell& c = h.cells[i][j];
      if (!c.measured || i == j) continue;
      ++measured[i];
      ++measured[j];
      if (!c.good) {
        ++bad[i];
        ++bad[j];
      }
    }
  std::vector<size_t> out;
  for (size_t k = 0; k < n; ++k)
    if (measured[k] && bad[k] * 4 >= measured[k]) out.push_back(k);
  std::stable_sort(out.begin(), out.end(), [&](size_t a, size_t b) { return bad[a] * measured[b] > bad[b] * measured[a]; });
  if (out.size() > limit) out.resize(limit);
  return out;
}

std::string svg_heatmap_blocks(const Heatmap& h, const BlockGrid& at) {
  using svg::num;
  const size_t n = h.labels.size();
  const size_t per = hosts_per_block(n);
  const size_t blocks = (n + per - 1) / per;
  const double side = at.grid / static_cast<double>(blocks);
  std::string out;
  for (size_t bi = 0; bi < blocks; ++bi) {
    const size_t r0 = bi * per, r1 = std::min(n, r0 + per);
    for (size_t bj = 0; bj < blocks; ++bj) {
      const size_t c0 = bj * per, c1 = std::min(n, c0 + per);
      const HeatmapCell* worst = nullptr;
      size_t wi = 0, wj = 0, measured = 0, bad = 0;
      for (size_t i = r0; i < r1; ++i)
        for (size_t j = c0; j < c1; ++j) {
          const HeatmapCell& c = h.cells[i][j];
          if (!c.measured) continue;
          ++measured;
          bad += !c.good;
          if (!worst || badness(c) < badness(*worst)) {
            worst = &c;
            wi = i;
            wj = j;
          }
        }
      const double x = at.left + side * static_cast<double>(bj), y = at.top + side * static_cast<double>(bi);
      const HeatmapCell blank;
      const std::string rect = "<rect x=\"" + num(x) + "\" y=\"" + num(y) + "\" width=\"" + num(side) + "\" height=\"" +
                               num(side) + "\" fill=\"" + heat_colour(worst ? *worst : blank, h.threshold, bi == bj) + "\"/>";
      if (!worst) {
        out += rect;
        continue;
      }
      std::string tip = range_text(h.labels, r0, r1) + " -> " + range_text(h.labels, c0, c1) + ": " +
                        std::to_string(bad) + " of " + std::to_string(measured) + " pairs below " +
                        format_percent(h.threshold) + " of the reference; worst " + h.labels[wi] + " -> " + h.labels[wj] + ", ";
      tip += worst->value ? svg::value_text(*worst->value) + " " + h.unit + " (" + format_percent(worst->vs_reference) + ")"
                          : std::string("did not complete");
      const char* verdict = !worst->value ? "failed" : worst->good ? "good" : "bad";
      out += std::string("<g class=\"block ") + verdict + "\" data-worst-src=\"" + html_escape(h.labels[wi]) +
             "\" data-worst-dst=\"" + html_escape(h.labels[wj]) + "\"><title>" + html_escape(tip) + "</title>" + rect + "</g>";
    }
  }
  // The hosts with many bad pairs, named beside their row and above their column.
  const auto named = hosts_to_label(h, kLabelledHosts);
  std::vector<size_t> by_place = named;
  std::sort(by_place.begin(), by_place.end());
  std::vector<double> want;
  for (size_t k : by_place) want.push_back(side * (static_cast<double>(k / per) + 0.5));
  const auto placed = spread(want);
  for (size_t m = 0; m < by_place.size(); ++m) {
    const std::string& full = h.labels[by_place[m]];
    const std::string name = html_escape(full.size() <= 13 ? full : full.substr(0, 12) + "~");
    const double row = at.top + want[m], text_y = at.top + placed[m];
    out += "<line x1=\"" + num(at.left - 40) + "\" y1=\"" + num(text_y) + "\" x2=\"" + num(at.left) + "\" y2=\"" + num(row) +
           "\" class=\"leader\" stroke=\"#555\"/>";
    out += "<text x=\"" + num(at.left - 44) + "\" y=\"" + num(text_y + 4) + "\" text-anchor=\"end\" class=\"tick worst\">" +
           name + "</text>";
    const double col = at.left + want[m], text_x = at.left + placed[m];
    out += "<line x1=\"" + num(text_x) + "\" y1=\"" + num(at.top - 30) + "\" x2=\"" + num(col) + "\" y2=\"" + num(at.top) +
           "\" class=\"leader\" stroke=\"#555\"/>";
    out += "<text transform=\"translate(" + num(text_x + 4) + " " + num(at.top - 34) + ") rotate(-60)\" class=\"tick worst\">" +
           name + "</text>";
  }
  return out;
}

}  // namespace gpunet::report

#include "report/render/table_render.hpp"

#include <algorithm>
#include <future>

#include "common/strings.hpp"
#include "report/text/escape.hpp"
#include "report/render/md_table.hpp"

namespace gpunet::report {

namespace {

std::vector<MdTable::Align> aligns(const Table& t) {
  std::vector<MdTable::Align> a;
  for (const auto& c : t.columns) a.push_back(c.number ? MdTable::Align::right : MdTable::Align::left);
  return a;
}

std::vector<std::string> headers(const Table& t, bool escape) {
  std::vector<std::string> h;
  for (const auto& c : t.columns) h.push_back(escape ? md_escape(c.header()) : c.header());
  return h;
}

std::string row_class(Status s) { return to_string(s); }

}  // namespace

std::string table_markdown(const Table& t, const std::string& heading) {
  if (!shows_anything(t)) return "";
  std::string out = "\n" + (t.title.empty() ? std::string() : heading + " " + md_escape(t.title) + "\n\n");
  if (!t.note.empty()) out += md_escape(t.note) + "\n\n";
  if (has_rows(t)) {
    if (!t.rows.empty()) {
      MdTable md(headers(t, true), aligns(t));
      for (const TableRow& row : t.rows) {
        std::vector<std::string> cells;
        for (const auto& c : row.cells)
          cells.push_back((c.strong ? "**" + md_escape(c.text) + "**" : md_escape(c.text)) +
                          (c.cite == 0 ? "" : " [" + std::to_string(c.cite) + "]"));
        md.add_row(std::move(cells));
      }
      out += md.render();
    }
    if (!t.not_shown.empty()) out += (t.rows.empty() ? "" : "\n") + md_escape(t.not_shown) + "\n";
  }
  if (!t.footer.empty()) {
    out += "\n";
    for (const auto& line : t.footer) out += "    " + line + "\n";  // an indented code block
  }
  if (!t.bullets.empty()) {
    out += "\n";
    for (const auto& b : t.bullets) out += "- " + md_escape(b) + "\n";
  }
  return out;
}

std::string table_html(const Table& t, double threshold, const std::string& heading) {
  if (!shows_anything(t)) return "";
  std::string out = t.title.empty() ? "" : "<" + heading + ">" + html_escape(t.title) + "</" + heading + ">";
  if (!t.note.empty()) out += "<p class=\"note\">" + html_escape(t.note) + "</p>";
  if (has_rows(t)) {
    if (!t.rows.empty()) {
      out += "<table class=\"" + html_escape(to_string(t.kind)) + "\"><tr>";
      for (const auto& c : t.columns) out += "<th>" + html_escape(c.header()) + "</th>";
      out += "</tr>";
    }
    for (const TableRow& row : t.rows) {
      out += "<tr class=\"" + row_class(row.status) + "\">";
      for (size_t i = 0; i < row.cells.size(); ++i) {
        const Cell& c = row.cells[i];
        std::string cls = i < t.columns.size() && t.columns[i].number ? "n" : "";
        if (c.wrap) cls += cls.empty() ? "w" : " w";
        const std::string tone = c.efficiency ? efficiency_tone(c, threshold) : "";
        if (!tone.empty()) cls += (cls.empty() ? "" : " ") + tone;
        out += "<td" + (cls.empty() ? std::string() : " class=\"" + cls + "\"");
        if (tone == "above" && c.cite == 0)
          out += " title=\"above its ceiling beyond noise (over 102 %): a ceiling to explain (see why figures are below their ceiling), not a good figure\"";
        if (c.cite != 0) {
          const std::string n = std::to_string(c.cite);
          out += " title=\"" + html_escape(c.derivation) + "\">" + html_escape(c.text) + " <a href=\"#c" + n + "\">[" + n +
                 "]</a></td>";
        } else {
          out += ">" + (c.strong ? "<b>" + html_escape(c.text) + "</b>" : html_escape(c.text)) + "</td>";
        }
      }
      out += "</tr>";
    }
    if (!t.rows.empty()) out += "</table>";
    if (!t.not_shown.empty()) out += "<p class=\"note\">" + html_escape(t.not_shown) + "</p>";
  }
  for (const auto& line : t.footer) out += "<p class=\"footer\">" + html_escape(line) + "</p>";
  if (!t.bullets.empty()) {
    out += "<ul>";
    for (const auto& b : t.bullets) out += "<li>" + html_escape(b) + "</li>";
    out += "</ul>";
  }
  return out;
}

std::string table_console(const Table& t) {
  if (!has_rows(t)) return "";
  MdTable md(headers(t, false), aligns(t));
  for (const TableRow& row : t.rows) {
    std::vector<std::string> cells;
    for (const auto& c : row.cells) cells.push_back(c.text);
    md.add_row(std::move(cells));
  }
  std::string out = "# " + t.title + (t.note.empty() ? "" : ": " + t.note) + "\n" + md.render();
  if (!t.not_shown.empty()) out += "# " + t.not_shown + "\n";
  for (const auto& line : t.footer) out += line + "\n";
  return out;
}

std::vector<CsvFile> table_csv_files(const std::vector<const Table*>& tables) {
  std::vector<CsvFile> out;
  std::map<std::string, size_t> index;
  for (const Table* t : tables) {
    if (t->csv.empty()) continue;
    auto [it, fresh] = index.try_emplace(t->csv, out.size());
    if (fresh) out.push_back({t->csv, {}});
    out[it->second].tables.push_back(t);
  }
  return out;
}

namespace {

constexpr size_t kCsvBlockCells = 1 << 18;  // cells a thread makes into text at a time

// Rows [begin, end) of a table as CSV lines, each as wide as the file's header.
std::string csv_lines(const Table& t, size_t begin, size_t end, size_t width) {
  std::string out;
  std::vector<std::string> cells;
  for_each_row(t, begin, end, [&](const TableRow& row) {
    cells.clear();
    for (const auto& c : row.cells) cells.push_back(csv_field(c.raw.empty() ? c.text : c.raw));
    cells.resize(width);
    out += join(cells, ",");
    out += '\n';
  });
  return out;
}

}  // namespace

// The header of the file's first table, then every row of each table, as wide as that header. A
// table's rows are made into text a block at a time, two blocks at once (a second thread makes the
// next while this one makes its own), and written in order.
void write_csv(const CsvFile& f, std::ostream& os) {
  if (f.tables.empty()) return;
  std::vector<std::string> keys;
  for (const auto& c : f.tables.front()->columns) keys.push_back(csv_field(c.key()));
  os << join(keys, ",") << "\n";
  for (const Table* t : f.tables) {
    const size_t rows = row_count(*t);
    const size_t block = std::max<size_t>(1, kCsvBlockCells / keys.size());  // rows: 17,476 of the flows table, 255 of a 1,024-wide matrix
    for (size_t begin = 0; begin < rows; begin += 2 * block) {
      const size_t middle = std::min(rows, begin + block);
      std::future<std::string> next;
      if (middle < rows)
        next = std::async(std::launch::async, [&, middle, block] { return csv_lines(*t, middle, middle + block, keys.size()); });
      os << csv_lines(*t, begin, middle, keys.size());
      if (next.valid()) os << next.get();
    }
  }
}

}  // namespace gpunet::report

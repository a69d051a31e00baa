#include "report/render/topology_render.hpp"

#include "report/text/escape.hpp"
#include "report/render/md_table.hpp"

namespace gpunet::report {

namespace {

std::string md_table(const TopoTable& t) {
  std::vector<std::string> head;
  std::vector<MdTable::Align> align;
  for (size_t c = 0; c < t.header.size(); ++c) {
    head.push_back(md_escape(t.header[c]));
    align.push_back(c < t.numeric.size() && t.numeric[c] ? MdTable::Align::right : MdTable::Align::left);
  }
  MdTable m(head, align);
  for (const auto& row : t.rows) {
    std::vector<std::string> cells;
    for (const auto& c : row) cells.push_back(md_escape(c));
    m.add_row(std::move(cells));
  }
  return "\n**" + md_escape(t.title) + "**\n\n" + m.render() + (t.note.empty() ? "" : "\n" + md_escape(t.note) + "\n");
}

std::string md_list(const std::vector<std::string>& lines) {
  std::string out;
  for (const auto& l : lines) out += "- " + md_escape(l) + "\n";
  return out;
}

std::string html_table(const TopoTable& t) {
  std::string out = "<p><b>" + html_escape(t.title) + "</b></p><div style=\"overflow-x:auto\"><table><tr>";
  for (const auto& h : t.header) out += "<th>" + html_escape(h) + "</th>";
  out += "</tr>";
  for (const auto& row : t.rows) {
    out += "<tr>";
    for (size_t c = 0; c < row.size(); ++c) {
      const char* open = c < t.numeric.size() && t.numeric[c] ? "<td class=\"n\">"
                         : t.wrap_last && c + 1 == row.size() ? "<td class=\"w\">"
                                                             : "<td>";
      out += open + html_escape(row[c]) + "</td>";
    }
    out += "</tr>";
  }
  out += "</table></div>";
  return t.note.empty() ? out : out + "<p class=\"note\">" + html_escape(t.note) + "</p>";
}

std::string html_list(const std::vector<std::string>& lines) {
  std::string out = "<ul>";
  for (const auto& l : lines) out += "<li>" + html_escape(l) + "</li>";
  return out + "</ul>";
}

}  // namespace

std::string topology_markdown(const TopoSectionText& text) {
  std::string out = "\n## Topology\n";
  if (!text.empty_reason.empty()) return out + "\n" + md_escape(text.empty_reason) + "\n";
  for (const auto& k : text.kinds) {
    out += "\n### " + md_escape(k.heading) + "\n\n" + md_list(k.summary);
    for (const auto& t : k.tables) out += md_table(t);
    out += "\n**Topology findings**\n\n" + (k.findings.empty() ? std::string("- none recorded\n") : md_list(k.findings));
  }
  if (!text.across_nodes.empty()) out += "\n### Across nodes\n\n" + md_list(text.across_nodes);
  return out;
}

std::string topology_markdown(const Report& rep) { return topology_markdown(topology_text(rep)); }

std::string topology_html(const TopoSectionText& text) {
  std::string out = "<section id=\"topology\"><h2>Topology</h2>";
  if (!text.empty_reason.empty()) return out + "<p>" + html_escape(text.empty_reason) + "</p></section>";
  for (const auto& k : text.kinds) {
    out += "<div class=\"node-kind\"><h3>" + html_escape(k.heading) + "</h3>" + html_list(k.summary);
    for (const auto& t : k.tables) out += html_table(t);
    out += "<p><b>Topology findings</b></p>" + html_list(k.findings.empty() ? std::vector<std::string>{"none recorded"} : k.findings) + "</div>";
  }
  if (!text.across_nodes.empty()) out += "<h3>Across nodes</h3>" + html_list(text.across_nodes);
  return out + "</section>";
}

std::string topology_html(const Report& rep) { return topology_html(topology_text(rep)); }

}  // namespace gpunet::report

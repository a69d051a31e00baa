#include "report/render/section_render.hpp"

#include "report/text/escape.hpp"

namespace gpunet::report {

std::string section_markdown(const DocSection& s, CeilingNotes& notes) {
  if (empty(s)) return "";
  std::string out = "\n## " + md_escape(s.title) + "\n";
  for (const auto& p : s.paragraphs) out += "\n" + md_escape(p) + "\n";
  if (!s.items.empty()) out += "\n";
  for (const auto& item : s.items) out += "- " + md_escape(item) + "\n";
  for (const auto& t : s.tables) out += table_markdown(t, notes, "###");
  for (const auto& line : s.closing) out += "\n" + md_escape(line) + "\n";
  if (!s.code.empty()) out += "\n```sh\n" + s.code + "```\n";
  return out;
}

std::string section_html(const DocSection& s, CeilingNotes& notes, double threshold, const std::string& drawn) {
  if (empty(s)) return "";
  std::string out = (s.prominent ? "<div class=\"prominent\">" : "") + std::string("<h2>") + html_escape(s.title) + "</h2>";
  for (const auto& p : s.paragraphs) out += "<p>" + html_escape(p) + "</p>";
  if (!s.items.empty()) {
    out += "<ul>";
    for (const auto& item : s.items) out += "<li>" + html_escape(item) + "</li>";
    out += "</ul>";
  }
  out += drawn;
  for (const auto& t : s.tables) out += table_html(t, notes, threshold, "h3");
  for (const auto& line : s.closing) out += "<p class=\"note\">" + html_escape(line) + "</p>";
  if (!s.code.empty()) out += "<pre>" + html_escape(s.code) + "</pre>";
  return s.prominent ? out + "</div>" : out;
}

std::string section_console(const DocSection& s) {
  if (empty(s)) return "";
  std::string out = "# " + s.title + ":\n";
  for (const auto& p : s.paragraphs) out += "#   " + p + "\n";
  for (const auto& item : s.items) out += "#   " + item + "\n";
  for (const auto& t : s.tables) out += table_console(t);
  return out;
}

}  // namespace gpunet::report

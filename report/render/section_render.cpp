#include "report/render/section_render.hpp"

#include <algorithm>

#include "report/text/escape.hpp"

namespace gpunet::report {

namespace {

std::string md_heading(int level) { return std::string(static_cast<size_t>(std::clamp(level, 1, 6)), '#'); }
std::string html_heading(int level) { return "h" + std::to_string(std::clamp(level, 1, 6)); }

}  // namespace

std::string section_markdown(const DocSection& s, CeilingNotes& notes, int level) {
  if (empty(s)) return "";
  std::string out = "\n" + md_heading(level) + " " + md_escape(s.title) + "\n";
  for (const auto& p : s.paragraphs) out += "\n" + md_escape(p) + "\n";
  if (!s.items.empty()) out += "\n";
  for (const auto& item : s.items) out += "- " + md_escape(item) + "\n";
  for (const auto& t : s.tables) out += table_markdown(t, notes, md_heading(level + 1));
  for (const auto& line : s.closing) out += "\n" + md_escape(line) + "\n";
  if (!s.code.empty()) out += "\n```sh\n" + s.code + "```\n";
  for (const auto& sub : s.subsections) out += section_markdown(sub, notes, level + 1);
  return out;
}

std::string section_html(const DocSection& s, CeilingNotes& notes, double threshold, const std::string& drawn,
                         int level) {
  if (empty(s)) return "";
  const std::string h = html_heading(level);
  std::string out = s.id.empty() ? "" : "<section id=\"" + html_escape(s.id) + "\">";
  if (s.prominent) out += "<div class=\"prominent\">";
  out += "<" + h + ">" + html_escape(s.title) + "</" + h + ">";
  for (const auto& p : s.paragraphs) out += "<p>" + html_escape(p) + "</p>";
  if (!s.items.empty()) {
    out += "<ul>";
    for (const auto& item : s.items) out += "<li>" + html_escape(item) + "</li>";
    out += "</ul>";
  }
  out += drawn;
  for (const auto& t : s.tables) out += table_html(t, notes, threshold, html_heading(level + 1));
  for (const auto& line : s.closing) out += "<p class=\"note\">" + html_escape(line) + "</p>";
  if (!s.code.empty()) out += "<pre>" + html_escape(s.code) + "</pre>";
  for (const auto& sub : s.subsections) out += section_html(sub, notes, threshold, "", level + 1);
  if (s.prominent) out += "</div>";
  return s.id.empty() ? out : out + "</section>";
}

std::string section_markdown(const std::vector<DocSection>& all, CeilingNotes& notes) {
  std::string out;
  for (const auto& s : all) out += section_markdown(s, notes);
  return out;
}

std::string section_html(const std::vector<DocSection>& all, CeilingNotes& notes, double threshold) {
  std::string out;
  for (const auto& s : all) out += section_html(s, notes, threshold);
  return out;
}

std::string section_console(const DocSection& s) {
  if (empty(s)) return "";
  std::string out = "# " + s.title + ":\n";
  for (const auto& p : s.paragraphs) out += "#   " + p + "\n";
  for (const auto& item : s.items) out += "#   " + item + "\n";
  for (const auto& t : s.tables) out += table_console(t);
  for (const auto& sub : s.subsections) out += section_console(sub);
  return out;
}

}  // namespace gpunet::report

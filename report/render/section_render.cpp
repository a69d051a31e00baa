#include "report/render/section_render.hpp"

#include <algorithm>

#include "report/text/escape.hpp"

namespace gpunet::report {

namespace {

std::string md_heading(int level) { return std::string(static_cast<size_t>(std::clamp(level, 1, 6)), '#'); }
std::string html_heading(int level) { return "h" + std::to_string(std::clamp(level, 1, 6)); }

std::string banner_markdown(const DocSection& s) {
  std::string out = "# gpunet-bench report\n\n**" + md_escape(s.title) + "**\n\n";
  for (const auto& item : s.items) out += "- " + md_escape(item) + "\n";
  return out;
}

std::string banner_html(const DocSection& s) {
  std::string out = "<header class=\"verdict " + html_escape(s.banner) + "\"><h1>gpunet-bench: " + html_escape(s.banner) + "</h1>";
  for (const auto& item : s.items) out += "<p>" + html_escape(item) + "</p>";
  return out + "</header>";
}

std::string items_markdown(const DocSection& s) {
  std::string out = s.items.empty() ? "" : "\n";
  for (size_t i = 0; i < s.items.size(); ++i)
    out += s.cited ? "[" + std::to_string(i + 1) + "] " + md_escape(s.items[i]) + "  \n" : "- " + md_escape(s.items[i]) + "\n";
  return out;
}

std::string items_html(const DocSection& s) {
  if (s.items.empty()) return "";
  std::string out = s.cited ? "<ol class=\"ceil\">" : "<ul>";
  for (size_t i = 0; i < s.items.size(); ++i)
    out += (s.cited ? "<li id=\"c" + std::to_string(i + 1) + "\">" : "<li>") + html_escape(s.items[i]) + "</li>";
  return out + (s.cited ? "</ol>" : "</ul>");
}

}  // namespace

std::string section_markdown(const DocSection& s, int level) {
  if (empty(s)) return "";
  if (!s.banner.empty()) return banner_markdown(s);
  std::string out = "\n" + md_heading(level) + " " + md_escape(s.title) + "\n";
  for (const auto& p : s.paragraphs) out += "\n" + md_escape(p) + "\n";
  out += items_markdown(s);
  if (s.drawings.count > 0)
    out += "\n" + std::to_string(s.drawings.count) + (s.drawings.count == 1 ? " drawing" : " drawings") + " in report.html.\n";
  for (const auto& t : s.tables) out += table_markdown(t, md_heading(level + 1));
  for (const auto& line : s.closing) out += "\n" + md_escape(line) + "\n";
  if (!s.code.empty()) out += "\n```sh\n" + s.code + "```\n";
  for (const auto& sub : s.subsections) out += section_markdown(sub, level + 1);
  return out;
}

std::string section_html(const DocSection& s, double threshold, int level) {
  if (empty(s)) return "";
  if (!s.banner.empty()) return banner_html(s);
  const std::string h = html_heading(level);
  std::string out = s.id.empty() ? "" : "<section id=\"" + html_escape(s.id) + "\">";
  if (s.prominent) out += "<div class=\"prominent\">";
  out += "<" + h + ">" + html_escape(s.title) + "</" + h + ">";
  for (const auto& p : s.paragraphs) out += "<p>" + html_escape(p) + "</p>";
  out += items_html(s);
  out += s.drawings.html;
  for (const auto& t : s.tables) out += table_html(t, threshold, html_heading(level + 1));
  for (const auto& line : s.closing) out += "<p class=\"note\">" + html_escape(line) + "</p>";
  if (!s.code.empty()) out += "<pre>" + html_escape(s.code) + "</pre>";
  for (const auto& sub : s.subsections) out += section_html(sub, threshold, level + 1);
  if (s.prominent) out += "</div>";
  return s.id.empty() ? out : out + "</section>";
}

std::string section_markdown(const std::vector<DocSection>& all) {
  std::string out;
  for (const auto& s : all) out += section_markdown(s);
  return out;
}

std::string section_html(const std::vector<DocSection>& all, double threshold) {
  std::string out;
  for (const auto& s : all) out += section_html(s, threshold);
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

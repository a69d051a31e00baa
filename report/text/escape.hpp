// Escaping for every output format. Strings from records (host names, interfaces, reasons) are hostile
// until escaped: nothing a record carries can inject markup into a report.
#pragma once

#include <string>
#include <string_view>

namespace gpunet::report {

// & < > " ' as entities.
std::string html_escape(std::string_view s);
// Backslash-escapes Markdown punctuation (\ ` * [ ] < | & ~, and _ at word edges) and folds line
// breaks and control characters into spaces, so a string stays inside one table cell.
std::string md_escape(std::string_view s);
// XML 1.0 text and attributes: & < > " ' as entities; characters XML cannot carry become '?'.
std::string xml_escape(std::string_view s);
// An XML attribute value with its quotes: "escaped".
inline std::string xml_attr(std::string_view s) { return "\"" + xml_escape(s) + "\""; }
// A JSON string, quoted, appended to `out`: plain printable ASCII as it is (the common case, a million
// times in a large report), anything else through nlohmann's escaper, where invalid UTF-8 is refused
// (json::type_error, as a strict dump) or replaced with U+FFFD. The same text as json(s).dump().
enum class InvalidUtf8 { refuse, replace };
void append_json_string(std::string& out, std::string_view s, InvalidUtf8 invalid);
// One RFC 4180 field: quoted when needed; text that a spreadsheet would run as a formula (= + - @)
// gets a leading apostrophe.
std::string csv_field(std::string_view s);

}  // namespace gpunet::report

#include "report/text/escape.hpp"

#include <algorithm>
#include <cctype>

#include "common/json.hpp"

namespace gpunet::report {

std::string html_escape(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += c;
    }
  }
  return out;
}

void append_json_string(std::string& out, std::string_view s, InvalidUtf8 invalid) {
  const bool plain = std::all_of(s.begin(), s.end(), [](char c) {
    const auto u = static_cast<unsigned char>(c);
    return u >= 0x20 && u <= 0x7e && c != '"' && c != '\\';
  });
  if (!plain) {
    const auto handler = invalid == InvalidUtf8::replace ? gpunet::json::error_handler_t::replace : gpunet::json::error_handler_t::strict;
    out += gpunet::json(std::string(s)).dump(-1, ' ', false, handler);
    return;
  }
  out += '"';
  out += s;
  out += '"';
}

std::string md_escape(std::string_view s) {
  auto alnum = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; };
  std::string out;
  out.reserve(s.size() + 8);
  for (size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    const auto u = static_cast<unsigned char>(c);
    if (u < 0x20 || u == 0x7f) {
      out += ' ';
      continue;
    }
    switch (c) {
      case '\\': case '`': case '*': case '[': case ']': case '<': case '|': case '&': case '~':
        out += '\\';
        out += c;
        break;
      case '_': {
        const bool inner = i > 0 && i + 1 < s.size() && alnum(s[i - 1]) && alnum(s[i + 1]);
        if (!inner) out += '\\';
        out += c;
        break;
      }
      default: out += c;
    }
  }
  return out;
}

std::string xml_escape(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (char c : s) {
    const auto u = static_cast<unsigned char>(c);
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&apos;"; break;
      default: out += (u < 0x20 && c != '\t' && c != '\n' && c != '\r') ? '?' : c;
    }
  }
  return out;
}

std::string csv_field(std::string_view s) {
  std::string v(s);
  if (!v.empty() && (v[0] == '=' || v[0] == '+' || v[0] == '-' || v[0] == '@' || v[0] == '\t' || v[0] == '\r'))
    v.insert(v.begin(), '\'');
  if (v.find_first_of(",\"\r\n") == std::string::npos) return v;
  std::string out = "\"";
  for (char c : v) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

}  // namespace gpunet::report

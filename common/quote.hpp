// How a message quotes what a user gave (an option's value, a path): short, whatever its size.
#pragma once

#include <string>
#include <string_view>

namespace gpunet {

// `text` as a message quotes it: whole up to `keep` characters, else its first `keep` characters,
// "...", and how long it was, so that a 100 KB value does not make a 100 KB error line.
inline std::string clipped(std::string_view text, size_t keep = 80) {
  if (text.size() <= keep) return std::string(text);
  return std::string(text.substr(0, keep)) + "... (" + std::to_string(text.size()) + " characters)";
}

// `message` with every stretch between single quotes clipped to `keep` characters (clipped above),
// and the whole line to `line` characters: an error that echoes an option's value stays short.
inline std::string clip_quoted(std::string_view message, size_t keep = 80, size_t line = 1000) {
  std::string out;
  size_t at = 0;
  while (at < message.size()) {
    const size_t open = message.find('\'', at);
    const size_t close = open == std::string_view::npos ? open : message.find('\'', open + 1);
    if (close == std::string_view::npos) {
      out += message.substr(at);
      break;
    }
    out += message.substr(at, open + 1 - at);
    out += clipped(message.substr(open + 1, close - open - 1), keep);
    out += '\'';
    at = close + 1;
  }
  return clipped(out, line);
}

}  // namespace gpunet

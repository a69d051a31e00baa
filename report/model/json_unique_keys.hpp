// Duplicate keys in a JSON input are refused: JSON readers disagree on which of two equal keys counts
// (nlohmann keeps the last), so a spec with "bandwidth" twice would silently drop a promise. UniqueKeySax
// sits in front of any SAX consumer, forwards every event and stops the parse at the first key that an
// open object already holds, naming the key and its path ("bandwidth", "nic.count", "results[3].name").
// Memory: the keys of the objects open at the moment, so linear in the file at worst.
// It also refuses a number no gpunet-bench file holds: one larger than 1e100 or smaller than 1e-100 in
// size (0 aside). Every quantity a run measures lies far inside, and sums, squares, products and
// quotients of numbers within the range stay finite, so no figure derived from a file prints inf or nan.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <unordered_set>
#include <vector>

#include "common/json.hpp"

namespace gpunet::report {

class UniqueKeySax final : public nlohmann::json_sax<gpunet::json> {
 public:
  explicit UniqueKeySax(nlohmann::json_sax<gpunet::json>& inner) : inner_(inner) {}

  bool null() override { return value() && inner_.null(); }
  bool boolean(bool v) override { return value() && inner_.boolean(v); }
  bool number_integer(number_integer_t v) override { return value() && inner_.number_integer(v); }
  bool number_unsigned(number_unsigned_t v) override { return value() && inner_.number_unsigned(v); }
  bool number_float(number_float_t v, const string_t& s) override {
    return value() && in_range(v, s) && inner_.number_float(v, s);
  }
  bool string(string_t& v) override { return value() && inner_.string(v); }
  bool binary(binary_t& v) override { return value() && inner_.binary(v); }
  bool start_object(std::size_t n) override;
  bool start_array(std::size_t n) override;
  bool end_object() override;
  bool end_array() override;
  bool key(string_t& k) override;
  bool parse_error(std::size_t position, const std::string& token, const nlohmann::detail::exception& e) override {
    return inner_.parse_error(position, token, e);
  }

  // Empty while no key repeated and every number was in range; else one line: duplicate key "KEY" at
  // PATH (... remove one), or PATH: the number TEXT is out of range (...).
  const std::string& refusal() const { return refusal_; }

 private:
  // Objects: the keys seen so far, the last being the key being read. A record's objects hold a few
  // dozen keys, searched in place; an object past kSearchedInPlace keys gets a hash set.
  struct Frame {
    bool object = false;
    std::vector<std::string> keys;
    std::unique_ptr<std::unordered_set<std::string>> many;
    std::size_t index = 0;  // arrays: the element being read
  };
  static constexpr std::size_t kSearchedInPlace = 32;
  static bool seen_before(Frame& f, const std::string& k);  // adds k to f's keys
  bool value();  // a value is about to be read in the innermost container
  bool in_range(double v, const string_t& text);
  std::string path() const;

  nlohmann::json_sax<gpunet::json>& inner_;
  std::vector<Frame> frames_;
  std::string refusal_;
};

// The sizes a number in a gpunet-bench file may have (besides 0).
inline constexpr double kLargestFileNumber = 1e100;
inline constexpr double kSmallestFileNumber = 1e-100;

}  // namespace gpunet::report

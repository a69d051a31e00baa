// Seeded, reproducible mutations of input files for the fuzz tests: the same seed gives the same
// cases on every machine (a fixed generator and no library distributions).
#pragma once

#include <cstdint>
#include <string>

namespace gpunet::fuzz {

// SplitMix64: small, fully specified, the same sequence everywhere.
class Rng {
 public:
  explicit Rng(uint64_t seed) : state_(seed) {}
  uint64_t next();
  // Uniform enough in [0, n); n > 0.
  std::size_t below(std::size_t n) { return static_cast<std::size_t>(next() % n); }
  bool one_in(std::size_t n) { return below(n) == 0; }

 private:
  uint64_t state_;
};

// A hostile scalar as JSON text: 1e999, -1e999, NaN, 99999999999999999999999, deep brackets, ...
std::string hostile_json_value(Rng& rng);

// One to three mutations of a JSON document: byte flips, truncation, a duplicated slice, a value
// replaced by a hostile one or a wrong type, a key renamed or removed, deep nesting.
std::string mutate_json(const std::string& seed, Rng& rng);

// One to three mutations of an XML document: byte flips, truncation, a duplicated slice, an
// attribute renamed, removed or given a hostile value, an element duplicated, removed or nested
// deeply, an internal DTD with entities.
std::string mutate_xml(const std::string& seed, Rng& rng);

// One to three mutations of a Slurm topology.conf: byte flips, truncation, a duplicated slice, a word
// replaced by a hostile one (huge or backwards ranges, nested or unclosed brackets, unknown keys,
// empty values), a line duplicated or removed.
std::string mutate_conf(const std::string& seed, Rng& rng);

}  // namespace gpunet::fuzz

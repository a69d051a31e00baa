// The project's JSON objects (common/json.hpp): one sorted vector per object instead of a tree.
// They must behave as the library's std::map objects did: the same keys, the same order, the same
// answers to find, count, erase and insert, and the same text for the same document.
#include <map>
#include <random>
#include <string>

#include <gtest/gtest.h>

#include "common/json.hpp"

namespace {

using gpunet::json;
using TreeJson = nlohmann::json;  // the library's own, objects as std::map

std::string random_key(std::mt19937& rng) {
  static const char* const kKeys[] = {"a", "b", "link", "dst_link", "cpu", "extra", "z", "speed_Mbps", "", "A", "aa", "b0",
                                      "a_very_long_key_past_the_short_string_buffer"};
  return kKeys[rng() % std::size(kKeys)];
}

// A random document of objects, arrays and scalars, keys repeated within an object.
std::string random_document(std::mt19937& rng, int depth) {
  const int kind = depth > 3 ? static_cast<int>(rng() % 3) : static_cast<int>(rng() % 5);
  switch (kind) {
    case 0: return std::to_string(static_cast<int>(rng() % 2000) - 1000);
    case 1: return "\"" + random_key(rng) + "\"";
    case 2: return rng() % 2 ? "true" : "null";
    case 3: {
      std::string s = "[";
      for (int n = static_cast<int>(rng() % 4), i = 0; i < n; ++i) s += (i ? "," : "") + random_document(rng, depth + 1);
      return s + "]";
    }
    default: {
      std::string s = "{";
      for (int n = static_cast<int>(rng() % 8), i = 0; i < n; ++i)
        s += (i ? ",\"" : "\"") + random_key(rng) + "\":" + random_document(rng, depth + 1);
      return s + "}";
    }
  }
}

TEST(JsonObjects, AnswerAsAStdMapDoesUnderRandomChanges) {
  std::mt19937 rng(7);
  gpunet::SortedVectorMap<std::string, int> flat;
  std::map<std::string, int, std::less<>> tree;
  for (int step = 0; step < 20000; ++step) {
    const std::string key = random_key(rng) + std::to_string(rng() % 40);
    const int value = static_cast<int>(rng() % 100);
    switch (rng() % 5) {
      case 0: EXPECT_EQ(flat.emplace(key, value).second, tree.emplace(key, value).second); break;
      case 1: EXPECT_EQ(flat.insert_or_assign(key, value).second, tree.insert_or_assign(key, value).second); break;
      case 2: EXPECT_EQ(flat.erase(key), tree.erase(key)); break;
      case 3:
        flat[key] += value;
        tree[key] += value;
        break;
      default: {
        const auto f = flat.find(key);
        const auto t = tree.find(key);
        ASSERT_EQ(f == flat.end(), t == tree.end()) << key;
        if (t != tree.end()) {
          EXPECT_EQ(f->second, t->second);
        }
      }
    }
    ASSERT_EQ(flat.size(), tree.size());
  }
  auto t = tree.begin();
  for (const auto& [k, v] : flat) {
    EXPECT_EQ(k, t->first);
    EXPECT_EQ(v, t->second);
    ++t;
  }
}

TEST(JsonObjects, ReadAndWriteTheSameTextAsTheLibrarysTreeObjects) {
  std::mt19937 rng(11);
  for (int i = 0; i < 3000; ++i) {
    const std::string text = random_document(rng, 0);
    json flat = json::parse(text);
    TreeJson tree = TreeJson::parse(text);
    ASSERT_EQ(flat.dump(), tree.dump()) << text;
    if (flat.is_object()) {
      const std::string key = random_key(rng);
      EXPECT_EQ(flat.erase(key), tree.erase(key));
      EXPECT_EQ(flat.contains("cpu"), tree.contains("cpu"));
      const std::string patch = random_document(rng, 2);
      flat.merge_patch(json::parse(patch));
      tree.merge_patch(TreeJson::parse(patch));
      ASSERT_EQ(flat.dump(), tree.dump()) << text << " patched with " << patch;
    }
  }
}

TEST(JsonObjects, KeysOutOfOrderAndRepeatedEndSortedWithTheLastValue) {
  const json j = json::parse(R"({"z":1,"a":{"y":2,"b":3},"m":4,"z":5})");
  EXPECT_EQ(j.dump(), R"({"a":{"b":3,"y":2},"m":4,"z":5})");
  const json built = {{"q", 1}, {"p", {1, 2}}, {"a", "s"}};
  EXPECT_EQ(built.dump(), R"({"a":"s","p":[1,2],"q":1})");
  EXPECT_EQ(built, json::parse(R"({"q":1,"a":"s","p":[1,2]})"));
}

}  // namespace

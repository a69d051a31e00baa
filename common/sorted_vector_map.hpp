// A map kept as one sorted vector of key-value pairs: the object type of the project's JSON
// (common/json.hpp). A JSON object of a result record has a few to a few dozen keys and is read far
// more often than it is changed; one contiguous block costs one allocation instead of one per key,
// half the memory of a tree, and a lookup touches neighbouring cache lines. Iteration is in key
// order, as std::map's, so every document keeps its key order. Inserting at the end (keys arriving
// in order, as a written document's do) is amortised O(1); elsewhere it moves the later pairs.
#pragma once

#include <algorithm>
#include <cstddef>
#include <functional>
#include <initializer_list>
#include <iterator>
#include <memory>
#include <stdexcept>
#include <utility>
#include <vector>

namespace gpunet {

// The signature is what nlohmann::basic_json asks of an object type: <key, value, compare, allocator
// of pair<const key, value>>. The pairs are stored with a mutable key so that they can be moved; no
// caller can reach a key to change it (the JSON library hands out const keys only).
template <class Key, class T, class Compare = std::less<>, class PairAllocator = std::allocator<std::pair<const Key, T>>>
class SortedVectorMap
    : public std::vector<std::pair<Key, T>,
                         typename std::allocator_traits<PairAllocator>::template rebind_alloc<std::pair<Key, T>>> {
 public:
  using Container = std::vector<std::pair<Key, T>,
                                typename std::allocator_traits<PairAllocator>::template rebind_alloc<std::pair<Key, T>>>;
  using key_type = Key;
  using mapped_type = T;
  using key_compare = Compare;
  using value_type = typename Container::value_type;
  using iterator = typename Container::iterator;
  using const_iterator = typename Container::const_iterator;
  using size_type = typename Container::size_type;

  SortedVectorMap() = default;
  template <class It>
  SortedVectorMap(It first, It last) {
    for (; first != last; ++first) emplace(first->first, first->second);
  }
  SortedVectorMap(std::initializer_list<value_type> init) : SortedVectorMap(init.begin(), init.end()) {}

  template <class K>
  iterator find(const K& key) {
    const auto it = lower(key);
    return it != this->end() && !less_(key, it->first) ? it : this->end();
  }
  template <class K>
  const_iterator find(const K& key) const {
    return const_cast<SortedVectorMap*>(this)->find(key);
  }
  template <class K>
  size_type count(const K& key) const {
    return find(key) == this->end() ? 0 : 1;
  }
  template <class K>
  T& at(const K& key) {
    const auto it = find(key);
    if (it == this->end()) throw std::out_of_range("key not found");
    return it->second;
  }
  template <class K>
  const T& at(const K& key) const {
    return const_cast<SortedVectorMap*>(this)->at(key);
  }
  template <class K>
  T& operator[](K&& key) {
    return emplace(std::forward<K>(key), T{}).first->second;
  }

  // Inserts (key, value) unless the key is there; the bool says whether it was inserted.
  template <class K, class V>
  std::pair<iterator, bool> emplace(K&& key, V&& value) {
    // Keys in order arrive at the end: try it first.
    if (this->empty() || less_(this->back().first, key))
      return {Container::emplace(this->end(), std::forward<K>(key), std::forward<V>(value)), true};
    const auto it = lower(key);
    if (it != this->end() && !less_(key, it->first)) return {it, false};
    return {Container::emplace(it, std::forward<K>(key), std::forward<V>(value)), true};
  }
  template <class K, class V>
  std::pair<iterator, bool> insert_or_assign(K&& key, V&& value) {
    if (const auto it = find(key); it != this->end()) {
      it->second = std::forward<V>(value);
      return {it, false};
    }
    return emplace(std::forward<K>(key), std::forward<V>(value));
  }
  std::pair<iterator, bool> insert(const value_type& v) { return emplace(v.first, v.second); }
  std::pair<iterator, bool> insert(value_type&& v) { return emplace(std::move(v.first), std::move(v.second)); }
  template <class It, class = typename std::iterator_traits<It>::iterator_category>
  void insert(It first, It last) {
    for (; first != last; ++first) emplace(first->first, first->second);
  }

  template <class K, class = std::enable_if_t<!std::is_convertible_v<K, const_iterator>>>
  size_type erase(const K& key) {
    const auto it = find(key);
    if (it == this->end()) return 0;
    Container::erase(it);
    return 1;
  }
  iterator erase(const_iterator pos) { return Container::erase(pos); }
  iterator erase(iterator pos) { return Container::erase(pos); }
  iterator erase(const_iterator first, const_iterator last) { return Container::erase(first, last); }

 private:
  template <class K>
  iterator lower(const K& key) {
    return std::lower_bound(this->begin(), this->end(), key,
                            [this](const value_type& p, const K& k) { return less_(p.first, k); });
  }
  Compare less_{};
};

}  // namespace gpunet

// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// Unbalanced tree search: count the nodes of a tree whose shape is only known by walking it.
// The tree is a binomial one, as in the UTS benchmark's T3 (Olivier et al., "UTS: An Unbalanced
// Tree Search Benchmark", LCPC 2006), with rounds of splitmix64 in place of SHA-1 (the work done
// at each node): the root has root_children children; every other node has m children with
// probability q, else none.
// With m * q just below 1 each root child's subtree is small on average but its size varies
// wildly, so static splitting fails and only dynamic load balancing keeps threads busy.

#ifndef BOOST_FORK_JOIN_BENCH_UTS_UTS_HPP
#define BOOST_FORK_JOIN_BENCH_UTS_UTS_HPP

#include "../bench.hpp"

#include <boost/container/small_vector.hpp>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace bench {
namespace uts {

  struct tree
  {
    std::uint64_t root;
    unsigned root_children;
    unsigned m;
    std::uint64_t threshold; // a node has m children when its hash is below threshold
    unsigned rounds;         // of splitmix64 per node's hash, about 3 ns each
  };

  // q = 0.124875, m = 8 (UTS's T3), 20 hash rounds per node (about 65 ns of work); roots
  // picked, out of a few hundred, for a tree of a useful size:
  // quick: 8171 nodes, 87 deep; full: 8531593 nodes, 2538 deep (about 0.55 s serially).
  inline tree size(scale s)
  {
    const std::uint64_t threshold = static_cast<std::uint64_t>(0.124875 * 18446744073709551616.0);
    return s == scale::quick ? tree{24, 50, 8, threshold, 20} : tree{274, 2000, 8, threshold, 20};
  }

  inline unsigned child_count(const tree& t, std::uint64_t id)
  {
    if (id == t.root)
      return t.root_children;
    std::uint64_t hash = id;
    for (unsigned i = 0; i < t.rounds; ++i)
      hash = splitmix64(hash);
    return hash < t.threshold ? t.m : 0;
  }

  inline std::uint64_t child_id(std::uint64_t id, unsigned i)
  {
    return splitmix64(id + (i + 1) * 0xd1b54a32d192ed03u);
  }

  // Where a future-based peer keeps the futures of a node's forked children: in place for the
  // m - 1 of an inner node, on the heap only for the root's many, as child_counts keeps counts
  // (a std::vector would add a heap allocation per inner node that the other peers do not pay).
  template <class Future>
  using child_futures = boost::container::small_vector<Future, 8>;

  // Where a parallel peer's tasks leave their subtrees' counts: in place for the m children of
  // an inner node, on the heap only for the root's many.
  class child_counts
  {
  public:
    explicit child_counts(unsigned k) : heap_(k > inline_size ? new std::uint64_t[k] : nullptr) {}

    std::uint64_t& operator[](unsigned i) { return heap_ ? heap_[i] : local_[i]; }

    // Returns: the sum of the first k counts.
    std::uint64_t sum(unsigned k)
    {
      std::uint64_t total = 0;
      for (unsigned i = 0; i < k; ++i)
        total += (*this)[i];
      return total;
    }

  private:
    static constexpr unsigned inline_size = 8;
    std::uint64_t local_[inline_size];
    std::unique_ptr<std::uint64_t[]> heap_;
  };

  // For the peers whose fork/join primitive takes a fixed number of callables (parallel_invoke):
  // counts the subtrees of children first .. last - 1 of a node, with one invoke of m callables
  // per group of m children (every inner node but the root has exactly m), so that an inner
  // node nests one invoke deep, as it nests one join deep for the fork/join peers. The root's
  // children are halved, on multiples of m, down to such groups; any other range, in halves.
  // invoke(f, g, ...) runs the callables possibly in parallel and returns when all have
  // finished; count_child(i) counts the subtree of child i.
  inline constexpr unsigned invoke_group = 8;

  template <class Invoke, class CountChild, std::size_t... I>
  std::uint64_t count_group(Invoke& invoke, CountChild& count_child, unsigned first, std::index_sequence<I...>)
  {
    std::uint64_t counts[sizeof...(I)] = {};
    invoke([&counts, &count_child, first] { counts[I] = count_child(first + static_cast<unsigned>(I)); }...);
    std::uint64_t total = 0;
    for (std::uint64_t c : counts)
      total += c;
    return total;
  }

  template <class Invoke, class CountChild>
  std::uint64_t count_children(Invoke& invoke, CountChild& count_child, unsigned first, unsigned last)
  {
    const unsigned n = last - first;
    if (n == 1)
      return count_child(first);
    if (n == invoke_group)
      return count_group(invoke, count_child, first, std::make_index_sequence<invoke_group>());
    unsigned half = n / 2 / invoke_group * invoke_group;
    if (half == 0)
      half = n / 2;
    const unsigned middle = first + half;
    std::uint64_t low = 0, high = 0;
    invoke([&] { high = count_children(invoke, count_child, middle, last); },
           [&] { low = count_children(invoke, count_child, first, middle); });
    return low + high;
  }

  // The node count by an explicit-stack walk, to check the serial peer's recursion.
  inline std::uint64_t iterative_count(const tree& t)
  {
    std::uint64_t count = 0;
    std::vector<std::uint64_t> pending{t.root};
    while (!pending.empty())
    {
      const std::uint64_t id = pending.back();
      pending.pop_back();
      ++count;
      const unsigned k = child_count(t, id);
      for (unsigned i = 0; i < k; ++i)
        pending.push_back(child_id(id, i));
    }
    return count;
  }

} // namespace uts
} // namespace bench

#endif // header

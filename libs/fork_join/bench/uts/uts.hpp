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

#include <cstdint>
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

  // q = 0.124875, m = 8 (UTS's T3); roots picked for a tree of a useful size:
  // quick: 4387 nodes, 63 deep; full: 896561 nodes, 1121 deep.
  inline tree size(scale s)
  {
    const std::uint64_t threshold = static_cast<std::uint64_t>(0.124875 * 18446744073709551616.0);
    return s == scale::quick ? tree{1, 50, 8, threshold, 64} : tree{5, 2000, 8, threshold, 64};
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

// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// Joins in fork order: the commonest way to write fork/join is to fork the children,
// then join them one by one in the order they were forked. The first join then waits for the
// oldest child, which sits under its younger siblings in the forking thread's deque. Two
// workloads share this folder:
//  - order_chain: every level forks the rest of the chain, then a leaf, and joins the two in
//    that order (the rest of the chain sits under the leaf);
//  - order_tree:  every node forks four children and joins them in fork order.
// The fork_join peers differ only in how they join (fork_join.cpp): each child's member join()
// (fork_join), join(pool, first, first + 1) per child (fork_join_range_each), both in fork order,
// and the baseline that needs no order at all, one join(pool, first, last) over the children
// (fork_join_range). oneTBB's task_group waits for all children at once, like the baseline.
// Answers: order_chain sums each level's inline part and its leaf's 1, n (n + 1) / 2 + n for
// n levels; order_tree counts its nodes.

#ifndef BOOST_FORK_JOIN_BENCH_FORK_ORDER_FORK_ORDER_HPP
#define BOOST_FORK_JOIN_BENCH_FORK_ORDER_FORK_ORDER_HPP

#include "../chain/chain.hpp"

#include <cstdint>

namespace bench {
namespace fork_order {

  inline constexpr const char* chain_name = "order_chain";
  inline constexpr const char* tree_name = "order_tree";
  inline constexpr unsigned fan_out = 4;

  // Levels of the chain: 1000 (the deep case; four times the 256 spare threads a pool could
  // start before frames parked), 100 with --quick.
  inline unsigned chain_levels(scale s) { return s == scale::full ? 1000 : 100; }

  // Depth of the tree: 8 (87381 nodes), 4 with --quick (341).
  inline unsigned tree_depth(scale s) { return s == scale::full ? 8 : 4; }

  inline std::uint64_t chain_answer(unsigned n) { return chain::closed_form(n) + n; }

  inline std::uint64_t tree_nodes(unsigned depth)
  {
    std::uint64_t nodes = 1, level = 1;
    for (unsigned d = 0; d < depth; ++d)
      nodes += level *= fan_out;
    return nodes;
  }

  // A leaf's work: 1, hidden from the optimiser.
  inline std::uint64_t leaf()
  {
    std::uint64_t v = 1;
    fib::opaque(v);
    return v;
  }

  __attribute__((noinline)) inline std::uint64_t serial_chain(unsigned n)
  {
    if (n == 0)
      return 0;
    std::uint64_t below = serial_chain(n - 1);
    fib::opaque(below);
    return chain::inline_part(n) + below + leaf();
  }

  __attribute__((noinline)) inline std::uint64_t serial_tree(unsigned depth)
  {
    if (depth == 0)
      return leaf();
    std::uint64_t nodes = 1;
    for (unsigned i = 0; i < fan_out; ++i)
    {
      std::uint64_t child = serial_tree(depth - 1);
      fib::opaque(child);
      nodes += child;
    }
    return nodes;
  }

} // namespace fork_order
} // namespace bench

#endif // header

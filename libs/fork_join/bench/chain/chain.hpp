// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// A deep chain: every level forks one child, does a trivial part inline and joins the child,
// and the chain goes on in the child. Nothing runs in parallel; the question is who survives
// 10^4 and 10^5 levels of nested joins, and at what cost per level. A runtime whose join runs
// the child on the joiner's stack nests one frame set per level and overflows its stack.
//
// Two workloads, chain_1e4 and chain_1e5, share this folder: each peer's file registers both.
// The answer is the sum of every level's inline part, n (n + 1) / 2 for n levels, so a level
// that did not run (or ran twice) shows.

#ifndef BOOST_FORK_JOIN_BENCH_CHAIN_CHAIN_HPP
#define BOOST_FORK_JOIN_BENCH_CHAIN_CHAIN_HPP

#include "../fib/fib.hpp"

#include <cstdint>

namespace bench {
namespace chain {

  // The two workloads' names and full sizes; --quick keeps them short enough for every peer.
  inline constexpr unsigned short_levels = 10000, long_levels = 100000;
  inline constexpr const char* short_name = "chain_1e4";
  inline constexpr const char* long_name = "chain_1e5";

  inline unsigned size(scale s, unsigned full_levels)
  {
    if (s == scale::full)
      return full_levels;
    return full_levels == short_levels ? 1000 : 2000;
  }

  // The trivial part each level does inline: its own level, hidden from the optimiser.
  inline std::uint64_t inline_part(unsigned level)
  {
    std::uint64_t v = level;
    fib::opaque(v);
    return v;
  }

  // One real call per level (noinline, and opaque() keeps GCC from turning it into a loop).
  __attribute__((noinline)) inline std::uint64_t serial_chain(unsigned n)
  {
    if (n == 0)
      return 0;
    const std::uint64_t here = inline_part(n);
    std::uint64_t below = serial_chain(n - 1);
    fib::opaque(below);
    return here + below;
  }

  inline std::uint64_t closed_form(unsigned n) { return static_cast<std::uint64_t>(n) * (n + 1) / 2; }

} // namespace chain
} // namespace bench

#endif // header

// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// N-queens, the nqueens kernel of libfork's benchmark suite
// (https://github.com/ConorWilliams/libfork, bench/): count the ways to place n queens on an
// n x n board, no two attacking each other, row by row: a fork per legal placement of the next
// row's queen. A board (the columns of the queens placed so far) is copied into each child and
// each placement is checked against every queen above it, as there, so a task does a few dozen
// instructions of work.

#ifndef BOOST_FORK_JOIN_BENCH_NQUEENS_NQUEENS_HPP
#define BOOST_FORK_JOIN_BENCH_NQUEENS_NQUEENS_HPP

#include "../bench.hpp"

#include <array>
#include <cstdint>
#include <string>

namespace bench {
namespace nqueens {

  // n = 12 (quick: 8).
  inline int size(scale s) { return s == scale::quick ? 8 : 12; }

  // The published solution counts (OEIS A000170) for the two sizes.
  inline std::uint64_t known_count(scale s) { return s == scale::quick ? 92 : 14200; }

  inline constexpr int max_n = 12;

  // The queens of the first `rows` rows: row r's in column column[r].
  struct board
  {
    int rows;
    std::array<signed char, max_n> column;
  };

  // Returns: whether a queen in the next row, column c, is attacked by none on b.
  inline bool legal(const board& b, int c)
  {
    for (int r = 0; r < b.rows; ++r)
    {
      const int distance = b.rows - r, other = b.column[r];
      if (other == c || other - c == distance || c - other == distance)
        return false;
    }
    return true;
  }

  // The boards one legal placement further than b, in column order.
  struct placements
  {
    int count;
    std::array<board, max_n> next;
  };

  // noinline, aligned(64): every peer runs the same machine code for the kernel's loop (one
  // out-of-line copy, starting on a cache line), so that a peer's time does not depend on how
  // the compiler lays the loop out beside that peer's scheduling code, nor on where the linker
  // puts it, as matmul.hpp's multiply_leaf.
  __attribute__((noinline, aligned(64))) inline placements place_next_row(const board& b, int n)
  {
    placements p;
    p.count = 0;
    for (int c = 0; c < n; ++c)
      if (legal(b, c))
      {
        board& child = p.next[p.count++];
        child = b;
        child.column[b.rows] = static_cast<signed char>(c);
        ++child.rows;
      }
    return p;
  }

  // Returns: the number of ways to complete b, with fork_each(k, f): runs f(0) .. f(k - 1),
  // possibly in parallel, and returns when all have finished; the one thing a peer on a task
  // group or task block supplies.
  template <class ForkEach>
  std::uint64_t queens(int n, const board& b, ForkEach& fork_each)
  {
    if (b.rows == n)
      return 1;
    const placements p = place_next_row(b, n);
    std::array<std::uint64_t, max_n> counts{};
    fork_each(p.count, [&](int i) { counts[i] = queens(n, p.next[i], fork_each); });
    std::uint64_t total = 0;
    for (int i = 0; i < p.count; ++i)
      total += counts[i];
    return total;
  }

} // namespace nqueens
} // namespace bench

#endif // header

// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// A merge sort of pseudo-random ints: halves are sorted in parallel down to a grain that
// std::sort handles, then merged (serially) into the other buffer, so the two buffers swap
// roles at each level and nothing is copied back.

#ifndef BOOST_FORK_JOIN_BENCH_SORT_SORT_HPP
#define BOOST_FORK_JOIN_BENCH_SORT_SORT_HPP

#include "../bench.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace bench {
namespace sort {

  struct problem
  {
    std::size_t n;
    std::size_t grain; // ranges of at most this many elements are sorted with std::sort
  };

  inline problem size(scale s) { return s == scale::quick ? problem{1 << 16, 1 << 10} : problem{10000000, 10000}; }

  // Returns: n pseudo-random ints, the same for every call (par_sort sorts them too).
  inline std::vector<int> random_ints(std::size_t n)
  {
    std::vector<int> v(n);
    for (std::size_t i = 0; i < n; ++i)
      v[i] = static_cast<int>(static_cast<std::uint32_t>(splitmix64(i)));
    return v;
  }

  // Returns: an order-dependent checksum of v: equal for two arrays only if (barring a
  // collision) they hold the same values in the same order.
  inline std::uint64_t digest(const std::vector<int>& v)
  {
    std::uint64_t h = 0;
    for (int x : v)
      h = splitmix64(h ^ static_cast<std::uint32_t>(x));
    return h;
  }

  // What a peer sorts: the same pseudo-random input, restored before every run.
  struct buffers
  {
    explicit buffers(std::size_t n) : input(random_ints(n)), data(n), scratch(n) {}

    void reset() { std::copy(input.begin(), input.end(), data.begin()); }

    std::uint64_t digest() const { return sort::digest(data); }

    std::vector<int> input, data, scratch;
  };

  // The steps every peer's recursion shares. sort(a, b, n, into_b) sorts the n elements that
  // start at a, leaving the result at b if into_b, else at a; the other range is scratch.
  // noinline: every peer runs the same machine code for them (one out-of-line copy), so a
  // peer's time does not depend on how the compiler allocates registers for a merge loop
  // inlined beside that peer's scheduling code (a change in the library's inlining once moved
  // the fork peer's merge by 12%, doc/benchmark/README.md, "Traces off and on").

  // Effects: the whole sort for n <= grain.
  __attribute__((noinline)) inline void sort_leaf(int* a, int* b, std::size_t n, bool into_b)
  {
    if (into_b)
    {
      std::copy(a, a + n, b);
      std::sort(b, b + n);
    }
    else
      std::sort(a, a + n);
  }

  // Requires: [0, half) and [half, n) were sorted with !into_b.
  // Effects: merges them to where sort(a, b, n, into_b) leaves its result.
  __attribute__((noinline)) inline void merge_halves(int* a, int* b, std::size_t n, std::size_t half, bool into_b)
  {
    int* const from = into_b ? a : b;
    int* const to = into_b ? b : a;
    std::merge(from, from + half, from + half, from + n, to);
  }

} // namespace sort
} // namespace bench

#endif // header

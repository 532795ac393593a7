// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// A library's own parallel sort of the sort workload's input, in place: this library's
// parallel_sort and oneTBB's parallel_sort (both parallel quicksorts, each with its own grain)
// against std::sort. The sort workload's merge sort, written with each library's fork and join,
// sorts the same ints.

#ifndef BOOST_FORK_JOIN_BENCH_PAR_SORT_PAR_SORT_HPP
#define BOOST_FORK_JOIN_BENCH_PAR_SORT_PAR_SORT_HPP

#include "../sort/sort.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace bench {
namespace par_sort {

  // Returns: how many ints are sorted.
  inline std::size_t size(scale s) { return sort::size(s).n; }

  // What a peer sorts: the same pseudo-random input, restored before every run.
  struct buffers
  {
    explicit buffers(std::size_t n) : input(sort::random_ints(n)), data(n) {}

    void reset() { std::copy(input.begin(), input.end(), data.begin()); }

    std::uint64_t digest() const { return sort::digest(data); }

    std::vector<int> input, data;
  };

} // namespace par_sort
} // namespace bench

#endif // header

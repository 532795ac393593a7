// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// A flat data-parallel loop: out[i] = work(in[i]) over an array, a few nanoseconds per element,
// so the time is the loop's, the chunking's and the memory's. Every parallel peer cuts the
// range into chunks of about `grain` elements: halves down to at most `grain` (this library's
// parallel_for with that grain, oneTBB's blocked_range with that grain and a
// simple_partitioner: the same chunks), or chunks of exactly `grain` handed out in turn
// (OpenMP schedule(dynamic, grain)). par_reduce folds the same input.

#ifndef BOOST_FORK_JOIN_BENCH_PAR_FOR_PAR_FOR_HPP
#define BOOST_FORK_JOIN_BENCH_PAR_FOR_PAR_FOR_HPP

#include "../bench.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace bench {
namespace par_for {

  struct problem
  {
    std::size_t n;
    std::size_t grain; // the parallel peers' chunks have at most this many elements
  };

  inline problem size(scale s) { return s == scale::quick ? problem{1 << 16, 1 << 10} : problem{10000000, 10000}; }

  // The work on one element.
  inline std::uint64_t work(std::uint64_t x) { return splitmix64(x); }

  // Returns: the n pseudo-random elements every peer reads.
  inline std::vector<std::uint64_t> input(std::size_t n)
  {
    std::vector<std::uint64_t> v(n);
    for (std::size_t i = 0; i < n; ++i)
      v[i] = splitmix64(i);
    return v;
  }

  // What a peer writes: out, cleared before every run, so that an element a run skips keeps
  // 0 (and the pages are touched before the timed part).
  struct buffers
  {
    explicit buffers(std::size_t n) : in(input(n)), out(n) {}

    void reset() { std::fill(out.begin(), out.end(), 0); }

    // An order-dependent checksum of out: equal for two arrays only if (barring a collision)
    // they hold the same values in the same order.
    std::uint64_t digest() const
    {
      std::uint64_t h = 0;
      for (std::uint64_t v : out)
        h = splitmix64(h ^ v);
      return h;
    }

    std::vector<std::uint64_t> in, out;
  };

} // namespace par_for
} // namespace bench

#endif // header

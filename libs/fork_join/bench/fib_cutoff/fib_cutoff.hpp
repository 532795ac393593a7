// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// fib with a cutoff: calls below the cutoff run serial_fib, so each task carries real work and
// the time measures how well the pool spreads a few thousand tasks over its threads.

#ifndef BOOST_FORK_JOIN_BENCH_FIB_CUTOFF_FIB_CUTOFF_HPP
#define BOOST_FORK_JOIN_BENCH_FIB_CUTOFF_FIB_CUTOFF_HPP

#include "../fib/fib.hpp"

namespace bench {
namespace fib_cutoff {

  struct problem
  {
    int n;
    int cutoff; // fib(m) with m < cutoff runs serially
  };

  inline problem size(scale s) { return s == scale::quick ? problem{24, 14} : problem{40, 20}; }

} // namespace fib_cutoff
} // namespace bench

#endif // header

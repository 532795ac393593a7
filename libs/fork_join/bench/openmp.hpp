// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// What the OpenMP peers share: the parallel region their root runs in.
//
// "threads" = the team's size: a region of `threads` threads (the calling thread and
// threads - 1 others) in which one thread runs the root and the others take its tasks, the
// usual `parallel` + `single` idiom (openmp_task). The loop peers (openmp_for) open their own
// `parallel for num_threads(threads)` region instead. Dynamic adjustment is off, so the team
// has exactly that many threads. Wait policy, spin count and stack sizes are the
// implementation's defaults (OMP_WAIT_POLICY and the like are not set): what a user gets out
// of the box.

#ifndef BOOST_FORK_JOIN_BENCH_OPENMP_HPP
#define BOOST_FORK_JOIN_BENCH_OPENMP_HPP

#include "bench.hpp"

#include <omp.h>

#include <type_traits>

namespace bench {
namespace openmp {

  // Effects: turns dynamic adjustment off, so that a region gets exactly the threads its
  // num_threads clause asks for.
  inline void exact_team_size() { omp_set_dynamic(0); }

  // Effects: runs f() once, in a parallel region of `threads` threads.
  // Returns: f()'s result.
  template <class F>
  auto in_team(unsigned threads, F f)
  {
    exact_team_size();
    using result_type = std::invoke_result_t<F&>;
    if constexpr (std::is_void_v<result_type>)
    {
#pragma omp parallel num_threads(threads)
#pragma omp single
      f();
    }
    else
    {
      result_type result{};
#pragma omp parallel num_threads(threads) shared(result)
#pragma omp single
      result = f();
      return result;
    }
  }

} // namespace openmp
} // namespace bench

#endif // header

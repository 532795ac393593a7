// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// What the peers on this library's fork_join_thread_pool share: how the root of a workload is
// started, which decides what "threads" means for them, and how they report the pool's counters.
//
// "threads" = the pool's worker threads, all of which run tasks. The root runs as a task on the
// pool and the calling (main) thread blocks on its future without helping, so exactly `threads`
// threads run the workload, as for the oneTBB and OpenMP peers (see tbb.hpp, openmp.hpp).

#ifndef BOOST_FORK_JOIN_BENCH_FORK_JOIN_THREAD_POOL_HPP
#define BOOST_FORK_JOIN_BENCH_FORK_JOIN_THREAD_POOL_HPP

#include "bench.hpp"

#include <boost/thread/executors/fork_join.hpp>

#include <utility>

namespace bench {
namespace fork_join {

  namespace ex = boost::executors;

  // Effects: runs f() as a task on pool; the calling thread blocks until it has finished.
  // Returns: f()'s result.
  template <class F>
  auto run_root(ex::fork_join_thread_pool& pool, F&& f)
  {
    return ex::fork(pool, std::forward<F>(f)).get();
  }

  // Effects: reports the pool's counters, accumulated over every run so far, to the parent.
  inline void report_statistics(const ex::fork_join_thread_pool& pool)
  {
    const ex::fork_join_statistics s = pool.statistics();
    bench::report_statistics(pool_statistics{s.tasks_run, s.steals, s.failed_steals, s.parks, s.peak_pending});
  }

} // namespace fork_join
} // namespace bench

#endif // header

// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// What the oneTBB peers share: how many threads run their tasks.
//
// oneTBB starts hardware_concurrency - 1 workers by default and lets the calling thread join
// whatever arena it runs in, so both limits are set, the global one (global_control) and the
// arena's, to make "threads" mean what it means for fork_join_thread_pool:
//  - team (fork/join workloads): `threads` threads in all run tasks, the calling thread, which
//    runs the root inside the arena, and threads - 1 workers;
//  - outside_workers (external submissions): `threads` workers run the tasks; the threads
//    that enqueue them never do.
// max_allowed_parallelism counts the calling thread, so it is one more than the workers.

#ifndef BOOST_FORK_JOIN_BENCH_TBB_HPP
#define BOOST_FORK_JOIN_BENCH_TBB_HPP

#include "bench.hpp"

#include <oneapi/tbb/global_control.h>
#include <oneapi/tbb/task_arena.h>

#include <cstddef>
#include <utility>

namespace bench {
namespace tbb_peer {

  class team
  {
  public:
    explicit team(unsigned threads)
        : limit_(tbb::global_control::max_allowed_parallelism, threads), arena_(static_cast<int>(threads))
    {
      arena_.initialize();
    }

    // Effects: runs f() in the arena, on the calling thread, which joins the arena's workers.
    // Returns: f()'s result.
    template <class F>
    auto execute(F&& f)
    {
      return arena_.execute(std::forward<F>(f));
    }

  private:
    tbb::global_control limit_;
    tbb::task_arena arena_;
  };

  class outside_workers
  {
  public:
    // An arena of `threads` slots, none reserved for the threads that enqueue.
    explicit outside_workers(unsigned threads)
        : limit_(tbb::global_control::max_allowed_parallelism, static_cast<std::size_t>(threads) + 1),
          arena_(static_cast<int>(threads), 0)
    {
      arena_.initialize();
    }

    // Effects: schedules f() to run on one of the arena's workers; returns at once.
    template <class F>
    void enqueue(F&& f)
    {
      arena_.enqueue(std::forward<F>(f));
    }

  private:
    tbb::global_control limit_;
    tbb::task_arena arena_;
  };

} // namespace tbb_peer
} // namespace bench

#endif // header

// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// What the basic_thread_pool peers of every workload share. Both spawn with
// boost::async(pool, f) on Boost's basic_thread_pool and differ in how a task waits for a child:
//  - basic_pool_get: f.get() blocks the worker. Once every worker waits for a child that is
//    still queued, nothing runs again: a deadlock, as soon as the task tree is deeper than the
//    pool has threads.
//  - basic_pool_reschedule: pool.reschedule_until(f.is_ready), then f.get(). The wait runs
//    queued tasks, but any task (the oldest first), nested on the waiter's stack, so the stack
//    grows with every nested wait, and it still blocks when the queue is empty.

#ifndef BOOST_FORK_JOIN_BENCH_BASIC_THREAD_POOL_HPP
#define BOOST_FORK_JOIN_BENCH_BASIC_THREAD_POOL_HPP

#include <boost/thread/executors/basic_thread_pool.hpp>
#include <boost/thread/future.hpp>

namespace bench {
namespace basic_pool {

  using boost::executors::basic_thread_pool;

  enum class waiting
  {
    get,
    reschedule
  };

  // Effects: waits for f as the peer How does. Returns: f.get().
  template <waiting How, class R>
  R wait(basic_thread_pool& pool, boost::future<R>& f)
  {
    if constexpr (How == waiting::reschedule)
      pool.reschedule_until([&f] { return f.is_ready(); });
    return f.get();
  }

} // namespace basic_pool
} // namespace bench

#endif // header

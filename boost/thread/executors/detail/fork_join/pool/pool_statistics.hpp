// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// fork_join_thread_pool::statistics(): the scheduler's counters (summed over its threads,
// relaxed, while they may be moving) and its fiber gauges, as the public struct.

#ifndef BOOST_THREAD_EXECUTORS_DETAIL_FORK_JOIN_POOL_POOL_STATISTICS_HPP
#define BOOST_THREAD_EXECUTORS_DETAIL_FORK_JOIN_POOL_POOL_STATISTICS_HPP

#include <boost/thread/executors/detail/fork_join/base/config.hpp>
#include <boost/thread/executors/detail/fork_join/base/statistics.hpp>
#include <boost/thread/executors/detail/fork_join/scheduler/pool_core.hpp>

namespace boost {
namespace detail {
namespace fork_join {

  // Returns: core's statistics as a Statistics (executors::fork_join_statistics, which the
  // public header defines); spare_threads stays 0.
  // Synchronization: none; the counters are read relaxed. Throws: nothing. Progress: wait-free.
  template <class Statistics>
  Statistics statistics_of(const pool_core& core) noexcept
  {
    const counters::snapshot s = core.statistics();
    Statistics r;
    r.tasks_run = s.tasks_run;
    r.steals = s.steals;
    r.failed_steals = s.failed_steals;
    r.sleeps = s.sleeps;
    r.frames_parked = s.frames_parked;
    r.peak_pending = s.peak_pending;
    r.polls = s.polls;
    const fiber_gauges g = core.fiber_statistics();
    r.frames_parked_now = g.parked_now;
    r.frames_parked_peak = g.parked_peak;
    r.fiber_stacks = g.stacks;
    r.fiber_stack_bytes = g.bytes;
    r.fiber_stack_mappings = g.mappings;
    return r;
  }

} // namespace fork_join
} // namespace detail
} // namespace boost

#endif // header

// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// The pool's counters: cheap enough to leave on.
//
// Each worker has its own set, on its own cache lines, written by that worker only: a bump is
// a relaxed load and a relaxed store (no read-modify-write, no shared line). Threads that are
// not workers (a main() that helps in a join) share one more set and bump it with relaxed
// fetch_add. Readers (statistics()) load relaxed and sum: the numbers are a snapshot of
// counters that may be moving, never a synchronization point.

#ifndef BOOST_THREAD_EXECUTORS_DETAIL_FORK_JOIN_BASE_STATISTICS_HPP
#define BOOST_THREAD_EXECUTORS_DETAIL_FORK_JOIN_BASE_STATISTICS_HPP

#include <boost/thread/executors/detail/fork_join/base/config.hpp>

#include <atomic>
#include <cstdint>

namespace boost {
namespace detail {
namespace fork_join {

  // Gauges of a pool's parked frames and fiber stacks (pool_core::fiber_statistics()).
  struct fiber_gauges
  {
    std::uint64_t parked_now = 0;  // frames parked now
    std::uint64_t parked_peak = 0; // frames parked at once, at most, since the pool started
    std::uint64_t stacks = 0;      // fiber stacks mapped (in use or free)
    std::uint64_t bytes = 0;       // address space of the mappings that hold them
    std::uint64_t mappings = 0;    // kernel mappings those take (an upper bound)
  };

  class counters
  {
  public:
    enum writers
    {
      single, // only the owning worker writes
      shared  // any thread may write
    };

    struct snapshot
    {
      std::uint64_t tasks_run = 0;
      std::uint64_t steals = 0;
      std::uint64_t failed_steals = 0;
      std::uint64_t sleeps = 0;
      std::uint64_t frames_parked = 0;
      std::uint64_t peak_pending = 0; // per queue; summed over queues, an upper bound
      std::uint64_t polls = 0;        // checks of polled parked frames (pool_core adds them)

      snapshot& operator+=(const snapshot& o) noexcept
      {
        tasks_run += o.tasks_run;
        steals += o.steals;
        failed_steals += o.failed_steals;
        sleeps += o.sleeps;
        frames_parked += o.frames_parked;
        peak_pending += o.peak_pending;
        polls += o.polls;
        return *this;
      }
    };

    explicit counters(writers w = single) noexcept : writers_(w) {}
    counters(const counters&) = delete;
    counters& operator=(const counters&) = delete;

    std::atomic<std::uint64_t> tasks_run{0};
    std::atomic<std::uint64_t> steals{0};
    std::atomic<std::uint64_t> failed_steals{0};
    std::atomic<std::uint64_t> sleeps{0};
    std::atomic<std::uint64_t> frames_parked{0}; // joins that parked their frame (parking.hpp)

    BOOST_FORCEINLINE void add(std::atomic<std::uint64_t>& c, std::uint64_t n) noexcept
    {
      // relaxed everywhere: a statistic orders nothing. A single writer needs no RMW: nobody
      // else stores to c, so load + store loses no increment.
      if (writers_ == single)
        owner_add(c, n);
      else
        c.fetch_add(n, std::memory_order_relaxed);
    }

    // Requires: the set has a single writer, the caller. Effects: as add(c, n), without asking
    // who writes: what a worker bumps in its own set on the path of every task (pool_core's
    // count_run, queues' push_own), where the question was a load and a branch per bump.
    BOOST_FORCEINLINE void owner_add(std::atomic<std::uint64_t>& c, std::uint64_t n) noexcept
    {
      BOOST_THREAD_FJ_ASSERT(writers_ == single);
      // relaxed: a statistic; its only writer loses no increment (see add()).
      c.store(c.load(std::memory_order_relaxed) + n, std::memory_order_relaxed);
    }

    // Records that a queue of this set's owner holds n tasks.
    BOOST_FORCEINLINE void raise_peak(std::uint64_t n) noexcept
    {
      if (writers_ == single)
        return owner_raise_peak(n);
      // relaxed: a statistic; shared writers retry until the maximum is stored.
      std::uint64_t seen = peak_pending_.load(std::memory_order_relaxed);
      while (n > seen && !peak_pending_.compare_exchange_weak(seen, n, std::memory_order_relaxed))
      {
      }
    }

    // Requires, Effects: as owner_add(), for raise_peak(n).
    BOOST_FORCEINLINE void owner_raise_peak(std::uint64_t n) noexcept
    {
      BOOST_THREAD_FJ_ASSERT(writers_ == single);
      // relaxed: a statistic; the single writer compares with its own last store.
      if (n > peak_pending_.load(std::memory_order_relaxed))
        peak_pending_.store(n, std::memory_order_relaxed);
    }

    snapshot read() const noexcept
    {
      // relaxed: a snapshot of moving counters, see the file comment.
      snapshot s;
      s.tasks_run = tasks_run.load(std::memory_order_relaxed);
      s.steals = steals.load(std::memory_order_relaxed);
      s.failed_steals = failed_steals.load(std::memory_order_relaxed);
      s.sleeps = sleeps.load(std::memory_order_relaxed);
      s.frames_parked = frames_parked.load(std::memory_order_relaxed);
      s.peak_pending = peak_pending_.load(std::memory_order_relaxed);
      return s;
    }

  private:
    const writers writers_;
    std::atomic<std::uint64_t> peak_pending_{0};
  };

} // namespace fork_join
} // namespace detail
} // namespace boost

#endif // header

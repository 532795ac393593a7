// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// The count of a core's unfinished tasks, kept in per-thread credits.
//
// Threading contract
//  - Counted tasks: every heap task (submit, fork) and every stack task (stack_task.hpp) pushed
//    by a thread that is not one of our pool threads. A stack task a pool thread pushes is not
//    counted: its parent frame is running and cannot end before it, and that parent is itself
//    counted or has a counted ancestor running.
//  - unfinished_ over-counts the counted tasks that have not finished, by the credits the pool
//    threads hold (worker_slot::credits): a pool thread draws credits in batches of
//    BOOST_THREAD_FJ_TASK_CREDITS, spends one per counted task it queues and gains one per
//    counted task it finishes, all in its own slot, and gives them back when it has too many
//    and before it sleeps (for lack of work) or leaves. Threads that are not ours add and
//    subtract one per task. A slot's credits are touched by its owner only: every function
//    below that takes a slot is called by that slot's owner, or with nullptr by any other thread.
//    Invariant: unfinished_ == (counted tasks queued or running) + (credits held) >= 0, as
//    every draw happens before the queueing it pays for (sequenced before the push) and every
//    give-back after the finishes it returns. So fork, run and join write no line that every
//    pool thread shares, and unfinished_ reads zero only when no accepted work is queued or
//    running anywhere; pool threads leave only when the pool is closed, they hold no credit
//    and unfinished_ is zero, so nothing accepted is ever dropped. A pool thread that sleeps or
//    leaves holds none, so once the pool is drained and idle unfinished_ is exactly zero.
//  - Who sees the count reach zero wakes the workers waiting to leave (pool_core::finish_one);
//    this file only says that it did.

#ifndef BOOST_THREAD_EXECUTORS_DETAIL_FORK_JOIN_SCHEDULER_TASK_COUNT_HPP
#define BOOST_THREAD_EXECUTORS_DETAIL_FORK_JOIN_SCHEDULER_TASK_COUNT_HPP

#include <boost/thread/executors/detail/fork_join/base/config.hpp>
#include <boost/thread/executors/detail/fork_join/scheduler/worker_slot.hpp>

#include <atomic>
#include <cstddef>
#include <cstdint>

namespace boost {
namespace detail {
namespace fork_join {

  class task_count
  {
  public:
    // Accounts a counted task about to be queued by the calling thread, whose slot is `own`
    // if it is one of our pool threads (it spends a credit), else nullptr.
    // Fast path, "task credits" (doc/design.md, "Fast paths and their assumptions"): every credit goes back before its thread sleeps or
    // leaves, however it leaves (worker_loop's leave guard).
    BOOST_FORCEINLINE void count_one(worker_slot* own) noexcept
    {
      BOOST_THREAD_FJ_ASSERT(!own || own->credits >= 0); // Invariant: a thread spends only what it drew
      if (own && own->credits > 0)
      {
        --own->credits;
        return;
      }
      // relaxed: the queue that publishes the task publishes this increment with it (the
      // deque's release store of bottom, the shared queue's mutex), so whoever takes the task
      // and later gives its credit back or decrements comes after it in the counter's
      // modification order; see also worker_loop().
      const std::int64_t drawn = own ? BOOST_THREAD_FJ_TASK_CREDITS : 1;
      unfinished_.fetch_add(static_cast<std::size_t>(drawn), std::memory_order_relaxed);
      if (own)
        own->credits = drawn - 1;
    }

    // Accounts a counted task that finished (or was never queued) on the calling thread, whose
    // slot is `own` if it is one of our pool threads (it gains a credit), else nullptr.
    // Returns: whether the count fell to zero.
    BOOST_FORCEINLINE bool finish_one(worker_slot* own)
    {
      if (!own)
        return subtract(1);
      if (++own->credits > 2 * BOOST_THREAD_FJ_TASK_CREDITS)
      {
        own->credits -= BOOST_THREAD_FJ_TASK_CREDITS;
        return subtract(BOOST_THREAD_FJ_TASK_CREDITS);
      }
      return false;
    }

    // Effects: gives every credit own holds back to the count.
    // Returns: whether the count fell to zero.
    bool give_back_credits(worker_slot& own) noexcept
    {
      BOOST_THREAD_FJ_ASSERT(own.credits >= 0); // Invariant: a thread spends only what it drew
      if (own.credits == 0)
        return false;
      const std::int64_t n = own.credits;
      own.credits = 0;
      return subtract(n);
    }

    // Returns: whether no counted task is queued or running and no pool thread holds credits
    // (a snapshot; see the invariant above).
    bool zero() const noexcept
    {
      // acquire: pairs with the acq_rel decrement in subtract(), so a caller that sees zero
      // also sees everything the finished tasks did.
      return unfinished_.load(std::memory_order_acquire) == 0;
    }

  private:
    bool subtract(std::int64_t n) noexcept
    {
      // acq_rel: the finished tasks' effects are released to whoever sees the count reach zero
      // (zero()).
      const std::size_t before = unfinished_.fetch_sub(static_cast<std::size_t>(n), std::memory_order_acq_rel);
      BOOST_THREAD_FJ_ASSERT(before >= static_cast<std::size_t>(n)); // Invariant: never below zero
      return before == static_cast<std::size_t>(n);
    }

    alignas(64) std::atomic<std::size_t> unfinished_{0};
  };

} // namespace fork_join
} // namespace detail
} // namespace boost

#endif // header

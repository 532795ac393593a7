// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// How a core ends: closing, draining, the pool threads' leaving, and the accesses of threads
// that are not pool threads, which the core must outlive.
//
// Protocol (pool_core composes it)
//  - close() closes the shared queue (queues.hpp), then wakes every sleeper (sleep.hpp). From
//    then on a submission from a thread that runs none of the core's tasks is refused; the
//    children of accepted work are still accepted, so accepted work can always finish.
//  - A pool thread leaves its scheduler loop (worker_loop.hpp) on its own stack when the core is
//    closed, no frame of it is parked, and the count of unfinished tasks (task_count.hpp) is
//    zero, which it reads after closed(): closed() reads under the shared queue's mutex, and so
//    do close() and the wake-up of the task that takes the count to zero, so a zero seen after
//    seeing closed really means drained, and a fall to zero that the read misses is followed
//    by a wake-up (pool_core::finish_one).
//  - An interruption of a pool thread ends its loop at once if no frame of it is parked;
//    otherwise the thread notes that it is leaving and goes on until its last parked frame has
//    resumed (worker_loop.hpp).
//  - The pool's destructor joins its threads, then waits until no outside access is in flight
//    (outside_accesses::quiesce()); after that, the core may be freed.

#ifndef BOOST_THREAD_EXECUTORS_DETAIL_FORK_JOIN_SCHEDULER_SHUTDOWN_HPP
#define BOOST_THREAD_EXECUTORS_DETAIL_FORK_JOIN_SCHEDULER_SHUTDOWN_HPP

#include <boost/thread/executors/detail/fork_join/base/config.hpp>
#include <boost/thread/thread_only.hpp>

#include <atomic>

namespace boost {
namespace detail {
namespace fork_join {

  // The accesses to a core, in flight, by threads that are not its pool threads.
  // Threading contract: any thread opens and closes an access (outside_access); quiesce() is
  // called by the pool's destructor once every pool thread has been joined.
  class outside_accesses
  {
  public:
    // Requires: every pool thread has been joined (the pool's destructor).
    // Effects: waits until no thread that is not a pool thread is inside an access to the core
    // that may outlast the task it submitted or ran (outside_access); after that, the core may
    // be freed. Progress: blocks (yields) for at most the tail of such an access.
    void quiesce() const noexcept
    {
      // acquire: pairs with ~outside_access's release: its last access happens before ours.
      while (ops_.load(std::memory_order_acquire) != 0)
        this_thread::yield();
    }

  private:
    friend class outside_access;
    alignas(64) std::atomic<unsigned> ops_{0}; // outside_access scopes in flight
  };

  // Marks an access to the core by a thread that is not one of its pool threads (null: none)
  // for the scope's lifetime: a submission, whose notify follows the push, or a task run,
  // whose count follows the task's end. Either may outlast the completion of what it
  // submitted or ran, after which the pool's owner may destroy the pool: Boost's own threads
  // (when_all's, async(launch::async)'s) submit continuations through an executor_adaptor
  // that owns the pool, and the continuation's result may be ready before submit() returns.
  // The pool's destructor therefore waits for these (quiesce()) before it frees the core.
  class outside_access
  {
  public:
    explicit outside_access(outside_accesses* accesses) noexcept : accesses_(accesses)
    {
      // relaxed: sequenced before the push or the run it guards, which happens before every
      // completion the destructor waits for, so its quiesce() sees this increment.
      if (accesses_)
        accesses_->ops_.fetch_add(1, std::memory_order_relaxed);
    }
    ~outside_access()
    {
      if (!accesses_)
        return;
      const unsigned before = accesses_->ops_.fetch_sub(1, std::memory_order_release); // release: see quiesce()
      BOOST_THREAD_FJ_ASSERT(before != 0); // Invariant: one decrement per increment
      (void)before;
    }
    outside_access(const outside_access&) = delete;
    outside_access& operator=(const outside_access&) = delete;

  private:
    outside_accesses* const accesses_;
  };

} // namespace fork_join
} // namespace detail
} // namespace boost

#endif // header

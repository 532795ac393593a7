// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// Idle sleep: an event count on which idle pool threads sleep.
//
// Protocol (prepare, re-check, commit), the classic event count:
//   waiter:   key = prepare_wait();  re-check for work;
//             then either cancel_wait() or commit_wait(key);
//   notifier: publish the work, then notify_one() (or notify_all()).
// Invariant: a waiter sleeps only while the epoch still equals its key, and every notify
// advances the epoch and, if any waiter is registered, wakes at least one sleeper (all of them
// for notify_all). So work that is published before a notify is either seen by a waiter's
// re-check or ends a sleep: no wake-up is lost, and while any queue holds a task that was
// published before a notify, some pool thread that may run anything is awake or searching
// (for the stack tasks that are pushed without one, see "Cheap pushes" below). See notify()
// for the store-buffering argument. test/model/ holds a model of this protocol that CI checks
// with spin.
//
// Joiners do not sleep here: a pool thread whose join may run nothing parks the joining frame
// and goes on on a fresh stack (parking.hpp), whose scheduler loop sleeps here like any idle
// worker; the post of a parked frame is published work too (push, then notify_all), which the
// sleeper's re-check looks for. A thread that is not a pool thread sleeps on the task's
// completion (the future, or stack_task.hpp's handshake).
//
// Cheap pushes: a worker that pushes to its own deque calls notify_one_if_waiting(), which is a
// seq_cst fence and a relaxed load when nobody is registered; the fence takes the place of the
// seq_cst RMW on the epoch in the store-buffering argument of notify(). A worker's push of a
// stack task onto a deque that already held a task skips even that; pool_core.hpp (hazard 2,
// lost wake-ups) has the weaker invariant this leaves and why no task is stranded by it.
//
// Spin model of this protocol (idle workers only, no wake tokens): test/model/event_count.pml.

#ifndef BOOST_THREAD_EXECUTORS_DETAIL_FORK_JOIN_PRIMITIVES_EVENT_COUNT_HPP
#define BOOST_THREAD_EXECUTORS_DETAIL_FORK_JOIN_PRIMITIVES_EVENT_COUNT_HPP

#include <boost/thread/executors/detail/fork_join/base/config.hpp>
#include <boost/thread/executors/detail/fork_join/base/fence.hpp>
#include <boost/chrono/duration.hpp>
#include <boost/thread/condition_variable.hpp>
#include <boost/thread/mutex.hpp>

#include <atomic>
#include <cstdint>

namespace boost {
namespace detail {
namespace fork_join {

  class event_count
  {
  public:
    typedef std::uint64_t key_type;

    event_count() = default;
    event_count(const event_count&) = delete;
    event_count& operator=(const event_count&) = delete;

    // Registers the caller as a prospective sleeper and returns the epoch to sleep on.
    // The caller must re-check its condition after this call, then sleep with commit_wait()
    // (which ends the registration) or end the registration with cancel_wait().
    key_type prepare_wait()
    {
      // seq_cst: the store-buffering pair with notify() (see there).
      waiters_.fetch_add(1, std::memory_order_seq_cst);
      return epoch_.load(std::memory_order_seq_cst);
    }

    // Requires: prepare_wait() on this thread, not yet ended by commit_wait() or cancel_wait().
    void cancel_wait()
    {
      // relaxed: the count is only a hint for notifiers to skip the mutex; over-counting
      // costs a spurious lock, and the decrement of a waiter that found work races with nothing.
      const std::uint32_t before = waiters_.fetch_sub(1, std::memory_order_relaxed);
      BOOST_THREAD_FJ_ASSERT(before != 0); // the protocol's order: one end per prepare_wait()
      (void)before;
    }

    // Blocks until the epoch differs from key; ends the registration of prepare_wait().
    // An interruption point (boost::thread).
    void commit_wait(key_type key)
    {
      waiter_guard g{*this};
      unique_lock<mutex> lk(mtx_);
      // relaxed under mtx_: every notify advances the epoch before it locks mtx_, so either
      // this load sees the new epoch or the notifier's wake-up finds us inside cv_.wait.
      while (epoch_.load(std::memory_order_relaxed) == key)
        cv_.wait(lk);
    }

    // As commit_wait(key), but returns after about `us` microseconds at most (a thread that
    // polls a parked frame, parking.hpp). An interruption point.
    void commit_wait_for(key_type key, unsigned us)
    {
      waiter_guard g{*this};
      unique_lock<mutex> lk(mtx_);
      // relaxed under mtx_: as in commit_wait().
      if (epoch_.load(std::memory_order_relaxed) == key)
        cv_.wait_for(lk, boost::chrono::microseconds(us));
    }

    // Advances the epoch; wakes one sleeper. For a new task: one more awake thread is enough
    // to take it (a woken thread that finds the task gone has lost nothing, someone else took it).
    void notify_one() { notify(false); }

    // Advances the epoch and wakes every sleeper: for state that every sleeper must see, such
    // as "closed" or "drained".
    void notify_all() { notify(true); }

    // For a worker that has just pushed to its own deque: notify_one() if anybody is registered.
    // Fast path, "idle-sleeper check" (doc/design.md, "Fast paths and their assumptions").
    // Forced inline: GCC 12 stopped inlining it into pool_core::submit once one more caller
    // (pool_core::push_deferred) existed, and the call made fork at two threads 4% slower.
    BOOST_FORCEINLINE void notify_one_if_waiting()
    {
      // seq_cst fence: the pusher's half of the store-buffering pair with prepare_wait(). The
      // push (a release store to the deque's bottom) is sequenced before this fence, and a
      // waiter's re-check steals through a seq_cst fence after its seq_cst increment of
      // waiters_: if this load misses the increment, the waiter's fence comes later in the
      // single total order and its steal sees the push. relaxed load: ordered by the fence.
      seq_cst_fence();
      if (waiters_.load(std::memory_order_relaxed) != 0)
        notify(false);
    }

  private:
    void notify(bool all)
    {
      // seq_cst on both sides (here: fetch_add epoch, load waiters; waiter: fetch_add waiters,
      // load epoch) rules out the store-buffering outcome in which the notifier sees no waiter
      // while the waiter sees the old epoch: if the load below misses the waiter's increment,
      // that increment, and so the waiter's epoch load, come later in the single total order,
      // so the waiter's key already includes this increment and its re-check, which
      // synchronizes with this release RMW, sees the work published before notify().
      epoch_.fetch_add(1, std::memory_order_seq_cst);
      if (waiters_.load(std::memory_order_seq_cst) == 0)
        return;
      lock_guard<mutex> lk(mtx_);
      if (all)
        cv_.notify_all();
      else
        cv_.notify_one();
    }

    struct waiter_guard
    {
      event_count& ec;
      ~waiter_guard() { ec.cancel_wait(); }
    };

    // Hot: written by every notify(); on its own cache line so that a notifier does not
    // invalidate the line holding the waiter count and the mutex.
    alignas(64) std::atomic<key_type> epoch_{0};
    alignas(64) std::atomic<std::uint32_t> waiters_{0};
    mutex mtx_;
    condition_variable cv_;
  };

} // namespace fork_join
} // namespace detail
} // namespace boost

#endif // header

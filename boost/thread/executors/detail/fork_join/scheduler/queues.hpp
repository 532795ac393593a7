// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// A core's queues: one Chase–Lev deque per pool thread (in its slot) and one shared queue, and
// where a push goes.
//
// Threading contract
//  - One Chase–Lev deque per pool thread (chase_lev_deque.hpp). Only its owner pushes and pops,
//    at the bottom (newest first); every other thread steals at the top (the oldest).
//  - Pool threads: the thread_count() workers. Each has a slot (its deque, counters and
//    fiber_home); a slot is never freed before the queues.
//  - One shared queue (a mutex deque) for submissions from threads that are not workers of this
//    pool, and for submit_back() from workers ("for later": after the worker's own work). Any
//    thread pushes and takes there. shared_hint_ over-counts its tasks (never under), so that
//    a taker that reads zero skips the mutex.
//  - Every push is followed by a wake-up of a sleeper (sleep.hpp), except the stack-task pushes
//    push_own() explains.

#ifndef BOOST_THREAD_EXECUTORS_DETAIL_FORK_JOIN_SCHEDULER_QUEUES_HPP
#define BOOST_THREAD_EXECUTORS_DETAIL_FORK_JOIN_SCHEDULER_QUEUES_HPP

#include <boost/thread/executors/detail/fork_join/base/config.hpp>
#include <boost/thread/executors/detail/fork_join/base/statistics.hpp>
#include <boost/thread/executors/detail/fork_join/primitives/locked_deque.hpp>
#include <boost/thread/executors/detail/fork_join/scheduler/sleep.hpp>
#include <boost/thread/executors/detail/fork_join/scheduler/worker_slot.hpp>
#include <boost/thread/executors/detail/fork_join/tasks/admission.hpp>
#include <boost/thread/executors/detail/fork_join/tasks/task.hpp>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>

namespace boost {
namespace detail {
namespace fork_join {

  enum class queue_end
  {
    front,
    back
  };

  class task_queues
  {
  public:
    // The slots' homes count their stacks into *gauges and post a parked frame through
    // post(post_context, ...) (fiber_home::post_fn).
    task_queues(unsigned threads, std::size_t fiber_stack_size, stack_gauges* gauges, fiber_home::post_fn post, void* post_context)
        : thread_count_(threads), slots_(new std::unique_ptr<worker_slot>[threads])
    {
      for (unsigned i = 0; i < threads; ++i)
        slots_[i].reset(new worker_slot(i, fiber_stack_size, gauges, post, post_context));
    }

    ~task_queues()
    {
      // Only reached when nothing is queued (the pool drains before it lets go of the core);
      // a leftover would be a bug, and discarding keeps it from leaking. A deque's owner has
      // left: this thread takes as a thief does.
      task* t = nullptr;
      while (shared_.try_pull_front(t) == queue_op_status::success)
        t->discard();
      for (unsigned i = 0, n = thread_count(); i < n; ++i)
        while ((t = slots_[i]->deque.steal()))
          t->discard();
    }

    // Returns: the number of pool threads, the workers: no thread is ever added.
    unsigned thread_count() const noexcept { return thread_count_; }

    // Requires: i < thread_count().
    worker_slot& slot(std::size_t i) const noexcept
    {
      BOOST_THREAD_FJ_ASSERT(i < thread_count_);
      return *slots_[i];
    }

    // Returns: the counters of pool thread `self`, or the outside threads' if self < 0.
    counters& counters_of(int self) noexcept { return self >= 0 ? slots_[static_cast<std::size_t>(self)]->stats : outside_stats_; }
    counters& outside_stats() noexcept { return outside_stats_; }
    const counters& outside_stats() const noexcept { return outside_stats_; }

    // Effects: pushes t to the bottom of the caller's own deque and advertises it to sleepers
    // (notify_one_if_waiting: a seq_cst fence and a load).
    // Requires: the caller is slot's owner.
    // Throws: std::bad_alloc (nothing pushed).
    // Fast path, "pool of one": as push_own_stack_tasks() below.
    BOOST_FORCEINLINE void push_own(worker_slot& slot, task* t, idle_sleep& sleep)
    {
      t->set_queued_at(slot.deque.next_index());
      const std::size_t before = slot.deque.push(t, t->tag());
      slot.stats.owner_raise_peak(before + 1);
      if (thread_count_ > 1)
        sleep.advertise();
    }

    // Effects: pushes the stack tasks ts[0], ..., ts[n - 1] (n > 0) to the bottom of the
    // caller's own deque at once (chase_lev_deque::push_all; ts[n - 1] the newest) and
    // advertises them as push_own() does, once for all n, and only if the deque was empty
    // before. A deque that already held a task was advertised when it became non-empty, and
    // the tasks' parent, on this thread, waits for them only through help_until, which never
    // sleeps on a pool thread: it parks the frame and the thread goes on running its own deque
    // (schedule()). Hazard 2 of pool_core.hpp (lost wake-ups) has the argument. A hole that a
    // join's take_at left counts as a task here (push's count includes it): stack tasks pushed
    // onto a deque of holes are not advertised either, which can cost parallelism, not
    // progress, by the same argument.
    // Requires: the caller is slot's owner.
    // Throws: std::bad_alloc (nothing pushed).
    // Fast path, "stack-task wake-up fence" (doc/design.md, "Fast paths and their assumptions").
    // Fast path, "pool of one" (doc/design.md, "Fast paths and their assumptions"): a pool of
    // one thread skips the advertisement altogether. Precondition: only pool threads sleep
    // (schedule()), and the one pool thread is the pusher, awake; threads that are not pool
    // threads and help (joins from outside) sleep on what they wait for, never with the pool's
    // sleepers.
    BOOST_FORCEINLINE void push_own_stack_tasks(worker_slot& slot, task* const* ts, std::size_t n, idle_sleep& sleep)
    {
      const std::int64_t first = slot.deque.next_index();
      for (std::size_t i = 0; i != n; ++i)
        ts[i]->set_queued_at(first + static_cast<std::int64_t>(i));
      const std::size_t before = slot.deque.push_all(ts, n, [](const task* t) noexcept { return t->tag(); });
      slot.stats.owner_raise_peak(before + n);
      if (before == 0 && thread_count_ > 1)
        sleep.advertise();
    }

    // Effects: pushes t to the `end` of the shared queue, even if closed if `force`; then wakes
    // a sleeper. Throws: sync_queue_is_closed if closed and not `force`; what the allocation
    // throws (nothing queued either way).
    void push_shared(task* t, queue_end end, bool force, idle_sleep& sleep)
    {
      // relaxed: a hint, published with the task by the queue's mutex and the notify below;
      // raised before the push so that it never under-counts a queued task.
      const std::int64_t pending = shared_hint_.fetch_add(1, std::memory_order_relaxed) + 1;
      try
      {
        if (force)
          end == queue_end::front ? shared_.force_push_front(t) : shared_.force_push_back(t);
        else
          end == queue_end::front ? shared_.push_front(t) : shared_.push_back(t);
      }
      catch (...)
      {
        shared_hint_.fetch_sub(1, std::memory_order_relaxed); // relaxed: a hint
        throw;
      }
      outside_stats_.raise_peak(static_cast<std::uint64_t>(pending));
      sleep.wake_one();
    }

    // Returns: a task of the shared queue that `scope` admits (its front if scope is null),
    // then taken; nullptr if none was seen.
    // Fast path, "shared-queue lookahead" (doc/design.md, "Fast paths and their assumptions"):
    // a scope looks at the first BOOST_THREAD_FJ_SHARED_LOOKAHEAD tasks only; pool threads,
    // which take the front unconditionally, run what lies beyond.
    BOOST_FORCEINLINE task* take_shared(const wait_scope* scope)
    {
      task* t = nullptr;
      // relaxed: only a hint to skip the mutex. Not missing a task here matters only on the
      // way to sleep, and there the waiter's acquire of the epoch in prepare_wait() has
      // synchronized with the pusher's notify, which follows its increment of the hint.
      // A scope reads each candidate's tag under the queue's lock; without one, the front is
      // taken unread (the task was built by another thread: a cache miss inside the lock that
      // outside submitters wait on).
      if (shared_hint_.load(std::memory_order_relaxed) > 0 &&
          (scope ? shared_.try_pull_first_if(t, BOOST_THREAD_FJ_SHARED_LOOKAHEAD,
                                             [scope](task* const& x) noexcept { return scope->admits(x, x->tag()); })
                 : shared_.try_pull_front(t)) == queue_op_status::success)
      {
        shared_hint_.fetch_sub(1, std::memory_order_relaxed); // relaxed: a hint, see above
        return t;
      }
      return nullptr;
    }

    // Effects: rejects further pushes to the shared queue that are not forced.
    void close() { shared_.close(); }

    // Returns: whether close() was called. Reads under the shared queue's mutex.
    bool closed() const { return shared_.closed(); }

  private:
    const unsigned thread_count_;
    std::unique_ptr<std::unique_ptr<worker_slot>[]> slots_;
    // On lines of their own: outside submitters write them, pool threads read the two above on
    // every push and search.
    alignas(64) locked_deque<task*> shared_;
    alignas(64) std::atomic<std::int64_t> shared_hint_{0}; // >= tasks in shared_
    counters outside_stats_{counters::shared}; // written by threads that are not workers
  };

} // namespace fork_join
} // namespace detail
} // namespace boost

#endif // header

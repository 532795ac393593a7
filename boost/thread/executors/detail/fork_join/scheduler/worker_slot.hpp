// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// A pool thread's slot in its core, and what its owner publishes there for rule (b) of
// admission.hpp: which root ids its innermost join awaits, and when it last switched stacks.
//
// Threading contract
//  - A slot belongs to one pool thread, its owner, for the life of the core (it is never freed
//    before the core). Fields marked owner-only are read and written by the owner alone; the
//    deque is read by every taker (chase_lev_deque.hpp); joining, last_switch and trace_busy are
//    written by the owner and read by any thread, with the orders their comments give.
//  - note_runner() is called by any thread that takes a task from a queue; join_publication,
//    note_switch() and clear_joining() by the slot's owner only.

#ifndef BOOST_THREAD_EXECUTORS_DETAIL_FORK_JOIN_SCHEDULER_WORKER_SLOT_HPP
#define BOOST_THREAD_EXECUTORS_DETAIL_FORK_JOIN_SCHEDULER_WORKER_SLOT_HPP

#include <boost/thread/executors/detail/fork_join/base/config.hpp>
#include <boost/thread/executors/detail/fork_join/base/statistics.hpp>
#include <boost/thread/executors/detail/fork_join/primitives/chase_lev_deque.hpp>
#include <boost/thread/executors/detail/fork_join/fibers/parking.hpp>
#include <boost/thread/executors/detail/fork_join/tasks/task.hpp>
#include <boost/thread/executors/detail/fork_join/tasks/task_frame.hpp>
#include <boost/thread/executors/detail/fork_join/tasks/worker_context.hpp>
#include <boost/shared_ptr.hpp>
#include <boost/thread/executors/executor.hpp>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>

namespace boost {
namespace detail {
namespace fork_join {

  // The children of one parallel_invoke that its pool thread keeps back from its deque
  // (pool_core::defer_stack_tasks): the first `pending` of them have not run yet. The calls of
  // the stack that runs now, oldest first, in worker_slot::deferred. ts: the call's array of its
  // children. seq and word are the tag a push at the call would have given them (child i:
  // stack_bit | (seq + 1 + i), frame word `word`), so that rule (b) of admission.hpp judges a
  // child by where it was made, not by when it was queued.
  struct deferred_call
  {
    task* const* ts;
    std::uint64_t seq;
    task_tag word;
    std::uint32_t pending;
  };

  // A pool thread's deque and counters, on cache lines of their own so that owners do not
  // false-share. push_seq counts the pushes to the deque (owner-only): stack tasks carry it in
  // their tag, and a task taken from a queue notes it when it starts running (note_runner), so
  // that a thread waiting for that task knows which tasks of this deque were spawned for it.
  // joining: the root ids of the heap tasks the owner's innermost join awaits (0: none), for
  // rule (b) of admission.hpp; written by the owner (join_publication), read by waiters.
  // recorded_executor: the executor record (an executor_ref to the pool) that boost::async on
  // this thread puts in its futures (futures/async_as_fork.hpp): one per thread, so that its
  // reference count is written by this thread and by whoever frees its futures, not by every
  // thread at once; owner-only, released when the thread leaves (it refers to the core).
  // home: the thread's parked frames and fiber stacks (parking.hpp). last_switch: push_seq
  // right after the owner's last switch between stacks (owner writes, waiters read), which
  // every switch first advances: rule (b) admits nothing a runner pushed after a switch
  // (steal_for). trace_busy: nonzero while the owner writes to a trace (trace_recorder::write).
  struct alignas(64) worker_slot
  {
    worker_slot(unsigned i, std::size_t fiber_stack_size, stack_gauges* gauges, fiber_home::post_fn post, void* post_context) noexcept
        : index(i), home(fiber_stack_size, gauges, post, post_context)
    {
    }

    const unsigned index; // of the slot in its core

    chase_lev_deque<task> deque;
    counters stats;             // written by the owner only
    std::uint64_t push_seq = 0; // owner-only
    std::int64_t credits = 0;   // owner-only: task credits drawn from the task count (task_count.hpp)
    boost::shared_ptr<executors::executor> recorded_executor; // owner-only
    std::atomic<task_tag> joining[2] = {};
    std::atomic<std::uint64_t> last_switch{0};
    bool leaving = false; // owner-only: interrupted, leaves once no frame of it is parked
    // Owner-only: the calls of the stack that runs now that keep their children back,
    // deferred[0], ..., deferred[deferred_top - 1], oldest first, in an array that grows by
    // doubling (it holds as many as the deepest nesting of such calls); none at a switch
    // between stacks (note_switch), since a frame queues its stack's before it parks
    // (help.hpp). The calls' own frames hold only their index: 48 bytes more in the frame of
    // every parallel_invoke (the record, kept there at first) made fib 4% slower and a chain
    // of 10^5 of them 10-20%.
    std::unique_ptr<deferred_call[]> deferred;
    std::uint32_t deferred_capacity = 0;
    std::uint32_t deferred_top = 0;
    std::atomic<unsigned> trace_busy{0};
    fiber_home home;
  };

  // Requires: called by the thread that took from a queue the task whose run `run` records,
  // before it runs the task. Effects: a pool thread records its slot, the slot's push count and
  // its last root id, so that the task's waiter may take what this run spawns (rule (b)).
  inline void note_runner(run_record& run) noexcept
  {
    const worker_context* const w = current_worker;
    if (!w)
      return;
    const worker_slot* const slot = static_cast<const worker_slot*>(w->slot);
    run.runner_core = w->core;
    run.runner_seq = slot->push_seq;
    run.runner_root = last_root_id();
    // Invariant: a record is noted once per run (a reused fork state starts unset, fork_state.hpp).
    // relaxed: only this thread stores to it during the run.
    BOOST_THREAD_FJ_ASSERT(run.runner_slot.load(std::memory_order_relaxed) == nullptr);
    // release: publishes the fields above to the waiter's acquire (task_search::steal_for).
    run.runner_slot.store(slot, std::memory_order_release);
  }

  // Publishes, for the scope's lifetime, the root ids of the heap tasks a pool thread's join
  // awaits (worker_slot::joining; rule (b) of admission.hpp), restoring the enclosing join's
  // on exit. A thread that is not a pool thread publishes nothing.
  class join_publication
  {
  public:
    join_publication(task_tag first, task_tag second) noexcept
    {
      const worker_context* const w = current_worker;
      if (!w || (first == 0 && second == 0))
        return;
      slot_ = static_cast<worker_slot*>(w->slot);
      // relaxed loads: this thread's own stores. release stores: a waiter that acquires a value
      // sees the switches before it (worker_slot::last_switch); otherwise it only needs some
      // value this thread stored, each naming tasks a join in progress awaited when it was
      // stored, which is all rule (b) asks.
      saved_[0] = slot_->joining[0].load(std::memory_order_relaxed);
      saved_[1] = slot_->joining[1].load(std::memory_order_relaxed);
      slot_->joining[0].store(first, std::memory_order_release);
      slot_->joining[1].store(second, std::memory_order_release);
    }
    ~join_publication()
    {
      if (!slot_)
        return;
      slot_->joining[0].store(saved_[0], std::memory_order_release); // release: as above
      slot_->joining[1].store(saved_[1], std::memory_order_release);
    }
    join_publication(const join_publication&) = delete;
    join_publication& operator=(const join_publication&) = delete;

  private:
    worker_slot* slot_ = nullptr;
    task_tag saved_[2] = {0, 0};
  };

  // Effects: before each switch between the owner's stacks: advances push_seq past every
  // push so far and publishes it as last_switch (rule (b), steal_for).
  // Fast path, "Switch stamp" (doc/design.md, "Fast paths and their assumptions"): one stamp per switch stands for the
  // stack each task was pushed from; after a switch, rule (b) admits nothing of the runner's.
  inline void note_switch(worker_slot& own) noexcept
  {
    // Invariant: no stack leaves children kept back behind it (worker_slot::deferred).
    BOOST_THREAD_FJ_ASSERT(own.deferred_top == 0);
    ++own.push_seq;
    // release: orders this store before the owner's later pushes and join publications
    // (release stores too), so a waiter that acquires one of those and then loads
    // last_switch sees this value or a later one (steal_for).
    own.last_switch.store(own.push_seq, std::memory_order_release);
  }

  // Effects: publishes that the owner's running stack joins nothing yet (a fresh fiber, or the
  // own stack back at its top).
  inline void clear_joining(worker_slot& own) noexcept
  {
    own.joining[0].store(0, std::memory_order_release); // release: as join_publication's
    own.joining[1].store(0, std::memory_order_release);
  }

} // namespace fork_join
} // namespace detail
} // namespace boost

#endif // header

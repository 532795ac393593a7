// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// The scheduler behind fork_join_thread_pool: queues, accounting, the worker loop.
//
// Threading contract
//  - One Chase–Lev deque per worker (chase_lev_deque.hpp). Only its owner pushes and pops, at
//    the bottom (newest first); every other thread steals at the top (the oldest).
//  - One shared queue (a mutex deque) for submissions from threads that are not workers of this
//    pool, and for submit_back() from workers ("for later": after the worker's own work).
//  - A worker looks for work in this order: its own deque, the shared queue (front), the top of
//    a random victim's deque, then every other victim (victim_selection.hpp).
//  - unfinished_ counts accepted tasks that have not finished running: every heap task
//    (submit, fork) and every stack task (stack_task.hpp) pushed by a thread that is not one
//    of our workers. A stack task a worker pushes is not counted: its parent frame is running
//    and cannot end before it, and that parent is itself counted or has a counted ancestor
//    running. So unfinished_ reaches zero only when no accepted work is queued or running
//    anywhere; workers leave only when the pool is closed and unfinished_ is zero, so nothing
//    accepted is ever dropped.
//  - The core outlives the pool object while an executor_ref (a future's recorded executor)
//    refers to it; after the pool is destroyed it is closed and empty, so such a reference can
//    still be used safely: submit throws sync_queue_is_closed, helping finds no work.
//
// Hazards (STYLE.md) and how this file meets them
//  1. A wait on a worker never blocks without helping: see help.hpp and stack_task.hpp.
//  3. Lost wake-ups: every push is followed by a notify of event_count.hpp (a worker's push to
//     its own deque by notify_one_if_waiting(), a fence and a load when nobody sleeps);
//     sleepers use its prepare / re-check / commit protocol.
//  6. Idle workers spin only a bounded number of rounds, then park.

#ifndef BOOST_THREAD_EXECUTORS_DETAIL_FORK_JOIN_POOL_CORE_HPP
#define BOOST_THREAD_EXECUTORS_DETAIL_FORK_JOIN_POOL_CORE_HPP

#include <boost/thread/executors/detail/fork_join/config.hpp>
#include <boost/thread/executors/detail/fork_join/chase_lev_deque.hpp>
#include <boost/thread/executors/detail/fork_join/event_count.hpp>
#include <boost/thread/executors/detail/fork_join/statistics.hpp>
#include <boost/thread/executors/detail/fork_join/sync_deque.hpp>
#include <boost/thread/executors/detail/fork_join/task.hpp>
#include <boost/thread/executors/detail/fork_join/victim_selection.hpp>
#include <boost/thread/executors/detail/fork_join/worker_context.hpp>
#include <boost/thread/exceptions.hpp>
#include <boost/thread/thread_only.hpp>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <memory>

#ifndef BOOST_THREAD_FJ_IDLE_SPIN_ROUNDS
// Rounds of "look everywhere, then yield" an idle worker makes before it parks.
#define BOOST_THREAD_FJ_IDLE_SPIN_ROUNDS 16
#endif

namespace boost {
namespace detail {
namespace fork_join {

  enum class queue_end
  {
    front,
    back
  };

  class pool_core
  {
  public:
    explicit pool_core(unsigned worker_count)
        : worker_count_(worker_count), slots_(new worker_slot[worker_count])
    {
    }

    pool_core(const pool_core&) = delete;
    pool_core& operator=(const pool_core&) = delete;

    ~pool_core()
    {
      // Only reached when nothing is queued (the pool drains before it lets go of the core);
      // a leftover would be a bug, and discarding keeps it from leaking.
      task* t = nullptr;
      while (shared_.try_pull_front(t) == queue_op_status::success)
        t->discard();
      for (unsigned i = 0; i < worker_count_; ++i)
        while ((t = slots_[i].deque.pop()))
          t->discard();
    }

    unsigned worker_count() const noexcept { return worker_count_; }

    // Effects: accepts the heap task t (ownership included) and makes it visible to every
    // consumer, then wakes a sleeper. From worker i: `front` to the bottom of deque i (runs
    // next), `back` to the back of the shared queue (runs after the worker's own work). From
    // a thread running one of our tasks: to the shared queue even if closed. From any other
    // thread: to the shared queue.
    // Throws: sync_queue_is_closed if closed and the caller runs none of our tasks (t is then
    // destroyed unrun); whatever the allocation throws (likewise).
    void submit(task* t, queue_end end)
    {
      // relaxed: the queue that publishes t publishes this increment with it (the deque's
      // release store of bottom, the shared queue's mutex), so any thread that takes t and
      // later decrements sees it; see also worker_loop().
      unfinished_.fetch_add(1, std::memory_order_relaxed);
      const int self = worker_index_in(this);
      try
      {
        if (self >= 0 && end == queue_end::front)
        {
          push_own(static_cast<unsigned>(self), t);
          return;
        }
        push_shared(t, end, running_core == this || self >= 0);
      }
      catch (...)
      {
        t->discard();
        finish_one();
        throw;
      }
    }

    // Effects: queues the stack task t of the caller's frame (stack_task.hpp), which the caller
    // joins before the frame ends. From one of our workers: to its deque, uncounted. From any
    // other thread: to the front of the shared queue, counted.
    // Returns: false if the pool is closed and the caller runs none of our tasks: then nothing
    // was queued and the caller runs t itself.
    // Throws: std::bad_alloc (nothing queued).
    bool push_stack_task(task* t)
    {
      const int self = worker_index_in(this);
      if (self >= 0)
      {
        t->set_counted(false);
        push_own(static_cast<unsigned>(self), t);
        return true;
      }
      t->set_counted(true);
      // relaxed: as in submit().
      unfinished_.fetch_add(1, std::memory_order_relaxed);
      try
      {
        push_shared(t, queue_end::front, running_core == this);
      }
      catch (const sync_queue_is_closed&)
      {
        finish_one();
        return false;
      }
      catch (...)
      {
        finish_one();
        throw;
      }
      return true;
    }

    // For the owner of a frame with a stack task: Returns: the newest task of the calling
    // worker's own deque, or nullptr if it is empty or the caller is not one of our workers.
    task* pop_own() noexcept
    {
      const int self = worker_index_in(this);
      return self >= 0 ? slots_[self].deque.pop() : nullptr;
    }

    // Returns: a task taken from, in order, the caller's own deque if it is one of our
    // workers, the shared queue (front), another worker's deque (top); nullptr if none was
    // seen. Never blocks on emptiness.
    task* find_task()
    {
      const int self = worker_index_in(this);
      if (self >= 0)
        if (task* t = slots_[self].deque.pop())
          return t;
      task* t = nullptr;
      // relaxed: only a hint to skip the mutex. Not missing a task here matters only on the
      // way to sleep, and there the waiter's acquire of the epoch in prepare_wait() has
      // synchronized with the pusher's notify, which follows its increment of the hint.
      if (shared_hint_.load(std::memory_order_relaxed) > 0 &&
          shared_.try_pull_front(t) == queue_op_status::success)
      {
        shared_hint_.fetch_sub(1, std::memory_order_relaxed); // relaxed: a hint, see above
        return t;
      }
      std::uint64_t failed = 0;
      for_each_victim(worker_count_, self, [&](unsigned v) {
        t = slots_[v].deque.steal();
        failed += t == nullptr;
        return t != nullptr;
      });
      counters& c = counters_of(self);
      if (failed)
        c.add(c.failed_steals, failed);
      if (t)
        c.add(c.steals, 1);
      return t;
    }

    // Effects: runs t on the calling thread (ownership taken), then accounts for it.
    // Throws: boost::thread_interrupted if t throws it; any other exception from t calls
    // std::terminate, as for basic_thread_pool (a stack task never throws: it keeps its
    // exception for its parent).
    void run_task(task* t)
    {
      const bool counted = t->counted(); // read first: a stack task may be gone after run()
      struct finish_guard
      {
        pool_core& core;
        bool counted;
        ~finish_guard()
        {
          if (counted)
            core.finish_one();
        }
      } finish{*this, counted};
      running_scope running(this);
      count_run();
      try
      {
        t->run();
      }
      catch (thread_interrupted&)
      {
        throw;
      }
      catch (...)
      {
        std::terminate();
      }
    }

    // Effects: runs one task found by find_task(). Returns: whether one ran.
    bool try_run_one()
    {
      task* t = find_task();
      if (!t)
        return false;
      run_task(t);
      return true;
    }

    // Accounts a task run inline by its parent (never queued through run_task()).
    void count_run() noexcept
    {
      counters& c = counters_of(worker_index_in(this));
      c.add(c.tasks_run, 1);
    }

    // The main loop of worker `index`. Returns when the pool is closed and drained.
    // Throws: boost::thread_interrupted when interrupted (in a task or while parked).
    void worker_loop(unsigned index)
    {
      worker_scope scope(this, index);
      for (;;)
      {
        if (try_run_one())
          continue;
        bool found = false;
        for (int round = 0; round < BOOST_THREAD_FJ_IDLE_SPIN_ROUNDS && !found; ++round)
        {
          this_thread::yield();
          found = try_run_one();
        }
        if (found)
          continue;

        const event_count::key_type key = parking_.prepare_wait();
        if (task* t = find_task())
        {
          parking_.cancel_wait();
          run_task(t);
          continue;
        }
        // closed() reads under the shared queue's mutex, and so do close() and finish_one():
        // an accepted outside push made its increment before close() took that mutex, so a
        // zero seen after seeing closed really means drained; and a decrement to zero that
        // this load misses is followed by a closed() that sees true and wakes us (finish_one).
        // acquire: pairs with finish_one()'s release, for the effects of finished tasks.
        if (closed() && unfinished_.load(std::memory_order_acquire) == 0)
        {
          parking_.cancel_wait();
          return;
        }
        counters& c = slots_[index].stats;
        c.add(c.parks, 1);
        parking_.commit_wait(key);
      }
    }

    // Effects: rejects further submissions from outside; wakes every sleeper so that workers
    // can leave once the pool is drained.
    void close()
    {
      shared_.close();
      parking_.notify_all();
    }

    bool closed() const { return shared_.closed(); }

    // Returns: whether no accepted task is queued or running (a snapshot).
    bool drained() const
    {
      // acquire: pairs with the acq_rel decrement in finish_one(), so a caller that sees zero
      // also sees everything the finished tasks did.
      return unfinished_.load(std::memory_order_acquire) == 0;
    }

    event_count& parking() noexcept { return parking_; }

    // Returns: the sum of every worker's counters and the outside threads' counters.
    counters::snapshot statistics() const noexcept
    {
      counters::snapshot total = outside_stats_.read();
      for (unsigned i = 0; i < worker_count_; ++i)
        total += slots_[i].stats.read();
      return total;
    }

  private:
    void push_own(unsigned self, task* t)
    {
      worker_slot& slot = slots_[self];
      slot.deque.push(t);
      slot.stats.raise_peak(slot.deque.size());
      parking_.notify_one_if_waiting();
    }

    void push_shared(task* t, queue_end end, bool force)
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
      parking_.notify_one();
    }

    counters& counters_of(int self) noexcept { return self >= 0 ? slots_[self].stats : outside_stats_; }

    void finish_one()
    {
      // acq_rel: the task's effects are released to whoever sees the count reach zero
      // (drained(), worker_loop()). The closed() test below reads under the shared queue's
      // mutex, which orders it against close() and against a worker's exit check.
      if (unfinished_.fetch_sub(1, std::memory_order_acq_rel) == 1 && closed())
        parking_.notify_all(); // the last one out wakes every worker waiting to leave
    }

    // A deque and counters per worker, each on cache lines of their own, so that owners do
    // not false-share.
    struct alignas(64) worker_slot
    {
      chase_lev_deque<task> deque;
      counters stats; // written by the owner only
    };

    const unsigned worker_count_;
    std::unique_ptr<worker_slot[]> slots_;
    sync_deque<task*> shared_;
    alignas(64) std::atomic<std::int64_t> shared_hint_{0}; // >= tasks in shared_
    alignas(64) std::atomic<std::size_t> unfinished_{0};
    counters outside_stats_{counters::shared}; // written by threads that are not workers
    event_count parking_;
  };

} // namespace fork_join
} // namespace detail
} // namespace boost

#endif // header

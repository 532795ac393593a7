// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// The scheduler behind fork_join_thread_pool: queues, accounting, the worker loop.
//
// Threading contract
//  - One deque per worker. Its owner pushes and pulls at the front (newest first) and pushes
//    "for later" work at the back; every other thread only pulls at the back (steals the oldest).
//  - One shared queue for submissions from threads that are not workers of this pool.
//  - A worker looks for work in this order: its own deque (front), the shared queue (front),
//    the back of a random victim's deque, then every other victim (victim_selection.hpp).
//  - unfinished_ counts accepted tasks that have not finished running. A child is pushed while
//    its parent still runs, so unfinished_ reaches zero only when no accepted work is queued or
//    running anywhere; workers leave only when the pool is closed and unfinished_ is zero, so
//    nothing accepted is ever dropped.
//  - The core outlives the pool object while an executor_ref (a future's recorded executor)
//    refers to it; after the pool is destroyed it is closed and empty, so such a reference can
//    still be used safely: submit throws sync_queue_is_closed, helping finds no work.
//
// Hazards (STYLE.md) and how this file meets them
//  1. A wait on a worker never blocks without helping: see help.hpp.
//  3. Lost wake-ups: every push is followed by parking_.notify_one(); sleepers use the
//     prepare / re-check / commit protocol of event_count.hpp.
//  6. Idle workers spin only a bounded number of rounds, then park.

#ifndef BOOST_THREAD_EXECUTORS_DETAIL_FORK_JOIN_POOL_CORE_HPP
#define BOOST_THREAD_EXECUTORS_DETAIL_FORK_JOIN_POOL_CORE_HPP

#include <boost/thread/executors/detail/fork_join/config.hpp>
#include <boost/thread/executors/detail/fork_join/event_count.hpp>
#include <boost/thread/executors/detail/fork_join/sync_deque.hpp>
#include <boost/thread/executors/detail/fork_join/task.hpp>
#include <boost/thread/executors/detail/fork_join/victim_selection.hpp>
#include <boost/thread/executors/detail/fork_join/worker_context.hpp>
#include <boost/thread/exceptions.hpp>
#include <boost/thread/thread_only.hpp>

#include <atomic>
#include <cstddef>
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
        : worker_count_(worker_count), deques_(new padded_deque[worker_count])
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
        while (deques_[i].q.try_pull_front(t) == queue_op_status::success)
          t->discard();
    }

    unsigned worker_count() const noexcept { return worker_count_; }

    // Effects: accepts t (ownership included) and makes it visible to every consumer, then
    // wakes a sleeper. From worker i: to deque i at `end`. From a thread running one of our
    // tasks: to the shared queue even if closed. From any other thread: to the shared queue.
    // Throws: sync_queue_is_closed if closed and the caller runs none of our tasks (t is then
    // destroyed unrun); whatever the allocation throws.
    void submit(task* t, queue_end end)
    {
      // relaxed: the queue's mutex publishes this increment together with the task, so any
      // thread that pulls the task (and later decrements) sees it; see also worker_loop().
      unfinished_.fetch_add(1, std::memory_order_relaxed);
      try
      {
        const int self = worker_index_in(this);
        if (self >= 0)
        {
          sync_deque<task*>& own = deques_[self].q;
          end == queue_end::front ? own.force_push_front(t) : own.force_push_back(t);
        }
        else if (running_core == this)
          end == queue_end::front ? shared_.force_push_front(t) : shared_.force_push_back(t);
        else
          end == queue_end::front ? shared_.push_front(t) : shared_.push_back(t);
      }
      catch (...)
      {
        t->discard();
        finish_one();
        throw;
      }
      parking_.notify_one();
    }

    // Returns: a task taken from, in order, the caller's own deque (front) if it is one of our
    // workers, the shared queue (front), another worker's deque (back); nullptr if none was
    // seen. Lock-based per queue; never blocks on emptiness.
    task* find_task()
    {
      task* t = nullptr;
      const int self = worker_index_in(this);
      if (self >= 0 && deques_[self].q.try_pull_front(t) == queue_op_status::success)
        return t;
      if (shared_.try_pull_front(t) == queue_op_status::success)
        return t;
      for_each_victim(worker_count_, self, [&](unsigned v) {
        return deques_[v].q.try_pull_back(t) == queue_op_status::success;
      });
      return t;
    }

    // Effects: runs t on the calling thread (ownership taken), then accounts for it.
    // Throws: boost::thread_interrupted if t throws it; any other exception from t calls
    // std::terminate, as for basic_thread_pool.
    void run_task(task* t)
    {
      struct finish_guard
      {
        pool_core& core;
        ~finish_guard() { core.finish_one(); }
      } finish{*this};
      running_scope running(this);
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

  private:
    void finish_one()
    {
      // acq_rel: the task's effects are released to whoever sees the count reach zero
      // (drained(), worker_loop()). The closed() test below reads under the shared queue's
      // mutex, which orders it against close() and against a worker's exit check.
      if (unfinished_.fetch_sub(1, std::memory_order_acq_rel) == 1 && closed())
        parking_.notify_all(); // the last one out wakes every worker waiting to leave
    }

    // A deque per worker, each on its own cache lines so that owners do not false-share.
    struct alignas(64) padded_deque
    {
      sync_deque<task*> q;
    };

    const unsigned worker_count_;
    std::unique_ptr<padded_deque[]> deques_;
    sync_deque<task*> shared_;
    alignas(64) std::atomic<std::size_t> unfinished_{0};
    event_count parking_;
  };

} // namespace fork_join
} // namespace detail
} // namespace boost

#endif // header

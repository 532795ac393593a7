// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// The life of a pool thread: its scheduler loop, on the thread's own stack or on a fiber, and
// the park of a frame that runs that loop on a fresh fiber (parking.hpp).
//
// Threading contract
//  - Every function here runs on the pool thread whose slot it is given (its owner), and only
//    there: the loop reads and writes the slot's owner-only fields (worker_slot.hpp) and the
//    thread's home (parking.hpp), whose frames resume on this thread only.
//  - Between tasks the loop resumes the thread's parked frames that were posted (or, polled,
//    are ready); with nothing to do it spins a bounded number of rounds, then sleeps with the
//    protocol of sleep.hpp; it leaves as shutdown.hpp says.
//
// scheduler_loop's functions are the core's own (pool_core::worker_loop, park): Core is
// pool_core, a template parameter only so that this file need not see its definition.

#ifndef BOOST_THREAD_EXECUTORS_DETAIL_FORK_JOIN_SCHEDULER_WORKER_LOOP_HPP
#define BOOST_THREAD_EXECUTORS_DETAIL_FORK_JOIN_SCHEDULER_WORKER_LOOP_HPP

#include <boost/thread/executors/detail/fork_join/base/config.hpp>
#include <boost/thread/executors/detail/fork_join/fibers/parking.hpp>
#include <boost/thread/executors/detail/fork_join/scheduler/sleep.hpp>
#include <boost/thread/executors/detail/fork_join/scheduler/worker_slot.hpp>
#include <boost/thread/executors/detail/fork_join/tasks/task.hpp>
#include <boost/thread/executors/detail/fork_join/tasks/worker_context.hpp>
#include <boost/thread/executors/detail/fork_join/trace/trace.hpp>
#include <boost/thread/exceptions.hpp>
#include <boost/thread/thread_only.hpp>

#include <atomic>
#include <cstdint>
#include <exception>

namespace boost {
namespace detail {
namespace fork_join {

  template <class Core>
  class scheduler_loop
  {
  public:
    // The life of pool thread `index` of `core`: marks the thread as ours, calls on_entry()
    // (the pool's at_thread_entry: its submissions are a worker's), then runs tasks
    // (schedule()), then calls on_exit() (the pool's at_thread_exit), however schedule() ended:
    // still as one of our threads, on its own stack, with no frame parked, after its last task.
    // Returns when the pool is closed and drained.
    // Throws: boost::thread_interrupted when interrupted (in a task or while idle), once no frame
    // of the thread is parked; what on_entry() throws, likewise; what on_exit() throws, in
    // place of either.
    template <class OnEntry, class OnExit>
    static void run(Core& core, unsigned index, OnEntry&& on_entry, OnExit&& on_exit)
    {
      worker_slot& own = core.queues_.slot(index);
      worker_scope scope(&core, index, &own);
      own.leaving = false;
      // However the thread leaves (an interruption, at_thread_entry's exception): no credit,
      // no executor record, no cached stack; a fresh thread may own the slot's deque next.
      struct leave
      {
        Core& core;
        worker_slot& own;
        ~leave()
        {
          core.give_back_credits(own);
          own.recorded_executor.reset();
          own.home.leave();
          own.deque.release_owner();
        }
      } cleanup{core, own};
      own.home.enter();
      std::exception_ptr entry_error;
      try
      {
        on_entry(); // may fork and join, and so park
      }
      catch (...)
      {
        entry_error = std::current_exception();
        own.leaving = true; // but not before the frames it parked have resumed
      }
      try
      {
        schedule(core, own, true);
      }
      catch (...)
      {
        on_exit(); // an exception of its own replaces the interruption
        throw;
      }
      on_exit();
      if (entry_error)
        std::rethrow_exception(entry_error);
      if (own.leaving)
        throw thread_interrupted(); // the interruption schedule() took while frames were parked
    }

    // Requires: the calling thread is pool thread `own` of `core`, which reserve_stack() found
    // a stack for since its last park; `frame` was registered with what it waits for
    // (waker.hpp), hooked (parked_frame::hook_with) or made polled, as `how` says (not
    // arm_result::done).
    // Effects: parks the calling frame (parking.hpp) and runs schedule() on a fresh fiber until
    // the frame is posted (or, polled, ready; or, polled or hooked and interruptible, the
    // thread is interrupted); returns on the calling thread, with the frame's state restored.
    static void park(Core& core, worker_slot& own, parked_frame& frame, arm_result how)
    {
      if (how == arm_result::polled)
        own.home.add_polled(frame);
      else if (how == arm_result::hooked)
        own.home.add_hooked(frame);
      // relaxed: gauges (see pool_core::parked_now_).
      const std::uint64_t now = core.parked_now_.fetch_add(1, std::memory_order_relaxed) + 1;
      std::uint64_t peak = core.parked_peak_.load(std::memory_order_relaxed);
      while (now > peak && !core.parked_peak_.compare_exchange_weak(peak, now, std::memory_order_relaxed))
      {
      }
      // relaxed: the owner's own stores.
      const task_tag saved[2] = {own.joining[0].load(std::memory_order_relaxed), own.joining[1].load(std::memory_order_relaxed)};
      own.stats.add(own.stats.frames_parked, 1);
      note_switch(own);
      auto loop = [&core, &own] { return schedule(core, own, false); };
      core.trace(trace_what::park, &frame); // the last event of this stack until the resume below
      own.home.park(frame, loop);
      const std::uint64_t before = core.parked_now_.fetch_sub(1, std::memory_order_relaxed); // relaxed: a gauge
      BOOST_THREAD_FJ_ASSERT(before != 0); // Invariant: one decrement per park
      (void)before;
      core.trace(trace_what::resume, &frame);
      // release: as join_publication's stores.
      own.joining[0].store(saved[0], std::memory_order_release);
      own.joining[1].store(saved[1], std::memory_order_release);
    }

  private:
    // The scheduler loop of pool thread `own`, on its own stack (own_stack) or on a fiber
    // (parking.hpp): runs tasks, resumes the thread's parked frames that were posted (or,
    // polled, are ready) between them, and sleeps when there is nothing to do.
    // Returns: on the own stack, nullptr when the pool is closed and drained, or when the thread
    // is leaving (own.leaving) and no frame of it is parked. On a fiber: the frame to resume when
    // the fiber ends, or nullptr to resume the idle own stack; a fiber never returns otherwise
    // (while it runs, a frame of the thread is parked or the own stack is idle).
    // Throws (own stack only): boost::thread_interrupted when the thread is interrupted with no
    // frame parked; then it leaves as it did before parking existed. With frames parked it
    // cannot (they are parts of accepted tasks, and only it can resume them): it notes that it
    // is leaving, resumes its interruptible polled frames with the interruption, and goes on
    // until the last parked frame has resumed.
    static parked_frame* schedule(Core& core, worker_slot& own, bool own_stack)
    {
      if (!own_stack)
        clear_joining(own); // a fresh stack joins nothing yet
      unsigned poll_sleep_us = 50;
      for (;;)
      {
        if (!own_stack && own.home.idle_main())
        {
          note_switch(own);
          return nullptr;
        }
        if (parked_frame* pf = own.home.take_ready())
        {
          poll_sleep_us = 50;
          note_switch(own);
          if (!own_stack)
            return pf;
          own.home.resume_from_own_stack(*pf);
          clear_joining(own); // back at the top of the own stack
          continue;
        }
        if (own_stack && own.leaving && own.home.parked() == 0)
          return nullptr;
        try
        {
          if (core.try_run_one())
            continue;
          // Until it finds something: it asks the others not to keep children back
          // (pool_core::defer_stack_tasks).
          seeking_scope seeking(core.sleep_);
          bool ready = false;
          task* found = nullptr;
          {
            const typename Core::trace_scope searching(core, trace_span::search);
            const int rounds = own.home.parked() ? BOOST_THREAD_FJ_PARKED_SPIN_ROUNDS : BOOST_THREAD_FJ_IDLE_SPIN_ROUNDS;
            for (int round = 0; round < rounds && !ready && !found; ++round)
            {
              this_thread::yield();
              ready = own.home.has_ready();
              if (!ready)
                found = core.find_task();
            }
          }
          if (ready || found)
          {
            seeking.end();
            if (found)
              core.run_task(found);
            continue;
          }

          // A thread that sleeps or leaves holds no credit (task_count.hpp).
          core.give_back_credits(own);
          const idle_sleep::key_type key = core.sleep_.prepare();
          // After prepare(): a post() that this misses notifies after its push, so its
          // epoch ends the sleep below (parking.hpp, event_count.hpp).
          if (own.home.has_ready())
          {
            core.sleep_.cancel();
            continue;
          }
          if (task* t = core.find_task())
          {
            core.sleep_.cancel();
            seeking.end();
            core.run_task(t);
            continue;
          }
          // closed() reads under the shared queue's mutex, and so do close() and the wake-up
          // of the finish that takes the count to zero (pool_core::finish_one): an accepted
          // outside push made its increment before close() took that mutex, so a zero seen
          // after seeing closed really means drained; and a fall to zero that this read misses
          // is followed by a closed() that sees true and wakes us (shutdown.hpp). zero()
          // acquires: pairs with the count's release decrement, for the effects of finished tasks.
          if (own_stack && own.home.parked() == 0 && core.closed() && core.count_.zero())
          {
            core.sleep_.cancel();
            return nullptr;
          }
          own.stats.add(own.stats.sleeps, 1);
          const typename Core::trace_scope sleeping(core, trace_span::sleep);
          core.sleep_.sleep(key, own.home, poll_sleep_us);
        }
        catch (const thread_interrupted&)
        {
          if (own_stack && own.home.parked() == 0)
            throw;
          own.leaving = true;
          own.home.interrupt_polled();
        }
      }
    }
  };

} // namespace fork_join
} // namespace detail
} // namespace boost

#endif // header

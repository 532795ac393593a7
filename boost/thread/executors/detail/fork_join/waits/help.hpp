// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// The help loop: how every wait in this library waits.
//
// A joiner runs queued tasks one at a time until its condition holds, re-checking it after each
// task (so it never runs more than it must, and a worker takes its own newest tasks, which
// are its own children, first). It runs only tasks its wait_scope admits (admission.hpp): the
// awaited tasks, and what the thief of an awaited stack task spawned for it. That is what
// makes helping safe: a task run on top of a waiting frame never waits, directly or through
// others, for that frame, so an acyclic task graph cannot deadlock by burying a task under one
// that waits for it (the design article's join runs "any queued task" and can).
//
// When there is nothing it may run it spins a bounded number of rounds, as an idle worker does,
// then, on a pool thread, parks (parking.hpp): it registers its frame with what it waits for
// (arm()) and the thread goes on running any task of its pool on a fresh stack until the frame
// is posted and resumed. So a waiting frame costs its pool no thread, whatever the depth of
// the graph, and this covers the design article's "evil case" too (a join that starts before the
// awaited task is even submitted: the thread of the parked frame runs the submitter). A thread
// that is not a pool thread sleeps in block() instead: it is never needed to run anything.
// Before it parks or blocks, it queues the children that parallel_invoke calls below it on its
// stack kept back (pool_core::defer_stack_tasks): they would otherwise wait for the frame.
// If no stack can be had for the fiber (the system refuses the mapping), a join of futures
// throws executors::fiber_stack_error, which names the limit: its task ends with that
// exception, and nothing it waited for is lost (those tasks are queued or running, and run).
// A wait whose children live in its frame (stack_task.hpp) cannot give up so: it always finds
// the thread's spare stack (parking.hpp), since its child was queued only while the thread had
// one.
//
// Stack: a thread only takes queued tasks while it has stack to spare (stack_bounds.hpp);
// below that it only waits, which is safe: a thread that is not a pool thread is never needed,
// and a pool thread parks and goes on on a fresh stack. Nesting on any stack is bounded by the
// admission rule too: each nested frame runs a task the frame below waits for.

#ifndef BOOST_THREAD_EXECUTORS_DETAIL_FORK_JOIN_WAITS_HELP_HPP
#define BOOST_THREAD_EXECUTORS_DETAIL_FORK_JOIN_WAITS_HELP_HPP

#include <boost/thread/executors/detail/fork_join/base/config.hpp>
#include <boost/thread/executors/detail/fork_join/fibers/parking.hpp>
#include <boost/thread/executors/detail/fork_join/scheduler/pool_core.hpp>
#include <boost/thread/executors/detail/fork_join/primitives/stack_bounds.hpp>
#include <boost/thread/executors/detail/fork_join/tasks/admission.hpp>
#include <boost/thread/executors/detail/fork_join/tasks/task_frame.hpp>
#include <boost/thread/executors/detail/fork_join/tasks/worker_context.hpp>
#include <boost/thread/executors/detail/fork_join/waits/strategies.hpp>
#include <boost/thread/exceptions.hpp>
#include <boost/throw_exception.hpp>

#include <cerrno>
#include <exception>
#include <string>
#include <type_traits>

namespace boost {
namespace executors {

  // Thrown by a join on a pool thread that must park its frame (nothing it may run, doc/index.md
  // "Parking") when the system refuses the mapping of a stack to go on on: the process reached
  // vm.max_map_count, its address-space limit (RLIMIT_AS, ulimit -v), or, under strict
  // overcommit (vm.overcommit_memory=2), its memory. code() is the errno of the refused mapping;
  // what() names the limits and the options that change them. The joining task ends with it;
  // every task accepted before runs as usual, and the pool stays usable.
  class fiber_stack_error : public thread_resource_error
  {
  public:
    fiber_stack_error(int ev, const std::string& what_arg) : thread_resource_error(ev, what_arg) {}
  };

} // namespace executors

namespace detail {
namespace fork_join {

  // Throws: executors::fiber_stack_error for a pool thread of `own` that found no stack to park
  // on (help_until). Out of line: cold.
  [[noreturn]] BOOST_NOINLINE inline void throw_no_fiber_stack(pool_core& own)
  {
    const int err = own.home().stack_error();
    const fiber_gauges g = own.fiber_statistics();
    std::string what = "boost::executors::fork_join_thread_pool: a join found no stack to park on: the system refused a mapping "
                       "of fiber stacks of " +
                       std::to_string(own.home().stack_size() >> 10) + " KiB (this pool has " + std::to_string(g.stacks) +
                       " fiber stacks mapped, " + std::to_string(g.bytes >> 20) + " MiB of address space, " +
                       std::to_string(g.mappings) + " mappings, " + std::to_string(g.parked_now) +
                       " frames parked" +
                       (fiber_stack_cache::guard_markers() ? ""
                                                           : "; without the guard markers of Linux 6.13+, each stack takes 2 "
                                                             "mappings") +
                       "). Limits: vm.max_map_count (mappings), RLIMIT_AS (ulimit -v), memory under "
                       "vm.overcommit_memory=2. Lower fork_join_thread_pool::options::fiber_stack_size "
                       "(BOOST_THREAD_FJ_FIBER_STACK_SIZE), or raise the limit";
    boost::throw_exception(executors::fiber_stack_error(err ? err : ENOMEM, what));
  }

  // Calls wait.ready() for a polled parked frame (parking.hpp).
  template <class Wait>
  bool poll_ready(const void* wait)
  {
    return static_cast<Wait*>(const_cast<void*>(wait))->ready();
  }

  // The park step of help_until, out of line: its parked_frame would otherwise sit in the frame
  // of every join, which deep chains pay for in stack memory on every level (as stack_task.hpp's
  // wait_for_stack_task; with it inline, an A/B found chain_1e4 at one thread 1.6x slower
  // against oneTBB).
  // Effects: parks the calling frame on the calling pool thread of `own` until wait.arm()'s
  // registration is posted (or, polled, until wait.ready() holds), unless wait.arm() finds
  // nothing to wait for (strategies.hpp).
  // First it queues the children that parallel_invoke calls below the frame on its stack keep
  // back (pool_core::defer_stack_tasks): they must not wait for the frame, and queued, the
  // thread runs them while it is parked. Here, not in help_until: that one call there made
  // fork's joins at two threads 4% slower (fib with fork; the park path's registers).
  // Requires: own.reserve_stack() returned true.
  // Throws: what wait.arm() throws; boost::thread_interrupted if a polled or hooked frame was
  // resumed by an interruption of the thread; std::bad_alloc if the deque cannot grow for the
  // children kept back (nothing parked).
  template <class Wait>
  BOOST_NOINLINE void park_until_posted(pool_core& own, Wait& wait)
  {
    own.push_deferred();
    parked_frame frame(own.home(), this_thread::interruption_enabled());
    const arm_result armed = wait.arm(frame);
    if (armed == arm_result::done)
      return;
    if (armed == arm_result::polled)
      frame.poll_with(&poll_ready<Wait>, &wait);
    own.park(frame, armed);
    if (frame.interrupted())
      throw thread_interrupted(); // as Boost's interruption points throw it
  }

  // For help_until on a pool thread of `own` whose frame is isolated (task_frame.hpp) and whose
  // stack has no room to run a task: runs tasks with run_one() on a fresh stack until
  // wait.ready() holds or run_one() finds none, as the wait would on its own stack.
  // Returns: whether a task ran. Throws: what wait.ready() or a task throw;
  // executors::fiber_stack_error if no stack can be had.
  template <class Wait, class RunOne>
  BOOST_NOINLINE bool help_on_fresh_stack(pool_core& own, Wait& wait, RunOne& run_one)
  {
    if (!own.reserve_stack())
      throw_no_fiber_stack(own);
    struct helping
    {
      Wait& wait;
      RunOne& run_one;
      bool ran;
      std::exception_ptr error;

      static void help(void* self) noexcept
      {
        helping& h = *static_cast<helping*>(self);
        try
        {
          while (!h.wait.ready() && h.run_one())
            h.ran = true;
        }
        catch (...)
        {
          h.error = std::current_exception();
        }
      }
    } h{wait, run_one, false, std::exception_ptr()};
    own.home().call_on_fresh_stack(&helping::help, &h);
    if (h.error)
      std::rethrow_exception(h.error);
    return h.ran;
  }

  // Requires: first != nullptr; second is nullptr or another pool; `wait` is a wait strategy
  // (strategies.hpp).
  // Effects: until wait.ready() returns true, runs tasks that `scope` admits, of `first`, then
  // of `second`; when there are none, after spin_rounds rounds of looking again, a pool thread
  // parks the calling frame (wait.arm(frame) registers it with what it waits for) and any other
  // thread sleeps in wait.block().
  // Progress: may run other tasks while waiting; a parked frame resumes on the calling thread.
  // Throws: what wait's functions or a task run throw; boost::thread_interrupted if a polled or
  // hooked parked frame was resumed by an interruption of the thread;
  // executors::fiber_stack_error if a pool thread must park and no stack can be had;
  // std::bad_alloc if its deque cannot grow to queue the children kept back below the frame
  // (pool_core::push_deferred).
  template <class Wait>
  void help_until(pool_core* first, pool_core* second, wait_scope scope, Wait&& wait,
                  int spin_rounds = BOOST_THREAD_FJ_IDLE_SPIN_ROUNDS)
  {
    BOOST_THREAD_FJ_ASSERT(first != nullptr && second != first);
    const worker_context* const w = current_worker;
    // The pool this thread belongs to, if any, unless the waiting frame is isolated: its wait
    // never parks (task_frame.hpp, "Isolation"), it blocks as a thread that is not a pool
    // thread does.
    const bool isolated = current_isolated(); // then also what it runs is (run_task)
    pool_core* const own = (w && !isolated) ? w->core : nullptr;
    ensure_stack_floor(); // before the first room check that may refuse a task
    auto run_one = [&] {
      if (!stack_has_room())
        return false;
      return first->try_run_one(&scope, isolated) || (second && second->try_run_one(&scope, isolated));
    };
    for (;;)
    {
      if (wait.ready())
        return;
      if (run_one())
        continue;
      // Before parking, look again for a while, as an idle worker does (worker_loop.hpp): the
      // awaited task often finishes, or its thief pushes tasks we may run, within microseconds.
      bool ran = false;
      {
        const pool_core::trace_scope searching(*first, trace_span::join_search);
        for (int round = 0; round < spin_rounds && !ran; ++round)
        {
          if (wait.ready())
            return;
          {
            // Counted while it yields, not while run_one() runs what it found: the others
            // then keep their children back again (pool_core::defer_stack_tasks).
            const seeking_scope seeking(first->idle());
            this_thread::yield();
          }
          ran = run_one();
        }
      }
      if (ran)
        continue;
      if (!own)
      {
        if (isolated && w)
        {
          // Where run_one() found no room, the tasks it may run go on on a fresh stack, as a
          // parked frame's would: a blocked wait must not leave its own children unrun.
          if (!stack_has_room() && help_on_fresh_stack(*w->core, wait, run_one))
            continue;
          // Its deque may hold tasks it may not run (older ones, or its frames' forks that
          // this wait does not await): others must know before it blocks (pool_core.hpp,
          // hazard 2, lost wake-ups); so must the children its frames keep back.
          w->core->before_block();
        }
        const pool_core::trace_scope blocked(*first, trace_span::join_block);
        wait.block();
        continue;
      }
      if (!own->reserve_stack())
        throw_no_fiber_stack(*own);
      park_until_posted(*own, wait);
    }
  }

} // namespace fork_join
} // namespace detail
} // namespace boost

#endif // header

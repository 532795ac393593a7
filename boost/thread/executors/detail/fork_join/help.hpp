// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// The help loop: how every wait in this library waits.
//
// A joiner runs queued tasks one at a time until its condition holds, re-checking it after each
// task (hazard 2: it never runs more than it must, and a worker takes its own newest tasks, which
// are its own children, first). When there is nothing to run it spins a bounded number of
// rounds, as an idle worker does, then parks (hazard 1 and the article's unsolved "evil case"):
// it sleeps until its future is ready OR new work is pushed to a pool it helps, so a join that
// starts before the awaited task is even submitted wakes up and runs that task. A joiner with
// nothing to run does not burn a core.
//
// Stack: a thread that is not a worker of a pool it helps only takes queued tasks while it has
// stack to spare (stack_bounds.hpp); below that it only waits, which is safe because the
// workers are awake whenever work is queued.
//
// Why this cannot deadlock on an acyclic task graph: a joiner only sleeps after a full search
// found no queued task in the pools it helps, and it wakes on any push to them. So whenever a
// task is queued, every joiner of its pool is either running something or searching; by the
// article's Kahn argument some queued or running task has no unmet dependency and progresses.

#ifndef BOOST_THREAD_EXECUTORS_DETAIL_FORK_JOIN_HELP_HPP
#define BOOST_THREAD_EXECUTORS_DETAIL_FORK_JOIN_HELP_HPP

#include <boost/thread/executors/detail/fork_join/config.hpp>
#include <boost/thread/executors/detail/fork_join/event_count.hpp>
#include <boost/thread/executors/detail/fork_join/pool_core.hpp>
#include <boost/thread/executors/detail/fork_join/stack_bounds.hpp>
#include <boost/thread/executors/detail/fork_join/worker_context.hpp>

namespace boost {
namespace detail {
namespace fork_join {

  // Requires: first != nullptr; second is nullptr or another pool. guard_stack == false only
  // where the caller must run the tasks itself whatever its stack (pool::join() after the
  // workers were interrupted).
  // Effects: until ready() returns true, runs tasks of `first`, then of `second`; when neither
  // has any, sleeps in wait_fn(wake), where wait_fn must block until one of the awaited futures
  // or `wake` is ready (boost::wait_for_any). Progress: may run other tasks while waiting.
  // Throws: boost::thread_interrupted (an interruption point); what ready() or wait_fn throw.
  template <class Ready, class WaitFn>
  void help_until(pool_core* first, pool_core* second, Ready&& ready, WaitFn&& wait_fn, bool guard_stack = true)
  {
    pool_core* const cores[2] = {first, second};
    const int n = second ? 2 : 1;
    const bool may_help =
        !guard_stack || worker_index_in(first) >= 0 || (second && worker_index_in(second) >= 0);
    for (;;)
    {
      if (ready())
        return;
      const bool helping = may_help || stack_has_room();
      auto run_one = [&] { return helping && (first->try_run_one() || (second && second->try_run_one())); };
      if (run_one())
        continue;
      // Before parking, look again for a while, as an idle worker does (pool_core.hpp): the
      // awaited task often finishes, or its thief pushes work (a chain of forks), within
      // microseconds, and a park costs a wake-up on both sides.
      bool ran = false;
      for (int round = 0; round < BOOST_THREAD_FJ_IDLE_SPIN_ROUNDS && !ran; ++round)
      {
        if (ready())
          return;
        this_thread::yield();
        ran = run_one();
      }
      if (ran)
        continue;

      task* t = nullptr;
      pool_core* owner = nullptr;
      {
        // Registered as a prospective sleeper in every pool we help; from here on a push to
        // any of them changes its epoch and ends (or prevents) the sleep below.
        // A joiner that cannot help wants no wake-up for new work (event_count.hpp).
        const event_count::interest interest =
            helping ? event_count::interest::work : event_count::interest::completion;
        event_count::key_type keys[2] = {};
        for (int i = 0; i < n; ++i)
          keys[i] = cores[i]->parking().prepare_wait(interest);
        struct registration
        {
          pool_core* const* cores;
          int n;
          event_count::interest interest;
          ~registration()
          {
            for (int i = 0; i < n; ++i)
              cores[i]->parking().cancel_wait(interest);
          }
        } registered{cores, n, interest};

        if (ready())
          return;
        for (int i = 0; i < n && helping && !t; ++i)
          if ((t = cores[i]->find_task()))
            owner = cores[i];
        if (!t)
        {
          event_count::wake_token wake;
          future<void> woken = wake.get_future();
          struct enlistment
          {
            pool_core* const* cores;
            int n;
            event_count::wake_token& w;
            ~enlistment()
            {
              for (int i = 0; i < n; ++i)
                cores[i]->parking().delist(w);
            }
          } enlisted{cores, n, wake};
          bool sleep = true;
          for (int i = 0; i < n && sleep; ++i)
            sleep = cores[i]->parking().enlist(keys[i], wake);
          if (sleep)
            wait_fn(woken);
        }
      }
      if (t)
        owner->run_task(t); // outside the registration: a running joiner is not a sleeper
    }
  }

} // namespace fork_join
} // namespace detail
} // namespace boost

#endif // header

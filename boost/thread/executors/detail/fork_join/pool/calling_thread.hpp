// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// What fork_join_thread_pool asks about the calling thread: the pool it works for
// (current()), its index there (current_thread_index()), and running queued closures on it
// (reschedule_until()).

#ifndef BOOST_THREAD_EXECUTORS_DETAIL_FORK_JOIN_POOL_CALLING_THREAD_HPP
#define BOOST_THREAD_EXECUTORS_DETAIL_FORK_JOIN_POOL_CALLING_THREAD_HPP

#include <boost/thread/executors/detail/fork_join/base/config.hpp>
#include <boost/thread/executors/detail/fork_join/scheduler/pool_core.hpp>
#include <boost/thread/executors/detail/fork_join/tasks/task_frame.hpp>
#include <boost/thread/executors/detail/fork_join/tasks/worker_context.hpp>

namespace boost {
namespace detail {
namespace fork_join {

  // Returns: the owner (pool_core::owner(), the public pool object) of the scheduler whose task
  // the calling thread runs (the innermost, when a task of one pool waits for another's), else
  // of the scheduler the calling thread is a thread of (a worker, or in at_thread_entry), else
  // nullptr. The pool stays alive while such a task or thread runs.
  inline void* current_owner() noexcept
  {
    pool_core* core = running_core;
    if (!core)
      if (const worker_context* w = current_worker)
        core = w->core;
    return core ? core->owner() : nullptr;
  }

  // Returns: the index of the calling thread in the pool it is a thread of (a worker, a fresh
  // thread join() started on a worker's slot, also in at_thread_entry and at_thread_exit),
  // whatever pool's task it runs; else -1. A frame that parked in a join resumes on its own
  // thread, so the index is the same after the join. One thread_local load.
  inline int current_thread_index() noexcept
  {
    const worker_context* w = current_worker;
    return w ? static_cast<int>(w->index) : -1;
  }

  // Effects: runs core's queued closures on the calling thread, one at a time as
  // fork_join_thread_pool::try_executing_one() does, until pred() is true or none ran.
  // Returns: whether pred() became true.
  template <class Pred>
  bool run_until(pool_core& core, const Pred& pred)
  {
    do
    {
      if (!core.try_run_one(nullptr, current_isolated()))
        return false;
    } while (!pred());
    return true;
  }

} // namespace fork_join
} // namespace detail
} // namespace boost

#endif // header

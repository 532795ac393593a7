// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// invoke_all(ex, f1, f2, ...): parallel_invoke (parallel_invoke.hpp, which forwards to it),
// and the splits of the parallel algorithms.
//
// On a fork_join_thread_pool the children live in the caller's stack frame (no allocation, no
// future, no shared state): f2..fn are pushed to the calling worker's deque as stack tasks
// (stack_task.hpp), f1 runs inline, and each child nobody stole is popped back and run inline
// too; a stolen one is waited for by helping. On any other executor: generic_fallback.hpp.

#ifndef BOOST_THREAD_EXECUTORS_DETAIL_FORK_JOIN_INVOKE_INVOKE_ALL_HPP
#define BOOST_THREAD_EXECUTORS_DETAIL_FORK_JOIN_INVOKE_INVOKE_ALL_HPP

#include <boost/thread/executors/detail/fork_join/base/config.hpp>
#include <boost/thread/executors/detail/fork_join/invoke/exception_collector.hpp>
#include <boost/thread/executors/detail/fork_join/invoke/generic_fallback.hpp>
#include <boost/thread/executors/detail/fork_join/invoke/stack_task.hpp>
#include <boost/thread/executors/detail/fork_join/scheduler/pool_core.hpp>
#include <boost/thread/executors/detail/fork_join/scheduler/pool_fwd.hpp>

#include <type_traits>

namespace boost {
namespace detail {
namespace fork_join {

  // On our pool: queues `child` as a stack task, recurses into the rest (the last level runs
  // `first` inline), then joins `child`. Every child is joined before this frame ends.
  // own: core.own_slot(), looked up once for all the children (fast path, "A frame's own
  // slot", doc/design.md).
  template <class First>
  void fork_all(pool_core&, worker_slot*, exception_collector& errors, First& first) noexcept
  {
    invoke_collecting(first, errors);
  }

  template <class First, class Child, class... Rest>
  void fork_all(pool_core& core, worker_slot* own, exception_collector& errors, First& first, Child& child,
                Rest&... rest) noexcept
  {
    stack_task_impl<Child> t(child);
    bool queued = false;
    try
    {
      queued = spawn(core, own, t);
    }
    catch (...)
    {
      // Out of memory growing a queue: nothing was queued, the child runs inline below.
    }
    fork_all(core, own, errors, first, rest...);
    if (queued)
      join(core, own, t);
    else
      t.invoke();
    errors.add(t.error());
    if (t.interrupted())
      errors.interrupted();
  }

  // Requires, Effects, Throws: parallel_invoke(ex, f1, fs...) (parallel_invoke.hpp).
  template <class Executor, class F1, class... Fs>
  void invoke_all(Executor& ex, F1&& f1, Fs&&... fs)
  {
    exception_collector errors;
    if constexpr (std::is_same<Executor, executors::fork_join_thread_pool>::value)
    {
      pool_core& core = *core_of(ex);
      fork_all(core, core.own_slot(), errors, f1, fs...);
    }
    else
      invoke_generic(ex, errors, f1, fs...);
    errors.rethrow();
  }

} // namespace fork_join
} // namespace detail
} // namespace boost

#endif // header

// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// invoke_all(ex, f1, f2, ...): parallel_invoke (parallel_invoke.hpp, which forwards to it),
// and the splits of the parallel algorithms.
//
// On a fork_join_thread_pool the children live in the caller's stack frame (no allocation, no
// future, no shared state): f2..fn are pushed at once to the calling worker's deque as stack
// tasks (stack_task.hpp), f1 runs inline, and each child nobody stole is popped back and run
// inline too; a stolen one is waited for by helping. On any other executor:
// generic_fallback.hpp.

#ifndef BOOST_THREAD_EXECUTORS_DETAIL_FORK_JOIN_INVOKE_INVOKE_ALL_HPP
#define BOOST_THREAD_EXECUTORS_DETAIL_FORK_JOIN_INVOKE_INVOKE_ALL_HPP

#include <boost/thread/executors/detail/fork_join/base/config.hpp>
#include <boost/thread/executors/detail/fork_join/invoke/exception_collector.hpp>
#include <boost/thread/executors/detail/fork_join/invoke/generic_fallback.hpp>
#include <boost/thread/executors/detail/fork_join/invoke/stack_task.hpp>
#include <boost/thread/executors/detail/fork_join/scheduler/pool_core.hpp>
#include <boost/thread/executors/detail/fork_join/scheduler/pool_fwd.hpp>

#include <cstddef>
#include <cstdint>
#include <tuple>
#include <type_traits>
#include <utility>

namespace boost {
namespace detail {
namespace fork_join {

  // Effects: joins t if it was queued, else runs it; collects its exception. kept: t is a
  // child that its frame kept back (pool_core::defer_stack_tasks), counted and traced as a task
  // run when it runs here, as join() counts and traces the child it pops back; a child that a
  // closed pool refused is neither.
  template <class F>
  BOOST_FORCEINLINE void join_child(pool_core& core, worker_slot* own, exception_collector& errors, stack_task_impl<F>& t,
                                    bool queued, bool kept = false) noexcept
  {
    if (queued)
      join(core, own, t);
    else
    {
      if (kept)
        core.count_run(own);
      const pool_core::trace_scope span(core, t.trace_kind(), kept);
      t.invoke();
    }
    if (BOOST_UNLIKELY(t.threw()))
      collect(errors, t);
  }

  // Effects: join_child(core, own, errors, t, queued), where t is child j of its frame and,
  // if `kept` is not 0, the frame keeps its children back (pool_core::defer_stack_tasks
  // returned `kept`): then t runs here while they are still kept back, else push_deferred()
  // queued it (before a park) and it is joined.
  template <class F>
  BOOST_FORCEINLINE void join_or_run(pool_core& core, worker_slot* own, exception_collector& errors, stack_task_impl<F>& t,
                                     std::size_t j, std::uint32_t kept, bool queued) noexcept
  {
    if (kept)
    {
      queued = !core.kept_back(own, kept);
      if (!queued)
        core.mark_running(own, kept, j);
    }
    join_child(core, own, errors, t, queued, kept != 0);
  }

  // On our pool: queues the children as stack tasks of this frame, several at once
  // (spawn_all), runs `first` inline, then joins the children, newest first, so that each join
  // finds its child at the bottom of the deque unless a thief took it. Every child is joined
  // before this frame ends. own: core.own_slot(), looked up once for all the children (fast
  // path, "A frame's own slot", doc/design.md).
  template <class First, class... Children, std::size_t... I>
  void fork_all(pool_core& core, worker_slot* own, exception_collector& errors, std::index_sequence<I...>, First& first,
                Children&... children) noexcept
  {
    constexpr std::size_t n = sizeof...(Children);
    if constexpr (n == 1)
    {
      // One child (fib's shape): spawn() alone, whose frame is 16 bytes smaller than with the
      // array below; deep recursions pay for every byte of it on each level.
      // Never kept back (pool_core::defer_stack_tasks): for one child the record costs what
      // its push and pop save; fib with parallel_invoke took 4% longer with it (15
      // instructions more a call), a chain 10-20% where the record was in the frame.
      stack_task_impl<Children...> t(children...);
      bool queued = false;
      try
      {
        queued = spawn(core, own, t);
      }
      catch (...)
      {
        // Out of memory growing a queue: nothing was queued, the child runs inline below.
      }
      invoke_collecting(first, errors);
      join_child(core, own, errors, t, queued);
    }
    else
    {
      std::tuple<stack_task_impl<Children>...> tasks(children...);
      task* const all[n] = {&std::get<I>(tasks)...};
      const std::uint32_t kept = own ? core.defer_stack_tasks(own, all, n) : 0;
      const std::size_t queued = kept ? 0 : spawn_all(core, own, all, n);
      invoke_collecting(first, errors);
      (join_or_run(core, own, errors, std::get<n - 1 - I>(tasks), n - 1 - I, kept, n - 1 - I < queued), ...);
      if (kept)
        core.end_deferred(own, kept);
    }
  }

  // Requires, Effects, Throws: parallel_invoke(ex, f1, fs...) (parallel_invoke.hpp).
  template <class Executor, class F1, class... Fs>
  void invoke_all(Executor& ex, F1&& f1, Fs&&... fs)
  {
    exception_collector errors;
    if constexpr (std::is_same<Executor, executors::fork_join_thread_pool>::value)
    {
      pool_core& core = *core_of(ex);
      if constexpr (sizeof...(Fs) == 0)
        invoke_collecting(f1, errors);
      else
        fork_all(core, core.own_slot(), errors, std::index_sequence_for<Fs...>(), f1, fs...);
    }
    else
      invoke_generic(ex, errors, f1, fs...);
    errors.rethrow();
  }

} // namespace fork_join
} // namespace detail
} // namespace boost

#endif // header

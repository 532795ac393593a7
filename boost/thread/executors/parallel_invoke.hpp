// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// parallel_invoke(ex, f1, f2, ...): the lightest fork/join path of this library.
//
//   #include <boost/thread/executors/parallel_invoke.hpp>
//   boost::executors::parallel_invoke(pool, [&] { a = fib(n - 1); }, [&] { b = fib(n - 2); });
//
// On a fork_join_thread_pool the children live in the caller's stack frame (no allocation, no
// future, no shared state): f2..fn are pushed to the calling worker's deque, f1 runs inline,
// and each child nobody stole is popped back and run inline too; a stolen one is waited for
// by helping. On any other Boost executor the children are submitted as closures; once f1 has
// returned the caller runs each child no thread of the executor has started, then waits for
// the others, running queued closures of the executor meanwhile (try_executing_one, nested at
// most 8 deep on one thread), else blocking. The machinery: detail/fork_join/invoke/
// (invoke_all.hpp, stack_task.hpp, generic_fallback.hpp).

#ifndef BOOST_THREAD_EXECUTORS_PARALLEL_INVOKE_HPP
#define BOOST_THREAD_EXECUTORS_PARALLEL_INVOKE_HPP

#include <boost/thread/executors/detail/fork_join/base/config.hpp>
#include <boost/thread/executors/detail/fork_join/base/executor_traits.hpp>
#include <boost/thread/executors/detail/fork_join/invoke/invoke_all.hpp>
#include <boost/thread/executors/fork_join_thread_pool.hpp>

#include <type_traits>
#include <utility>

namespace boost {
namespace executors {

  // Requires: each fi is callable with no arguments; ex is a fork_join_thread_pool or any
  // executor with submit(Closure) (basic_thread_pool, loop_executor, executor&, ...).
  // Effects: calls f1(), ..., fn() and returns when all of them have returned. f1 runs on the
  // calling thread; f2..fn may run on the executor's threads, in any order and in parallel.
  // On a fork_join_thread_pool: the children need no allocation; a child nobody took runs on
  // the calling thread; a worker (or any thread) waiting for a stolen child runs queued tasks
  // meanwhile (helps), so nesting parallel_invoke in children never deadlocks; a thread that
  // is not a worker only helps while its stack has room (detail/fork_join/primitives/stack_bounds.hpp).
  // On a closed pool, or when a child cannot be queued, that child runs on the calling thread.
  // Synchronization: the completion of every fi happens before parallel_invoke returns.
  // Throws: experimental::parallel::exception_list holding every exception the fi threw, after
  // all of them have finished (the callables are never abandoned); boost::thread_interrupted
  // instead if one of them threw that. Waiting needs no memory: if memory runs out while an
  // exception is recorded, the list holds a std::bad_alloc in its place, and if it runs out
  // while the list itself is made, std::bad_alloc is thrown instead of the list.
  // Progress: on a fork_join_thread_pool, a thread waiting in parallel_invoke cannot be
  // interrupted (boost::thread interruption is deferred until it returns), since the children
  // refer to its frame.
  template <class Executor, class F1, class... Fs>
  typename std::enable_if<detail::fork_join::is_executor<Executor>::value>::type
  parallel_invoke(Executor& ex, F1&& f1, Fs&&... fs)
  {
    detail::fork_join::invoke_all(ex, std::forward<F1>(f1), std::forward<Fs>(fs)...);
  }

  // Requires: each fi is callable with no arguments; F1 is not an executor.
  // Effects: parallel_invoke(current_fork_join_pool(), f1, fs...): on the pool whose task the
  // calling thread runs, or on the default pool outside every pool.
  // Synchronization, Throws, Progress: as above; also what default_fork_join_pool() throws.
  template <class F1, class... Fs>
  typename std::enable_if<!detail::fork_join::is_executor<typename std::remove_reference<F1>::type>::value>::type
  parallel_invoke(F1&& f1, Fs&&... fs)
  {
    parallel_invoke(current_fork_join_pool(), std::forward<F1>(f1), std::forward<Fs>(fs)...);
  }

} // namespace executors

using executors::parallel_invoke;

} // namespace boost

#endif // header

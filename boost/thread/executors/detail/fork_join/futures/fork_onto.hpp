// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// The steps of every fork onto one of our pools, written once: fork(pool, f, args...) in
// either build, and our boost::async(pool, f, args...) (async_as_fork.hpp), in this order:
//  1. the task: one fork state that is also the future's shared state (fork_state.hpp), or in the
//     public-API-only build a node that completes a boost::promise (promise_task.hpp);
//  2. (boost::async) the executor the future records (boost_compat.hpp, 6);
//  3. the task's scheduler, set before it is queued (forked_task.hpp);
//  4. the future, before the submission: if the submission throws, it discards the task, and
//     the future's destruction gives the state back (or drops its reference to the node);
//  5. the submission, at the front of the calling worker's deque (of the shared queue from
//     other threads): the child runs next, as the parent's continuation is stolen.

#ifndef BOOST_THREAD_EXECUTORS_DETAIL_FORK_JOIN_FUTURES_FORK_ONTO_HPP
#define BOOST_THREAD_EXECUTORS_DETAIL_FORK_JOIN_FUTURES_FORK_ONTO_HPP

#include <boost/thread/executors/detail/fork_join/base/config.hpp>
#include <boost/thread/executors/detail/fork_join/base/executor_traits.hpp>
#include <boost/thread/executors/detail/fork_join/futures/forked_task.hpp>
#ifdef BOOST_THREAD_FJ_PUBLIC_API_ONLY
#include <boost/thread/executors/detail/fork_join/futures/promise_task.hpp>
#else
#include <boost/thread/executors/detail/fork_join/base/boost_compat.hpp>
#include <boost/thread/executors/detail/fork_join/futures/fork_state.hpp>
#endif
#include <boost/thread/executors/detail/fork_join/scheduler/pool_core.hpp>
#include <boost/thread/future.hpp>

#include <memory>
#include <tuple>
#include <type_traits>
#include <utility>

namespace boost {
namespace detail {
namespace fork_join {

  // What a fork() passes for the executor record that only boost::async makes.
  struct no_record
  {
  };

#ifndef BOOST_THREAD_FJ_PUBLIC_API_ONLY
  // Returns: the future of a fork's state: a joinable_future also knows the task and its
  // scheduler; a plain boost::future (our boost::async) holds the reference only. Inlined, as
  // fork_onto() is. Two overloads, each with one return, not one with `if constexpr`: GCC 12
  // elides the copy of a named result only when it is the function's one return, and Boost's
  // future "moves" by copying its shared_ptr, then resetting the source (an atomic increment
  // and a release per boost::async: 8% of fib with boost::async, doc/benchmark/README.md,
  // "The layered restructure, against 3210c7e").
  template <class Future, class State>
  BOOST_FORCEINLINE typename std::enable_if<is_joinable_future<Future>::value, Future>::type
  future_of_state(State* state, const std::shared_ptr<pool_core>& core) noexcept
  {
    return Future(state->future_reference(), state, core);
  }
  template <class Future, class State>
  BOOST_FORCEINLINE typename std::enable_if<!is_joinable_future<Future>::value, Future>::type
  future_of_state(State* state, const std::shared_ptr<pool_core>&) noexcept
  {
    Future result;
    state_of(result) = state->future_reference(); // boost_compat.hpp, 1
    return result;
  }
#endif

  // Requires: F and each of Args are MoveConstructible, and a decayed copy of f is callable
  // with decayed copies of args. Future: joinable_future<R>, or (our boost::async, default
  // build) boost::future<R>, for R the call's result; recorded: then the executor the future
  // records, made first (a state once taken is finished only by submit(), its run or discard,
  // so nothing may throw between the two); else no_record.
  // Effects: steps 1 to 5 above for f(args...) on core's pool.
  // Returns: the future of the task.
  // Throws: sync_queue_is_closed if the pool is closed and the caller runs none of its tasks;
  // std::bad_alloc; what moving f or args throws.
  template <class Future, class Record, class F, class... Args>
  Future fork_onto(const std::shared_ptr<pool_core>& core, Record&& recorded, F&& f, Args&&... args)
  {
    typedef typename std::decay<F>::type fn_type;
    typedef std::tuple<typename std::decay<Args>::type...> bound_type;
    typedef std::invoke_result_t<fn_type, typename std::decay<Args>::type...> result_type;
#ifdef BOOST_THREAD_FJ_PUBLIC_API_ONLY
    static_assert(std::is_same<typename std::decay<Record>::type, no_record>::value, "boost::async is Boost's own here");
    (void)recorded;
    unrun_task_exception(); // made before anything it would stand in for
    typedef promise_task<result_type, fn_type, bound_type> node_type;
    boost::future<result_type> future_of_node;
    const std::shared_ptr<node_type> node =
        node_type::make(fn_type(std::forward<F>(f)), bound_type(std::forward<Args>(args)...), future_of_node);
    node_type* const task = node.get();
#else
    constexpr bool plain_future = !is_joinable_future<Future>::value;
    typedef fork_state<result_type, fn_type, bound_type> state_type;
    // From the thread's recycler (fork_recycler.hpp). A plain boost::future cannot give its
    // state back when it ends, so the recycler stacks it and takes it back once it has ended
    // (take_back_stacked).
    state_type* const task = state_type::take(fn_type(std::forward<F>(f)), bound_type(std::forward<Args>(args)...), plain_future);
    if constexpr (plain_future)
      task->set_executor_policy(std::move(recorded));
    else
      (void)recorded;
#endif
    task->set_scheduler(core.get());
#ifdef BOOST_THREAD_FJ_PUBLIC_API_ONLY
    Future result(boost::move(future_of_node), node, core);
#else
    Future result = future_of_state<Future>(task, core);
#endif
    core->submit(task, queue_end::front);
    return result;
  }

} // namespace fork_join
} // namespace detail
} // namespace boost

#endif // header

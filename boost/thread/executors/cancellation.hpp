// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// Canceling a group of forks (an extension, as oneTBB's task_group_context): a
// cancellation_source passed to fork() makes the forked task check it when it starts.
//
// Outline (namespace boost::executors, cancellation_source lifted into boost)
//   class cancellation_source {
//   public:
//     cancellation_source() noexcept;
//     explicit cancellation_source(cancellation_source& parent) noexcept;
//     void cancel() noexcept;
//     bool is_canceled() const noexcept;
//   };
//   joinable_future<R> fork(Executor& ex, cancellation_source& src, F&& f, Args&&... args);
//   joinable_future<R> fork(cancellation_source& src, F&& f, Args&&... args);
//
//   boost::cancellation_source group;
//   std::vector<boost::joinable_future<int> > parts;
//   for (int k = 0; k < n; ++k)
//     parts.push_back(fork(pool, group, search, k));  // a task may call group.cancel()
//   join(pool, parts.begin(), parts.end());
//   // parts[k].get() throws task_canceled_exception if task k had not started
//
// What it costs, and why a task checks its source when it starts rather than being taken out
// of the queues: detail/fork_join/futures/cancelable_call.hpp.

#ifndef BOOST_THREAD_EXECUTORS_CANCELLATION_HPP
#define BOOST_THREAD_EXECUTORS_CANCELLATION_HPP

#include <boost/thread/executors/detail/fork_join/base/config.hpp>
#include <boost/thread/executors/detail/fork_join/base/executor_traits.hpp>
#include <boost/thread/executors/detail/fork_join/futures/cancelable_call.hpp>
#include <boost/thread/executors/detail/fork_join/tasks/cancel_region.hpp>
#include <boost/thread/executors/fork_join.hpp>
#include <boost/thread/executors/fork_join_thread_pool.hpp>
#include <boost/thread/executors/joinable_future.hpp>
#include <boost/throw_exception.hpp>

#include <functional>
#include <type_traits>
#include <utility>

namespace boost {
namespace executors {

  class cancellation_source;

} // namespace executors

namespace detail {
namespace fork_join {

  const cancel_region& region_of(const executors::cancellation_source& src) noexcept;

} // namespace fork_join
} // namespace detail

namespace executors {

  // A flag that cancels the forks made with it (fork(ex, src, f, args...)) and the blocks and
  // parallel algorithms that they start. Neither copyable nor movable: the tasks refer to it.
  class cancellation_source
  {
  public:
    // Effects: a source that is not canceled, and is canceled only by its own cancel().
    cancellation_source() noexcept : region_(nullptr) {}

    // Requires: parent outlives *this.
    // Effects: a source that is not canceled yet, and is canceled by its own cancel() or by
    // parent's (as a oneTBB task_group_context bound to a parent context).
    explicit cancellation_source(cancellation_source& parent) noexcept : region_(&parent.region_) {}

    cancellation_source(const cancellation_source&) = delete;
    cancellation_source& operator=(const cancellation_source&) = delete;

    // Effects: cancels the source: each task forked with it (or with a source made from it)
    // that has not started yet never calls its f, and its future holds task_canceled_exception;
    // the blocks and parallel algorithms that running tasks started stop early and throw
    // task_canceled_exception (doc/index.md, "Cancellation"); a running f goes on to its end
    // (it may poll is_canceled()). Calling it again has no effect.
    // Synchronization: the call synchronizes with every is_canceled() (and every check of a
    // task, block or algorithm) that returns true because of it.
    // Throws: nothing.
    void cancel() noexcept { region_.cancel(); }

    // Returns: whether cancel() was called on *this or on a source it was made from. Once
    // true, it stays true.
    // Throws: nothing.
    bool is_canceled() const noexcept { return region_.canceled(); }

  private:
    friend const detail::fork_join::cancel_region& detail::fork_join::region_of(const cancellation_source&) noexcept;

    detail::fork_join::cancel_region region_;
  };

  // Requires: as fork(ex, f, args...); src outlives the task: it is destroyed only after the
  // returned future (or the future it was moved into) is ready, as join() makes it.
  // Effects: as fork(ex, f, args...), except that the task, when it starts, checks src: if src
  // is canceled, f is not called (nor are args passed to it) and the future holds a
  // task_canceled_exception; else f(args...) runs in src's cancellation region (the blocks and
  // parallel algorithms it starts stop when src is canceled). The task is run, joined and
  // counted by the pool as any fork's: a canceled one completes with its exception exactly once.
  // Returns: a joinable_future for the result. get() throws an exception of a type derived from
  // task_canceled_exception (boost::throw_exception's wrapper) if src was canceled before the
  // task started, or what f threw (task_canceled_exception too, if a block or algorithm in f
  // stopped because src was canceled).
  // Synchronization: as fork(ex, f, args...); a cancel() that the task's check sees happens
  // before the future becomes ready.
  // Throws: as fork(ex, f, args...).
  template <class Executor, class F, class... Args,
            class = typename std::enable_if<detail::fork_join::is_executor<Executor>::value>::type>
  joinable_future<std::invoke_result_t<typename std::decay<F>::type, typename std::decay<Args>::type...> >
  fork(Executor& ex, cancellation_source& src, F&& f, Args&&... args)
  {
    typedef detail::fork_join::cancelable_call<typename std::decay<F>::type> call;
    detail::fork_join::canceled_task_exception(); // made before anything it would stand in for
    return fork(ex, call(detail::fork_join::region_of(src), typename std::decay<F>::type(std::forward<F>(f))),
                std::forward<Args>(args)...);
  }

  // Requires: as above; F is not an executor.
  // Effects: fork(current_fork_join_pool(), src, f, args...).
  // Returns, Synchronization, Throws: as above; also what default_fork_join_pool() throws.
  template <class F, class... Args,
            class = typename std::enable_if<!detail::fork_join::is_executor<typename std::remove_reference<F>::type>::value>::type>
  joinable_future<std::invoke_result_t<typename std::decay<F>::type, typename std::decay<Args>::type...> >
  fork(cancellation_source& src, F&& f, Args&&... args)
  {
    return executors::fork(current_fork_join_pool(), src, std::forward<F>(f), std::forward<Args>(args)...);
  }

} // namespace executors

namespace detail {
namespace fork_join {

  inline const cancel_region& region_of(const executors::cancellation_source& src) noexcept { return src.region_; }

} // namespace fork_join
} // namespace detail

using executors::cancellation_source;
using executors::task_canceled_exception; // as task_block.hpp does: what a canceled fork holds

} // namespace boost

#endif // header

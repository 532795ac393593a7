// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// fork and join: dynamic task decomposition on a fixed number of threads.
//
// Outline (namespace boost::executors; found by argument-dependent lookup)
//   joinable_future<R> fork(Executor& ex, F&& f, Args&&... args);   // child runs next
//   joinable_future<R> fork(F&& f, Args&&... args);     // on current_fork_join_pool()
//   void join(Futures&... fs);                     // each on the pool recorded in it
//   void join(Executor& ex, Futures&... fs);       // help ex until all are ready
//   void join(Iterator first, Iterator last);
//   void join(Executor& ex, Iterator first, Iterator last);
//   future_status join_for(Future& f, duration d);         // gives up at now + d
//   future_status join_until(Future& f, time_point t);     // gives up at t
//   future_status join_for(Executor& ex, Future& f, duration d);
//   future_status join_until(Executor& ex, Future& f, time_point t);
//
//   int fib(fork_join_thread_pool& ex, int n) {
//     if (n < 2) return n;
//     auto a = fork(ex, fib, std::ref(ex), n - 1);
//     auto b = fork(ex, fib, std::ref(ex), n - 2);
//     join(ex, a, b);                              // helps; never deadlocks the pool
//     return a.get() + b.get();
//   }
//
// `fork` is deliberately not lifted into namespace boost: it would collide with POSIX fork().

#ifndef BOOST_THREAD_EXECUTORS_FORK_JOIN_HPP
#define BOOST_THREAD_EXECUTORS_FORK_JOIN_HPP

#include <boost/thread/executors/detail/fork_join/base/config.hpp>
#include <boost/thread/executors/detail/fork_join/base/executor_traits.hpp>
#include <boost/thread/executors/detail/fork_join/futures/foreign_fork.hpp>
#include <boost/thread/executors/detail/fork_join/futures/fork_onto.hpp>
#include <boost/thread/executors/detail/fork_join/futures/join_forms.hpp>
#include <boost/thread/executors/fork_join_thread_pool.hpp>
#include <boost/thread/executors/joinable_future.hpp>
#include <boost/thread/future.hpp>

#include <iterator>
#include <type_traits>
#include <utility>

namespace boost {
namespace executors {

  // Requires: F and each of Args are MoveConstructible; invoking a decayed copy of f with
  // decayed copies of args is well-formed. Executor is a Boost.Thread executor.
  // Effects: schedules f(args...) (on decayed copies, as boost::async and std::thread do) to run
  // next: on a fork_join_thread_pool, or any executor with submit_front, at the front of the
  // calling worker's deque (or of the shared queue from outside), so that the child runs before
  // older work, as the parent's continuation is stolen; on other executors with submit().
  // Returns: a joinable_future for the result; an exception thrown by f is stored in it, and
  // get() rethrows that very exception (Boost's own boost::async, on executors other than a
  // fork_join_thread_pool, slices a type derived from a standard exception to its standard base
  // up to Boost 1.81; from 1.82 Boost.Exception keeps the type).
  // Synchronization: the call happens before the task runs; the task's completion happens
  // before join() on the returned future returns.
  // Throws: sync_queue_is_closed if the executor is closed (for a fork_join_thread_pool: and
  // the caller runs none of its tasks); std::bad_alloc.
  template <class Executor, class F, class... Args,
            class = typename std::enable_if<detail::fork_join::is_executor<Executor>::value>::type>
  joinable_future<std::invoke_result_t<typename std::decay<F>::type, typename std::decay<Args>::type...> >
  fork(Executor& ex, F&& f, Args&&... args)
  {
    typedef joinable_future<std::invoke_result_t<typename std::decay<F>::type, typename std::decay<Args>::type...> > future_type;
    if constexpr (std::is_same<Executor, fork_join_thread_pool>::value)
      return detail::fork_join::fork_onto<future_type>(detail::fork_join::core_of(ex), detail::fork_join::no_record(),
                                                       std::forward<F>(f), std::forward<Args>(args)...);
    else
      return future_type(detail::fork_join::fork_onto_foreign(ex, std::forward<F>(f), std::forward<Args>(args)...));
  }

  // Requires: as above; F is not an executor.
  // Effects: fork(current_fork_join_pool(), f, args...): on the pool whose task the calling
  // thread runs, or on the default pool outside every pool. Call it qualified
  // (boost::executors::fork(f)) where no argument is from namespace boost::executors.
  // Returns, Synchronization, Throws: as above; also what default_fork_join_pool() throws.
  template <class F, class... Args,
            class = typename std::enable_if<!detail::fork_join::is_executor<typename std::remove_reference<F>::type>::value>::type>
  joinable_future<std::invoke_result_t<typename std::decay<F>::type, typename std::decay<Args>::type...> >
  fork(F&& f, Args&&... args)
  {
    return fork(current_fork_join_pool(), std::forward<F>(f), std::forward<Args>(args)...);
  }

  // Requires: each f is a valid boost::future, shared_future or joinable_future.
  // Effects: joins each future in turn as joinable_future::join() does: helping the pool
  // recorded in it, else the calling worker's pool, else waiting.
  // Postconditions: every future is ready.
  // Synchronization: the completion of every future's task happens before join returns.
  // Throws: future_uninitialized; boost::thread_interrupted. Progress: may run other tasks.
  template <class... Futures>
  typename std::enable_if<(sizeof...(Futures) > 0) && detail::fork_join::all_futures<Futures...>::value>::type
  join(Futures&... fs)
  {
    (detail::fork_join::join_single(fs), ...);
  }

  // Requires: each f is a valid future; ex is an executor.
  // Effects: until every future is ready, runs queued tasks of ex if it is a
  // fork_join_thread_pool (and of the calling worker's own pool), one at a time, re-checking
  // after each; with nothing to run, sleeps until new work arrives or a future becomes ready.
  // For other executors, as join(fs...).
  // Postconditions, Synchronization, Throws, Progress: as join(fs...).
  template <class Executor, class... Futures>
  BOOST_FORCEINLINE typename std::enable_if<!is_future_type<Executor>::value && (sizeof...(Futures) > 0) &&
                                            detail::fork_join::all_futures<Futures...>::value>::type
  join(Executor& ex, Futures&... fs)
  {
    detail::fork_join::pool_core* core = detail::fork_join::core_ptr(ex);
    if (!core)
      return join(fs...);
    detail::fork_join::join_all(core, fs...);
  }

  // Requires: f is a valid boost::future, shared_future or joinable_future.
  // Effects: as join(f), until f is ready or Clock::now() >= t, whichever is first (for a
  // joinable_future, f.join_until(t)): helps, then parks (a pool thread) or waits with f's
  // wait_until (any other thread); a deadline already passed only looks; a deferred task is
  // not run.
  // Returns: future_status::ready, timeout, or deferred (a deferred future).
  // Synchronization: if it returns ready, the completion of f's task happens before it returns.
  // Throws: as join(f); std::bad_alloc (joinable_future::join_until).
  template <class Future, class Clock, class Duration>
  typename std::enable_if<is_future_type<Future>::value, future_status>::type
  join_until(Future& f, const boost::chrono::time_point<Clock, Duration>& t)
  {
    if constexpr (detail::fork_join::is_joinable_future<Future>::value)
      return f.join_until(t);
    else
      return detail::fork_join::join_one_until(detail::fork_join::recorded_core(f).get(), detail::fork_join::task_of(f), f, t);
  }

  // Requires: as join_until(f, t); ex is an executor.
  // Effects: as join_until(f, t), helping ex if it is a fork_join_thread_pool (as join(ex, f)).
  // Returns, Synchronization, Throws: as join_until(f, t).
  template <class Executor, class Future, class Clock, class Duration>
  typename std::enable_if<!is_future_type<Executor>::value && is_future_type<Future>::value, future_status>::type
  join_until(Executor& ex, Future& f, const boost::chrono::time_point<Clock, Duration>& t)
  {
    detail::fork_join::pool_core* const core = detail::fork_join::core_ptr(ex);
    if (!core)
      return join_until(f, t);
    return detail::fork_join::join_one_until(core, detail::fork_join::task_of(f), f, t);
  }

  // Effects, Returns, Synchronization, Throws: join_until(f, boost::chrono::steady_clock::now() + d).
  template <class Future, class Rep, class Period>
  typename std::enable_if<is_future_type<Future>::value, future_status>::type
  join_for(Future& f, const boost::chrono::duration<Rep, Period>& d)
  {
    return join_until(f, boost::chrono::steady_clock::now() + d);
  }

  // Effects, Returns, Synchronization, Throws: join_until(ex, f, boost::chrono::steady_clock::now() + d).
  template <class Executor, class Future, class Rep, class Period>
  typename std::enable_if<!is_future_type<Executor>::value && is_future_type<Future>::value, future_status>::type
  join_for(Executor& ex, Future& f, const boost::chrono::duration<Rep, Period>& d)
  {
    return join_until(ex, f, boost::chrono::steady_clock::now() + d);
  }

  // Requires: [first, last) is a range of valid futures.
  // Effects, Postconditions, Synchronization, Throws: as join(fs...) over the range.
  template <class Iterator>
  typename std::enable_if<!is_future_type<Iterator>::value &&
                          is_future_type<typename std::iterator_traits<Iterator>::value_type>::value>::type
  join(Iterator first, Iterator last)
  {
    for (; first != last; ++first)
      join(*first);
  }

  // Requires: [first, last) is a range of valid futures (a forward range: it is walked more
  // than once); ex is an executor.
  // Effects, Postconditions, Synchronization: as join(ex, fs...) over the range.
  // Throws: as join(ex, fs...); std::bad_alloc if the set of awaited tasks of a range of more
  // than 16 futures cannot be allocated (then no future was waited for).
  // Complexity: O(n) expected for n futures, plus O(1) expected per queued task the calling
  // thread looks at while it waits and O(d) for a cycle check on a stack of d frames
  // (detail/fork_join/waits/root_set.hpp); it never scans the range per task.
  template <class Executor, class Iterator>
  BOOST_FORCEINLINE typename std::enable_if<!is_future_type<Executor>::value && !is_future_type<Iterator>::value &&
                                            is_future_type<typename std::iterator_traits<Iterator>::value_type>::value>::type
  join(Executor& ex, Iterator first, Iterator last)
  {
    detail::fork_join::pool_core* core = detail::fork_join::core_ptr(ex);
    if (!core)
      return join(first, last);
    detail::fork_join::join_range(core, first, last);
  }

} // namespace executors
} // namespace boost

#endif // header

// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// fork and join: dynamic task decomposition on a fixed number of threads.
//
// Outline (namespace boost::executors; found by argument-dependent lookup)
//   joinable_future<R> fork(Executor& ex, F&& f, Args&&... args);   // child runs next
//   void join(Futures&... fs);                     // each on the pool recorded in it
//   void join(Executor& ex, Futures&... fs);       // help ex until all are ready
//   void join(Iterator first, Iterator last);
//   void join(Executor& ex, Iterator first, Iterator last);
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

#include <boost/thread/executors/detail/fork_join/config.hpp>
#include <boost/thread/executors/detail/fork_join/exception.hpp>
#include <boost/thread/executors/detail/fork_join/join_futures.hpp>
#include <boost/thread/executors/fork_join_thread_pool.hpp>
#include <boost/thread/executors/joinable_future.hpp>
#include <boost/thread/future.hpp>

#include <functional>
#include <iterator>
#include <memory>
#include <tuple>
#include <type_traits>
#include <utility>

namespace boost {
namespace detail {
namespace fork_join {

  template <class... Ts>
  struct all_futures : std::conjunction<is_future_type<typename std::decay<Ts>::type>...>
  {
  };

  template <class Ex, class = void>
  struct has_submit_front : std::false_type
  {
  };
  template <class Ex>
  struct has_submit_front<Ex, std::void_t<decltype(std::declval<Ex&>().submit_front(std::declval<void (*)()>()))> >
      : std::true_type
  {
  };

  // Joins one future the way its own join() would: a joinable_future knows the pool fork()
  // submitted it to; any other future is looked up in its shared state.
  template <class R>
  void join_single(executors::joinable_future<R>& f)
  {
    f.join();
  }
  template <class Future>
  void join_single(Future& f)
  {
    join_one(recorded_core(f).get(), f);
  }

  // The scheduler behind an executor argument, if it is one of ours.
  inline pool_core* core_ptr(executors::fork_join_thread_pool& ex) noexcept { return core_of(ex).get(); }
  template <class Ex>
  pool_core* core_ptr(Ex&) noexcept
  {
    return nullptr;
  }

  template <class R, class Fn>
  void fulfil(promise<R>& p, Fn& fn)
  {
    try
    {
      if constexpr (std::is_void<R>::value)
      {
        fn();
        p.set_value();
      }
      else
        p.set_value(fn());
    }
    catch (...)
    {
      p.set_exception(current_exception_lossless());
    }
  }

} // namespace fork_join
} // namespace detail

namespace executors {

  // Requires: F and each of Args are MoveConstructible; invoking a decayed copy of f with
  // decayed copies of args is well-formed. Executor is a Boost.Thread executor.
  // Effects: schedules f(args...) (on decayed copies, as boost::async and std::thread do) to run
  // next: on a fork_join_thread_pool, or any executor with submit_front, at the front of the
  // calling worker's deque (or of the shared queue from outside), so that the child runs before
  // older work, as the parent's continuation is stolen; on other executors with submit().
  // Returns: a joinable_future for the result; an exception thrown by f is stored in it, and
  // get() rethrows that very exception (boost::async would slice a type derived from a
  // standard exception to its standard base).
  // Synchronization: the call happens before the task runs; the task's completion happens
  // before join() on the returned future returns.
  // Throws: sync_queue_is_closed if the executor is closed (for a fork_join_thread_pool: and
  // the caller runs none of its tasks); std::bad_alloc.
  template <class Executor, class F, class... Args>
  joinable_future<std::invoke_result_t<typename std::decay<F>::type, typename std::decay<Args>::type...> >
  fork(Executor& ex, F&& f, Args&&... args)
  {
    typedef std::invoke_result_t<typename std::decay<F>::type, typename std::decay<Args>::type...> result_type;
    promise<result_type> p;
    future<result_type> result = p.get_future();
    auto body = [p = std::move(p), fn = typename std::decay<F>::type(std::forward<F>(f)),
                 bound = std::tuple<typename std::decay<Args>::type...>(std::forward<Args>(args)...)]() mutable {
      auto call = [&]() -> result_type { return std::apply(std::move(fn), std::move(bound)); };
      detail::fork_join::fulfil(p, call);
    };
    if constexpr (detail::fork_join::has_submit_front<Executor>::value)
      ex.submit_front(std::move(body));
    else
      ex.submit(std::move(body));
    if constexpr (std::is_same<Executor, fork_join_thread_pool>::value)
      return joinable_future<result_type>(std::move(result), detail::fork_join::core_of(ex));
    else
      return joinable_future<result_type>(std::move(result));
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
  typename std::enable_if<!is_future_type<Executor>::value && (sizeof...(Futures) > 0) &&
                          detail::fork_join::all_futures<Futures...>::value>::type
  join(Executor& ex, Futures&... fs)
  {
    detail::fork_join::pool_core* core = detail::fork_join::core_ptr(ex);
    if (!core)
      return join(fs...);
    (detail::fork_join::require_valid(fs), ...);
    (fs.future_->run_if_is_deferred(), ...);
    auto ready = [&] { return (fs.is_ready() && ...); };
    auto wait = [&](future<void>* woken) {
      // Sleep on the first future that is not ready; the loop re-checks all of them.
      bool waited = false;
      auto wait_if_pending = [&](auto& f) {
        if (!waited && !f.is_ready())
        {
          detail::fork_join::wait_one(f, woken);
          waited = true;
        }
      };
      (wait_if_pending(fs), ...);
    };
    detail::fork_join::help_or_wait(core, ready, wait);
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

  // Requires: [first, last) is a range of valid futures; ex is an executor.
  // Effects, Postconditions, Synchronization, Throws: as join(ex, fs...) over the range.
  template <class Executor, class Iterator>
  typename std::enable_if<!is_future_type<Executor>::value && !is_future_type<Iterator>::value &&
                          is_future_type<typename std::iterator_traits<Iterator>::value_type>::value>::type
  join(Executor& ex, Iterator first, Iterator last)
  {
    detail::fork_join::pool_core* core = detail::fork_join::core_ptr(ex);
    if (!core)
      return join(first, last);
    for (Iterator it = first; it != last; ++it)
    {
      detail::fork_join::require_valid(*it);
      it->future_->run_if_is_deferred();
    }
    // Invariant: [pending, last) holds every future that was not ready when last looked at.
    Iterator pending = first;
    auto ready = [&] {
      while (pending != last && pending->is_ready())
        ++pending;
      return pending == last;
    };
    auto wait = [&](future<void>* woken) { detail::fork_join::wait_one(*pending, woken); };
    detail::fork_join::help_or_wait(core, ready, wait);
  }

} // namespace executors
} // namespace boost

#endif // header

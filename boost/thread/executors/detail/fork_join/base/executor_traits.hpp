// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// The traits that tell executors and futures apart in the overloads of fork, join and
// parallel_invoke. One trait depends on our scheduler and so lives above it:
// core_ptr (futures/join_forms.hpp), the scheduler behind an executor argument if it is one of
// our pools, needs core_of (scheduler/pool_fwd.hpp). The trait a fork's task checks for a
// cancellation_source's callable, is_cancelable_call, lives with cancel_region
// (tasks/cancel_region.hpp), below the futures that check it.

#ifndef BOOST_THREAD_EXECUTORS_DETAIL_FORK_JOIN_BASE_EXECUTOR_TRAITS_HPP
#define BOOST_THREAD_EXECUTORS_DETAIL_FORK_JOIN_BASE_EXECUTOR_TRAITS_HPP

#include <boost/thread/executors/detail/fork_join/base/config.hpp>
#include <boost/thread/futures/is_future_type.hpp>

#include <type_traits>
#include <utility>

namespace boost {
namespace executors {
  template <class R>
  class joinable_future;
} // namespace executors

namespace detail {
namespace fork_join {

  // is_executor<T>: whether T has the members every Boost.Thread executor has, schedulers'
  // executors included (submit of a closure, close). It tells fork(ex, f, args...) from fork(f,
  // args...) and parallel_invoke(ex, f1, ...) from parallel_invoke(f1, f2, ...): the forms
  // without an executor use current_fork_join_pool().
  template <class T, class = void>
  struct is_executor : std::false_type
  {
  };

  template <class T>
  struct is_executor<T, std::void_t<decltype(std::declval<T&>().submit(std::declval<void (*)()>())),
                                    decltype(std::declval<T&>().close())> > : std::true_type
  {
  };

  // Whether an executor can queue a closure to run next (fork() on an executor that is not ours).
  template <class Ex, class = void>
  struct has_submit_front : std::false_type
  {
  };
  template <class Ex>
  struct has_submit_front<Ex, std::void_t<decltype(std::declval<Ex&>().submit_front(std::declval<void (*)()>()))> >
      : std::true_type
  {
  };

  // Whether each of Ts (decayed) is a future: what the variadic join forms take.
  template <class... Ts>
  struct all_futures : std::conjunction<is_future_type<typename std::decay<Ts>::type>...>
  {
  };

  template <class Future>
  struct is_joinable_future : std::false_type
  {
  };
  template <class R>
  struct is_joinable_future<executors::joinable_future<R> > : std::true_type
  {
  };

} // namespace fork_join
} // namespace detail
} // namespace boost

#endif // header

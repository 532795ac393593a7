// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// is_executor<T>: whether T has the members every Boost.Thread executor has, schedulers'
// executors included (submit of a closure, close). It tells fork(ex, f, args...) from fork(f,
// args...) and parallel_invoke(ex, f1, ...) from parallel_invoke(f1, f2, ...): the forms
// without an executor use current_fork_join_pool().

#ifndef BOOST_THREAD_EXECUTORS_DETAIL_FORK_JOIN_BASE_EXECUTOR_TRAITS_HPP
#define BOOST_THREAD_EXECUTORS_DETAIL_FORK_JOIN_BASE_EXECUTOR_TRAITS_HPP

#include <boost/thread/executors/detail/fork_join/base/config.hpp>

#include <type_traits>
#include <utility>

namespace boost {
namespace detail {
namespace fork_join {

  template <class T, class = void>
  struct is_executor : std::false_type
  {
  };

  template <class T>
  struct is_executor<T, std::void_t<decltype(std::declval<T&>().submit(std::declval<void (*)()>())),
                                    decltype(std::declval<T&>().close())> > : std::true_type
  {
  };

} // namespace fork_join
} // namespace detail
} // namespace boost

#endif // header

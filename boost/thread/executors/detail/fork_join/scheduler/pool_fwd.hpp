// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// The public pool class as the layers above the scheduler see it: declared, not defined, and
// the one way in to its scheduler. So a detail header can take a fork_join_thread_pool& and
// reach its pool_core without including the public header (no include goes up a layer);
// core_of is defined beside the class, in fork_join_thread_pool.hpp, which every public
// header that reaches these layers includes.

#ifndef BOOST_THREAD_EXECUTORS_DETAIL_FORK_JOIN_SCHEDULER_POOL_FWD_HPP
#define BOOST_THREAD_EXECUTORS_DETAIL_FORK_JOIN_SCHEDULER_POOL_FWD_HPP

#include <boost/thread/executors/detail/fork_join/base/config.hpp>

#include <memory>

namespace boost {
namespace executors {
  class fork_join_thread_pool;
} // namespace executors

// Internals live in boost::detail::fork_join: a namespace named `detail` inside
// boost::executors would hide boost::detail from Boost.Thread's own executor headers, whose
// `detail::nullary_function` is looked up from inside boost::executors.
namespace detail {
namespace fork_join {
  class pool_core;

  // Returns: the pool's scheduler, shared with the executor_refs that Boost.Thread records in
  // futures. Throws: nothing.
  inline const std::shared_ptr<pool_core>& core_of(const executors::fork_join_thread_pool& pool) noexcept;
} // namespace fork_join
} // namespace detail
} // namespace boost

#endif // header

// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// seq_cst_fence(): std::atomic_thread_fence(std::memory_order_seq_cst), for the store-then-load
// orderings that no release/acquire pair can give (the Chase–Lev deque's pop and steal, the
// pusher's half of the idle-sleep protocol, a task block's stop hooks against its claimers'
// start).
//
// GCC 12 warns (-Wtsan) that ThreadSanitizer does not model fences. The warning is silenced
// here only: no happens-before edge of this library relies on a fence (each has a
// release/acquire pair of its own, which TSan checks), and the real fence still runs under TSan.
// GCC does not apply the pragma to this header when it comes from a precompiled header; such a
// build needs -Wno-tsan (the tests' ThreadSanitizer build passes it, test/CMakeLists.txt).

#ifndef BOOST_THREAD_EXECUTORS_DETAIL_FORK_JOIN_BASE_FENCE_HPP
#define BOOST_THREAD_EXECUTORS_DETAIL_FORK_JOIN_BASE_FENCE_HPP

#include <boost/thread/executors/detail/fork_join/base/config.hpp>

#include <atomic>

namespace boost {
namespace detail {
namespace fork_join {

  inline void seq_cst_fence() noexcept
  {
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ >= 12
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wtsan"
#endif
    std::atomic_thread_fence(std::memory_order_seq_cst);
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ >= 12
#pragma GCC diagnostic pop
#endif
  }

} // namespace fork_join
} // namespace detail
} // namespace boost

#endif // header

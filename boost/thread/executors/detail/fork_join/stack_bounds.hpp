// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// How deep a thread may nest helping: its stack bounds, and the stack size of our workers.
//
// Help nests: a joiner that runs a queued task runs it on its own stack, below the frame that
// waits. On a worker that is the work-stealing schedule itself (a chain of n fork+join levels
// nests n frames, as the serial program would), so workers get stacks big enough for deep
// chains (BOOST_THREAD_FJ_WORKER_STACK_SIZE; only the pages a chain touches are ever
// committed). A thread that is not a worker of the pool (main(), say) has the stack someone
// else chose, and nothing needs it to help: the workers are awake whenever work is queued
// (event_count.hpp). So such a thread only takes queued work while more than
// BOOST_THREAD_FJ_HELPER_STACK_RESERVE bytes of its stack remain, and otherwise just waits.

#ifndef BOOST_THREAD_EXECUTORS_DETAIL_FORK_JOIN_STACK_BOUNDS_HPP
#define BOOST_THREAD_EXECUTORS_DETAIL_FORK_JOIN_STACK_BOUNDS_HPP

#include <boost/thread/executors/detail/fork_join/config.hpp>

#include <cstddef>
#include <cstdint>

#include <pthread.h>

#ifndef BOOST_THREAD_FJ_WORKER_STACK_SIZE
// Stack size of each worker thread, in bytes: enough for a chain of 10^6 nested fork+join
// levels of parallel_invoke on one worker (about 480 bytes a level with GCC 12 -O2; fork/join
// with futures about 750, define_task_block about 1 KiB). Address space only: the pages a
// chain never touches are never committed.
#define BOOST_THREAD_FJ_WORKER_STACK_SIZE (std::size_t(640) << 20)
#endif

#ifndef BOOST_THREAD_FJ_HELPER_STACK_RESERVE
// Stack a thread that is not a worker keeps free: below this it stops running queued tasks.
#define BOOST_THREAD_FJ_HELPER_STACK_RESERVE (std::size_t(1) << 20)
#endif

namespace boost {
namespace detail {
namespace fork_join {

  // Returns: the lowest address the calling thread may use for its stack plus the reserve, or
  // 0 if the bounds are unknown (then every check passes). Computed once per thread.
  inline std::uintptr_t stack_reserve_floor() noexcept
  {
    thread_local const std::uintptr_t floor = [] {
      pthread_attr_t attr;
      if (pthread_getattr_np(pthread_self(), &attr) != 0)
        return std::uintptr_t(0);
      void* low = nullptr;
      std::size_t size = 0;
      const int rc = pthread_attr_getstack(&attr, &low, &size);
      pthread_attr_destroy(&attr);
      if (rc != 0 || size <= BOOST_THREAD_FJ_HELPER_STACK_RESERVE)
        return std::uintptr_t(0);
      return reinterpret_cast<std::uintptr_t>(low) + BOOST_THREAD_FJ_HELPER_STACK_RESERVE;
    }();
    return floor;
  }

  // Returns: whether the calling thread has more than the reserve of stack left here.
  inline bool stack_has_room() noexcept
  {
    // The frame address, not a local's: under AddressSanitizer locals may live on a fake stack.
    return reinterpret_cast<std::uintptr_t>(__builtin_frame_address(0)) > stack_reserve_floor();
  }

} // namespace fork_join
} // namespace detail
} // namespace boost

#endif // header

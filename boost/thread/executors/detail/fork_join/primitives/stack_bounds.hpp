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
// committed), unless the address space is limited (worker_stack_size()). Any thread, a worker
// or not, takes queued work only while more than BOOST_THREAD_FJ_HELPER_STACK_RESERVE bytes of
// its stack remain, and otherwise just waits: a thread that is not a pool thread (main(), say)
// is never needed to help, as the workers are awake whenever work is queued (event_count.hpp);
// a pool thread that may run nothing for its wait parks the waiting frame and goes on on a
// fresh stack (parking.hpp), whose own floor then applies.

#ifndef BOOST_THREAD_EXECUTORS_DETAIL_FORK_JOIN_PRIMITIVES_STACK_BOUNDS_HPP
#define BOOST_THREAD_EXECUTORS_DETAIL_FORK_JOIN_PRIMITIVES_STACK_BOUNDS_HPP

#include <boost/thread/executors/detail/fork_join/base/config.hpp>

#include <cstddef>
#include <cstdint>
#include <cstdio>

#include <pthread.h>
#include <sys/resource.h>
#include <unistd.h>

namespace boost {
namespace detail {
namespace fork_join {

  // Returns: how much of a stack no larger than BOOST_THREAD_FJ_HELPER_STACK_RESERVE stays free
  // below the room checks: a quarter of it; under AddressSanitizer half of it. What must fit
  // below the last check that passed is one level of the code between two checks and the path
  // of a join that parks, and AddressSanitizer's frames are several times the usual size: at
  // -O0 a level of a parallel_invoke chain takes 7.7 KiB and a park 8.5 KiB (clang 14), which
  // overflowed a 64 KiB fiber's quarter (test/external_waits_pass.cpp,
  // deep_chains_hop_across_small_fiber_stacks).
  inline constexpr std::size_t small_stack_reserve(std::size_t size) noexcept
  {
#ifdef BOOST_THREAD_FJ_ASAN
    return size / 2;
#else
    return size / 4;
#endif
  }

  // Returns: the lowest address of the calling thread's own stack plus the reserve, or 0 if the
  // bounds are unknown (then every check passes).
  inline std::uintptr_t thread_stack_floor() noexcept
  {
    pthread_attr_t attr;
    if (pthread_getattr_np(pthread_self(), &attr) != 0)
      return std::uintptr_t(0);
    void* low = nullptr;
    std::size_t size = 0;
    const int rc = pthread_attr_getstack(&attr, &low, &size);
    pthread_attr_destroy(&attr);
    if (rc != 0 || size == 0)
      return std::uintptr_t(0);
    // A stack no larger than the reserve (a pool's options::stack_size of 1 MiB or less) keeps
    // small_stack_reserve() free, as a small fiber stack does (parking.hpp): with the whole
    // reserve it would have no floor, and a deep chain would overflow it. A larger one keeps
    // the whole reserve.
    const std::size_t reserve =
        size <= BOOST_THREAD_FJ_HELPER_STACK_RESERVE ? small_stack_reserve(size) : BOOST_THREAD_FJ_HELPER_STACK_RESERVE;
    return reinterpret_cast<std::uintptr_t>(low) + reserve;
  }

  // The floor of the stack the calling thread runs on now: the thread's own stack's, or, while
  // it runs on a fiber (parking.hpp), that fiber's, which parking.hpp sets at every switch and
  // restores when the thread's own stack resumes. not_computed until ensure_stack_floor() (every
  // check passes meanwhile). Constant-initialized, so that reading it is one load of the
  // thread's own storage with no initialization guard (the room check is on the path of every
  // parallel_invoke and every join: with a guard it cost about 13 instructions, 6% of fib with
  // parallel_invoke).
  constexpr std::uintptr_t not_computed = 1;
  inline thread_local std::uintptr_t current_stack_floor = not_computed;

  inline std::uintptr_t& stack_reserve_floor() noexcept { return current_stack_floor; }

  // Effects: computes the floor of the calling thread's own stack, unless done. Called where a
  // check must hold before it helps: by a pool thread when it starts (fiber_home::enter) and by
  // every help loop (help.hpp); a check before that passes (as where the bounds are unknown).
  inline void ensure_stack_floor() noexcept
  {
    if (current_stack_floor == not_computed)
      current_stack_floor = thread_stack_floor();
  }

  // Returns: the stack size to ask for the threads of a pool of `threads` workers:
  // BOOST_THREAD_FJ_WORKER_STACK_SIZE, or, if the process's address space is limited
  // (RLIMIT_AS, as `ulimit -v` and job schedulers set), at most a quarter of what is left of it
  // shared by threads + 1 stacks (one more for the fiber stacks
  // of parked frames, parking.hpp), so that stacks never crowd out the heap.
  // 0: use the system's default size (what is left is too small to do better).
  inline std::size_t worker_stack_size(unsigned threads) noexcept
  {
    std::size_t size = BOOST_THREAD_FJ_WORKER_STACK_SIZE;
    rlimit limit;
    if (getrlimit(RLIMIT_AS, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY)
      return size;
    // In use now: the first field of /proc/self/statm, in pages (0 if it cannot be read).
    unsigned long pages = 0;
    if (std::FILE* f = std::fopen("/proc/self/statm", "r"))
    {
      if (std::fscanf(f, "%lu", &pages) != 1)
        pages = 0;
      std::fclose(f);
    }
    const long page = sysconf(_SC_PAGESIZE);
    const std::uint64_t used = std::uint64_t(pages) * std::uint64_t(page > 0 ? page : 4096);
    const std::uint64_t left = limit.rlim_cur > used ? std::uint64_t(limit.rlim_cur) - used : 0;
    const std::uint64_t share = left / 4 / (std::uint64_t(threads) + 1);
    if (share < size)
      size = static_cast<std::size_t>(share) & ~std::size_t(0xFFFF); // whole 64 KiB units
    return size < (std::size_t(1) << 20) ? 0 : size;
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

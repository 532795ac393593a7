// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// The tests map fiber stacks through fj_test::map_stack (BOOST_THREAD_FJ_FIBER_STACK_MMAP), which
// a test can make refuse, as a system at its limits does (vm.max_map_count, RLIMIT_AS), without
// changing any system setting. Until a test says otherwise it is mmap. Included before the
// library's headers: by precompiled.hpp, and by each test that uses it (for builds without the
// precompiled header).

#ifndef BOOST_THREAD_FJ_TEST_STACK_MAPPINGS_HPP
#define BOOST_THREAD_FJ_TEST_STACK_MAPPINGS_HPP

#include <atomic>
#include <cerrno>
#include <cstddef>

#include <sys/mman.h>
#include <sys/types.h>

namespace fj_test {

// How many more fiber-stack mappings the system grants; negative: all of them.
inline std::atomic<int> stack_mappings_left{-1};

inline void* map_stack(void* addr, std::size_t length, int prot, int flags, int fd, off_t offset) noexcept
{
  int left = stack_mappings_left.load();
  while (left > 0 && !stack_mappings_left.compare_exchange_weak(left, left - 1))
  {
  }
  if (left == 0)
  {
    errno = ENOMEM;
    return MAP_FAILED;
  }
  return ::mmap(addr, length, prot, flags, fd, offset);
}

} // namespace fj_test

#define BOOST_THREAD_FJ_FIBER_STACK_MMAP fj_test::map_stack

#endif

// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// fib without a cutoff: every call but the leaves forks a task, so the time measures the cost
// of a fork and a join (the work per task is a few instructions).

#ifndef BOOST_FORK_JOIN_BENCH_FIB_FIB_HPP
#define BOOST_FORK_JOIN_BENCH_FIB_FIB_HPP

#include "../bench.hpp"

#include <cstdint>
#include <string>

namespace bench {
namespace fib {

  inline int size(scale s) { return s == scale::quick ? 18 : 32; }

  // Hides v's value from the optimiser, at no cost.
  template <class T>
  inline void opaque(T& v)
  {
    asm volatile("" : "+r"(v));
  }

  // Two real calls per node. Without opaque(), GCC turns the second call into a loop with an
  // accumulator (tail recursion), which halves the calls; noinline stops recursive inlining.
  __attribute__((noinline)) inline std::uint64_t serial_fib(int n)
  {
    if (n < 2)
      return static_cast<std::uint64_t>(n);
    std::uint64_t a = serial_fib(n - 1);
    std::uint64_t b = serial_fib(n - 2);
    opaque(b);
    return a + b;
  }

  // Returns: fib(n), with join2(first, second): runs both callables, possibly in parallel (first,
  // fib(n - 1), is the one offered to other threads), and returns when both have finished; the
  // one thing a peer on a two-way fork/join primitive supplies.
  template <class Join2>
  std::uint64_t fib(int n, Join2& join2)
  {
    if (n < 2)
      return static_cast<std::uint64_t>(n);
    std::uint64_t a = 0, b = 0;
    join2([&] { a = fib(n - 1, join2); }, [&] { b = fib(n - 2, join2); });
    return a + b;
  }

  inline std::uint64_t iterative_fib(int n)
  {
    std::uint64_t a = 0, b = 1;
    for (int i = 0; i < n; ++i)
    {
      const std::uint64_t next = a + b;
      a = b;
      b = next;
    }
    return a;
  }

} // namespace fib
} // namespace bench

#endif // header

// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// Consumer of an installed Boost.ForkJoin. Deliberately defines no BOOST_THREAD_VERSION: the
// headers stop with #error without it, so compiling at all shows that Boost::fork_join's usage
// requirements provide it.

#include <boost/thread/executors/fork_join.hpp>

#include <cstdio>
#include <functional>

using boost::executors::fork_join_thread_pool;

int fib(fork_join_thread_pool& pool, int n)
{
  if (n < 2)
    return n;
  auto a = fork(pool, fib, std::ref(pool), n - 1); // found by argument-dependent lookup
  const int b = fib(pool, n - 2);
  a.join();
  return a.get() + b;
}

int main()
{
  fork_join_thread_pool pool(2);
  auto f = fork(pool, fib, std::ref(pool), 15);
  f.join();
  const int result = f.get();
  std::printf("fib(15) = %d (expected 610)\n", result);
  return result == 610 ? 0 : 1;
}

// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// Fibonacci with fork and join on a pool of two threads: the "hello world" of fork/join.
//
// Every call forks its subproblems as tasks and waits for them. On basic_thread_pool that wait
// would block a worker, and once every worker waits, the queued children never run. Here a
// join runs queued tasks while it waits, so any number of nested waits shares two threads.

#include <boost/thread/executors/fork_join.hpp>

#include <cstdio>
#include <functional>

using boost::executors::fork_join_thread_pool;

int serial_fib(int n)
{
  return n < 2 ? n : serial_fib(n - 1) + serial_fib(n - 2);
}

// Forks both halves, then joins both with the free function join(pool, a, b).
int fib(fork_join_thread_pool& pool, int n)
{
  if (n < 2)
    return n;
  // fork() finds boost::executors::fork by argument-dependent lookup. Arguments are copied
  // into the task, as with std::thread, so the pool is passed with std::ref.
  auto a = fork(pool, fib, std::ref(pool), n - 1);
  auto b = fork(pool, fib, std::ref(pool), n - 2);
  // Until both are ready, the calling thread runs queued tasks (its own children first)
  // instead of blocking; with nothing to run it sleeps until new work or a result arrives.
  join(pool, a, b);
  return a.get() + b.get();
}

// The usual shape in practice: fork one half, compute the other on this thread, then join the
// forked one with its member join(). The future remembers its pool, so join() needs no argument.
int fib_forking_one_half(fork_join_thread_pool& pool, int n)
{
  if (n < 2)
    return n;
  boost::joinable_future<int> a = fork(pool, fib_forking_one_half, std::ref(pool), n - 1);
  const int b = fib_forking_one_half(pool, n - 2);
  a.join();
  return a.get() + b;
}

int main()
{
  const int n = 18;
  const int expected = serial_fib(n);

  fork_join_thread_pool pool(2);

  // Called from main, which is not a worker: its forks go to the pool's shared queue and its
  // joins help the pool like a worker's do.
  const int by_join_both = fib(pool, n);

  // Or hand the whole computation to the pool and join its root.
  boost::joinable_future<int> root = fork(pool, fib_forking_one_half, std::ref(pool), n);
  root.join();
  const int by_join_one = root.get();

  std::printf("fib(%d): serial %d, join(pool, a, b) %d, a.join() %d\n", n, expected, by_join_both, by_join_one);
  return by_join_both == expected && by_join_one == expected ? 0 : 1;
}

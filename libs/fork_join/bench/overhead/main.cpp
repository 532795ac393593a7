// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// fork_join_overhead_bench: the instructions each way to fork costs, for callgrind. One pool
// thread runs one call of measured_<mode>(n) (overhead.hpp), which callgrind counts alone with
// --toggle-collect='measured_*' (not the pool's start, idle paths or end, nor the program's
// setup); every task runs on that one thread, so nothing is stolen and the counts repeat
// exactly. Modes:
//  - fork:   fib(n), a fork of each child and a join of both at every call (fork.cpp);
//  - async:  fib(n), boost::async of one child on the pool, the other called inline, then a
//            join of the plain boost::future (async.cpp);
//  - invoke: fib(n), parallel_invoke of the two children at every call (invoke.cpp);
//  - block:  fib(n), a task block per call, one child run and the other called inline
//            (block.cpp);
//  - for:    parallel_for over n elements, grain 16, each adding one to its element (for.cpp).
// It uses only API that the tree before cancellation (2123d22) already had, so the same sources
// build against both trees (doc/benchmark/README.md, "Cancellation's cost"). It prints the
// result, and fails if it is not the serial one.
//
// usage: fork_join_overhead_bench fork|async|invoke|block|for n

#include "overhead.hpp"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <future>

namespace overhead {

boost::executors::fork_join_thread_pool* pool = nullptr;
std::vector<std::uint64_t> elements;

} // namespace overhead

namespace {

std::uint64_t fib_serial(unsigned n) { return n < 2 ? n : fib_serial(n - 1) + fib_serial(n - 2); }

} // namespace

int main(int argc, char** argv)
{
  static const char* const modes[] = {"fork", "async", "invoke", "block", "for"};
  static std::uint64_t (*const paths[])(unsigned) = {measured_fork, measured_async, measured_invoke, measured_block,
                                                     measured_for};
  const int for_mode = 4;
  int mode = -1;
  for (int m = 0; argc == 3 && m < 5; ++m)
    if (std::strcmp(argv[1], modes[m]) == 0)
      mode = m;
  if (mode < 0)
  {
    std::fprintf(stderr, "usage: fork_join_overhead_bench fork|async|invoke|block|for n\n");
    return 2;
  }
  const unsigned n = static_cast<unsigned>(std::strtoul(argv[2], nullptr, 10));
  if (mode == for_mode)
    overhead::elements.assign(n, 1);
  boost::executors::fork_join_thread_pool pool(1);
  overhead::pool = &pool;
  // Run on the pool's thread, so that fork, join and the blocks take their pool-thread paths.
  std::promise<std::uint64_t> result;
  std::future<std::uint64_t> done = result.get_future();
  pool.submit([&] { result.set_value(paths[mode](n)); });
  std::uint64_t r = done.get();
  for (std::uint64_t x : overhead::elements)
    r += x;
  const std::uint64_t expected = mode == for_mode ? 2 * std::uint64_t(n) : fib_serial(n);
  std::printf("%s %u: %llu\n", modes[mode], n, static_cast<unsigned long long>(r));
  return r == expected ? 0 : 1;
}

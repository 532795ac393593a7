// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)

#include "../fork_join_thread_pool.hpp"
#include "fib.hpp"

#include <boost/thread/executors/parallel_invoke.hpp>

namespace {

namespace ex = bench::fork_join::ex;

// parallel_invoke runs its first callable inline and offers the others (here fib(n - 1), as
// the fork_join peer forks it) to thieves from the caller's own frame.
std::uint64_t fib(ex::fork_join_thread_pool& pool, int n)
{
  if (n < 2)
    return static_cast<std::uint64_t>(n);
  std::uint64_t a = 0, b = 0;
  ex::parallel_invoke(
      pool, [&] { b = fib(pool, n - 2); }, [&] { a = fib(pool, n - 1); });
  return a + b;
}

void run(const bench::config& cfg)
{
  ex::fork_join_thread_pool pool(cfg.threads);
  const int n = bench::fib::size(cfg.scale);
  bench::measure(cfg, [&] { return bench::fork_join::run_root(pool, [&] { return fib(pool, n); }); });
  bench::fork_join::report_statistics(pool);
}

const bench::peer_registration registered{"fib", "fork_join_invoke", &run};

} // namespace

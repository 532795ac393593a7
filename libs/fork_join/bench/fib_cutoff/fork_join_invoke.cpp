// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)

#include "../fork_join_thread_pool.hpp"
#include "fib_cutoff.hpp"

#include <boost/thread/executors/parallel_invoke.hpp>

namespace {

namespace ex = bench::fork_join::ex;

std::uint64_t fib(ex::fork_join_thread_pool& pool, int n, int cutoff)
{
  if (n < cutoff)
    return bench::fib::serial_fib(n);
  std::uint64_t a = 0, b = 0;
  ex::parallel_invoke(
      pool, [&] { b = fib(pool, n - 2, cutoff); }, [&] { a = fib(pool, n - 1, cutoff); });
  return a + b;
}

void run(const bench::config& cfg)
{
  ex::fork_join_thread_pool pool(cfg.threads);
  const bench::fib_cutoff::problem p = bench::fib_cutoff::size(cfg.scale);
  bench::measure(cfg, [&] { return bench::fork_join::run_root(pool, [&] { return fib(pool, p.n, p.cutoff); }); });
  bench::fork_join::report_statistics(pool);
}

const bench::peer_registration registered{"fib_cutoff", "fork_join_invoke", &run};

} // namespace

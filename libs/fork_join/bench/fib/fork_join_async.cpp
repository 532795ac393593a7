// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)

#include "../fork_join_thread_pool.hpp"
#include "fib.hpp"

#include <boost/thread/future.hpp>

#include <functional>

namespace {

namespace ex = bench::fork_join::ex;

// What a Boost code base writes: boost::async on the pool, then a join of the plain
// boost::future it returns (the join helps: it may run the child itself).
std::uint64_t fib(ex::fork_join_thread_pool& pool, int n)
{
  if (n < 2)
    return static_cast<std::uint64_t>(n);
  boost::future<std::uint64_t> a = boost::async(pool, fib, std::ref(pool), n - 1);
  const std::uint64_t b = fib(pool, n - 2);
  ex::join(pool, a);
  return a.get() + b;
}

void run(const bench::config& cfg)
{
  ex::fork_join_thread_pool pool(cfg.threads);
  const int n = bench::fib::size(cfg.scale);
  bench::measure(cfg, [&] { return bench::fork_join::run_root(pool, [&] { return fib(pool, n); }); });
  bench::fork_join::report_statistics(pool);
}

const bench::peer_registration registered{"fib", "fork_join_async", &run};

} // namespace

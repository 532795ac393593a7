// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)

#include "../tbb.hpp"
#include "fib.hpp"

#include <oneapi/tbb/parallel_invoke.h>

namespace {

// tbb::parallel_invoke runs its first callable inline and spawns the others.
std::uint64_t fib(int n)
{
  if (n < 2)
    return static_cast<std::uint64_t>(n);
  std::uint64_t a = 0, b = 0;
  tbb::parallel_invoke([&b, n] { b = fib(n - 2); }, [&a, n] { a = fib(n - 1); });
  return a + b;
}

void run(const bench::config& cfg)
{
  bench::tbb_peer::team team(cfg.threads);
  const int n = bench::fib::size(cfg.scale);
  bench::measure(cfg, [&] { return team.execute([n] { return fib(n); }); });
}

const bench::peer_registration registered{"fib", "tbb_parallel_invoke", &run};

} // namespace

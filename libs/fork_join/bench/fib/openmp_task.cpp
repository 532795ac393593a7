// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)

#include "../openmp.hpp"
#include "fib.hpp"

namespace {

std::uint64_t fib(int n)
{
  if (n < 2)
    return static_cast<std::uint64_t>(n);
  std::uint64_t a = 0;
#pragma omp task default(none) shared(a) firstprivate(n)
  a = fib(n - 1);
  const std::uint64_t b = fib(n - 2);
#pragma omp taskwait
  return a + b;
}

void run(const bench::config& cfg)
{
  const int n = bench::fib::size(cfg.scale);
  bench::measure(cfg, [&] { return bench::openmp::in_team(cfg.threads, [n] { return fib(n); }); });
}

const bench::peer_registration registered{"fib", "openmp_task", &run};

} // namespace

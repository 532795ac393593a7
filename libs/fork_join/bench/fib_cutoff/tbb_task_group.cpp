// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)

#include "../tbb.hpp"
#include "fib_cutoff.hpp"

#include <oneapi/tbb/task_group.h>

namespace {

std::uint64_t fib(int n, int cutoff)
{
  if (n < cutoff)
    return bench::fib::serial_fib(n);
  std::uint64_t a = 0;
  tbb::task_group g;
  g.run([&a, n, cutoff] { a = fib(n - 1, cutoff); });
  const std::uint64_t b = fib(n - 2, cutoff);
  g.wait();
  return a + b;
}

void run(const bench::config& cfg)
{
  bench::tbb_peer::team team(cfg.threads);
  const bench::fib_cutoff::problem p = bench::fib_cutoff::size(cfg.scale);
  bench::measure(cfg, [&] { return team.execute([p] { return fib(p.n, p.cutoff); }); });
}

const bench::peer_registration registered{"fib_cutoff", "tbb_task_group", &run};

} // namespace

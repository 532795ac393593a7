// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)

#include "../tbb.hpp"
#include "fib.hpp"

#include <oneapi/tbb/task_group.h>

namespace {

std::uint64_t fib(int n)
{
  if (n < 2)
    return static_cast<std::uint64_t>(n);
  std::uint64_t a = 0;
  tbb::task_group g;
  g.run([&a, n] { a = fib(n - 1); });
  const std::uint64_t b = fib(n - 2);
  g.wait();
  return a + b;
}

void run(const bench::config& cfg)
{
  bench::tbb_peer::team team(cfg.threads);
  const int n = bench::fib::size(cfg.scale);
  bench::measure(cfg, [&] { return team.execute([n] { return fib(n); }); });
}

const bench::peer_registration registered{"fib", "tbb_task_group", &run};

} // namespace

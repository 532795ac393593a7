// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)

#include "../openmp.hpp"
#include "nqueens.hpp"

namespace {

// A task for every legal placement, then taskwait.
void run(const bench::config& cfg)
{
  const int n = bench::nqueens::size(cfg.scale);
  auto fork_each = [](int k, auto&& f) {
    for (int i = 0; i < k; ++i)
    {
#pragma omp task default(none) shared(f) firstprivate(i)
      f(i);
    }
#pragma omp taskwait
  };
  bench::measure(cfg, [&] {
    return bench::openmp::in_team(cfg.threads,
                                  [&] { return bench::nqueens::queens(n, bench::nqueens::board{}, fork_each); });
  });
}

const bench::peer_registration registered{"nqueens", "openmp_task", &run};

} // namespace

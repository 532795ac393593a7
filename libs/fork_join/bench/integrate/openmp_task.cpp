// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)

#include "../openmp.hpp"
#include "integrate.hpp"

namespace {

// A task for the left half, the right integrated inline, then taskwait.
void run(const bench::config& cfg)
{
  const bench::integrate::interval whole = bench::integrate::whole(cfg.scale);
  auto join2 = [](auto&& left, auto&& right) {
#pragma omp task default(none) shared(left)
    left();
    right();
#pragma omp taskwait
  };
  bench::measure(cfg, [&] {
    return bench::integrate::bits(
        bench::openmp::in_team(cfg.threads, [&] { return bench::integrate::integrate(whole, join2); }));
  });
}

const bench::peer_registration registered{"integrate", "openmp_task", &run};

} // namespace

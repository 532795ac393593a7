// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)

#include "../openmp.hpp"
#include "matmul.hpp"

namespace {

// Per phase: a task for each of the first three sub-multiplies, the fourth inline, then
// taskwait.
void run(const bench::config& cfg)
{
  auto join4 = [](auto&& f1, auto&& f2, auto&& f3, auto&& f4) {
#pragma omp task default(none) shared(f1)
    f1();
#pragma omp task default(none) shared(f2)
    f2();
#pragma omp task default(none) shared(f3)
    f3();
    f4();
#pragma omp taskwait
  };
  bench::matmul::measure(cfg, [&](bench::matmul::matrices& m) {
    bench::openmp::in_team(cfg.threads, [&] { bench::matmul::multiply(m, join4); });
  });
}

const bench::peer_registration registered{"matmul", "openmp_task", &run};

} // namespace

// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)

#include "../tbb.hpp"
#include "nqueens.hpp"

#include <oneapi/tbb/task_group.h>

namespace {

// Runs every legal placement as a task, then waits for them all.
void run(const bench::config& cfg)
{
  bench::tbb_peer::team team(cfg.threads);
  const int n = bench::nqueens::size(cfg.scale);
  auto fork_each = [](int k, auto&& f) {
    tbb::task_group g;
    for (int i = 0; i < k; ++i)
      g.run([&f, i] { f(i); });
    g.wait();
  };
  bench::measure(cfg, [&] {
    return team.execute([&] { return bench::nqueens::queens(n, bench::nqueens::board{}, fork_each); });
  });
}

const bench::peer_registration registered{"nqueens", "tbb_task_group", &run};

} // namespace

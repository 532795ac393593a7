// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)

#include "../tbb.hpp"
#include "integrate.hpp"

#include <oneapi/tbb/task_group.h>

namespace {

// Runs the left half as a task, integrates the right inline, then waits.
void run(const bench::config& cfg)
{
  bench::tbb_peer::team team(cfg.threads);
  const bench::integrate::interval whole = bench::integrate::whole(cfg.scale);
  auto join2 = [](auto&& left, auto&& right) {
    tbb::task_group g;
    g.run(left);
    right();
    g.wait();
  };
  bench::measure(cfg, [&] {
    return bench::integrate::bits(team.execute([&] { return bench::integrate::integrate(whole, join2); }));
  });
}

const bench::peer_registration registered{"integrate", "tbb_task_group", &run};

} // namespace

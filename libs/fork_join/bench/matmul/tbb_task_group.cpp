// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)

#include "../tbb.hpp"
#include "matmul.hpp"

#include <oneapi/tbb/task_group.h>

namespace {

// Per phase: runs the first three sub-multiplies as tasks, the fourth inline, then waits.
void run(const bench::config& cfg)
{
  bench::tbb_peer::team team(cfg.threads);
  auto join4 = [](auto&& f1, auto&& f2, auto&& f3, auto&& f4) {
    tbb::task_group g;
    g.run(f1);
    g.run(f2);
    g.run(f3);
    f4();
    g.wait();
  };
  bench::matmul::measure(
      cfg, [&](bench::matmul::matrices& m) { team.execute([&] { bench::matmul::multiply(m, join4); }); });
}

const bench::peer_registration registered{"matmul", "tbb_task_group", &run};

} // namespace

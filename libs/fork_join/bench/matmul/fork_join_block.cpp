// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)

#include "../fork_join_thread_pool.hpp"
#include "matmul.hpp"

#include <boost/thread/executors/task_block.hpp>

namespace {

namespace ex = bench::fork_join::ex;

// A task block per phase: run() offers the first three sub-multiplies to thieves, the fourth
// runs inline, and the block's end joins.
void run(const bench::config& cfg)
{
  ex::fork_join_thread_pool pool(cfg.threads);
  auto join4 = [&pool](auto&& f1, auto&& f2, auto&& f3, auto&& f4) {
    ex::define_task_block(pool, [&](ex::task_block& tb) {
      tb.run(f1);
      tb.run(f2);
      tb.run(f3);
      f4();
    });
  };
  bench::matmul::measure(
      cfg,
      [&](bench::matmul::matrices& m) {
        bench::fork_join::run_root(pool, [&] { bench::matmul::multiply(m, join4); });
      },
      bench::fork_join::on_root_thread(pool));
  bench::fork_join::report_statistics(pool);
}

const bench::peer_registration registered{"matmul", "fork_join_block", &run};

} // namespace

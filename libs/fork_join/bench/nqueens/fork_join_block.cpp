// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)

#include "../fork_join_thread_pool.hpp"
#include "nqueens.hpp"

#include <boost/thread/executors/task_block.hpp>

namespace {

namespace ex = bench::fork_join::ex;

// A task block per row: run() for every legal placement; the block's end joins them all.
void run(const bench::config& cfg)
{
  const int n = bench::nqueens::size(cfg.scale);
  bench::fork_join::measure_roots(cfg, [n](ex::fork_join_thread_pool& pool) {
    auto fork_each = [&pool](int k, auto&& f) {
      ex::define_task_block(pool, [&](ex::task_block& tb) {
        for (int i = 0; i < k; ++i)
          tb.run([&f, i] { f(i); });
      });
    };
    return bench::nqueens::queens(n, bench::nqueens::board{}, fork_each);
  });
}

const bench::peer_registration registered{"nqueens", "fork_join_block", &run};

} // namespace

// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)

#include "../fork_join_thread_pool.hpp"
#include "fib.hpp"

#include <boost/thread/executors/task_block.hpp>

namespace {

namespace ex = bench::fork_join::ex;

// A task block per call, as a Parallelism TS (N4411) user writes it: run() offers fib(n - 1)
// to thieves, fib(n - 2) is computed inline, and the block's end joins.
void run(const bench::config& cfg)
{
  const int n = bench::fib::size(cfg.scale);
  bench::fork_join::measure_roots(cfg, [n](ex::fork_join_thread_pool& pool) {
    auto join2 = [&pool](auto&& first, auto&& second) {
      ex::define_task_block(pool, [&](ex::task_block& tb) {
        tb.run(first);
        second();
      });
    };
    return bench::fib::fib(n, join2);
  });
}

const bench::peer_registration registered{"fib", "fork_join_block", &run};

} // namespace

// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)

#include "../fork_join_thread_pool.hpp"
#include "matmul.hpp"

#include <boost/thread/executors/parallel_invoke.hpp>

namespace {

namespace ex = bench::fork_join::ex;

// One parallel_invoke of the four sub-multiplies per phase: it runs its first callable inline
// and offers the others to thieves, so the fourth goes first, as the fork_join peer keeps it.
void run(const bench::config& cfg)
{
  ex::fork_join_thread_pool pool(cfg.threads);
  auto join4 = [&pool](auto&& f1, auto&& f2, auto&& f3, auto&& f4) { ex::parallel_invoke(pool, f4, f1, f2, f3); };
  bench::matmul::measure(
      cfg,
      [&](bench::matmul::matrices& m) {
        bench::fork_join::run_root(pool, [&] { bench::matmul::multiply(m, join4); });
      },
      bench::fork_join::on_root_thread(pool));
  bench::fork_join::report_statistics(pool);
}

const bench::peer_registration registered{"matmul", "fork_join_invoke", &run};

} // namespace

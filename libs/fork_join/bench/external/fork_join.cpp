// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)

#include "../fork_join_thread_pool.hpp"
#include "external.hpp"

namespace {

// fork_join_thread_pool::submit from threads that are not workers: the shared queue.
void run(const bench::config& cfg)
{
  bench::fork_join::ex::fork_join_thread_pool pool(cfg.threads);
  bench::external::tally counted(bench::external::closures(cfg.scale));
  bench::measure(cfg, [&] {
    return bench::external::run_once(cfg.scale, counted, [&pool](auto&& f) { pool.submit(f); });
  });
  bench::fork_join::report_statistics(pool);
}

const bench::peer_registration registered{"external", "fork_join_submit", &run};

} // namespace

// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)

#include "../fork_join_thread_pool.hpp"
#include "par_sort.hpp"

#include <boost/thread/executors/parallel_sort.hpp>

namespace {

namespace ex = bench::fork_join::ex;

void run(const bench::config& cfg)
{
  bench::fork_join::algorithm_team team(cfg.threads);
  ex::fork_join_thread_pool& pool = team.pool();
  bench::par_sort::buffers buf(bench::par_sort::size(cfg.scale));
  bench::measure(
      cfg, [&] { buf.reset(); },
      [&] { team.run([&] { ex::parallel_sort(pool, buf.data.begin(), buf.data.end()); }); },
      [&] { return buf.digest(); });
  bench::fork_join::report_statistics(pool);
}

const bench::peer_registration registered{"par_sort", "fork_join_algorithm", &run};

} // namespace

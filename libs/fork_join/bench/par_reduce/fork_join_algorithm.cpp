// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)

#include "../fork_join_thread_pool.hpp"
#include "par_reduce.hpp"

#include <boost/thread/executors/parallel_reduce.hpp>

#include <functional>

namespace {

namespace ex = bench::fork_join::ex;

void run(const bench::config& cfg)
{
  bench::fork_join::algorithm_team team(cfg.threads);
  ex::fork_join_thread_pool& pool = team.pool();
  const bench::par_reduce::problem p = bench::par_reduce::size(cfg.scale);
  const std::vector<std::uint64_t> in = bench::par_reduce::input(p.n);
  bench::measure(cfg, [&] {
    return team.run([&] {
      return ex::parallel_transform_reduce(
          pool, in.begin(), in.end(), std::uint64_t(0), std::plus<std::uint64_t>(),
          [](std::uint64_t x) { return bench::par_reduce::work(x); }, p.grain);
    });
  });
  bench::fork_join::report_statistics(pool);
}

const bench::peer_registration registered{"par_reduce", "fork_join_algorithm", &run};

} // namespace

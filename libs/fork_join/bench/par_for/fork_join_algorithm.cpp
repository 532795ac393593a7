// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)

#include "../fork_join_thread_pool.hpp"
#include "par_for.hpp"

#include <boost/thread/executors/parallel_for.hpp>

namespace {

namespace ex = bench::fork_join::ex;

void run(const bench::config& cfg)
{
  bench::fork_join::algorithm_team team(cfg.threads);
  ex::fork_join_thread_pool& pool = team.pool();
  const bench::par_for::problem p = bench::par_for::size(cfg.scale);
  bench::par_for::buffers buf(p.n);
  const std::uint64_t* const in = buf.in.data();
  std::uint64_t* const out = buf.out.data();
  bench::measure(
      cfg, [&] { buf.reset(); },
      [&] {
        team.run([&] {
          ex::parallel_for(
              pool, std::size_t(0), p.n, [in, out](std::size_t i) { out[i] = bench::par_for::work(in[i]); }, p.grain);
        });
      },
      [&] { return buf.digest(); });
  bench::fork_join::report_statistics(pool);
}

const bench::peer_registration registered{"par_for", "fork_join_algorithm", &run};

} // namespace

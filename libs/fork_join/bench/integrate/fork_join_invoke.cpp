// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)

#include "../fork_join_thread_pool.hpp"
#include "integrate.hpp"

#include <boost/thread/executors/parallel_invoke.hpp>

namespace {

namespace ex = bench::fork_join::ex;

// parallel_invoke runs the right half inline and offers the left to thieves, as the fork_join
// peer forks it.
void run(const bench::config& cfg)
{
  const bench::integrate::interval whole = bench::integrate::whole(cfg.scale);
  bench::fork_join::measure_roots(cfg, [&whole](ex::fork_join_thread_pool& pool) {
    auto join2 = [&pool](auto&& left, auto&& right) { ex::parallel_invoke(pool, right, left); };
    return bench::integrate::bits(bench::integrate::integrate(whole, join2));
  });
}

const bench::peer_registration registered{"integrate", "fork_join_invoke", &run};

} // namespace

// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)

#include "../fork_join_thread_pool.hpp"
#include "integrate.hpp"

#include <functional>

namespace {

namespace ex = bench::fork_join::ex;

// Forks the left half, integrates the right inline, then joins.
double integrate(ex::fork_join_thread_pool& pool, const bench::integrate::interval& i)
{
  const bench::integrate::halves h = bench::integrate::split(i);
  if (h.converged)
    return h.area;
  ex::joinable_future<double> left = ex::fork(pool, integrate, std::ref(pool), h.left);
  const double right = integrate(pool, h.right);
  ex::join(pool, left);
  return left.get() + right;
}

void run(const bench::config& cfg)
{
  const bench::integrate::interval whole = bench::integrate::whole(cfg.scale);
  bench::fork_join::measure_roots(
      cfg, [&whole](ex::fork_join_thread_pool& pool) { return bench::integrate::bits(integrate(pool, whole)); });
}

const bench::peer_registration registered{"integrate", "fork_join", &run};

} // namespace

// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)

#include "../fork_join_thread_pool.hpp"
#include "nqueens.hpp"

#include <boost/thread/executors/parallel_invoke.hpp>

namespace {

namespace ex = bench::fork_join::ex;

// parallel_invoke takes a fixed number of callables and a row has a varying number of
// placements: f(first) .. f(last - 1) are halved, one invoke of two per halving, down to single
// ones.
template <class F>
void invoke_range(ex::fork_join_thread_pool& pool, F& f, int first, int last)
{
  if (last - first == 1)
    return f(first);
  const int middle = first + (last - first) / 2;
  ex::parallel_invoke(
      pool, [&] { invoke_range(pool, f, middle, last); }, [&] { invoke_range(pool, f, first, middle); });
}

void run(const bench::config& cfg)
{
  const int n = bench::nqueens::size(cfg.scale);
  bench::fork_join::measure_roots(cfg, [n](ex::fork_join_thread_pool& pool) {
    auto fork_each = [&pool](int k, auto&& f) {
      if (k > 0)
        invoke_range(pool, f, 0, k);
    };
    return bench::nqueens::queens(n, bench::nqueens::board{}, fork_each);
  });
}

const bench::peer_registration registered{"nqueens", "fork_join_invoke", &run};

} // namespace

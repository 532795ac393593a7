// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)

#include "../fork_join_thread_pool.hpp"
#include "sort.hpp"

#include <boost/thread/executors/parallel_invoke.hpp>

namespace {

namespace ex = bench::fork_join::ex;

void merge_sort(ex::fork_join_thread_pool& pool, int* a, int* b, std::size_t n, bool into_b, std::size_t grain)
{
  if (n <= grain)
    return bench::sort::sort_leaf(a, b, n, into_b);
  const std::size_t half = n / 2;
  ex::parallel_invoke(
      pool, [&] { merge_sort(pool, a + half, b + half, n - half, !into_b, grain); },
      [&] { merge_sort(pool, a, b, half, !into_b, grain); });
  bench::sort::merge_halves(a, b, n, half, into_b);
}

void run(const bench::config& cfg)
{
  ex::fork_join_thread_pool pool(cfg.threads);
  const bench::sort::problem p = bench::sort::size(cfg.scale);
  bench::sort::buffers buf(p.n);
  bench::measure(
      cfg, [&] { buf.reset(); },
      [&] {
        bench::fork_join::run_root(
            pool, [&] { merge_sort(pool, buf.data.data(), buf.scratch.data(), p.n, false, p.grain); });
      },
      [&] { return buf.digest(); });
  bench::fork_join::report_statistics(pool);
}

const bench::peer_registration registered{"sort", "fork_join_invoke", &run};

} // namespace

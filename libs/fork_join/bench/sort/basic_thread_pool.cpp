// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)

#include "../basic_thread_pool.hpp"
#include "sort.hpp"

namespace {

using bench::basic_pool::basic_thread_pool;
using bench::basic_pool::waiting;

template <waiting How>
void merge_sort(basic_thread_pool& pool, int* a, int* b, std::size_t n, bool into_b, std::size_t grain)
{
  if (n <= grain)
    return bench::sort::sort_leaf(a, b, n, into_b);
  const std::size_t half = n / 2;
  boost::future<void> left = boost::async(
      pool, [&pool, a, b, half, into_b, grain] { merge_sort<How>(pool, a, b, half, !into_b, grain); });
  merge_sort<How>(pool, a + half, b + half, n - half, !into_b, grain);
  bench::basic_pool::wait<How>(pool, left);
  bench::sort::merge_halves(a, b, n, half, into_b);
}

template <waiting How>
void run(const bench::config& cfg)
{
  basic_thread_pool pool(cfg.threads);
  const bench::sort::problem p = bench::sort::size(cfg.scale);
  bench::sort::buffers buf(p.n);
  bench::measure(
      cfg, [&] { buf.reset(); },
      [&] {
        int* const a = buf.data.data();
        int* const b = buf.scratch.data();
        boost::async(pool, [&pool, a, b, p] { merge_sort<How>(pool, a, b, p.n, false, p.grain); }).get();
      },
      [&] { return buf.digest(); });
}

const bench::peer_registration registered_get{"sort", "basic_pool_get", &run<waiting::get>,
                                              bench::outcome::may_fail};
const bench::peer_registration registered_reschedule{"sort", "basic_pool_reschedule", &run<waiting::reschedule>,
                                                     bench::outcome::may_fail};

} // namespace

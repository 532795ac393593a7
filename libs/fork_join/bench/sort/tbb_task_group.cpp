// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)

#include "../tbb.hpp"
#include "sort.hpp"

#include <oneapi/tbb/task_group.h>

namespace {

void merge_sort(int* a, int* b, std::size_t n, bool into_b, std::size_t grain)
{
  if (n <= grain)
    return bench::sort::sort_leaf(a, b, n, into_b);
  const std::size_t half = n / 2;
  tbb::task_group g;
  g.run([=] { merge_sort(a, b, half, !into_b, grain); });
  merge_sort(a + half, b + half, n - half, !into_b, grain);
  g.wait();
  bench::sort::merge_halves(a, b, n, half, into_b);
}

void run(const bench::config& cfg)
{
  bench::tbb_peer::team team(cfg.threads);
  const bench::sort::problem p = bench::sort::size(cfg.scale);
  bench::sort::buffers buf(p.n);
  bench::measure(
      cfg, [&] { buf.reset(); },
      [&] { team.execute([&] { merge_sort(buf.data.data(), buf.scratch.data(), p.n, false, p.grain); }); },
      [&] { return buf.digest(); });
}

const bench::peer_registration registered{"sort", "tbb_task_group", &run};

} // namespace

// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)

#include "../openmp.hpp"
#include "par_reduce.hpp"

namespace {

void run(const bench::config& cfg)
{
  bench::openmp::exact_team_size();
  const unsigned threads = cfg.threads;
  const bench::par_reduce::problem p = bench::par_reduce::size(cfg.scale);
  const std::size_t n = p.n, grain = p.grain;
  const std::vector<std::uint64_t> in = bench::par_reduce::input(n);
  const std::uint64_t* const data = in.data();
  bench::measure(cfg, [&] {
    std::uint64_t sum = 0;
#pragma omp parallel for num_threads(threads) schedule(dynamic, grain) default(none) firstprivate(data, n, grain) \
    reduction(+ : sum)
    for (std::size_t i = 0; i < n; ++i)
      sum += bench::par_reduce::work(data[i]);
    return sum;
  });
}

const bench::peer_registration registered{"par_reduce", "openmp_for", &run};

} // namespace

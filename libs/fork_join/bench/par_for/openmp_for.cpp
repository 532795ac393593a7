// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)

#include "../openmp.hpp"
#include "par_for.hpp"

namespace {

void run(const bench::config& cfg)
{
  bench::openmp::exact_team_size();
  const unsigned threads = cfg.threads;
  const bench::par_for::problem p = bench::par_for::size(cfg.scale);
  const std::size_t n = p.n, grain = p.grain;
  bench::par_for::buffers buf(n);
  const std::uint64_t* const in = buf.in.data();
  std::uint64_t* const out = buf.out.data();
  bench::measure(
      cfg, [&] { buf.reset(); },
      [&] {
#pragma omp parallel for num_threads(threads) schedule(dynamic, grain) default(none) firstprivate(in, out, n, grain)
        for (std::size_t i = 0; i < n; ++i)
          out[i] = bench::par_for::work(in[i]);
      },
      [&] { return buf.digest(); });
}

const bench::peer_registration registered{"par_for", "openmp_for", &run};

} // namespace

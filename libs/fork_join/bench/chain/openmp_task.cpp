// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)

#include "../openmp.hpp"
#include "chain.hpp"

namespace {

std::uint64_t chain(unsigned n)
{
  if (n == 0)
    return 0;
  std::uint64_t below = 0;
#pragma omp task default(none) shared(below) firstprivate(n)
  below = chain(n - 1);
  const std::uint64_t here = bench::chain::inline_part(n);
#pragma omp taskwait
  return here + below;
}

template <unsigned Levels>
void run(const bench::config& cfg)
{
  const unsigned n = bench::chain::size(cfg.scale, Levels);
  bench::measure(cfg, [&] { return bench::openmp::in_team(cfg.threads, [n] { return chain(n); }); });
}

const bench::peer_registration short_chain{bench::chain::short_name, "openmp_task",
                                           &run<bench::chain::short_levels>, bench::outcome::may_fail};
const bench::peer_registration long_chain{bench::chain::long_name, "openmp_task",
                                          &run<bench::chain::long_levels>, bench::outcome::may_fail};

} // namespace

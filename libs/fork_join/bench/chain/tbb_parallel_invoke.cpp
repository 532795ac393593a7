// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)

#include "../tbb.hpp"
#include "chain.hpp"

#include <oneapi/tbb/parallel_invoke.h>

namespace {

std::uint64_t chain(unsigned n)
{
  if (n == 0)
    return 0;
  std::uint64_t here = 0, below = 0;
  tbb::parallel_invoke([&here, n] { here = bench::chain::inline_part(n); }, [&below, n] { below = chain(n - 1); });
  return here + below;
}

template <unsigned Levels>
void run(const bench::config& cfg)
{
  bench::tbb_peer::team team(cfg.threads);
  const unsigned n = bench::chain::size(cfg.scale, Levels);
  bench::measure(cfg, [&] { return team.execute([n] { return chain(n); }); });
}

const bench::peer_registration short_chain{bench::chain::short_name, "tbb_parallel_invoke",
                                           &run<bench::chain::short_levels>, bench::outcome::may_fail};
const bench::peer_registration long_chain{bench::chain::long_name, "tbb_parallel_invoke",
                                          &run<bench::chain::long_levels>, bench::outcome::may_fail};

} // namespace

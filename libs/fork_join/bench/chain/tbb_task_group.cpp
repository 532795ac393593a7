// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)

#include "../tbb.hpp"
#include "chain.hpp"

#include <oneapi/tbb/task_group.h>

namespace {

// task_group::wait runs the child on the waiting thread's stack when nobody stole it: one
// nesting per level.
std::uint64_t chain(unsigned n)
{
  if (n == 0)
    return 0;
  std::uint64_t below = 0;
  tbb::task_group g;
  g.run([&below, n] { below = chain(n - 1); });
  const std::uint64_t here = bench::chain::inline_part(n);
  g.wait();
  return here + below;
}

template <unsigned Levels>
void run(const bench::config& cfg)
{
  bench::tbb_peer::team team(cfg.threads);
  const unsigned n = bench::chain::size(cfg.scale, Levels);
  bench::measure(cfg, [&] { return team.execute([n] { return chain(n); }); });
}

const bench::peer_registration short_chain{bench::chain::short_name, "tbb_task_group",
                                           &run<bench::chain::short_levels>, bench::outcome::may_fail};
const bench::peer_registration long_chain{bench::chain::long_name, "tbb_task_group",
                                          &run<bench::chain::long_levels>, bench::outcome::may_fail};

} // namespace

// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)

#include "../fork_join_thread_pool.hpp"
#include "chain.hpp"

#include <boost/thread/executors/parallel_invoke.hpp>

namespace {

namespace ex = bench::fork_join::ex;

// The trivial part runs inline (parallel_invoke's first callable); the chain goes on in the
// child.
std::uint64_t chain(ex::fork_join_thread_pool& pool, unsigned n)
{
  if (n == 0)
    return 0;
  std::uint64_t here = 0, below = 0;
  ex::parallel_invoke(
      pool, [&] { here = bench::chain::inline_part(n); }, [&] { below = chain(pool, n - 1); });
  return here + below;
}

template <unsigned Levels>
void run(const bench::config& cfg)
{
  ex::fork_join_thread_pool pool(cfg.threads);
  const unsigned n = bench::chain::size(cfg.scale, Levels);
  bench::measure(cfg, [&] { return bench::fork_join::run_root(pool, [&] { return chain(pool, n); }); });
  bench::fork_join::report_statistics(pool);
}

const bench::peer_registration short_chain{bench::chain::short_name, "fork_join_invoke",
                                           &run<bench::chain::short_levels>};
const bench::peer_registration long_chain{bench::chain::long_name, "fork_join_invoke",
                                          &run<bench::chain::long_levels>};

} // namespace

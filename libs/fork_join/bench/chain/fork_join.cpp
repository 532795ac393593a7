// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)

#include "../fork_join_thread_pool.hpp"
#include "chain.hpp"

#include <functional>

namespace {

namespace ex = bench::fork_join::ex;

std::uint64_t chain(ex::fork_join_thread_pool& pool, unsigned n)
{
  if (n == 0)
    return 0;
  ex::joinable_future<std::uint64_t> below = ex::fork(pool, chain, std::ref(pool), n - 1);
  const std::uint64_t here = bench::chain::inline_part(n);
  ex::join(pool, below);
  return here + below.get();
}

template <unsigned Levels>
void run(const bench::config& cfg)
{
  ex::fork_join_thread_pool pool(cfg.threads);
  const unsigned n = bench::chain::size(cfg.scale, Levels);
  bench::measure(cfg, [&] { return bench::fork_join::run_root(pool, [&] { return chain(pool, n); }); });
  bench::fork_join::report_statistics(pool);
}

const bench::peer_registration short_chain{bench::chain::short_name, "fork_join", &run<bench::chain::short_levels>};
const bench::peer_registration long_chain{bench::chain::long_name, "fork_join", &run<bench::chain::long_levels>};

} // namespace

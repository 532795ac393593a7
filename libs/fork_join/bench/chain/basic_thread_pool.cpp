// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)

#include "../basic_thread_pool.hpp"
#include "chain.hpp"

namespace {

using bench::basic_pool::basic_thread_pool;
using bench::basic_pool::waiting;

template <waiting How>
std::uint64_t chain(basic_thread_pool& pool, unsigned n)
{
  if (n == 0)
    return 0;
  boost::future<std::uint64_t> below = boost::async(pool, [&pool, n] { return chain<How>(pool, n - 1); });
  const std::uint64_t here = bench::chain::inline_part(n);
  return here + bench::basic_pool::wait<How>(pool, below);
}

template <waiting How, unsigned Levels>
void run(const bench::config& cfg)
{
  basic_thread_pool pool(cfg.threads);
  const unsigned n = bench::chain::size(cfg.scale, Levels);
  bench::measure(cfg, [&] { return boost::async(pool, [&pool, n] { return chain<How>(pool, n); }).get(); });
}

using bench::chain::long_levels;
using bench::chain::short_levels;
constexpr bench::outcome may_fail = bench::outcome::may_fail;

const bench::peer_registration short_get{bench::chain::short_name, "basic_pool_get", &run<waiting::get, short_levels>,
                                         may_fail};
const bench::peer_registration long_get{bench::chain::long_name, "basic_pool_get", &run<waiting::get, long_levels>,
                                        may_fail};
const bench::peer_registration short_reschedule{bench::chain::short_name, "basic_pool_reschedule",
                                                &run<waiting::reschedule, short_levels>, may_fail};
const bench::peer_registration long_reschedule{bench::chain::long_name, "basic_pool_reschedule",
                                               &run<waiting::reschedule, long_levels>, may_fail};

} // namespace

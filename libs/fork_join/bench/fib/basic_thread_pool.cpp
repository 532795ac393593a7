// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)

#include "../basic_thread_pool.hpp"
#include "fib.hpp"

namespace {

using bench::basic_pool::basic_thread_pool;
using bench::basic_pool::waiting;

template <waiting How>
std::uint64_t fib(basic_thread_pool& pool, int n)
{
  if (n < 2)
    return static_cast<std::uint64_t>(n);
  boost::future<std::uint64_t> a = boost::async(pool, [&pool, n] { return fib<How>(pool, n - 1); });
  const std::uint64_t b = fib<How>(pool, n - 2);
  return bench::basic_pool::wait<How>(pool, a) + b;
}

template <waiting How>
void run(const bench::config& cfg)
{
  basic_thread_pool pool(cfg.threads);
  const int n = bench::fib::size(cfg.scale);
  bench::measure(cfg, [&] { return boost::async(pool, [&pool, n] { return fib<How>(pool, n); }).get(); });
}

const bench::peer_registration registered_get{"fib", "basic_pool_get", &run<waiting::get>,
                                              bench::outcome::may_fail};
const bench::peer_registration registered_reschedule{"fib", "basic_pool_reschedule", &run<waiting::reschedule>,
                                                     bench::outcome::may_fail};

} // namespace

// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)

#include "../libfork_peer.hpp"
#include "fib.hpp"

#include <cstdint>

namespace {

using bench::libfork_peer::bind;

// Forks fib(n - 1), calls fib(n - 2), joins.
inline constexpr auto fib = [](auto fib, int n) -> lf::task<std::uint64_t> {
  if (n < 2)
    co_return static_cast<std::uint64_t>(n);
  std::uint64_t a = 0, b = 0;
  co_await bind(lf::fork, &a, fib)(n - 1);
  co_await bind(lf::call, &b, fib)(n - 2);
  co_await lf::join;
  co_return a + b;
};

template <class Pool>
void run(const bench::config& cfg)
{
  Pool pool(cfg.threads);
  const int n = bench::fib::size(cfg.scale);
  bench::measure(cfg, [&] { return lf::sync_wait(pool, fib, n); });
}

const bench::libfork_peer::registrations registered{"fib", &run<lf::busy_pool>, &run<lf::lazy_pool>};

} // namespace

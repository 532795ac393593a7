// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)

#include "../libfork_peer.hpp"
#include "integrate.hpp"

namespace {

using bench::libfork_peer::bind;

namespace in = bench::integrate;

// Forks the left half, calls the right, joins.
inline constexpr auto integrate = [](auto integrate, in::interval i) -> lf::task<double> {
  const in::halves h = in::split(i);
  if (h.converged)
    co_return h.area;
  double left = 0, right = 0;
  co_await bind(lf::fork, &left, integrate)(h.left);
  co_await bind(lf::call, &right, integrate)(h.right);
  co_await lf::join;
  co_return left + right;
};

template <class Pool>
void run(const bench::config& cfg)
{
  Pool pool(cfg.threads);
  const in::interval whole = in::whole(cfg.scale);
  bench::measure(cfg, [&] { return in::bits(lf::sync_wait(pool, integrate, whole)); });
}

const bench::libfork_peer::registrations registered{"integrate", &run<lf::busy_pool>, &run<lf::lazy_pool>};

} // namespace

// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)

#include "../libfork_peer.hpp"
#include "matmul.hpp"

#include <array>
#include <cstddef>

namespace {

using bench::libfork_peer::bind;

namespace mm = bench::matmul;

// Per phase: forks the first three sub-multiplies, calls the fourth, joins.
inline constexpr auto multiply = [](auto multiply, const double* a, const double* b, double* c, std::size_t n,
                                    std::size_t ld) -> lf::task<void> {
  if (n <= mm::cutoff)
  {
    mm::multiply_leaf(a, b, c, n, ld);
    co_return;
  }
  for (std::size_t p = 0; p < 2; ++p)
  {
    const std::array<mm::product, 4> q = mm::phase(a, b, c, n, ld, p);
    co_await bind(lf::fork, multiply)(q[0].a, q[0].b, q[0].c, n / 2, ld);
    co_await bind(lf::fork, multiply)(q[1].a, q[1].b, q[1].c, n / 2, ld);
    co_await bind(lf::fork, multiply)(q[2].a, q[2].b, q[2].c, n / 2, ld);
    co_await bind(lf::call, multiply)(q[3].a, q[3].b, q[3].c, n / 2, ld);
    co_await lf::join;
  }
};

// Runs f() as a task of the pool, as the root runs (matmul::measure's on_root_thread).
inline constexpr auto on_pool = [](auto, const auto* f) -> lf::task<void> {
  (*f)();
  co_return;
};

template <class Pool>
void run(const bench::config& cfg)
{
  Pool pool(cfg.threads);
  mm::measure(
      cfg, [&](mm::matrices& m) { lf::sync_wait(pool, multiply, m.a.data(), m.b.data(), m.c.data(), m.n, m.n); },
      [&](auto&& f) { lf::sync_wait(pool, on_pool, &f); });
}

const bench::libfork_peer::registrations registered{"matmul", &run<lf::busy_pool>, &run<lf::lazy_pool>};

} // namespace

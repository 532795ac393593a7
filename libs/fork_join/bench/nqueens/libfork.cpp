// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)

#include "../libfork_peer.hpp"
#include "nqueens.hpp"

#include <array>
#include <cstdint>

namespace {

using bench::libfork_peer::bind;

namespace nq = bench::nqueens;

// Forks every legal placement, then joins (as the other peers run every placement as a task).
inline constexpr auto queens = [](auto queens, int n, nq::board b) -> lf::task<std::uint64_t> {
  if (b.rows == n)
    co_return 1;
  const nq::placements p = nq::place_next_row(b, n);
  std::array<std::uint64_t, nq::max_n> counts{};
  for (int i = 0; i < p.count; ++i)
    co_await bind(lf::fork, &counts[i], queens)(n, p.next[i]);
  co_await lf::join;
  std::uint64_t total = 0;
  for (int i = 0; i < p.count; ++i)
    total += counts[i];
  co_return total;
};

template <class Pool>
void run(const bench::config& cfg)
{
  Pool pool(cfg.threads);
  const int n = nq::size(cfg.scale);
  bench::measure(cfg, [&] { return lf::sync_wait(pool, queens, n, nq::board{}); });
}

const bench::libfork_peer::registrations registered{"nqueens", &run<lf::busy_pool>, &run<lf::lazy_pool>};

} // namespace

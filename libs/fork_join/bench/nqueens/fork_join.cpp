// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)

#include "../fork_join_thread_pool.hpp"
#include "nqueens.hpp"

#include <boost/container/small_vector.hpp>

#include <functional>

namespace {

namespace ex = bench::fork_join::ex;

// Forks every legal placement (the board copied into the task), then joins them all.
std::uint64_t queens(ex::fork_join_thread_pool& pool, int n, const bench::nqueens::board& b)
{
  if (b.rows == n)
    return 1;
  const bench::nqueens::placements p = bench::nqueens::place_next_row(b, n);
  boost::container::small_vector<ex::joinable_future<std::uint64_t>, bench::nqueens::max_n> forked;
  for (int i = 0; i < p.count; ++i)
    forked.push_back(ex::fork(pool, queens, std::ref(pool), n, p.next[i]));
  ex::join(pool, forked.begin(), forked.end());
  std::uint64_t total = 0;
  for (ex::joinable_future<std::uint64_t>& f : forked)
    total += f.get();
  return total;
}

void run(const bench::config& cfg)
{
  const int n = bench::nqueens::size(cfg.scale);
  bench::fork_join::measure_roots(
      cfg, [n](ex::fork_join_thread_pool& pool) { return queens(pool, n, bench::nqueens::board{}); });
}

const bench::peer_registration registered{"nqueens", "fork_join", &run};

} // namespace

// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)

#include "../bare_help_first.hpp"
#include "nqueens.hpp"

namespace {

// The fork_join_block peer's kernel (a block per row: run() for every legal placement) on the
// bare scheduler's blocks (bare_help_first.hpp): the floor under it.
void run(const bench::config& cfg)
{
  bench::bare::pool pool(cfg.threads);
  const int n = bench::nqueens::size(cfg.scale);
  auto fork_each = [&pool](int k, auto&& f) {
    bench::bare::pool::block b(pool);
    for (int i = 0; i < k; ++i)
      b.run([&f, i] { f(i); });
  };
  bench::measure(cfg, [&] { return bench::nqueens::queens(n, bench::nqueens::board{}, fork_each); });
}

const bench::peer_registration registered{"nqueens", "bare_block", &run};

} // namespace

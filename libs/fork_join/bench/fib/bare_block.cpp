// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)

#include "../bare_help_first.hpp"
#include "fib.hpp"

namespace {

// The fork_join_block peer's kernel (a block per call: run() offers fib(n - 1), fib(n - 2)
// inline) on the bare scheduler's blocks (bare_help_first.hpp): the floor under it.
void run(const bench::config& cfg)
{
  bench::bare::pool pool(cfg.threads);
  const int n = bench::fib::size(cfg.scale);
  auto join2 = [&pool](auto&& first, auto&& second) {
    bench::bare::pool::block b(pool);
    b.run(first);
    second();
  };
  bench::measure(cfg, [&] { return bench::fib::fib(n, join2); });
}

const bench::peer_registration registered{"fib", "bare_block", &run};

} // namespace

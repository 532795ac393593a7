// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)

#include "../bare_help_first.hpp"
#include "integrate.hpp"

namespace {

// The fork_join_block peer's kernel (a block per split: run() offers the left half, the right
// inline) on the bare scheduler's blocks (bare_help_first.hpp): the floor under it.
void run(const bench::config& cfg)
{
  bench::bare::pool pool(cfg.threads);
  const bench::integrate::interval whole = bench::integrate::whole(cfg.scale);
  auto join2 = [&pool](auto&& left, auto&& right) {
    bench::bare::pool::block b(pool);
    b.run(left);
    right();
  };
  bench::measure(cfg, [&] { return bench::integrate::bits(bench::integrate::integrate(whole, join2)); });
}

const bench::peer_registration registered{"integrate", "bare_block", &run};

} // namespace

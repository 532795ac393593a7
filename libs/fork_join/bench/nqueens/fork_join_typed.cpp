// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)

#include "../typed_children.hpp"
#include "nqueens.hpp"

namespace {

namespace ex = bench::fork_join::ex;

// The fork_join_block peer's shape (every legal placement forked) with the children as typed
// stack tasks in the frame (typed_children.hpp): the floor under it.
void run(const bench::config& cfg)
{
  const int n = bench::nqueens::size(cfg.scale);
  bench::fork_join::measure_roots(cfg, [n](ex::fork_join_thread_pool& pool) {
    auto fork_each = [&pool](int k, auto&& f) {
      auto child = [&f](unsigned i) { f(static_cast<int>(i)); };
      bench::typed_children::fork_join_each(pool, static_cast<unsigned>(k), child, [] {});
    };
    return bench::nqueens::queens(n, bench::nqueens::board{}, fork_each);
  });
}

const bench::peer_registration registered{"nqueens", "fork_join_typed", &run};

} // namespace

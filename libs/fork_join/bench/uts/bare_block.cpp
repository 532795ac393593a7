// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)

#include "../bare_help_first.hpp"
#include "uts.hpp"

namespace {

// The fork_join_block peer's kernel (a block per inner node: run() for every child but the
// last, the last counted inline) on the bare scheduler's blocks (bare_help_first.hpp): the
// floor under it.
template <class W>
void run(const bench::config& cfg)
{
  bench::bare::pool pool(cfg.threads);
  const typename W::tree t = W::size(cfg.scale);
  auto fork_each = [&pool](unsigned k, auto&& f) {
    bench::bare::pool::block b(pool);
    for (unsigned i = 0; i + 1 < k; ++i)
      b.run([&f, i] { f(i); });
    f(k - 1);
  };
  bench::measure(cfg, [&] { return bench::uts::count_subtree(t, t.root, fork_each); });
}

const bench::peer_registration registered_t1{bench::uts::t1::name, "bare_block", &run<bench::uts::t1>};
const bench::peer_registration registered_t3{bench::uts::t3::name, "bare_block", &run<bench::uts::t3>};

} // namespace

// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)

#include "../typed_children.hpp"
#include "uts.hpp"

namespace {

namespace ex = bench::fork_join::ex;

// The fork_join_block peer's shape (every child but the last forked, the last counted inline)
// with the children as typed stack tasks in the frame (typed_children.hpp): the floor under it.
template <class W>
void run(const bench::config& cfg)
{
  const typename W::tree t = W::size(cfg.scale);
  bench::fork_join::measure_roots(cfg, [&t](ex::fork_join_thread_pool& pool) {
    auto fork_each = [&pool](unsigned k, auto&& f) {
      bench::typed_children::fork_join_each(pool, k - 1, f, [&f, k] { f(k - 1); });
    };
    return bench::uts::count_subtree(t, t.root, fork_each);
  });
}

const bench::peer_registration registered_t1{bench::uts::t1::name, "fork_join_typed", &run<bench::uts::t1>};
const bench::peer_registration registered_t3{bench::uts::t3::name, "fork_join_typed", &run<bench::uts::t3>};

} // namespace

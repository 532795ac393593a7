// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)

#include "../fork_join_thread_pool.hpp"
#include "uts.hpp"

#include <boost/thread/executors/task_block.hpp>

namespace {

namespace ex = bench::fork_join::ex;

// A task block per inner node: run() for every child but the last, the last counted inline;
// the block joins them all at its end.
template <class W>
void run(const bench::config& cfg)
{
  const typename W::tree t = W::size(cfg.scale);
  bench::fork_join::measure_roots(cfg, [&t](ex::fork_join_thread_pool& pool) {
    auto fork_each = [&pool](unsigned k, auto&& f) {
      ex::define_task_block(pool, [&](ex::task_block& tb) {
        for (unsigned i = 0; i + 1 < k; ++i)
          tb.run([&f, i] { f(i); });
        f(k - 1);
      });
    };
    return bench::uts::count_subtree(t, t.root, fork_each);
  });
}

// Not on uts: that workload's peers stay as its history in the benchmark README has them.
const bench::peer_registration registered_t1{bench::uts::t1::name, "fork_join_block", &run<bench::uts::t1>};
const bench::peer_registration registered_t3{bench::uts::t3::name, "fork_join_block", &run<bench::uts::t3>};

} // namespace

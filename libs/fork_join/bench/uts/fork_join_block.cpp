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
template <class Tree>
std::uint64_t count(ex::fork_join_thread_pool& pool, const Tree& t, std::uint64_t id)
{
  const unsigned k = bench::uts::child_count(t, id);
  if (k == 0)
    return 1;
  bench::uts::child_counts counts(k);
  ex::define_task_block(pool, [&](ex::task_block& tb) {
    for (unsigned i = 0; i + 1 < k; ++i)
      tb.run([&pool, &counts, &t, id, i] { counts[i] = count(pool, t, bench::uts::child_id(t, id, i)); });
    counts[k - 1] = count(pool, t, bench::uts::child_id(t, id, k - 1));
  });
  return 1 + counts.sum(k);
}

template <class W>
void run(const bench::config& cfg)
{
  const typename W::tree t = W::size(cfg.scale);
  bench::fork_join::measure_roots(cfg, [&t](ex::fork_join_thread_pool& pool) { return count(pool, t, t.root); });
}

// Not on uts: that workload's peers stay as its history in the benchmark README has them.
const bench::peer_registration registered_t1{bench::uts::t1::name, "fork_join_block", &run<bench::uts::t1>};
const bench::peer_registration registered_t3{bench::uts::t3::name, "fork_join_block", &run<bench::uts::t3>};

} // namespace

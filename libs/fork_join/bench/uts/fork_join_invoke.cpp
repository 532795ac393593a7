// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)

#include "../fork_join_thread_pool.hpp"
#include "uts.hpp"

#include <boost/thread/executors/parallel_invoke.hpp>

#include <utility>

namespace {

namespace ex = bench::fork_join::ex;

// One parallel_invoke of m callables per inner node (see bench::uts::count_children).
template <class Tree>
std::uint64_t count(ex::fork_join_thread_pool& pool, const Tree& t, std::uint64_t id)
{
  auto invoke = [&pool](auto&&... fs) { ex::parallel_invoke(pool, std::forward<decltype(fs)>(fs)...); };
  return bench::uts::count_subtree_by_invoke(t, id, invoke);
}

template <class W>
void run(const bench::config& cfg)
{
  ex::fork_join_thread_pool pool(cfg.threads);
  const typename W::tree t = W::size(cfg.scale);
  bench::measure(cfg, [&] { return bench::fork_join::run_root(pool, [&] { return count(pool, t, t.root); }); });
  bench::fork_join::report_statistics(pool);
}

const bench::uts::peer_registrations registered{"fork_join_invoke", &run<bench::uts::own_t3>, &run<bench::uts::t1>,
                                                &run<bench::uts::t3>};

} // namespace

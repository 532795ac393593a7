// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)

#include "../fork_join_thread_pool.hpp"
#include "uts.hpp"

#include <functional>

namespace {

namespace ex = bench::fork_join::ex;

// Forks every child but the last, counts the last inline, then joins them all.
template <class Tree>
std::uint64_t count(ex::fork_join_thread_pool& pool, const Tree& t, std::uint64_t id)
{
  const unsigned k = bench::uts::child_count(t, id);
  if (k == 0)
    return 1;
  bench::uts::child_futures<ex::joinable_future<std::uint64_t>> forked;
  forked.reserve(k - 1);
  for (unsigned i = 0; i + 1 < k; ++i)
    forked.push_back(ex::fork(pool, count<Tree>, std::ref(pool), std::cref(t), bench::uts::child_id(t, id, i)));
  std::uint64_t total = 1 + count(pool, t, bench::uts::child_id(t, id, k - 1));
  ex::join(pool, forked.begin(), forked.end());
  for (ex::joinable_future<std::uint64_t>& f : forked)
    total += f.get();
  return total;
}

template <class W>
void run(const bench::config& cfg)
{
  ex::fork_join_thread_pool pool(cfg.threads);
  const typename W::tree t = W::size(cfg.scale);
  bench::measure(cfg, [&] { return bench::fork_join::run_root(pool, [&] { return count(pool, t, t.root); }); });
  bench::fork_join::report_statistics(pool);
}

const bench::uts::peer_registrations registered{"fork_join", &run<bench::uts::own_t3>, &run<bench::uts::t1>,
                                                &run<bench::uts::t3>};

} // namespace

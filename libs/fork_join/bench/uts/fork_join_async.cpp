// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)

#include "../fork_join_thread_pool.hpp"
#include "uts.hpp"

#include <boost/thread/future.hpp>

#include <functional>

namespace {

namespace ex = bench::fork_join::ex;

// boost::async on the pool for every child but the last, the last inline, then a join of the
// plain boost::futures.
template <class Tree>
std::uint64_t count(ex::fork_join_thread_pool& pool, const Tree& t, std::uint64_t id)
{
  const unsigned k = bench::uts::child_count(t, id);
  if (k == 0)
    return 1;
  bench::uts::child_futures<boost::future<std::uint64_t>> children;
  children.reserve(k - 1);
  for (unsigned i = 0; i + 1 < k; ++i)
    children.push_back(boost::async(pool, count<Tree>, std::ref(pool), std::cref(t), bench::uts::child_id(t, id, i)));
  std::uint64_t total = 1 + count(pool, t, bench::uts::child_id(t, id, k - 1));
  ex::join(pool, children.begin(), children.end());
  for (boost::future<std::uint64_t>& f : children)
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

const bench::peer_registration registered{"uts", "fork_join_async", &run<bench::uts::own_t3>};

} // namespace

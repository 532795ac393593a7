// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)

#include "../basic_thread_pool.hpp"
#include "uts.hpp"

namespace {

using bench::basic_pool::basic_thread_pool;
using bench::basic_pool::waiting;

template <waiting How, class Tree>
std::uint64_t count(basic_thread_pool& pool, const Tree& t, std::uint64_t id)
{
  const unsigned k = bench::uts::child_count(t, id);
  if (k == 0)
    return 1;
  bench::uts::child_futures<boost::future<std::uint64_t>> spawned;
  spawned.reserve(k - 1);
  for (unsigned i = 0; i + 1 < k; ++i)
  {
    const std::uint64_t child = bench::uts::child_id(t, id, i);
    spawned.push_back(boost::async(pool, [&pool, &t, child] { return count<How>(pool, t, child); }));
  }
  std::uint64_t total = 1 + count<How>(pool, t, bench::uts::child_id(t, id, k - 1));
  for (boost::future<std::uint64_t>& f : spawned)
    total += bench::basic_pool::wait<How>(pool, f);
  return total;
}

template <waiting How, class W>
void run(const bench::config& cfg)
{
  basic_thread_pool pool(cfg.threads);
  const typename W::tree t = W::size(cfg.scale);
  bench::measure(cfg, [&] { return boost::async(pool, [&pool, &t] { return count<How>(pool, t, t.root); }).get(); });
}

using bench::uts::own_t3;

const bench::peer_registration registered_get{"uts", "basic_pool_get", &run<waiting::get, own_t3>,
                                              bench::outcome::may_fail};
const bench::peer_registration registered_reschedule{"uts", "basic_pool_reschedule", &run<waiting::reschedule, own_t3>,
                                                     bench::outcome::may_fail};

} // namespace

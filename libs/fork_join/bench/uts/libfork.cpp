// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)

#include "../libfork_peer.hpp"
#include "uts.hpp"

#include <cstdint>

namespace {

using bench::libfork_peer::bind;

namespace uts = bench::uts;

// Forks every child but the last, calls the last, joins.
inline constexpr auto count = [](auto count, const auto* t, std::uint64_t id) -> lf::task<std::uint64_t> {
  const unsigned k = uts::child_count(*t, id);
  if (k == 0)
    co_return 1;
  uts::child_counts counts(k);
  for (unsigned i = 0; i + 1 < k; ++i)
    co_await bind(lf::fork, &counts[i], count)(t, uts::child_id(*t, id, i));
  co_await bind(lf::call, &counts[k - 1], count)(t, uts::child_id(*t, id, k - 1));
  co_await lf::join;
  co_return 1 + counts.sum(k);
};

template <class Pool, class W>
void run(const bench::config& cfg)
{
  Pool pool(cfg.threads);
  const typename W::tree t = W::size(cfg.scale);
  bench::measure(cfg, [&] { return lf::sync_wait(pool, count, &t, t.root); });
}

const bench::libfork_peer::registrations registered_own{uts::own_t3::name, &run<lf::busy_pool, uts::own_t3>,
                                                        &run<lf::lazy_pool, uts::own_t3>};
const bench::libfork_peer::registrations registered_t1{uts::t1::name, &run<lf::busy_pool, uts::t1>,
                                                       &run<lf::lazy_pool, uts::t1>};
const bench::libfork_peer::registrations registered_t3{uts::t3::name, &run<lf::busy_pool, uts::t3>,
                                                       &run<lf::lazy_pool, uts::t3>};

} // namespace

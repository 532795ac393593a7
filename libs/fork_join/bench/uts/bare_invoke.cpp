// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)

#include "../bare_help_first.hpp"
#include "uts.hpp"

#include <utility>

namespace {

// The fork_join_invoke peer's kernel (one invoke of m callables per inner node, see
// bench::uts::count_children) on the bare scheduler of bare_help_first.hpp: the floor under it.
template <class Tree>
std::uint64_t count(bench::bare::pool& pool, const Tree& t, std::uint64_t id)
{
  auto invoke = [&pool](auto&&... fs) { pool.invoke(std::forward<decltype(fs)>(fs)...); };
  return bench::uts::count_subtree_by_invoke(t, id, invoke);
}

template <class W>
void run(const bench::config& cfg)
{
  bench::bare::pool pool(cfg.threads);
  const typename W::tree t = W::size(cfg.scale);
  bench::measure(cfg, [&] { return count(pool, t, t.root); });
}

const bench::peer_registration registered_t1{bench::uts::t1::name, "bare_invoke", &run<bench::uts::t1>};
const bench::peer_registration registered_t3{bench::uts::t3::name, "bare_invoke", &run<bench::uts::t3>};

} // namespace

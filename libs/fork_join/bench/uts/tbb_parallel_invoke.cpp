// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)

#include "../tbb.hpp"
#include "uts.hpp"

#include <oneapi/tbb/parallel_invoke.h>

#include <utility>

namespace {

// One tbb::parallel_invoke of m callables per inner node (see bench::uts::count_children).
template <class Tree>
std::uint64_t count(const Tree& t, std::uint64_t id)
{
  auto invoke = [](auto&&... fs) { tbb::parallel_invoke(std::forward<decltype(fs)>(fs)...); };
  return bench::uts::count_subtree_by_invoke(t, id, invoke);
}

template <class W>
void run(const bench::config& cfg)
{
  bench::tbb_peer::team team(cfg.threads);
  const typename W::tree t = W::size(cfg.scale);
  bench::measure(cfg, [&] { return team.execute([&t] { return count(t, t.root); }); });
}

const bench::peer_registration registered{"uts", "tbb_parallel_invoke", &run<bench::uts::own_t3>};

} // namespace

// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)

#include "../openmp.hpp"
#include "uts.hpp"

namespace {

// A task for every child but the last, the last counted inline, then taskwait.
template <class Tree>
std::uint64_t count(const Tree& t, std::uint64_t id)
{
  const unsigned k = bench::uts::child_count(t, id);
  if (k == 0)
    return 1;
  bench::uts::child_counts counts(k);
  for (unsigned i = 0; i + 1 < k; ++i)
  {
#pragma omp task default(none) shared(counts, t) firstprivate(id, i)
    counts[i] = count(t, bench::uts::child_id(t, id, i));
  }
  counts[k - 1] = count(t, bench::uts::child_id(t, id, k - 1));
#pragma omp taskwait
  return 1 + counts.sum(k);
}

template <class W>
void run(const bench::config& cfg)
{
  const typename W::tree t = W::size(cfg.scale);
  bench::measure(cfg, [&] { return bench::openmp::in_team(cfg.threads, [&t] { return count(t, t.root); }); });
}

const bench::uts::peer_registrations registered{"openmp_task", &run<bench::uts::own_t3>, &run<bench::uts::t1>,
                                                &run<bench::uts::t3>};

} // namespace

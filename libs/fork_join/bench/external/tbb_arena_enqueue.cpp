// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)

#include "../tbb.hpp"
#include "external.hpp"

namespace {

// oneTBB's fire-and-forget submission: task_arena::enqueue into an arena whose `threads`
// workers run the closures (no slot is reserved for the submitting threads, which never run
// any). A task_group per submitting thread would have each submitter run closures in its
// wait(), which is not the plain executor use measured here.
void run(const bench::config& cfg)
{
  bench::tbb_peer::outside_workers arena(cfg.threads);
  bench::external::tally counted(bench::external::closures(cfg.scale));
  bench::measure(cfg, [&] {
    return bench::external::run_once(cfg.scale, counted, [&arena](auto&& f) { arena.enqueue(f); });
  });
}

const bench::peer_registration registered{"external", "tbb_arena_enqueue", &run};

} // namespace

// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)

#include "../basic_thread_pool.hpp"
#include "external.hpp"

namespace {

// basic_thread_pool::submit: what this workload is the plain use of, so it must finish.
void run(const bench::config& cfg)
{
  bench::basic_pool::basic_thread_pool pool(cfg.threads);
  bench::external::tally counted(bench::external::closures(cfg.scale));
  bench::measure(cfg, [&] {
    return bench::external::run_once(cfg.scale, counted, [&pool](auto&& f) { pool.submit(f); });
  });
}

const bench::peer_registration registered{"external", "basic_pool_submit", &run};

} // namespace

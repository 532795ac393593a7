// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)

#include "../tbb.hpp"
#include "par_sort.hpp"

#include <oneapi/tbb/parallel_sort.h>

namespace {

void run(const bench::config& cfg)
{
  bench::tbb_peer::team team(cfg.threads);
  bench::par_sort::buffers buf(bench::par_sort::size(cfg.scale));
  bench::measure(
      cfg, [&] { buf.reset(); },
      [&] { team.execute([&] { tbb::parallel_sort(buf.data.begin(), buf.data.end()); }); },
      [&] { return buf.digest(); });
}

const bench::peer_registration registered{"par_sort", "tbb_algorithm", &run};

} // namespace

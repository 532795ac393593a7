// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)

#include "../tbb.hpp"
#include "par_for.hpp"

#include <oneapi/tbb/blocked_range.h>
#include <oneapi/tbb/parallel_for.h>
#include <oneapi/tbb/partitioner.h>

namespace {

void run(const bench::config& cfg)
{
  bench::tbb_peer::team team(cfg.threads);
  const bench::par_for::problem p = bench::par_for::size(cfg.scale);
  bench::par_for::buffers buf(p.n);
  const std::uint64_t* const in = buf.in.data();
  std::uint64_t* const out = buf.out.data();
  bench::measure(
      cfg, [&] { buf.reset(); },
      [&] {
        team.execute([&] {
          // simple_partitioner: halves down to at most p.grain elements, as parallel_for does.
          tbb::parallel_for(
              tbb::blocked_range<std::size_t>(0, p.n, p.grain),
              [in, out](const tbb::blocked_range<std::size_t>& r) {
                for (std::size_t i = r.begin(); i != r.end(); ++i)
                  out[i] = bench::par_for::work(in[i]);
              },
              tbb::simple_partitioner());
        });
      },
      [&] { return buf.digest(); });
}

const bench::peer_registration registered{"par_for", "tbb_algorithm", &run};

} // namespace

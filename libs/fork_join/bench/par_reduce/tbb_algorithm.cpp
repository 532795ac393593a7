// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)

#include "../tbb.hpp"
#include "par_reduce.hpp"

#include <oneapi/tbb/blocked_range.h>
#include <oneapi/tbb/parallel_reduce.h>
#include <oneapi/tbb/partitioner.h>

#include <functional>

namespace {

void run(const bench::config& cfg)
{
  bench::tbb_peer::team team(cfg.threads);
  const bench::par_reduce::problem p = bench::par_reduce::size(cfg.scale);
  const std::vector<std::uint64_t> in = bench::par_reduce::input(p.n);
  const std::uint64_t* const data = in.data();
  bench::measure(cfg, [&] {
    return team.execute([&] {
      // simple_partitioner: halves down to at most p.grain elements, as parallel_transform_reduce does.
      return tbb::parallel_reduce(
          tbb::blocked_range<std::size_t>(0, p.n, p.grain), std::uint64_t(0),
          [data](const tbb::blocked_range<std::size_t>& r, std::uint64_t sum) {
            for (std::size_t i = r.begin(); i != r.end(); ++i)
              sum += bench::par_reduce::work(data[i]);
            return sum;
          },
          std::plus<std::uint64_t>(), tbb::simple_partitioner());
    });
  });
}

const bench::peer_registration registered{"par_reduce", "tbb_algorithm", &run};

} // namespace

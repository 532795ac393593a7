// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)

#include "par_reduce.hpp"

#include <functional>
#include <numeric>
#include <string>

namespace {

std::string describe(bench::scale s)
{
  const bench::par_reduce::problem p = bench::par_reduce::size(s);
  return "sum of splitmix64(in[i]) over " + std::to_string(p.n) + " uint64s, chunks of at most " +
         std::to_string(p.grain);
}

// std::transform_reduce's sum.
std::uint64_t reference(bench::scale s)
{
  const std::vector<std::uint64_t> in = bench::par_reduce::input(bench::par_reduce::size(s).n);
  return std::transform_reduce(in.begin(), in.end(), std::uint64_t(0), std::plus<std::uint64_t>(),
                               &bench::par_reduce::work);
}

void run(const bench::config& cfg)
{
  const std::vector<std::uint64_t> in = bench::par_reduce::input(bench::par_reduce::size(cfg.scale).n);
  bench::measure(cfg, [&] {
    std::uint64_t sum = 0;
    for (std::uint64_t x : in)
      sum += bench::par_reduce::work(x);
    return sum;
  });
}

const bench::workload_registration workload{"par_reduce", &describe, &reference};
const bench::peer_registration registered{"par_reduce", bench::serial_peer, &run};

} // namespace

// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)

#include "nqueens.hpp"

namespace {

std::string describe(bench::scale s)
{
  return "n-queens solutions for n = " + std::to_string(bench::nqueens::size(s)) +
         ", a fork per legal placement of the next row's queen";
}

void run(const bench::config& cfg)
{
  const int n = bench::nqueens::size(cfg.scale);
  auto for_each = [](int k, auto&& f) {
    for (int i = 0; i < k; ++i)
      f(i);
  };
  bench::measure(cfg, [&] { return bench::nqueens::queens(n, bench::nqueens::board{}, for_each); });
}

const bench::workload_registration workload{"nqueens", &describe, &bench::nqueens::known_count};
const bench::peer_registration registered{"nqueens", bench::serial_peer, &run};

} // namespace

// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)

#include "fib_cutoff.hpp"

namespace {

std::string describe(bench::scale s)
{
  const bench::fib_cutoff::problem p = bench::fib_cutoff::size(s);
  return "fib(" + std::to_string(p.n) + "), serial below " + std::to_string(p.cutoff);
}

std::uint64_t reference(bench::scale s) { return bench::fib::iterative_fib(bench::fib_cutoff::size(s).n); }

void run(const bench::config& cfg)
{
  const int n = bench::fib_cutoff::size(cfg.scale).n;
  bench::measure(cfg, [n] { return bench::fib::serial_fib(n); });
}

const bench::workload_registration workload{"fib_cutoff", &describe, &reference};
const bench::peer_registration registered{"fib_cutoff", bench::serial_peer, &run};

} // namespace

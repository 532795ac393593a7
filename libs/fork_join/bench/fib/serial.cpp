// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)

#include "fib.hpp"

namespace {

std::string describe(bench::scale s)
{
  const int n = bench::fib::size(s);
  return "fib(" + std::to_string(n) + "), a fork at every call (" +
         std::to_string(bench::fib::iterative_fib(n + 1) - 1) + " forks)";
}

std::uint64_t reference(bench::scale s) { return bench::fib::iterative_fib(bench::fib::size(s)); }

void run(const bench::config& cfg)
{
  const int n = bench::fib::size(cfg.scale);
  bench::measure(cfg, [n] { return bench::fib::serial_fib(n); });
}

const bench::workload_registration workload{"fib", &describe, &reference};
const bench::peer_registration registered{"fib", bench::serial_peer, &run};

} // namespace

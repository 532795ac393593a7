// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)

#include "chain.hpp"

#include <string>

namespace {

template <unsigned Levels>
std::string describe(bench::scale s)
{
  return "a chain of " + std::to_string(bench::chain::size(s, Levels)) +
         " levels, each forks one child (the rest of the chain) and joins it";
}

template <unsigned Levels>
std::uint64_t reference(bench::scale s)
{
  return bench::chain::closed_form(bench::chain::size(s, Levels));
}

template <unsigned Levels>
void run(const bench::config& cfg)
{
  const unsigned n = bench::chain::size(cfg.scale, Levels);
  bench::measure(cfg, [n] { return bench::chain::serial_chain(n); });
}

using bench::chain::long_levels;
using bench::chain::short_levels;

const bench::workload_registration short_workload{bench::chain::short_name, &describe<short_levels>,
                                                  &reference<short_levels>};
const bench::workload_registration long_workload{bench::chain::long_name, &describe<long_levels>,
                                                 &reference<long_levels>};
const bench::peer_registration short_chain{bench::chain::short_name, bench::serial_peer, &run<short_levels>};
const bench::peer_registration long_chain{bench::chain::long_name, bench::serial_peer, &run<long_levels>};

} // namespace

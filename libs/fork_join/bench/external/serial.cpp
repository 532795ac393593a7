// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)

#include "external.hpp"

#include <string>

namespace {

std::string describe(bench::scale s)
{
  return std::to_string(bench::external::submitters) + " outside threads each submit " +
         std::to_string(bench::external::per_submitter(s)) + " tiny closures, then wait for all";
}

std::uint64_t reference(bench::scale s) { return bench::external::closed_form(bench::external::closures(s)); }

// The closures' work in a loop, with the same tally and nobody to wait for.
void run(const bench::config& cfg)
{
  const std::uint64_t n = bench::external::closures(cfg.scale);
  bench::external::tally counted(n);
  bench::measure(cfg, [&] {
    for (std::uint64_t id = 1; id <= n; ++id)
      counted.add(id);
    return counted.wait();
  });
}

const bench::workload_registration workload{"external", &describe, &reference};
const bench::peer_registration registered{"external", bench::serial_peer, &run};

} // namespace

// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)

#include "uts.hpp"

namespace {

std::uint64_t count(const bench::uts::tree& t, std::uint64_t id)
{
  std::uint64_t total = 1;
  const unsigned k = bench::uts::child_count(t, id);
  for (unsigned i = 0; i < k; ++i)
    total += count(t, bench::uts::child_id(id, i));
  return total;
}

std::string describe(bench::scale s)
{
  const bench::uts::tree t = bench::uts::size(s);
  return "unbalanced tree search (binomial, " + std::to_string(t.root_children) + " root children, m = " +
         std::to_string(t.m) + ", q = 0.124875, " + std::to_string(t.rounds) +
         " hash rounds per node), a fork per child";
}

std::uint64_t reference(bench::scale s) { return bench::uts::iterative_count(bench::uts::size(s)); }

void run(const bench::config& cfg)
{
  const bench::uts::tree t = bench::uts::size(cfg.scale);
  bench::measure(cfg, [&t] { return count(t, t.root); });
}

const bench::workload_registration workload{"uts", &describe, &reference};
const bench::peer_registration registered{"uts", bench::serial_peer, &run};

} // namespace

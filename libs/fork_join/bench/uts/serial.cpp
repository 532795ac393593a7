// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)

#include "uts.hpp"

namespace {

template <class Tree>
std::uint64_t count(const Tree& t, std::uint64_t id)
{
  std::uint64_t total = 1;
  const unsigned k = bench::uts::child_count(t, id);
  for (unsigned i = 0; i < k; ++i)
    total += count(t, bench::uts::child_id(t, id, i));
  return total;
}

std::string describe(const bench::uts::binomial& t)
{
  return "unbalanced tree search (binomial, " + std::to_string(t.root_children) + " root children, m = " +
         std::to_string(t.m) + ", q = 0.124875, " + std::to_string(t.rounds) +
         " hash rounds per node), a fork per child";
}

std::string describe(const bench::uts::standard_tree& t)
{
  const bool geometric = t.shape == bench::uts::standard_tree::shape_type::geometric;
  return std::string("unbalanced tree search, UTS ") +
         (geometric ? "T1 (geometric, b0 = 4, depth " + std::to_string(t.max_depth) + ", seed 19, "
                    : "T3 (binomial, b0 = " + std::to_string(t.b0) + ", m = 8, q = 0.124875, seed 19, ") +
         std::to_string(t.rounds) + " hash rounds per node), a fork per child";
}

template <class W>
std::string describe(bench::scale s)
{
  return describe(W::size(s));
}

template <class W>
std::uint64_t reference(bench::scale s)
{
  return bench::uts::iterative_count(W::size(s));
}

template <class W>
void run(const bench::config& cfg)
{
  const typename W::tree t = W::size(cfg.scale);
  bench::measure(cfg, [&t] { return count(t, t.root); });
}

using bench::uts::own_t3;
using bench::uts::t1;
using bench::uts::t3;

const bench::workload_registration own_t3_workload{own_t3::name, &describe<own_t3>, &reference<own_t3>};
const bench::workload_registration t1_workload{t1::name, &describe<t1>, &reference<t1>};
const bench::workload_registration t3_workload{t3::name, &describe<t3>, &reference<t3>};
const bench::uts::peer_registrations registered{bench::serial_peer, &run<own_t3>, &run<t1>, &run<t3>};

} // namespace

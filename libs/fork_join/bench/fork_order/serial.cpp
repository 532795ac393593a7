// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)

#include "fork_order.hpp"

#include <string>

namespace {

namespace fo = bench::fork_order;

std::string describe_chain(bench::scale s)
{
  return "a chain of " + std::to_string(fo::chain_levels(s)) +
         " levels, each forks the rest of the chain, then a leaf, and joins them in that order";
}

std::string describe_tree(bench::scale s)
{
  return "a tree of depth " + std::to_string(fo::tree_depth(s)) + ", " + std::to_string(fo::tree_nodes(fo::tree_depth(s))) +
         " nodes, each forks 4 children and joins them in fork order";
}

std::uint64_t chain_reference(bench::scale s) { return fo::chain_answer(fo::chain_levels(s)); }
std::uint64_t tree_reference(bench::scale s) { return fo::tree_nodes(fo::tree_depth(s)); }

void run_chain(const bench::config& cfg)
{
  const unsigned n = fo::chain_levels(cfg.scale);
  bench::measure(cfg, [n] { return fo::serial_chain(n); });
}

void run_tree(const bench::config& cfg)
{
  const unsigned d = fo::tree_depth(cfg.scale);
  bench::measure(cfg, [d] { return fo::serial_tree(d); });
}

const bench::workload_registration chain_workload{fo::chain_name, &describe_chain, &chain_reference};
const bench::workload_registration tree_workload{fo::tree_name, &describe_tree, &tree_reference};
const bench::peer_registration chain_peer{fo::chain_name, bench::serial_peer, &run_chain};
const bench::peer_registration tree_peer{fo::tree_name, bench::serial_peer, &run_tree};

} // namespace

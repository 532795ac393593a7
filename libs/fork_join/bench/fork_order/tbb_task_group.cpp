// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)

#include "../tbb.hpp"
#include "fork_order.hpp"

#include <oneapi/tbb/task_group.h>

namespace {

namespace fo = bench::fork_order;

// task_group has no join of one child: wait() waits for all of them, in no order.
std::uint64_t chain(unsigned n)
{
  if (n == 0)
    return 0;
  std::uint64_t below = 0, leaf = 0;
  tbb::task_group g;
  g.run([&below, n] { below = chain(n - 1); });
  g.run([&leaf] { leaf = fo::leaf(); });
  const std::uint64_t here = bench::chain::inline_part(n);
  g.wait();
  return here + below + leaf;
}

std::uint64_t tree(unsigned depth)
{
  if (depth == 0)
    return fo::leaf();
  std::uint64_t counts[fo::fan_out] = {};
  tbb::task_group g;
  for (unsigned i = 0; i < fo::fan_out; ++i)
    g.run([&counts, i, depth] { counts[i] = tree(depth - 1); });
  g.wait();
  std::uint64_t nodes = 1;
  for (std::uint64_t c : counts)
    nodes += c;
  return nodes;
}

void run_chain(const bench::config& cfg)
{
  bench::tbb_peer::team team(cfg.threads);
  const unsigned n = fo::chain_levels(cfg.scale);
  bench::measure(cfg, [&] { return team.execute([n] { return chain(n); }); });
}

void run_tree(const bench::config& cfg)
{
  bench::tbb_peer::team team(cfg.threads);
  const unsigned d = fo::tree_depth(cfg.scale);
  bench::measure(cfg, [&] { return team.execute([d] { return tree(d); }); });
}

const bench::peer_registration chain_peer{fo::chain_name, "tbb_task_group", &run_chain};
const bench::peer_registration tree_peer{fo::tree_name, "tbb_task_group", &run_tree};

} // namespace

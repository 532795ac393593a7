// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// Three peers per workload, one per way of joining (fork_order.hpp): fork_join (each child's
// member join(), in fork order), fork_join_range_each (join(pool, &f, &f + 1) per child, in fork
// order) and fork_join_range (one join(pool, first, last) over the children: the baseline).

#include "../fork_join_thread_pool.hpp"
#include "fork_order.hpp"

#include <functional>

namespace {

namespace ex = bench::fork_join::ex;
namespace fo = bench::fork_order;

enum class how
{
  member,
  range_each,
  range
};

typedef ex::joinable_future<std::uint64_t> future;

// Joins [first, last) as `h` says.
void join_all(ex::fork_join_thread_pool& pool, future* first, future* last, how h)
{
  switch (h)
  {
  case how::member:
    for (future* f = first; f != last; ++f)
      f->join();
    break;
  case how::range_each:
    for (future* f = first; f != last; ++f)
      ex::join(pool, f, f + 1);
    break;
  case how::range:
    ex::join(pool, first, last);
    break;
  }
}

std::uint64_t chain(ex::fork_join_thread_pool& pool, unsigned n, how h)
{
  if (n == 0)
    return 0;
  future children[2] = {ex::fork(pool, chain, std::ref(pool), n - 1, h), ex::fork(pool, fo::leaf)};
  const std::uint64_t here = bench::chain::inline_part(n);
  join_all(pool, children, children + 2, h);
  return here + children[0].get() + children[1].get();
}

std::uint64_t tree(ex::fork_join_thread_pool& pool, unsigned depth, how h)
{
  if (depth == 0)
    return fo::leaf();
  future children[fo::fan_out];
  for (future& c : children)
    c = ex::fork(pool, tree, std::ref(pool), depth - 1, h);
  join_all(pool, children, children + fo::fan_out, h);
  std::uint64_t nodes = 1;
  for (future& c : children)
    nodes += c.get();
  return nodes;
}

template <how H>
void run_chain(const bench::config& cfg)
{
  ex::fork_join_thread_pool pool(cfg.threads);
  const unsigned n = fo::chain_levels(cfg.scale);
  bench::measure(cfg, [&] { return bench::fork_join::run_root(pool, [&] { return chain(pool, n, H); }); });
  bench::fork_join::report_statistics(pool);
}

template <how H>
void run_tree(const bench::config& cfg)
{
  ex::fork_join_thread_pool pool(cfg.threads);
  const unsigned d = fo::tree_depth(cfg.scale);
  bench::measure(cfg, [&] { return bench::fork_join::run_root(pool, [&] { return tree(pool, d, H); }); });
  bench::fork_join::report_statistics(pool);
}

const bench::peer_registration chain_member{fo::chain_name, "fork_join", &run_chain<how::member>};
const bench::peer_registration chain_range_each{fo::chain_name, "fork_join_range_each", &run_chain<how::range_each>};
const bench::peer_registration chain_range{fo::chain_name, "fork_join_range", &run_chain<how::range>};
const bench::peer_registration tree_member{fo::tree_name, "fork_join", &run_tree<how::member>};
const bench::peer_registration tree_range_each{fo::tree_name, "fork_join_range_each", &run_tree<how::range_each>};
const bench::peer_registration tree_range{fo::tree_name, "fork_join_range", &run_tree<how::range>};

} // namespace

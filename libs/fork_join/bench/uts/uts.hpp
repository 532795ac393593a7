// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// Unbalanced tree search: count the nodes of a tree whose shape is only known by walking it
// (Olivier et al., "UTS: An Unbalanced Tree Search Benchmark", LCPC 2006), with rounds of
// splitmix64 in place of SHA-1 (the work done at each node). Three workloads:
//  - uts: a binomial tree as in UTS's T3, with this benchmark's own root and sizes: the root
//    has root_children children; every other node has m children with probability q, else none.
//    With m * q just below 1 each root child's subtree is small on average but its size varies
//    wildly, so static splitting fails and only dynamic load balancing keeps threads busy.
//  - uts_t1: UTS's T1, a geometric tree: below depth 10, a node's number of children is
//    geometrically distributed with mean b0 = 4 (the "fixed" shape); root seed 19.
//  - uts_t3: UTS's T3, the binomial tree with its standard parameters: b0 = 2000 root children,
//    q = 0.124875, m = 8; root seed 19 (see t3 below).
// Our hash makes other trees than SHA-1 does from the same parameters, so the node counts are
// ours, computed serially and checked against an explicit-stack walk (iterative_count): uts_t1
// 1,225,091 nodes, uts_t3 1,259,193 (with SHA-1, as the UTS distribution lists them: 4,130,071 and
// 4,112,897).
// A peer is written once for both tree types (binomial, standard_tree): child_count(t, id) and
// child_id(t, id, i) are all it asks of a tree.

#ifndef BOOST_FORK_JOIN_BENCH_UTS_UTS_HPP
#define BOOST_FORK_JOIN_BENCH_UTS_UTS_HPP

#include "../bench.hpp"

#include <boost/container/small_vector.hpp>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace bench {
namespace uts {

  struct binomial
  {
    std::uint64_t root;
    unsigned root_children;
    unsigned m;
    std::uint64_t threshold; // a node has m children when its hash is below threshold
    unsigned rounds;         // of splitmix64 per node's hash, about 3 ns each
  };

  // Returns: the threshold below which a hash, uniform in [0, 2^64), falls with probability q.
  inline std::uint64_t probability_threshold(double q)
  {
    return static_cast<std::uint64_t>(q * 18446744073709551616.0);
  }

  inline unsigned child_count(const binomial& t, std::uint64_t id)
  {
    if (id == t.root)
      return t.root_children;
    std::uint64_t hash = id;
    for (unsigned i = 0; i < t.rounds; ++i)
      hash = splitmix64(hash);
    return hash < t.threshold ? t.m : 0;
  }

  inline std::uint64_t child_id(const binomial&, std::uint64_t id, unsigned i)
  {
    return splitmix64(id + (i + 1) * 0xd1b54a32d192ed03u);
  }

  // UTS's standard trees (T1, T3), whose shape does not depend on the work per node, so that the
  // work can be sized without changing the tree. A node's id is a hash that carries the node's
  // depth in its low depth_bits bits; the root's is splitmix64(seed) at depth 0 (UTS hashes the
  // seed into the root's state), a child's is splitmix64 of its parent's id and its index. A
  // node's number of children is drawn from its id:
  //  - geometric (T1): above max_depth, k children with probability p (1 - p)^k, p = 1 / (1 + b0),
  //    so b0 on average (UTS's "fixed" geometric shape, the root included); none at max_depth;
  //  - binomial (T3): the root has b0 children; any other node m with probability q, else none.
  // Each node also does `rounds` rounds of splitmix64 on its id (the work, in place of UTS's
  // SHA-1), whose result only an empty asm statement reads: off the path from a node to its
  // children, where UTS's SHA-1 lies (what that changes: doc/benchmark/README.md, "The work off
  // the dependency path").
  struct standard_tree
  {
    enum class shape_type
    {
      geometric,
      binomial
    };
    shape_type shape;
    std::uint64_t root;
    unsigned b0;
    unsigned max_depth;      // geometric
    unsigned m;              // binomial
    std::uint64_t threshold; // binomial: probability_threshold(q)
    unsigned rounds;
  };

  inline constexpr unsigned depth_bits = 4;
  inline constexpr std::uint64_t depth_mask = (1u << depth_bits) - 1;

  inline std::uint64_t standard_root(std::uint64_t seed) { return splitmix64(seed) & ~depth_mask; }

  inline unsigned child_count(const standard_tree& t, std::uint64_t id)
  {
    std::uint64_t work = id;
    for (unsigned i = 0; i < t.rounds; ++i)
      work = splitmix64(work);
    asm volatile("" : : "r"(work));
    const std::uint64_t depth = id & depth_mask;
    if (t.shape == standard_tree::shape_type::binomial)
      return depth == 0 ? t.b0 : id < t.threshold ? t.m : 0;
    if (depth >= t.max_depth)
      return 0;
    // u uniform in [0, 1) from the id's top 53 bits; floor(log(1 - u) / log(1 - p)) is
    // geometric with parameter p.
    const double u = static_cast<double>(id >> 11) * 0x1p-53;
    return static_cast<unsigned>(std::log1p(-u) / std::log1p(-1.0 / (1 + t.b0)));
  }

  // The depth saturates at depth_mask: only a geometric tree's (at most 10 deep) is read below the
  // root.
  inline std::uint64_t child_id(const standard_tree&, std::uint64_t id, unsigned i)
  {
    const std::uint64_t depth = id & depth_mask;
    return (splitmix64(id + (i + 1) * 0xd1b54a32d192ed03u) & ~depth_mask) | (depth < depth_mask ? depth + 1 : depth);
  }

  // The three workloads: a name, a tree type and the sizes (full; quick).
  // q = 0.124875, m = 8 (UTS's T3), 20 hash rounds per node (about 65 ns of work); roots
  // picked, out of a few hundred, for a tree of a useful size:
  // quick: 8171 nodes, 87 deep; full: 8531593 nodes, 2538 deep (about 0.55 s serially).
  struct own_t3
  {
    static constexpr const char* name = "uts";
    using tree = binomial;
    static binomial size(scale s)
    {
      const std::uint64_t threshold = probability_threshold(0.124875);
      return s == scale::quick ? binomial{24, 50, 8, threshold, 20} : binomial{274, 2000, 8, threshold, 20};
    }
  };

  // UTS T1: geometric, b0 = 4, depth 10, root seed 19; quick: depth 5. 33 rounds per node (about
  // 100 ns): what UTS does per node, one SHA-1 of a 20-byte node state, takes here
  // (`openssl speed -bytes 20 sha1`: 205 MB/s, 98 ns a hash), so that a fork is the same share
  // of a node as in UTS (at 80 rounds, 230 ns, oneTBB's time was 1.13 times the serial time, at
  // 33 1.35 times). Full: 1,225,091 nodes, about 0.11 s serially; quick: 1219 nodes.
  struct t1
  {
    static constexpr const char* name = "uts_t1";
    using tree = standard_tree;
    static standard_tree size(scale s)
    {
      const unsigned depth = s == scale::quick ? 5 : 10;
      return standard_tree{standard_tree::shape_type::geometric, standard_root(19), 4, depth, 0, 0, 33};
    }
  };

  // UTS T3: binomial, b0 = 2000, q = 0.124875, m = 8; quick: b0 = 30 (39 nodes). With m q just
  // under 1 the tree's size depends wildly on the root: UTS's seed, 42, makes 218,713 nodes with
  // our hash. T1's seed, 19, makes 1,259,193 nodes (699 deep), about T1's count, at T1's work
  // per node (33 rounds, one SHA-1's time): about 0.11 s serially. (Until this choice the tree
  // was seed 42's with 420 rounds per node, 1.3 us: a fork then cost under 10% of a node for
  // every peer, and all of them measured within a few percent of the serial time.)
  struct t3
  {
    static constexpr const char* name = "uts_t3";
    using tree = standard_tree;
    static standard_tree size(scale s)
    {
      const unsigned b0 = s == scale::quick ? 30 : 2000;
      return standard_tree{standard_tree::shape_type::binomial, standard_root(19), b0, 0, 8,
                           probability_threshold(0.124875), 33};
    }
  };

  // Registers a peer's run<W> for each of the three workloads W.
  struct peer_registrations
  {
    peer_registrations(const char* peer, void (*own)(const config&), void (*standard_t1)(const config&),
                       void (*standard_t3)(const config&))
        : own_t3_{own_t3::name, peer, own}, t1_{t1::name, peer, standard_t1}, t3_{t3::name, peer, standard_t3}
    {
    }

  private:
    peer_registration own_t3_, t1_, t3_;
  };

  // Where a future-based peer keeps the futures of a node's forked children: in place for the
  // m - 1 of an inner node, on the heap only for the root's many, as child_counts keeps counts
  // (a std::vector would add a heap allocation per inner node that the other peers do not pay).
  template <class Future>
  using child_futures = boost::container::small_vector<Future, 8>;

  // Where a parallel peer's tasks leave their subtrees' counts: in place for the m children of
  // an inner node, on the heap only for the root's many.
  class child_counts
  {
  public:
    explicit child_counts(unsigned k) : heap_(k > inline_size ? new std::uint64_t[k] : nullptr) {}

    std::uint64_t& operator[](unsigned i) { return heap_ ? heap_[i] : local_[i]; }

    // Returns: the sum of the first k counts.
    std::uint64_t sum(unsigned k)
    {
      std::uint64_t total = 0;
      for (unsigned i = 0; i < k; ++i)
        total += (*this)[i];
      return total;
    }

  private:
    static constexpr unsigned inline_size = 8;
    std::uint64_t local_[inline_size];
    std::unique_ptr<std::uint64_t[]> heap_;
  };

  // For the peers whose fork/join primitive takes a fixed number of callables (parallel_invoke):
  // counts the subtrees of children first .. last - 1 of a node, with one invoke of k callables
  // for a range of k <= 8 children (every inner node of T3 but the root has exactly 8; T1's
  // have a geometric number, mostly fewer), so that such a node nests one invoke deep, as it
  // nests one join deep for the fork/join peers. A larger range (the root's children, a T1
  // node's rare ninth and more) is halved, on multiples of 8, down to such ranges.
  // invoke(f, g, ...) runs the callables possibly in parallel and returns when all have
  // finished; count_child(i) counts the subtree of child i.
  inline constexpr unsigned invoke_group = 8;

  template <class Invoke, class CountChild, std::size_t... I>
  std::uint64_t count_group(Invoke& invoke, CountChild& count_child, unsigned first, std::index_sequence<I...>)
  {
    std::uint64_t counts[sizeof...(I)] = {};
    invoke([&counts, &count_child, first] { counts[I] = count_child(first + static_cast<unsigned>(I)); }...);
    std::uint64_t total = 0;
    for (std::uint64_t c : counts)
      total += c;
    return total;
  }

  // Returns: count_group over the n children from first, 2 <= n < invoke_group: one invoke of
  // exactly n callables.
  template <class Invoke, class CountChild, std::size_t... K>
  std::uint64_t count_small_group(Invoke& invoke, CountChild& count_child, unsigned first, unsigned n,
                                  std::index_sequence<K...>)
  {
    std::uint64_t total = 0;
    ((n == K + 2 && (total = count_group(invoke, count_child, first, std::make_index_sequence<K + 2>()), true)) || ...);
    return total;
  }

  template <class Invoke, class CountChild>
  std::uint64_t count_children(Invoke& invoke, CountChild& count_child, unsigned first, unsigned last)
  {
    const unsigned n = last - first;
    if (n == 1)
      return count_child(first);
    // T3's every inner node: called directly; through count_small_group's dispatch T3 ran 1-2%
    // slower.
    if (n == invoke_group)
      return count_group(invoke, count_child, first, std::make_index_sequence<invoke_group>());
    if (n < invoke_group)
      return count_small_group(invoke, count_child, first, n, std::make_index_sequence<invoke_group - 2>());
    unsigned half = n / 2 / invoke_group * invoke_group;
    if (half == 0)
      half = n / 2;
    const unsigned middle = first + half;
    std::uint64_t low = 0, high = 0;
    invoke([&] { high = count_children(invoke, count_child, middle, last); },
           [&] { low = count_children(invoke, count_child, first, middle); });
    return low + high;
  }

  // Returns: the number of nodes in the subtree of id, with one invoke of a node's children per
  // inner node (count_children); for a peer on a parallel_invoke of its own (invoke as there).
  template <class Tree, class Invoke>
  std::uint64_t count_subtree_by_invoke(const Tree& t, std::uint64_t id, Invoke& invoke)
  {
    const unsigned k = child_count(t, id);
    if (k == 0)
      return 1;
    auto count_child = [&t, id, &invoke](unsigned i) { return count_subtree_by_invoke(t, child_id(t, id, i), invoke); };
    return 1 + count_children(invoke, count_child, 0, k);
  }

  // Returns: the number of nodes in the subtree of id, with fork_each(k, f): runs f(0) .. f(k - 1),
  // possibly in parallel, and returns when all have finished; for a peer on a task block.
  template <class Tree, class ForkEach>
  std::uint64_t count_subtree(const Tree& t, std::uint64_t id, ForkEach& fork_each)
  {
    const unsigned k = child_count(t, id);
    if (k == 0)
      return 1;
    child_counts counts(k);
    fork_each(k, [&](unsigned i) { counts[i] = count_subtree(t, child_id(t, id, i), fork_each); });
    return 1 + counts.sum(k);
  }

  // The node count by an explicit-stack walk, to check the serial peer's recursion.
  template <class Tree>
  std::uint64_t iterative_count(const Tree& t)
  {
    std::uint64_t count = 0;
    std::vector<std::uint64_t> pending{t.root};
    while (!pending.empty())
    {
      const std::uint64_t id = pending.back();
      pending.pop_back();
      ++count;
      const unsigned k = child_count(t, id);
      for (unsigned i = 0; i < k; ++i)
        pending.push_back(child_id(t, id, i));
    }
    return count;
  }

} // namespace uts
} // namespace bench

#endif // header

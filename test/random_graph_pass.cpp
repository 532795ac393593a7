// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// Random acyclic task graphs. The library promises that every acyclic task
// graph completes on any number of threads, even one, including joins that start before the
// awaited task is submitted, joins from threads outside the pool, and several threads joining
// the very same future object at once (Boost allows concurrent wait() on one future: it is
// const). This test generates random graphs from a seed, runs each on pools of 1, 2, 3 and 8
// threads, and checks it by accounting against a serial evaluation of the same graph.
//
// A graph is a forest. Every node is a task; it spawns its children at random with `fork`,
// `boost::async`, `parallel_invoke` (the node's own work first or last) or a task block, and
// joins them in a random order with a random kind of join (member, free with and without the
// pool, a range with and without the pool). The futures of a fork or async node's children
// are held in one vector per parent, in join order, as joinable_futures, plain boost::futures
// or boost::shared_futures (chosen per parent); roots likewise, one vector per submitting
// thread. In the general graphs a node also waits for some other nodes (deps), through a
// promise the awaited node fulfils when it ends, and joins some other nodes' futures (shared
// joins): the very objects their parents (or submitters) join, in place, with any join form
// (f.join(), join(f), join(pool, f), join(pool, f, g), join(f, g), join(pool, first, last),
// join(first, last)). A dep or shared join is kept only if the wait-for graph stays acyclic
// (generate() says how it counts a task block's waits before its later children are
// submitted). Such a node may not have been submitted yet when the wait starts (its parent
// may not even have started): the test counts those waits. A shared join first waits (by a
// join) for the vector to be filled; the parent fills it when it starts, before any wait.
// Roots are forked by the main thread or by outside std::threads, which join them; outside
// threads also join, as observers, some nodes' promises and some nodes' futures (the same
// objects again). The strict graphs have only fork/join waits (each child joined by its
// parent, each root by its submitter).
//
// Only one thread calls get() on a joinable_future or boost::future, after every join of it:
// the parent (or submitter) when nobody else joins that future, else the main thread after the
// run. A boost::shared_future's get() is const: every thread that joins one calls it.
//
// Each node's value is a hash of its id, its children's, its dependencies' and its shared
// joins' values; every value, every value a future's get() returns, and every value an
// observer reads is compared with the serial evaluation, and each node must run exactly once.
// Results are plain variables read after a join, so ThreadSanitizer sees a missing
// happens-before edge.
//
// Test cases (--run_test=NAME runs one):
//  - strict_fork_join_graphs, general_graphs: as described; general graphs have a few shared
//    joins.
//  - concurrent_join_graphs: many shared joins, aimed at one or two "hot" futures per graph
//    and at siblings; one to three observers. A hot node's task yields a few times before it
//    ends, and a parent may wait (by a join) until an observer is about to join one of its
//    children's futures ("gate"), so that other joiners are already asleep on a future when
//    its parent joins it and runs the task itself: a runner that stores the result without
//    waking them (a shortcut since removed) leaves them asleep, and the graph hangs.
//  - interrupted_graphs: general graphs with shared joins, interrupted at random points.
//    Once a random number of nodes has started (or a node has interrupted the pool), the
//    main thread either destroys the pool (its destructor interrupts and joins), possibly
//    after an interrupt() of its own, or calls interrupt(), submits its late roots (refused:
//    the pool is closed) and then join(); between interrupt() and the join it may yield for
//    a while, so that the pool goes on alone. Some nodes ("interrupters", most of them nodes
//    that fork two children or more, so that a join of one buried under another in their
//    deque must block) sleep a moment, so that idle pool threads park, and call pool.interrupt() themselves: the
//    parked threads leave, the interrupter's thread catches the interruption and goes on
//    with fewer threads (where a join was once stranded). Nodes also pass random
//    interruption points. A node that catches boost::thread_interrupted (at an interruption
//    point, or from a join, which is one) either resumes (repeats that point or join and
//    goes on: its value is still checked), or stops where it is, fulfils its promise, and
//    returns or lets the interruption propagate into its future (or through
//    parallel_invoke into its parent); a task block's body catches it and stops submitting
//    (thrown out of the block, it would cancel it, which skips unstarted children on
//    purpose). Accounting: every node whose submission returned runs exactly once (a root
//    refused by a closed pool never runs), and every node never submitted is accounted for
//    by the node or thread that would have submitted it ("swept": its promise fulfilled, so
//    that nothing waits for it forever); every accepted future is ready once the pool is
//    joined or gone, and its get() returns the node's value, or throws thread_interrupted
//    exactly when the node let it propagate; the value of every node that no interruption
//    touched (itself or what it waited for) equals the serial one. Observers use the joins
//    without the pool when the main thread may destroy it meanwhile.
//
// Each graph runs under its own deadlock detector: if it does not finish (the pool's
// destructor included) within FJ_GRAPH_HANG_SECONDS (default 60) it prints the seed, the
// shape, the nodes not finished and "graph N hung", and ends the process with _Exit(1).
// Nothing else depends on time: the yields and sleeps above only make some interleavings
// likely; every interleaving must pass.
//
// Environment:
//   FJ_GRAPH_SEED=<n>      base seed (default 20260923); each graph's seed derives from it
//   FJ_GRAPH_REPLAY=<n>    run only the graph with this seed (as printed) on every thread count
//   FJ_GRAPH_REPEAT=<n>    with FJ_GRAPH_REPLAY: run it n times per thread count (a hang that
//                          needs a rare interleaving may take many)
//   FJ_GRAPH_COUNT=<n>     graphs per thread count and test case (default: see below)
//   FJ_GRAPH_HANG_SECONDS  the per-graph deadlock limit
//   FJ_GRAPH_MAX_NODES=<n> cap the graphs' size (to look for a small failing graph)
//   FJ_GRAPH_VERBOSE=1     print every graph's seed and shape before it runs
//   FJ_GRAPH_THREADS=<n>   run only on pools of n threads (default: 1, 2, 3 and 8)
// Counts per thread count: 100 graphs for the strict and general cases, 500 for the
// concurrent and interrupted ones, divided by BOOST_THREAD_FJ_TEST_SCALE (sanitizers),
// multiplied by BOOST_THREAD_FJ_TEST_STRESS (CMake option BOOST_FORK_JOIN_STRESS).

#ifndef BOOST_TEST_MODULE // a group of test files built as one program names its own
#define BOOST_TEST_MODULE random_graph
#endif
#include "watchdog.hpp"

#include <boost/thread/executors/fork_join.hpp>
#include <boost/thread/executors/parallel_invoke.hpp>
#include <boost/thread/executors/task_block.hpp>
#include <boost/thread/future.hpp>
#include <boost/thread/thread.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <memory>
#include <mutex>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

#ifndef BOOST_THREAD_FJ_TEST_SCALE
#define BOOST_THREAD_FJ_TEST_SCALE 1
#endif
#ifndef BOOST_THREAD_FJ_TEST_STRESS
#define BOOST_THREAD_FJ_TEST_STRESS 1
#endif

BOOST_AUTO_TEST_SUITE(random_graph_pass) // this file's tests, which CTest runs by this name

using boost::executors::fork_join_thread_pool;
using boost::executors::joinable_future;
namespace fj = boost::executors;

namespace {

const unsigned thread_counts[] = {1, 2, 3, 8};

std::uint64_t mix(std::uint64_t x)
{
  x += 0x9e3779b97f4a7c15ULL;
  x ^= x >> 31;
  x *= 0x7fb5d329728ea185ULL;
  x ^= x >> 27;
  x *= 0x81dadef4bc2dd44dULL;
  x ^= x >> 33;
  return x;
}

std::uint64_t env_or(const char* name, std::uint64_t fallback)
{
  const char* s = std::getenv(name);
  return s && *s ? std::strtoull(s, nullptr, 0) : fallback;
}

enum class test_case : std::uint8_t
{
  strict,
  general,
  concurrent,
  interrupted
};
const char* const case_names[] = {"strict_fork_join_graphs", "general_graphs", "concurrent_join_graphs",
                                  "interrupted_graphs"};

// ---------------------------------------------------------------------------------------------
// The graph

enum class spawn_kind : std::uint8_t
{
  fork,        // fork(pool, child) per child, futures joined in join_order
  async,       // boost::async(pool, child) per child, futures joined in join_order
  invoke_own_first, // parallel_invoke(pool, own work, children...)
  invoke_own_last,  // parallel_invoke(pool, children..., own work): the own work is a stack task
  block        // define_task_block: tb.run per child, the own work in the block's body
};
const char* const spawn_names[] = {"fork", "async", "invoke<", "invoke>", "block"};

// How the futures of a group are held (every join of them uses these very objects).
enum class future_kind : std::uint8_t
{
  joinable, // joinable_future<std::uint64_t>
  plain,    // boost::future<std::uint64_t>: a fork's joinable_future moved into one, or boost::async's
  shared    // boost::shared_future<std::uint64_t>: share() of either
};
const char* const kind_names[] = {"joinable", "future", "shared"};

// How a parent joins its fork/async children, per step.
enum class join_kind : std::uint8_t
{
  member,       // f.join() (join(f) for a future that is not a joinable_future)
  with_pool,    // join(pool, f)
  without_pool, // join(f)
  range,        // join(pool, first, last) over the futures not joined yet
  range_without_pool // join(first, last) over the futures not joined yet
};

// How a node or an observer joins futures that other threads join too.
enum class join_form : std::uint8_t
{
  member,           // f.join() (join(f) for a future that is not a joinable_future)
  without_pool,     // join(f)
  with_pool,        // join(pool, f)
  pair_with_pool,   // join(pool, f, g)
  pair_without_pool, // join(f, g)
  range_with_pool,  // join(pool, first, last)
  range_without_pool // join(first, last)
};
const int join_form_count = 7;
const char* const form_names[] = {"f.join", "join(f)", "join(p,f)", "join(p,f,g)", "join(f,g)", "join(p,range)",
                                  "join(range)"};

// One join of futures held in groups: [pos, pos + count) of `group`, and for the pair forms
// also position pos2 of group2.
struct shared_join
{
  join_form form = join_form::member;
  int group = -1, pos = 0, count = 1;
  int group2 = -1, pos2 = 0;
};

// What an outside thread joins: a node's promise (node >= 0) or futures (join).
struct observation
{
  int node = -1;
  shared_join join;
};

// What a node does when it catches boost::thread_interrupted (interrupted_graphs).
enum class on_interrupt : std::uint8_t
{
  stop,      // stops where it is (its value is then not checked) and returns
  propagate, // stops and lets the interruption leave its task (into its future, or parallel_invoke)
  resume     // repeats the interruption point or join that threw, and goes on
};
const char* const policy_names[] = {"stops", "propagates", "resumes"};

// Interruption points a node passes (interrupted_graphs).
enum : std::uint8_t
{
  ip_start = 1, // before it spawns anything
  ip_joins = 2, // before each join step, each tb.run
  ip_end = 4    // after its children and waits
};

struct node
{
  int parent = -1;
  int depth = 0;
  int rank = 0;
  spawn_kind how = spawn_kind::fork;
  std::vector<int> children;
  std::vector<int> join_order;         // fork/async: the order in which children are joined
  std::vector<join_kind> join_kinds;   // fork/async: how, per step
  std::vector<int> deps;               // other nodes this one waits for
  std::vector<std::uint8_t> dep_kinds; // per dep: 0 join(pool, f), 1 join(f), 2 join(pool, f, g) on copies,
                                       // 3 join(pool, f) on the shared object itself
  std::vector<shared_join> shared;     // futures of other nodes this one joins, with the deps
  int deps_at = 0;                     // the deps are waited for after this many children joined / run
  int block_wait_at = -1;              // block: tb.wait() after this many tb.run, if >= 0
  int group = -1, pos = -1;            // where this node's future is held, if it has one
  int child_group = -1;                // fork/async: the group of its children's futures
  std::vector<int> gates;              // outside threads whose first observation its joins wait for
  int extra_joiners = 0;               // joins of its future besides its parent's (or submitter's)
  int spin = 0;                        // yields before it ends (a hot node of concurrent_join_graphs)
  on_interrupt policy = on_interrupt::stop; // interrupted_graphs
  int interrupts = -1;                 // interrupted_graphs: if >= 0, the node sleeps that many
                                       // microseconds, then calls pool.interrupt(), as it starts
  std::uint8_t ipoints = 0;            // interrupted: interruption points (ip_*)
};

struct group_spec
{
  future_kind kind = future_kind::joinable;
  bool by_async = false;    // boost::async rather than fork
  int owner_node = -1;      // the parent whose children these are, or -1 for roots
  int owner_thread = -1;    // roots: 0 main, k outside thread k
  std::vector<int> members; // in join order
};

enum class shutdown_kind : std::uint8_t
{
  none,                // close() and join() after every root was joined
  interrupt_then_join, // interrupt(), late roots, join(); then the roots are joined
  destroy              // the destructor; then the roots are joined
};
const char* const shutdown_names[] = {"none", "interrupt+join", "destroy"};

struct graph
{
  std::uint64_t seed = 0;
  test_case which = test_case::general;
  std::vector<node> nodes;
  std::vector<int> roots;
  std::vector<int> root_owner;            // per root: 0 = main thread, k = outside thread k
  std::vector<char> root_late;            // per root: main submits it after interrupt()
  int outside = 0;                        // outside threads
  std::vector<group_spec> groups;
  std::vector<int> root_group;            // per submitting thread (0 main): its roots' group, or -1
  std::vector<join_kind> root_join;       // per submitting thread: how it joins its roots
  std::vector<std::vector<observation>> observe; // per outside thread (index k - 1)
  std::vector<char> observer_gated;       // per outside thread: some node waits for its first observation
  std::vector<int> hot;
  std::size_t dep_count = 0, shared_count = 0, gate_count = 0;
  shutdown_kind shutdown = shutdown_kind::none;
  int main_at = 0;                        // the main thread's action once this many nodes started
  bool interrupt_first = false;           // destroy: the main thread calls interrupt() first
  int pause = 0;                          // yields of the main thread between interrupt() and join()
  std::vector<int> interrupters;          // nodes that call pool.interrupt() as they start

  bool interrupting() const { return which == test_case::interrupted; }

  std::string shape() const
  {
    std::ostringstream s;
    int kinds[5] = {};
    int fkinds[3] = {};
    int max_depth = 0;
    for (const node& n : nodes)
    {
      if (!n.children.empty())
        ++kinds[static_cast<int>(n.how)];
      max_depth = std::max(max_depth, n.depth);
    }
    for (const group_spec& gs : groups)
      ++fkinds[static_cast<int>(gs.kind)];
    s << case_names[static_cast<int>(which)] << " seed " << seed << ": " << nodes.size() << " nodes, " << roots.size()
      << " roots, depth " << max_depth << ", " << dep_count << " extra waits, " << shared_count << " shared joins ("
      << gate_count << " gated), " << outside << " outside threads; spawners";
    for (int k = 0; k < 5; ++k)
      s << ' ' << spawn_names[k] << '=' << kinds[k];
    s << "; groups";
    for (int k = 0; k < 3; ++k)
      s << ' ' << kind_names[k] << '=' << fkinds[k];
    if (interrupting())
    {
      s << "; " << (interrupt_first && shutdown == shutdown_kind::destroy ? "interrupt+" : "")
        << shutdown_names[static_cast<int>(shutdown)] << " after " << main_at << " starts (pause " << pause
        << "), interrupters {";
      for (int t : interrupters)
        s << ' ' << t;
      s << " }";
    }
    return s.str();
  }

  std::string describe(const shared_join& j) const
  {
    std::ostringstream s;
    s << form_names[static_cast<int>(j.form)] << " g" << j.group << '[' << j.pos;
    if (j.count > 1)
      s << ".." << j.pos + j.count;
    s << ']';
    if (j.group2 >= 0)
      s << " g" << j.group2 << '[' << j.pos2 << ']';
    return s.str();
  }

  // One line per node: id, parent, rank, spawn kind, children, deps, shared joins; then the
  // groups, roots and observers.
  std::string dump() const
  {
    std::ostringstream s;
    for (std::size_t i = 0; i < nodes.size(); ++i)
    {
      const node& n = nodes[i];
      s << "  " << i << ": parent " << n.parent << " rank " << n.rank << ' ' << spawn_names[static_cast<int>(n.how)]
        << " deps_at " << n.deps_at << " wait_at " << n.block_wait_at << " children {";
      for (int c : n.children)
        s << ' ' << c;
      s << " } deps {";
      for (int d : n.deps)
        s << ' ' << d;
      s << " } shared {";
      for (const shared_join& j : n.shared)
        s << ' ' << describe(j) << ';';
      s << " }";
      if (n.child_group >= 0)
        s << " children in g" << n.child_group;
      if (!n.gates.empty())
      {
        s << " gates {";
        for (int k : n.gates)
          s << ' ' << k;
        s << " }";
      }
      if (n.spin)
        s << " spin " << n.spin;
      if (n.ipoints)
        s << " ipoints " << int(n.ipoints);
      if (interrupting())
        s << " interrupted: " << policy_names[static_cast<int>(n.policy)];
      if (n.interrupts >= 0)
        s << ", interrupts the pool after " << n.interrupts << " us";
      s << '\n';
    }
    for (std::size_t k = 0; k < groups.size(); ++k)
    {
      s << "  g" << k << ": " << kind_names[static_cast<int>(groups[k].kind)] << (groups[k].by_async ? " async" : "")
        << " {";
      for (int m : groups[k].members)
        s << ' ' << m;
      s << " }\n";
    }
    for (std::size_t r = 0; r < roots.size(); ++r)
      s << "  root " << roots[r] << " submitted by " << (root_owner[r] ? "outside thread " : "main")
        << (root_owner[r] ? std::to_string(root_owner[r]) : std::string()) << (root_late[r] ? " late" : "") << '\n';
    for (int k = 1; k <= outside; ++k)
    {
      s << "  observer " << k << (observer_gated[k - 1] ? " (gated)" : "") << ':';
      for (const observation& o : observe[k - 1])
        if (o.node >= 0)
          s << " promise " << o.node << ';';
        else
          s << ' ' << describe(o.join) << ';';
      s << '\n';
    }
    return s.str();
  }
};

// The nodes whose futures a shared join joins.
std::vector<int> targets_of(const graph& g, const shared_join& j)
{
  std::vector<int> t;
  const std::vector<int>& m = g.groups[j.group].members;
  for (int k = 0; k < j.count; ++k)
    t.push_back(m[j.pos + k]);
  if (j.group2 >= 0)
    t.push_back(g.groups[j.group2].members[j.pos2]);
  return t;
}

bool is_pair(join_form f) { return f == join_form::pair_with_pool || f == join_form::pair_without_pool; }
bool is_range(join_form f) { return f == join_form::range_with_pool || f == join_form::range_without_pool; }

graph generate(std::uint64_t seed, test_case which)
{
  std::mt19937_64 rng(seed);
  auto below = [&](int n) { return static_cast<int>(rng() % static_cast<std::uint64_t>(n)); };
  auto chance = [&](int percent) { return below(100) < percent; };

  graph g;
  g.seed = seed;
  g.which = which;
  const bool strict = which == test_case::strict;
  const bool dense = which == test_case::concurrent;
  const bool interrupting = which == test_case::interrupted;
  const int size = std::min<int>(chance(10) ? 80 + below(80) : 1 + below(60),
                                 static_cast<int>(env_or("FJ_GRAPH_MAX_NODES", 1000)));
  const int max_fan = 1 + below(6);
  const int max_depth = 2 + below(10);
  const int root_count = std::min(size, 1 + below(3));

  for (int r = 0; r < root_count; ++r)
  {
    g.nodes.emplace_back();
    g.roots.push_back(r);
  }
  // Breadth first, so that every level gets nodes; a node has no children with probability 1/3.
  for (std::size_t next = 0; next < g.nodes.size() && static_cast<int>(g.nodes.size()) < size; ++next)
  {
    if (g.nodes[next].depth >= max_depth || (next > 0 && chance(33)))
      continue;
    const int fan = std::min(1 + below(max_fan), size - static_cast<int>(g.nodes.size()));
    for (int c = 0; c < fan; ++c)
    {
      node child;
      child.parent = static_cast<int>(next);
      child.depth = g.nodes[next].depth + 1;
      g.nodes[next].children.push_back(static_cast<int>(g.nodes.size()));
      g.nodes.push_back(child);
    }
  }
  const int n = static_cast<int>(g.nodes.size());

  for (int i = 0; i < n; ++i)
  {
    node& v = g.nodes[i];
    const int kids = static_cast<int>(v.children.size());
    v.how = static_cast<spawn_kind>(below(5));
    v.join_order = v.children;
    std::shuffle(v.join_order.begin(), v.join_order.end(), rng);
    for (int c = 0; c < kids; ++c)
      v.join_kinds.push_back(static_cast<join_kind>(chance(80) ? below(3) : 3 + below(2)));
    v.deps_at = below(kids + 1);
    v.block_wait_at = chance(30) ? below(kids + 1) : -1;
  }

  // The futures: one group per fork/async parent (its children in join order), one per thread
  // that submits roots (main's late roots excepted: they are refused, nobody else joins them).
  auto add_group = [&](int owner_node, int owner_thread, const std::vector<int>& members, bool by_async) {
    group_spec gs;
    gs.kind = static_cast<future_kind>(below(3));
    gs.by_async = by_async;
    gs.owner_node = owner_node;
    gs.owner_thread = owner_thread;
    gs.members = members;
    const int index = static_cast<int>(g.groups.size());
    for (std::size_t p = 0; p < members.size(); ++p)
    {
      g.nodes[members[p]].group = index;
      g.nodes[members[p]].pos = static_cast<int>(p);
    }
    g.groups.push_back(gs);
    return index;
  };
  for (int i = 0; i < n; ++i)
  {
    node& v = g.nodes[i];
    if ((v.how == spawn_kind::fork || v.how == spawn_kind::async) && !v.children.empty())
      v.child_group = add_group(i, -1, v.join_order, v.how == spawn_kind::async);
  }
  g.outside = dense ? 1 + below(3) : below(3);
  if (interrupting)
    g.shutdown = chance(50) ? shutdown_kind::interrupt_then_join : shutdown_kind::destroy;
  for (int r = 0; r < root_count; ++r)
  {
    g.root_owner.push_back(g.outside ? below(g.outside + 1) : 0);
    g.root_late.push_back(g.shutdown == shutdown_kind::interrupt_then_join && g.root_owner[r] == 0 && chance(25));
  }
  g.root_group.assign(g.outside + 1, -1);
  for (int t = 0; t <= g.outside; ++t)
  {
    std::vector<int> mine;
    for (int r = 0; r < root_count; ++r)
      if (g.root_owner[r] == t && !g.root_late[r])
        mine.push_back(g.roots[r]);
    if (!mine.empty())
      g.root_group[t] = add_group(-1, t, mine, chance(30));
    g.root_join.push_back(static_cast<join_kind>(below(5)));
  }

  // The wait-for graph, on the nodes' completions: "x cannot finish before y has finished".
  //  - a node waits for its children, for its deps and for the futures it joins;
  //  - a task block submits its k-th child only after the waits that come before it in the
  //    block's body (tb.wait() for the earlier children, and the deps if deps_at <= k): the
  //    child, and so its whole subtree, cannot start before those finish.
  // (fork, async and parallel_invoke submit every child before any wait.) A dep or shared
  // join is kept only if it leaves this graph acyclic, so every generated graph is acyclic and
  // all of it is submitted eventually; a dep may well be a node submitted long after the wait
  // starts. A shared join also waits until the parent of each future it joins has filled its
  // group, which the parent does as it starts, before any wait; it cannot finish before that
  // parent has started, and neither can the futures' tasks, so that adds no edge.
  std::vector<std::vector<int> > edges(n);
  auto add_edge = [&](int from, int to) { edges[from].push_back(to); };
  auto reaches = [&](int from, int to) {
    std::vector<char> seen(n, 0);
    std::vector<int> stack{from};
    while (!stack.empty())
    {
      const int x = stack.back();
      stack.pop_back();
      if (x == to)
        return true;
      if (seen[x])
        continue;
      seen[x] = 1;
      for (int y : edges[x])
        stack.push_back(y);
    }
    return false;
  };
  auto subtree = [&](int r) {
    std::vector<int> out{r};
    for (std::size_t k = 0; k < out.size(); ++k)
      for (int c : g.nodes[out[k]].children)
        out.push_back(c);
    return out;
  };
  for (int i = 0; i < n; ++i)
  {
    const node& v = g.nodes[i];
    for (int c : v.children)
      add_edge(i, c);
    if (v.how == spawn_kind::block && v.block_wait_at > 0)
      for (std::size_t j = v.block_wait_at; j < v.children.size(); ++j)
        for (int x : subtree(v.children[j]))
          for (int e = 0; e < v.block_wait_at; ++e)
            add_edge(x, v.children[e]);
  }
  // Who would wait for a dep or shared join of node i: i, and for a block the subtrees of the
  // children submitted after the wait.
  auto sources_of = [&](int i) {
    const node& v = g.nodes[i];
    std::vector<int> sources{i};
    if (v.how == spawn_kind::block)
      for (std::size_t j = v.deps_at; j < v.children.size(); ++j)
        for (int x : subtree(v.children[j]))
          sources.push_back(x);
    return sources;
  };
  auto acyclic = [&](const std::vector<int>& sources, int target) {
    for (int x : sources)
      if (reaches(target, x))
        return false;
    return true;
  };
  for (int i = 0; i < n && !strict; ++i)
  {
    node& v = g.nodes[i];
    if (!chance(35))
      continue;
    const std::vector<int> sources = sources_of(i);
    for (int t = 1 + below(3); t > 0; --t)
    {
      const int d = below(n);
      if (d == i || g.nodes[d].parent == i || std::find(v.deps.begin(), v.deps.end(), d) != v.deps.end())
        continue;
      if (!acyclic(sources, d))
        continue;
      for (int x : sources)
        add_edge(x, d);
      v.deps.push_back(d);
      v.dep_kinds.push_back(static_cast<std::uint8_t>(below(4)));
      ++g.dep_count;
    }
  }

  // Shared joins: some nodes (and, below, the observers) join futures that their parents or
  // submitters join too, the very same objects; dense graphs aim many of them at one or two
  // hot futures, and at siblings.
  std::vector<int> grouped;
  for (int i = 0; i < n; ++i)
    if (g.nodes[i].group >= 0)
      grouped.push_back(i);
  if (!grouped.empty())
    for (int h = (dense ? 1 + below(2) : below(2)); h > 0; --h)
      g.hot.push_back(grouped[below(static_cast<int>(grouped.size()))]);
  // A future for node i (or an observer, i < 0) to join: a hot one, a sibling's, or any.
  auto pick = [&](int i) {
    const int r = below(100);
    if (r < (dense ? 50 : 25) && !g.hot.empty())
      return g.hot[below(static_cast<int>(g.hot.size()))];
    if (r < (dense ? 80 : 50) && i >= 0 && g.nodes[i].group >= 0)
    {
      const std::vector<int>& m = g.groups[g.nodes[i].group].members;
      return m[below(static_cast<int>(m.size()))];
    }
    return grouped[below(static_cast<int>(grouped.size()))];
  };
  // Returns: a shared join for i (sources: who waits for it; empty for an observer), or one
  // with group -1 if the pick would close a cycle.
  auto make_join = [&](int i, const std::vector<int>& sources) {
    shared_join j;
    const int t = pick(i);
    if (t == i || (i >= 0 && g.nodes[t].parent == i))
      return j;
    j.form = static_cast<join_form>(below(join_form_count));
    j.group = g.nodes[t].group;
    j.pos = g.nodes[t].pos;
    if (is_range(j.form))
      j.count = 1 + below(static_cast<int>(g.groups[j.group].members.size()) - j.pos);
    if (is_pair(j.form))
    {
      const int t2 = pick(i);
      if (t2 == t || t2 == i || (i >= 0 && g.nodes[t2].parent == i))
        j.form = join_form::with_pool;
      else
      {
        j.group2 = g.nodes[t2].group;
        j.pos2 = g.nodes[t2].pos;
      }
    }
    for (int attempt = 0; attempt < 2; ++attempt)
    {
      bool ok = true;
      for (int u : targets_of(g, j))
        ok = ok && u != i && (i < 0 || g.nodes[u].parent != i) && acyclic(sources, u);
      if (ok)
        return j;
      // Try the first future alone.
      j.count = 1;
      if (j.group2 >= 0)
      {
        j.group2 = -1;
        j.form = join_form::with_pool;
      }
    }
    j.group = -1;
    return j;
  };
  const int shared_percent = dense ? 50 : interrupting ? 25 : 15;
  for (int i = 0; i < n && !strict && !grouped.empty(); ++i)
  {
    if (!chance(shared_percent))
      continue;
    const std::vector<int> sources = sources_of(i);
    for (int t = 1 + below(2); t > 0; --t)
    {
      const shared_join j = make_join(i, sources);
      if (j.group < 0)
        continue;
      for (int x : sources)
        for (int u : targets_of(g, j))
          add_edge(x, u);
      g.nodes[i].shared.push_back(j);
      ++g.shared_count;
    }
  }
  // Ranks: a topological order of the wait-for graph (post-order: what a node waits for first).
  {
    std::vector<char> state(n, 0);
    int next_rank = 0;
    std::function<void(int)> visit = [&](int x) {
      if (state[x])
        return;
      state[x] = 1;
      for (int y : edges[x])
        visit(y);
      g.nodes[x].rank = next_rank++;
    };
    for (int i = 0; i < n; ++i)
      visit(i);
  }

  // Observers: promises and futures, in any order. Nobody waits for an observer, but a
  // parent may wait until an observer arrives at the first future it joins (a gate), when
  // that observation waits for nothing but the parent's group: the parent fills it first.
  g.observe.resize(g.outside);
  g.observer_gated.assign(g.outside, 0);
  if (!strict)
    for (int k = 1; k <= g.outside; ++k)
    {
      std::vector<observation>& o = g.observe[k - 1];
      for (int t = below(dense ? 5 : 4); t > 0; --t)
      {
        observation ob;
        if (grouped.empty() || chance(dense ? 20 : 50))
          ob.node = below(n);
        else
        {
          ob.join = make_join(-1, {});
          ++g.shared_count;
        }
        o.push_back(ob);
      }
      if (!o.empty() && o[0].node < 0 && o[0].join.group2 < 0 && chance(dense ? 70 : 20))
      {
        const int owner = g.groups[o[0].join.group].owner_node;
        if (owner >= 0)
        {
          g.nodes[owner].gates.push_back(k);
          g.observer_gated[k - 1] = 1;
          ++g.gate_count;
        }
      }
    }
  if (dense)
    for (int h : g.hot)
      g.nodes[h].spin = 1 + below(64);
  for (int i = 0; i < n; ++i)
    for (const shared_join& j : g.nodes[i].shared)
      for (int u : targets_of(g, j))
        ++g.nodes[u].extra_joiners;
  for (const auto& o : g.observe)
    for (const observation& ob : o)
      if (ob.node < 0)
        for (int u : targets_of(g, ob.join))
          ++g.nodes[u].extra_joiners;

  if (interrupting)
  {
    for (int i = 0; i < n; ++i)
    {
      node& v = g.nodes[i];
      for (std::uint8_t bit : {ip_start, ip_joins, ip_end})
        if (chance(30))
          v.ipoints |= bit;
      // A task block's child must not throw: that would cancel the block, which then skips
      // its children not yet started (a documented drop).
      const bool may_propagate = v.parent < 0 || g.nodes[v.parent].how != spawn_kind::block;
      const int r = below(100);
      v.policy = r < 35 ? on_interrupt::resume : r < 70 && may_propagate ? on_interrupt::propagate : on_interrupt::stop;
    }
    // Interrupters: nodes that interrupt the pool themselves, most of them nodes that then
    // fork two children or more and join one buried under another in their deque (it must
    // block). Each first sleeps a moment, so that idle pool threads park: the interruption
    // then makes them leave, while the interrupter's thread catches it and goes on, with
    // fewer threads (such a join once stranded the destructor).
    std::vector<int> forkers;
    for (int i = 0; i < n; ++i)
      if (g.nodes[i].child_group >= 0 && g.nodes[i].children.size() > 1)
        forkers.push_back(i);
    for (int t = chance(80) ? 1 + below(2) : 0; t > 0; --t)
    {
      const int x = !forkers.empty() && chance(70) ? forkers[below(static_cast<int>(forkers.size()))] : below(n);
      if (g.nodes[x].interrupts >= 0)
        continue;
      const int sleeps[] = {0, 300, 1000};
      g.nodes[x].interrupts = sleeps[below(3)];
      g.interrupters.push_back(x);
    }
    // The main thread acts once main_at nodes have started (or a node interrupted the pool).
    // Nodes that wait, directly or not, for a late root (submitted only after the action) may
    // not start before it: main_at counts only nodes that surely do.
    std::vector<char> blocked(n, 0);
    std::vector<int> stack;
    for (int r = 0; r < root_count; ++r)
      if (g.root_late[r])
        for (int x : subtree(g.roots[r]))
        {
          blocked[x] = 1;
          stack.push_back(x);
        }
    std::vector<std::vector<int> > waiters(n);
    for (int x = 0; x < n; ++x)
      for (int y : edges[x])
        waiters[y].push_back(x);
    while (!stack.empty())
    {
      const int y = stack.back();
      stack.pop_back();
      for (int x : waiters[y])
        if (!blocked[x])
        {
          blocked[x] = 1;
          stack.push_back(x);
        }
    }
    const int free_nodes = n - static_cast<int>(std::count(blocked.begin(), blocked.end(), 1));
    g.main_at = below(free_nodes + 1);
    // A pause between interrupt() and join() (or the destructor) lets the pool go on alone:
    // idle threads leave, busy ones may catch the interruption and go on, and block in joins
    // with fewer threads left (such a join once stranded the destructor).
    g.interrupt_first = g.shutdown == shutdown_kind::interrupt_then_join || chance(50);
    const int pauses[] = {0, 0, 100, 1000, 5000};
    g.pause = g.interrupt_first ? pauses[below(5)] : 0;
  }
  return g;
}

// The serial evaluation: the value of every node, computed in rank order.
std::uint64_t node_value(const graph& g, int i, const std::vector<std::uint64_t>& value)
{
  const node& v = g.nodes[i];
  std::uint64_t h = mix(g.seed ^ (std::uint64_t(i) << 32));
  for (int c : v.children)
    h = mix(h ^ value[c]);
  for (int d : v.deps)
    h = mix(h + 3 * value[d]);
  for (const shared_join& j : v.shared)
    for (int u : targets_of(g, j))
      h = mix(h + 5 * value[u]);
  return h;
}

std::vector<std::uint64_t> serial_values(const graph& g)
{
  const int n = static_cast<int>(g.nodes.size());
  std::vector<int> by_rank(n);
  for (int i = 0; i < n; ++i)
    by_rank[g.nodes[i].rank] = i;
  std::vector<std::uint64_t> value(n);
  for (int r = 0; r < n; ++r)
    value[by_rank[r]] = node_value(g, by_rank[r], value);
  return value;
}

// ---------------------------------------------------------------------------------------------
// The deadlock detector: one thread for the whole test, armed for each graph.

class graph_watchdog
{
public:
  graph_watchdog() : thread_([this] { loop(); }) {}
  ~graph_watchdog()
  {
    {
      std::lock_guard<std::mutex> lk(mtx_);
      quit_ = true;
    }
    cv_.notify_one();
    thread_.join();
  }

  // Arms the detector; on expiry it prints what report() returns and ends the process.
  void arm(std::function<std::string()> report)
  {
    std::lock_guard<std::mutex> lk(mtx_);
    report_ = std::move(report);
    deadline_ = std::chrono::steady_clock::now() + std::chrono::seconds(env_or("FJ_GRAPH_HANG_SECONDS", 60));
    armed_ = true;
    cv_.notify_one();
  }
  void disarm()
  {
    std::lock_guard<std::mutex> lk(mtx_);
    armed_ = false;
    report_ = nullptr;
  }

private:
  void loop()
  {
    std::unique_lock<std::mutex> lk(mtx_);
    while (!quit_)
    {
      if (!armed_)
      {
        cv_.wait(lk);
        continue;
      }
      if (cv_.wait_until(lk, deadline_) == std::cv_status::timeout && armed_ &&
          std::chrono::steady_clock::now() >= deadline_)
      {
        const std::string text = report_();
        std::fprintf(stderr, "%s", text.c_str());
        std::fflush(stderr);
        std::_Exit(1);
      }
    }
  }

  std::mutex mtx_;
  std::condition_variable cv_;
  bool armed_ = false, quit_ = false;
  std::chrono::steady_clock::time_point deadline_;
  std::function<std::string()> report_;
  std::thread thread_;
};

graph_watchdog& the_watchdog()
{
  static graph_watchdog w;
  return w;
}

// ---------------------------------------------------------------------------------------------
// Running a graph on a pool

enum node_state : int
{
  unsubmitted,
  submitted,
  started,
  finished,
  swept
};

// Counters summed over a test case's graphs.
struct tally
{
  long tried = 0;
  long failed = 0;
};
struct run_stats
{
  long early_waits = 0;     // dep waits that began before the awaited node was submitted
  long shared_joins = 0;    // shared joins performed
  long shared_pending = 0;  // ... that found their (first) future not ready
  long interrupted = 0;     // nodes that caught boost::thread_interrupted
  long propagated = 0;      // ... and let it propagate
  long resumed = 0;         // interruptions caught by nodes that went on
  long swept = 0;           // nodes never submitted
  long refused = 0;         // roots the closed pool refused
};

template <class F>
struct is_joinable : std::false_type
{
};
template <class R>
struct is_joinable<joinable_future<R> > : std::true_type
{
};
template <class F>
struct is_shared : std::false_type
{
};
template <class R>
struct is_shared<boost::shared_future<R> > : std::true_type
{
};

class graph_run
{
public:
  graph_run(fork_join_thread_pool& pool, const graph& g)
      : pool_(pool), g_(g), n_(g.nodes.size()), value_(n_), runs_(n_, 0), errors_(n_, 0), accepted_(n_, 0),
        swept_(n_, 0), taint_(n_, 0), interrupted_(n_, 0), propagated_(n_, 0), resumed_(n_, 0), done_(n_), done_future_(n_),
        state_(new std::atomic<int>[n_]), groups_(g.groups.size()), arrived_(g.outside), arrived_future_(g.outside),
        seen_(g.outside), late_(g.roots.size())
  {
    for (std::size_t i = 0; i < n_; ++i)
    {
      done_future_[i] = done_[i].get_future().share();
      state_[i].store(unsubmitted, std::memory_order_relaxed);
    }
    for (std::size_t k = 0; k < groups_.size(); ++k)
    {
      group_run& gr = groups_[k];
      const std::size_t m = g.groups[k].members.size();
      gr.joinable.resize(m);
      gr.plain.resize(m);
      gr.shared.resize(m);
      gr.published_future = gr.published.get_future().share();
    }
    for (int k = 0; k < g.outside; ++k)
      arrived_future_[k] = arrived_[k].get_future().share();
  }

  // Runs the whole graph; returns when every root has been joined and every outside thread
  // has ended. In interrupted_graphs it interrupts, joins or destroys *owner (the pool the run
  // was made with) on the way.
  void run(std::unique_ptr<fork_join_thread_pool>& owner)
  {
    std::vector<std::thread> outside;
    for (int k = 1; k <= g_.outside; ++k)
      outside.emplace_back([this, k] { outside_thread(k); });
    submit_roots(0);
    bool pool_alive = true;
    if (g_.interrupting())
    {
      if (g_.shutdown == shutdown_kind::destroy)
        // The outside threads submit through the pool object: not once it may be destroyed.
        // acquire: pairs with their release increments, so that their submissions happen
        // before the destruction.
        while (outside_submitted_.load(std::memory_order_acquire) < g_.outside)
          std::this_thread::yield();
      // relaxed: a trigger; no data is read through it.
      while (started_count_.load(std::memory_order_relaxed) < g_.main_at && !interrupt_seen_.load(std::memory_order_relaxed))
        std::this_thread::yield();
      if (g_.interrupt_first)
      {
        owner->interrupt();
        submit_late_roots();
        // Shapes the interleaving only: whatever the pool does meanwhile, join() must finish it.
        for (int k = 0; k < g_.pause; ++k)
          std::this_thread::yield();
      }
      if (g_.shutdown == shutdown_kind::destroy)
      {
        owner.reset();
        pool_alive = false;
      }
      else
        owner->join();
    }
    join_roots(0, pool_alive);
    for (auto& t : outside)
      t.join();
  }

  // Requires: the pool has been joined or destroyed. Returns: a description of every
  // difference from the serial evaluation and every accounting error (empty if none).
  // Reads (get()) every future nobody has read yet.
  std::string check()
  {
    std::ostringstream s;
    const std::vector<std::uint64_t> expected = serial_values(g_);
    for (std::size_t i = 0; i < n_; ++i)
    {
      if (runs_[i] != (accepted_[i] ? 1 : 0))
        s << "node " << i << " ran " << runs_[i] << " times, accepted " << int(accepted_[i]) << "; ";
      if (swept_[i] != (accepted_[i] ? 0 : 1))
        s << "node " << i << " swept " << swept_[i] << " times, accepted " << int(accepted_[i]) << "; ";
      if (!g_.interrupting() && taint_[i])
        s << "node " << i << " touched by an interruption that nobody made; ";
      if (accepted_[i] && runs_[i] == 1 && !taint_[i] && value_[i] != expected[i])
        s << "node " << i << " has a wrong value; ";
      if (errors_[i])
        s << "node " << i << " caught an exception: " << error_text_ << "; ";
    }
    // Every accepted future is ready; its value is the node's, or thread_interrupted.
    for (std::size_t k = 0; k < groups_.size(); ++k)
      for (std::size_t p = 0; p < g_.groups[k].members.size(); ++p)
      {
        const int t = g_.groups[k].members[p];
        if (!accepted_[t])
          continue;
        with_future(static_cast<int>(k), static_cast<int>(p), [&](auto& f) {
          if (!f.valid())
          {
            if (!is_shared<typename std::decay<decltype(f)>::type>::value && may_get(t))
              return; // its parent or submitter read it
            s << "the future of node " << t << " is not valid; ";
          }
          else if (!f.is_ready())
            s << "the future of node " << t << " is not ready after the pool's join (an accepted task was dropped); ";
          else
            check_get(f, t, s);
        });
      }
    for (std::size_t r = 0; r < g_.roots.size(); ++r)
      if (g_.root_late[r] && accepted_[g_.roots[r]])
      {
        if (!late_[r].valid() || !late_[r].is_ready())
          s << "late root " << g_.roots[r] << " was accepted and its future is not ready; ";
        else
          check_get(late_[r], g_.roots[r], s);
      }
    for (int k = 1; k <= g_.outside; ++k)
      for (const seen& x : seen_[k - 1])
        if (!x.tainted && x.value != expected[x.node])
          s << "outside thread " << k << " read a wrong value of node " << x.node << "; ";
        else if (x.tainted && !g_.interrupting())
          s << "outside thread " << k << " saw node " << x.node << " touched by an interruption; ";
    {
      std::lock_guard<std::mutex> lk(error_mtx_);
      if (!problems_.empty())
        s << problems_;
    }
    return s.str();
  }

  // For the deadlock report: racy snapshot of which nodes have not finished.
  std::string unfinished() const
  {
    static const char* const names[] = {"unsubmitted", "submitted", "started", "finished", "swept"};
    std::ostringstream s;
    for (std::size_t i = 0; i < n_; ++i)
    {
      const int st = state_[i].load(std::memory_order_relaxed);
      if (st != finished && st != swept)
        s << ' ' << i << ':' << names[st];
    }
    return s.str();
  }

  // Requires: check() has run.
  void add_stats(run_stats& st) const
  {
    st.early_waits += early_waits_.load(std::memory_order_relaxed);
    st.shared_joins += shared_joins_.load(std::memory_order_relaxed);
    st.shared_pending += shared_pending_.load(std::memory_order_relaxed);
    st.refused += refused_.load(std::memory_order_relaxed);
    for (std::size_t i = 0; i < n_; ++i)
    {
      st.interrupted += interrupted_[i];
      st.propagated += propagated_[i];
      st.resumed += resumed_[i];
      st.swept += swept_[i];
    }
  }

private:
  struct group_run
  {
    std::vector<joinable_future<std::uint64_t> > joinable;
    std::vector<boost::future<std::uint64_t> > plain;
    std::vector<boost::shared_future<std::uint64_t> > shared;
    boost::promise<void> published; // the futures are in place (or will never be)
    boost::shared_future<void> published_future;
    bool publish_done = false;      // written by the one thread that fills the group
  };
  struct seen
  {
    int node;
    std::uint64_t value;
    bool tainted;
  };

  // Calls fn(f) with the future at position pos of group gi.
  template <class Fn>
  void with_future(int gi, int pos, Fn&& fn)
  {
    group_run& gr = groups_[gi];
    switch (g_.groups[gi].kind)
    {
    case future_kind::joinable:
      fn(gr.joinable[pos]);
      break;
    case future_kind::plain:
      fn(gr.plain[pos]);
      break;
    case future_kind::shared:
      fn(gr.shared[pos]);
      break;
    }
  }

  // Calls fn(first, last) with the futures [first, last) of group gi.
  template <class Fn>
  void with_range(int gi, int first, int last, Fn&& fn)
  {
    group_run& gr = groups_[gi];
    switch (g_.groups[gi].kind)
    {
    case future_kind::joinable:
      fn(gr.joinable.begin() + first, gr.joinable.begin() + last);
      break;
    case future_kind::plain:
      fn(gr.plain.begin() + first, gr.plain.begin() + last);
      break;
    case future_kind::shared:
      fn(gr.shared.begin() + first, gr.shared.begin() + last);
      break;
    }
  }

  template <class Future>
  static void join_member(Future& f)
  {
    if constexpr (is_joinable<Future>::value)
      f.join();
    else
      fj::join(f);
  }

  // Whether the parent or submitter of t may call get() on t's future: nobody else joins it,
  // or it is a shared_future (whose get() is const).
  bool may_get(int t) const
  {
    const node& v = g_.nodes[t];
    return v.extra_joiners == 0 || (v.group >= 0 && g_.groups[v.group].kind == future_kind::shared);
  }

  // Requires: f is ready. Effects: get(), compared with what node t left.
  template <class Future, class Out>
  void check_get(Future& f, int t, Out& out)
  {
    try
    {
      const std::uint64_t got = f.get();
      if (propagated_[t])
        out << "the future of node " << t << " holds a value, but its task let an interruption propagate; ";
      else if (got != value_[t])
        out << "the future of node " << t << " holds a wrong value; ";
    }
    catch (const boost::thread_interrupted&)
    {
      if (!propagated_[t])
        out << "the future of node " << t << " holds thread_interrupted, which its task did not let out; ";
    }
    catch (const std::exception& e)
    {
      out << "the future of node " << t << " holds an exception: " << e.what() << "; ";
    }
  }
  template <class Future>
  void check_get_now(Future& f, int t)
  {
    std::ostringstream s;
    check_get(f, t, s);
    if (!s.str().empty())
      problem(s.str());
  }

  void problem(const std::string& text)
  {
    std::lock_guard<std::mutex> lk(error_mtx_);
    problems_ += text;
  }

  // Effects: puts the future of node c's task (fork or boost::async) at position pos of group gi.
  // Throws: what fork and boost::async throw (sync_queue_is_closed for a root once closed).
  void submit_future(int gi, int pos, int c)
  {
    group_run& gr = groups_[gi];
    auto task = [this, c]() -> std::uint64_t { return run_node(c); };
    const bool by_async = g_.groups[gi].by_async;
    switch (g_.groups[gi].kind)
    {
    case future_kind::joinable:
      gr.joinable[pos] = by_async ? joinable_future<std::uint64_t>(boost::async(pool_, task)) : fork(pool_, task);
      break;
    case future_kind::plain:
      if (by_async)
        gr.plain[pos] = boost::async(pool_, task);
      else
        gr.plain[pos] = fork(pool_, task); // the joinable_future moved into a plain future
      break;
    case future_kind::shared:
      gr.shared[pos] = by_async ? boost::async(pool_, task).share() : fork(pool_, task).share();
      break;
    }
  }

  void publish(int gi)
  {
    group_run& gr = groups_[gi];
    if (gr.publish_done)
      return;
    gr.publish_done = true;
    gr.published.set_value();
  }

  // Effects: marks node r's subtree as never submitted, and fulfils what others may wait for
  // in it: its promises, and the groups its nodes would have filled. Requires: r was not
  // accepted, so nothing of its subtree runs; called by the one thread that would have
  // submitted r.
  void sweep(int r)
  {
    std::vector<int> todo{r};
    for (std::size_t k = 0; k < todo.size(); ++k)
      for (int c : g_.nodes[todo[k]].children)
        todo.push_back(c);
    for (int x : todo)
    {
      ++swept_[x];
      taint_[x] = 1;
      state_[x].store(swept, std::memory_order_relaxed); // relaxed: diagnostics only
      if (g_.nodes[x].child_group >= 0)
        publish(g_.nodes[x].child_group);
      fulfil(x);
    }
  }

  void fulfil(int x)
  {
    try
    {
      done_[x].set_value();
    }
    catch (const std::exception& e)
    {
      problem("node " + std::to_string(x) + "'s promise: " + e.what() + "; ");
    }
  }

  void submit_roots(int k)
  {
    const int gi = g_.root_group[k];
    if (gi < 0)
      return;
    const std::vector<int>& m = g_.groups[gi].members;
    for (std::size_t p = 0; p < m.size(); ++p)
    {
      const int r = m[p];
      mark_submitted(r);
      try
      {
        submit_future(gi, static_cast<int>(p), r);
        accepted_[r] = 1;
      }
      catch (const boost::sync_queue_is_closed&)
      {
        refused_.fetch_add(1, std::memory_order_relaxed); // relaxed: a statistic
        sweep(r);
      }
    }
    publish(gi);
  }

  void submit_late_roots()
  {
    for (std::size_t r = 0; r < g_.roots.size(); ++r)
      if (g_.root_late[r])
      {
        const int x = g_.roots[r];
        mark_submitted(x);
        try
        {
          late_[r] = fork(pool_, [this, x]() -> std::uint64_t { return run_node(x); });
          accepted_[x] = 1;
        }
        catch (const boost::sync_queue_is_closed&)
        {
          refused_.fetch_add(1, std::memory_order_relaxed); // relaxed: a statistic
          sweep(x);
        }
      }
  }

  // Joins thread k's roots (its group), then reads those it may.
  void join_roots(int k, bool pool_alive)
  {
    const int gi = g_.root_group[k];
    if (gi < 0)
      return;
    const std::vector<int>& m = g_.groups[gi].members;
    const int size = static_cast<int>(m.size());
    bool all = true;
    for (int r : m)
      all = all && accepted_[r];
    join_kind how = g_.root_join[k];
    if (!pool_alive)
      how = how == join_kind::with_pool ? join_kind::without_pool
          : how == join_kind::range     ? join_kind::range_without_pool
                                        : how;
    if ((how == join_kind::range || how == join_kind::range_without_pool) && all)
      with_range(gi, 0, size, [&](auto first, auto last) {
        if (how == join_kind::range)
          fj::join(pool_, first, last);
        else
          fj::join(first, last);
      });
    else
      for (int p = 0; p < size; ++p)
        if (accepted_[m[p]])
          with_future(gi, p, [&](auto& f) {
            if (how == join_kind::with_pool)
              fj::join(pool_, f);
            else if (how == join_kind::member)
              join_member(f);
            else
              fj::join(f);
          });
    for (int p = 0; p < size; ++p)
      if (accepted_[m[p]] && may_get(m[p]))
        with_future(gi, p, [&](auto& f) { check_get_now(f, m[p]); });
  }

  void outside_thread(int k)
  {
    submit_roots(k);
    outside_submitted_.fetch_add(1, std::memory_order_release); // release: see run()
    // The pool object may be destroyed meanwhile: then only the joins without it.
    const bool pool_ok = !(g_.interrupting() && g_.shutdown == shutdown_kind::destroy);
    const std::vector<observation>& obs = g_.observe[k - 1];
    for (std::size_t x = 0; x < obs.size(); ++x)
    {
      if (obs[x].node >= 0)
      {
        const int v = obs[x].node;
        boost::shared_future<void>& f = done_future_[v]; // the very object the nodes join
        if (pool_ok)
          fj::join(pool_, f);
        else
          fj::join(f);
        seen_[k - 1].push_back(seen{v, value_[v], taint_[v] != 0});
      }
      else
      {
        boost::promise<void>* gate = x == 0 && g_.observer_gated[k - 1] ? &arrived_[k - 1] : nullptr;
        const shared_join& j = obs[x].join;
        if (shared(j, -1, pool_ok, gate))
          for (int u : targets_of(g_, j))
            seen_[k - 1].push_back(seen{u, value_[u], taint_[u] != 0});
        else
          for (int u : targets_of(g_, j))
            seen_[k - 1].push_back(seen{u, 0, true});
      }
    }
    join_roots(k, pool_ok);
  }

  void mark_submitted(int v)
  {
    // relaxed: diagnostics only (the deadlock report and the early-wait count).
    state_[v].store(submitted, std::memory_order_relaxed);
  }

  void note_interrupted(int i)
  {
    interrupted_[i] = 1;
    taint_[i] = 1;
  }

  std::uint64_t run_node(int i)
  {
    state_[i].store(started, std::memory_order_relaxed); // relaxed: diagnostics only
    ++runs_[i]; // plain: a second run races with the first, which ThreadSanitizer reports
    const node& v = g_.nodes[i];
    // relaxed: a trigger and a statistic; no data is read through it.
    started_count_.fetch_add(1, std::memory_order_relaxed);
    if (v.interrupts >= 0)
    {
      // The sleep shapes the interleaving only (idle threads park); nothing depends on it.
      std::this_thread::sleep_for(std::chrono::microseconds(v.interrupts));
      pool_.interrupt(); // the pool object lives: its destructor, if running, waits for this task
      interrupt_seen_.store(true, std::memory_order_relaxed);
    }
    for (int k = 0; k < v.spin; ++k)
      std::this_thread::yield();
    bool interrupted = false;
    try
    {
      if (v.ipoints & ip_start)
        waiting(i, [] { boost::this_thread::interruption_point(); });
      switch (v.how)
      {
      case spawn_kind::fork:
      case spawn_kind::async:
        spawn_with_futures(i);
        break;
      case spawn_kind::invoke_own_first:
      case spawn_kind::invoke_own_last:
        spawn_with_invoke(i);
        break;
      case spawn_kind::block:
        spawn_with_block(i);
        break;
      }
      if (v.ipoints & ip_end)
        waiting(i, [] { boost::this_thread::interruption_point(); });
    }
    catch (const boost::thread_interrupted&)
    {
      interrupted = true;
    }
    catch (const std::exception& e)
    {
      note_error(i, e.what());
    }
    catch (...)
    {
      note_error(i, "unknown exception");
    }
    // Children never submitted (an interruption before the node spawned them): swept.
    for (int c : v.children)
      if (!accepted_[c] && !swept_[c])
        sweep(c);
    if (v.child_group >= 0)
      publish(v.child_group);
    if (interrupted)
      note_interrupted(i);
    value_[i] = taint_[i] ? 0 : node_value(g_, i, value_);
    const bool propagate = interrupted && v.policy == on_interrupt::propagate;
    propagated_[i] = propagate;
    state_[i].store(finished, std::memory_order_relaxed); // relaxed: diagnostics only
    fulfil(i);
    if (propagate)
      throw boost::thread_interrupted();
    return value_[i];
  }

  void note_error(int i, const char* what)
  {
    ++errors_[i];
    std::lock_guard<std::mutex> lk(error_mtx_);
    error_text_ = what;
  }

  void spawn_with_futures(int i)
  {
    const node& v = g_.nodes[i];
    const int gi = v.child_group;
    const int kids = static_cast<int>(v.children.size());
    if (kids == 0)
      return wait_for_deps(i);
    for (int c : v.children)
    {
      mark_submitted(c);
      submit_future(gi, g_.nodes[c].pos, c);
      accepted_[c] = 1;
    }
    publish(gi);
    for (int k : v.gates)
      waiting(i, [&] { fj::join(pool_, arrived_future_[k - 1]); });
    for (int step = 0; step <= kids; ++step)
    {
      if (step == v.deps_at)
        wait_for_deps(i);
      if (step == kids)
        break;
      if (v.ipoints & ip_joins)
        waiting(i, [] { boost::this_thread::interruption_point(); });
      const int c = g_.groups[gi].members[step]; // the group is in join order
      waiting(i, [&] {
        switch (v.join_kinds[step])
        {
        case join_kind::member:
          with_future(gi, step, [](auto& f) { join_member(f); });
          break;
        case join_kind::with_pool:
          with_future(gi, step, [this](auto& f) { fj::join(pool_, f); });
          break;
        case join_kind::without_pool:
          with_future(gi, step, [](auto& f) { fj::join(f); });
          break;
        case join_kind::range:
          // The futures not joined yet, in place (joining a ready one again is harmless).
          with_range(gi, step, kids, [this](auto first, auto last) { fj::join(pool_, first, last); });
          break;
        case join_kind::range_without_pool:
          with_range(gi, step, kids, [](auto first, auto last) { fj::join(first, last); });
          break;
        }
      });
      taint_[i] |= taint_[c];
      if (may_get(c))
        with_future(gi, step, [&](auto& f) { check_get_now(f, c); });
    }
  }

  // parallel_invoke with the own work and the children, k children as one call for k <= 3,
  // else as a tree of binary parallel_invokes.
  void spawn_with_invoke(int i)
  {
    const node& v = g_.nodes[i];
    for (int c : v.children)
    {
      mark_submitted(c);
      accepted_[c] = 1; // parallel_invoke runs every callable, whatever the others throw
    }
    auto own = [this, i] { wait_for_deps(i); };
    try
    {
      if (v.how == spawn_kind::invoke_own_first)
        invoke_with(own, v.children, true);
      else
        invoke_with(own, v.children, false);
    }
    catch (const boost::thread_interrupted&)
    {
      for (int c : v.children)
        taint_[i] |= taint_[c];
      throw;
    }
    for (int c : v.children)
      taint_[i] |= taint_[c];
  }

  template <class Own>
  void invoke_with(Own& own, const std::vector<int>& kids, bool own_first)
  {
    auto k0 = [&] { run_node(kids[0]); };
    auto k1 = [&] { run_node(kids[1]); };
    auto k2 = [&] { run_node(kids[2]); };
    auto all = [&] { invoke_range(kids, 0, kids.size()); };
    switch (kids.size())
    {
    case 0:
      own();
      break;
    case 1:
      own_first ? boost::parallel_invoke(pool_, own, k0) : boost::parallel_invoke(pool_, k0, own);
      break;
    case 2:
      own_first ? boost::parallel_invoke(pool_, own, k0, k1) : boost::parallel_invoke(pool_, k0, k1, own);
      break;
    case 3:
      own_first ? boost::parallel_invoke(pool_, own, k0, k1, k2) : boost::parallel_invoke(pool_, k0, k1, k2, own);
      break;
    default:
      own_first ? boost::parallel_invoke(pool_, own, all) : boost::parallel_invoke(pool_, all, own);
      break;
    }
  }

  void invoke_range(const std::vector<int>& kids, std::size_t lo, std::size_t hi)
  {
    if (hi - lo == 1)
    {
      run_node(kids[lo]);
      return;
    }
    const std::size_t mid = lo + (hi - lo) / 2;
    boost::parallel_invoke(pool_, [&] { invoke_range(kids, lo, mid); }, [&] { invoke_range(kids, mid, hi); });
  }

  void spawn_with_block(int i)
  {
    const node& v = g_.nodes[i];
    boost::define_task_block(pool_, [&](boost::task_block& tb) {
      const int kids = static_cast<int>(v.children.size());
      try
      {
        for (int k = 0; k <= kids; ++k)
        {
          if (k == v.deps_at)
            wait_for_deps(i);
          if (k == v.block_wait_at)
            tb.wait();
          if (k == kids)
            break;
          if (v.ipoints & ip_joins)
            waiting(i, [] { boost::this_thread::interruption_point(); });
          const int c = v.children[k];
          mark_submitted(c);
          tb.run([this, c] { run_node(c); });
          accepted_[c] = 1;
        }
      }
      catch (const boost::thread_interrupted&)
      {
        // Caught here: thrown out of the body it would cancel the block, whose children not
        // yet started would then be skipped.
        note_interrupted(i);
      }
      // Before the block joins its children: one of them may wait for a node in the subtree
      // of a child not submitted.
      for (int c : v.children)
        if (!accepted_[c])
          sweep(c);
    });
    for (int c : v.children)
      taint_[i] |= taint_[c];
  }

  void wait_for_deps(int i)
  {
    const node& v = g_.nodes[i];
    for (std::size_t k = 0; k < v.deps.size(); ++k)
    {
      const int d = v.deps[k];
      if (state_[d].load(std::memory_order_relaxed) == unsubmitted)
        early_waits_.fetch_add(1, std::memory_order_relaxed); // relaxed: a statistic
      boost::shared_future<void> f = done_future_[d];
      // Two at once: this dep and the next one (or this one twice).
      const int d2 = v.deps[k + 1 < v.deps.size() ? k + 1 : k];
      waiting(i, [&] {
        switch (v.dep_kinds[k])
        {
        case 0:
          fj::join(pool_, f);
          break;
        case 1:
          fj::join(f);
          break;
        case 2:
        {
          boost::shared_future<void> g2 = done_future_[d2];
          fj::join(pool_, f, g2);
          break;
        }
        default:
          fj::join(pool_, done_future_[d]); // the very object every other waiter joins
          break;
        }
      });
      taint_[i] |= taint_[d];
      if (v.dep_kinds[k] == 2)
        taint_[i] |= taint_[d2];
    }
    for (const shared_join& j : v.shared)
      if (!shared(j, i, true, nullptr))
        taint_[i] = 1;
  }

  // Effects: waits until the groups of j are filled (then arrives at the gate, if any), and
  // joins j's futures in place with j's form (the one without the pool if !pool_ok), for node
  // who (a task on the pool) or for an outside thread (who < 0).
  // Returns: whether every future was joined and none was touched by an interruption.
  bool shared(const shared_join& j, int who, bool pool_ok, boost::promise<void>* gate)
  {
    for (int gi : {j.group, j.group2})
      if (gi >= 0)
      {
        boost::shared_future<void>& p = groups_[gi].published_future;
        if (who >= 0)
          waiting(who, [&] { fj::join(pool_, p); });
        else
          fj::join(p);
      }
    if (gate)
      gate->set_value(); // the parent may go on to join: this thread is about to
    const std::vector<int> targets = targets_of(g_, j);
    for (int u : targets)
      if (!accepted_[u]) // a root refused, or a node never submitted: no future to join
        return false;
    shared_joins_.fetch_add(1, std::memory_order_relaxed); // relaxed: a statistic
    with_future(j.group, j.pos, [&](auto& f) {
      if (!f.is_ready())
        shared_pending_.fetch_add(1, std::memory_order_relaxed); // relaxed: a statistic
    });
    join_form form = j.form;
    if (!pool_ok)
      form = form == join_form::with_pool        ? join_form::without_pool
           : form == join_form::pair_with_pool  ? join_form::pair_without_pool
           : form == join_form::range_with_pool ? join_form::range_without_pool
                                                : form;
    waiting(who, [&] { join_as(j, form); });
    bool clean = true;
    for (int u : targets)
    {
      clean = clean && !taint_[u];
      // A shared_future's get() is const: every joiner reads it.
      const node& t = g_.nodes[u];
      if (g_.groups[t.group].kind == future_kind::shared)
        check_get_now(groups_[t.group].shared[t.pos], u);
    }
    return clean;
  }

  void join_as(const shared_join& j, join_form form)
  {
    switch (form)
    {
    case join_form::member:
      with_future(j.group, j.pos, [](auto& f) { join_member(f); });
      break;
    case join_form::without_pool:
      with_future(j.group, j.pos, [](auto& f) { fj::join(f); });
      break;
    case join_form::with_pool:
      with_future(j.group, j.pos, [this](auto& f) { fj::join(pool_, f); });
      break;
    case join_form::pair_with_pool:
    case join_form::pair_without_pool:
      with_future(j.group, j.pos, [&](auto& f) {
        with_future(j.group2, j.pos2, [&](auto& h) {
          if (form == join_form::pair_with_pool)
            fj::join(pool_, f, h);
          else
            fj::join(f, h);
        });
      });
      break;
    case join_form::range_with_pool:
      with_range(j.group, j.pos, j.pos + j.count, [this](auto first, auto last) { fj::join(pool_, first, last); });
      break;
    case join_form::range_without_pool:
      with_range(j.group, j.pos, j.pos + j.count, [](auto first, auto last) { fj::join(first, last); });
      break;
    }
  }

  // Effects: f(), an interruption point or a join of node i's task (i < 0: of an outside
  // thread, never interrupted). A node that resumes after an interruption catches
  // boost::thread_interrupted and calls f again (a join may be repeated); others let it out.
  template <class F>
  void waiting(int i, F&& f)
  {
    for (;;)
    {
      try
      {
        f();
        return;
      }
      catch (const boost::thread_interrupted&)
      {
        if (i < 0 || g_.nodes[i].policy != on_interrupt::resume)
          throw;
        ++resumed_[i];
      }
    }
  }

  fork_join_thread_pool& pool_;
  const graph& g_;
  std::size_t n_;
  // Plain: each is written by the node's task (or whoever submits or sweeps it) and read
  // after a join, a promise or the pool's join.
  std::vector<std::uint64_t> value_;
  std::vector<int> runs_;
  std::vector<int> errors_;
  std::vector<char> accepted_;     // its submission returned
  std::vector<int> swept_;         // never submitted, accounted for by sweep()
  std::vector<char> taint_;        // an interruption touched it or what it waited for
  std::vector<char> interrupted_;  // it caught boost::thread_interrupted
  std::vector<char> propagated_;   // ... and let it leave its task
  std::vector<int> resumed_;       // interruptions it caught and went on after
  std::vector<boost::promise<void> > done_;
  std::vector<boost::shared_future<void> > done_future_;
  std::unique_ptr<std::atomic<int>[]> state_;
  std::vector<group_run> groups_;
  std::vector<boost::promise<void> > arrived_; // per outside thread: the gate of its first observation
  std::vector<boost::shared_future<void> > arrived_future_;
  std::vector<std::vector<seen> > seen_; // per outside thread: what it read
  std::vector<joinable_future<std::uint64_t> > late_; // per root: main's late roots
  std::atomic<long> early_waits_{0}, shared_joins_{0}, shared_pending_{0}, refused_{0};
  std::atomic<long> started_count_{0};
  std::atomic<int> outside_submitted_{0};
  std::atomic<bool> interrupt_seen_{false};
  std::mutex error_mtx_;
  std::string error_text_;
  std::string problems_;
};

// ---------------------------------------------------------------------------------------------
// The driver

void run_graphs(test_case which, long default_count)
{
  const std::uint64_t base = env_or("FJ_GRAPH_SEED", 20260923);
  const std::uint64_t replay = env_or("FJ_GRAPH_REPLAY", 0);
  const unsigned only_threads = static_cast<unsigned>(env_or("FJ_GRAPH_THREADS", 0));
  const bool verbose = env_or("FJ_GRAPH_VERBOSE", 0) != 0;
  const long per_count =
      replay ? static_cast<long>(env_or("FJ_GRAPH_REPEAT", 1))
             : static_cast<long>(env_or("FJ_GRAPH_COUNT",
                                        std::max(1L, default_count * BOOST_THREAD_FJ_TEST_STRESS / BOOST_THREAD_FJ_TEST_SCALE)));
  const char* const name = case_names[static_cast<int>(which)];
  std::printf("%s: base seed %llu (FJ_GRAPH_SEED), %ld graphs per thread count%s\n", name, (unsigned long long)base,
              per_count, replay ? " (replay)" : "");
  std::fflush(stdout);

  tally totals[4];
  run_stats stats;
  long graph_number = 0;
  const auto t0 = std::chrono::steady_clock::now();
  for (int tc = 0; tc < 4; ++tc)
  {
    const unsigned threads = thread_counts[tc];
    if (only_threads && threads != only_threads)
      continue;
    for (long k = 0; k < per_count; ++k, ++graph_number)
    {
      const std::uint64_t salt = std::uint64_t(which) * 0x5000000ULL;
      const std::uint64_t seed = replay ? replay : mix(base ^ mix(salt + std::uint64_t(threads) * 1000003ULL + k));
      const graph g = generate(seed, which);
      if (verbose)
      {
        std::printf("graph %ld, %u threads, %s\n", graph_number, threads, g.shape().c_str());
        std::fflush(stdout);
      }
      std::unique_ptr<fork_join_thread_pool> pool(new fork_join_thread_pool(threads));
      std::unique_ptr<graph_run> run(new graph_run(*pool, g));
      graph_run* r = run.get();
      the_watchdog().arm([&g, r, threads, graph_number, name] {
        std::ostringstream s;
        s << "graph " << graph_number << " on " << threads << " threads: " << g.shape() << '\n'
          << g.dump() << "not finished:" << r->unfinished() << '\n'
          << "replay: FJ_GRAPH_REPLAY=" << g.seed << " FJ_GRAPH_THREADS=" << threads << " --run_test=" << name
          << "\ngraph " << graph_number << " hung\n";
        return s.str();
      });
      run->run(pool);
      if (pool)
      {
        pool->close();
        pool->join();
        pool.reset();
      }
      the_watchdog().disarm();
      ++totals[tc].tried;
      const std::string problems = run->check();
      run->add_stats(stats);
      if (!problems.empty())
      {
        ++totals[tc].failed;
        BOOST_ERROR("graph " << graph_number << " on " << threads << " threads failed: " << g.shape() << ": " << problems
                             << "\nreplay: FJ_GRAPH_REPLAY=" << g.seed << " FJ_GRAPH_THREADS=" << threads
                             << " --run_test=" << name << '\n'
                             << g.dump());
      }
    }
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  for (int tc = 0; tc < 4; ++tc)
    if (totals[tc].tried)
      std::printf("  %u threads: %ld graphs tried, %ld failed\n", thread_counts[tc], totals[tc].tried, totals[tc].failed);
  if (which != test_case::strict)
    std::printf("  waits that began before the awaited node was submitted: %ld\n"
                "  shared joins: %ld, of which %ld found the future not ready\n",
                stats.early_waits, stats.shared_joins, stats.shared_pending);
  if (which == test_case::interrupted)
    std::printf("  nodes interrupted: %ld (%ld let it propagate); interruptions resumed after: %ld; never submitted: %ld; "
                "roots refused: %ld\n",
                stats.interrupted, stats.propagated, stats.resumed, stats.swept, stats.refused);
  std::printf("  %.1f s\n", seconds);
  std::fflush(stdout);
}

} // namespace

BOOST_AUTO_TEST_CASE(strict_fork_join_graphs)
{
  run_graphs(test_case::strict, 100);
}

BOOST_AUTO_TEST_CASE(general_graphs)
{
  run_graphs(test_case::general, 100);
}

BOOST_AUTO_TEST_CASE(concurrent_join_graphs)
{
  run_graphs(test_case::concurrent, 500);
}

BOOST_AUTO_TEST_CASE(interrupted_graphs)
{
  run_graphs(test_case::interrupted, 500);
}

BOOST_AUTO_TEST_SUITE_END()

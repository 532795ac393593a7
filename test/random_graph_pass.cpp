// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// Random acyclic task graphs (issue 9). The library promises that every acyclic task graph
// completes on any number of threads, even one, including joins that start before the awaited
// task is submitted and joins from threads outside the pool. This test generates random
// graphs from a seed, runs each on pools of 1, 2, 3 and 8 threads, and checks it by
// accounting against a serial evaluation of the same graph.
//
// A graph is a forest. Every node is a task; it spawns its children at random with `fork`,
// `boost::async`, `parallel_invoke` (the node's own work first or last) or a task block, and
// joins them in a random order with a random kind of join (member, free with and without the
// pool, a range). In the general graphs a node also waits for some other nodes (deps), through
// a promise the awaited node fulfils when it ends; a dep is kept only if the wait-for graph
// stays acyclic (generate() says how it counts a task block's waits before its later children
// are submitted). Such a node may not have been submitted yet when the wait starts (its
// parent may not even have started): the test counts those waits.
// Roots are forked by the main thread or by outside std::threads, which join them; outside
// threads also join some nodes' promises as observers. The strict graphs have only fork/join
// waits (each child joined by its parent, each root by its submitter).
//
// Each node's value is a hash of its id, its children's and its dependencies' values; every
// value, and every observer's sum, is compared with the serial evaluation, and each node must
// run exactly once. Results are plain variables read after a join, so ThreadSanitizer sees a
// missing happens-before edge.
//
// Each graph runs under its own deadlock detector: if it does not finish within
// FJ_GRAPH_HANG_SECONDS (default 60) it prints the seed, the shape, the nodes not finished
// and "graph N hung", and ends the process with _Exit(1). Nothing else depends on time.
//
// Environment:
//   FJ_GRAPH_SEED=<n>      base seed (default 20260923); each graph's seed derives from it
//   FJ_GRAPH_REPLAY=<n>    run only the graph with this seed (as printed) on every thread count
//   FJ_GRAPH_COUNT=<n>     graphs per thread count and test case (default: see below)
//   FJ_GRAPH_HANG_SECONDS  the per-graph deadlock limit
//   FJ_GRAPH_MAX_NODES=<n> cap the graphs' size (to look for a small failing graph)
//   FJ_GRAPH_VERBOSE=1     print every graph's seed and shape before it runs
// Test cases: strict_fork_join_graphs, general_graphs (--run_test=NAME runs one).
// Counts: 100 graphs per thread count and case, divided by BOOST_THREAD_FJ_TEST_SCALE
// (sanitizers), multiplied by BOOST_THREAD_FJ_TEST_STRESS (CMake option BOOST_FORK_JOIN_STRESS).

#define BOOST_TEST_MODULE random_graph
#include "watchdog.hpp"

#include <boost/thread/executors/fork_join.hpp>
#include <boost/thread/executors/parallel_invoke.hpp>
#include <boost/thread/executors/task_block.hpp>
#include <boost/thread/future.hpp>

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
#include <vector>

#ifndef BOOST_THREAD_FJ_TEST_SCALE
#define BOOST_THREAD_FJ_TEST_SCALE 1
#endif
#ifndef BOOST_THREAD_FJ_TEST_STRESS
#define BOOST_THREAD_FJ_TEST_STRESS 1
#endif

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

// ---------------------------------------------------------------------------------------------
// The graph

enum class spawn_kind : std::uint8_t
{
  fork,        // fork(pool, child) per child, joinable_futures joined in join_order
  async,       // boost::async(pool, child) per child, as joinable_futures
  invoke_own_first, // parallel_invoke(pool, own work, children...)
  invoke_own_last,  // parallel_invoke(pool, children..., own work): the own work is a stack task
  block        // define_task_block: tb.run per child, the own work in the block's body
};
const char* const spawn_names[] = {"fork", "async", "invoke<", "invoke>", "block"};

enum class join_kind : std::uint8_t
{
  member,      // f.join()
  with_pool,   // join(pool, f)
  without_pool, // join(f)
  range,       // join(pool, first, last) over the futures not joined yet
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
  std::vector<std::uint8_t> dep_kinds; // per dep: 0 join(pool, f), 1 join(f), 2 join(pool, f, g)
  int deps_at = 0;                     // the deps are waited for after this many children joined / run
  int block_wait_at = -1;              // block: tb.wait() after this many tb.run, if >= 0
};

struct graph
{
  std::uint64_t seed = 0;
  bool strict = false;
  std::vector<node> nodes;
  std::vector<int> roots;
  std::vector<int> root_owner;            // per root: 0 = main thread, k = outside thread k
  int outside = 0;                        // outside threads
  std::vector<std::vector<int>> observe;  // per outside thread (index k - 1): nodes it joins
  std::size_t dep_count = 0;

  std::string shape() const
  {
    std::ostringstream s;
    int kinds[5] = {};
    int max_depth = 0;
    for (const node& n : nodes)
    {
      if (!n.children.empty())
        ++kinds[static_cast<int>(n.how)];
      max_depth = std::max(max_depth, n.depth);
    }
    s << (strict ? "strict" : "general") << " seed " << seed << ": " << nodes.size() << " nodes, "
      << roots.size() << " roots, depth " << max_depth << ", " << dep_count << " extra waits, " << outside
      << " outside threads; spawners";
    for (int k = 0; k < 5; ++k)
      s << ' ' << spawn_names[k] << '=' << kinds[k];
    return s.str();
  }

  // One line per node: id, parent, rank, spawn kind, children, deps.
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
      s << " }\n";
    }
    for (std::size_t r = 0; r < roots.size(); ++r)
      s << "  root " << roots[r] << " submitted by " << (root_owner[r] ? "outside thread " : "main")
        << (root_owner[r] ? std::to_string(root_owner[r]) : std::string()) << '\n';
    return s.str();
  }
};

graph generate(std::uint64_t seed, bool strict)
{
  std::mt19937_64 rng(seed);
  auto below = [&](int n) { return static_cast<int>(rng() % static_cast<std::uint64_t>(n)); };
  auto chance = [&](int percent) { return below(100) < percent; };

  graph g;
  g.seed = seed;
  g.strict = strict;
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
      v.join_kinds.push_back(static_cast<join_kind>(below(chance(80) ? 3 : 4)));
    v.deps_at = below(kids + 1);
    v.block_wait_at = chance(30) ? below(kids + 1) : -1;
  }

  // The wait-for graph, on the nodes' completions: "x cannot finish before y has finished".
  //  - a node waits for its children and for its deps;
  //  - a task block submits its k-th child only after the waits that come before it in the
  //    block's body (tb.wait() for the earlier children, and the deps if deps_at <= k): the
  //    child, and so its whole subtree, cannot start before those finish.
  // (fork, async and parallel_invoke submit every child before any wait.) A dep is kept only
  // if it leaves this graph acyclic, so every generated graph is acyclic and all of it is
  // submitted eventually; a dep may well be a node submitted long after the wait starts.
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
  for (int i = 0; i < n && !strict; ++i)
  {
    node& v = g.nodes[i];
    if (!chance(35))
      continue;
    std::vector<int> sources{i}; // who would wait for the dep
    if (v.how == spawn_kind::block)
      for (std::size_t j = v.deps_at; j < v.children.size(); ++j)
        for (int x : subtree(v.children[j]))
          sources.push_back(x);
    for (int t = 1 + below(3); t > 0; --t)
    {
      const int d = below(n);
      if (d == i || g.nodes[d].parent == i || std::find(v.deps.begin(), v.deps.end(), d) != v.deps.end())
        continue;
      bool cycle = false;
      for (int x : sources)
        cycle = cycle || reaches(d, x);
      if (cycle)
        continue;
      for (int x : sources)
        add_edge(x, d);
      v.deps.push_back(d);
      v.dep_kinds.push_back(static_cast<std::uint8_t>(below(3)));
      ++g.dep_count;
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

  g.outside = below(3);
  for (int r = 0; r < root_count; ++r)
    g.root_owner.push_back(g.outside ? below(g.outside + 1) : 0);
  g.observe.resize(g.outside);
  if (!strict)
    for (auto& o : g.observe)
      for (int t = below(4); t > 0; --t)
        o.push_back(below(n));
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
  finished
};

class graph_run
{
public:
  graph_run(fork_join_thread_pool& pool, const graph& g)
      : pool_(pool), g_(g), n_(g.nodes.size()), value_(n_), runs_(n_, 0), errors_(n_, 0), done_(n_),
        done_future_(n_), state_(new std::atomic<int>[n_]), observed_(g.outside, 0)
  {
    for (std::size_t i = 0; i < n_; ++i)
    {
      done_future_[i] = done_[i].get_future().share();
      state_[i].store(unsubmitted, std::memory_order_relaxed);
    }
  }

  // Runs the whole graph; returns when every root has been joined and every outside thread
  // has ended.
  void run()
  {
    std::vector<std::thread> outside;
    for (int k = 1; k <= g_.outside; ++k)
      outside.emplace_back([this, k] { outside_thread(k); });
    std::vector<joinable_future<void>> mine;
    for (std::size_t r = 0; r < g_.roots.size(); ++r)
      if (g_.root_owner[r] == 0)
        mine.push_back(submit_root(g_.roots[r]));
    for (auto& f : mine)
    {
      f.join();
      f.get();
    }
    for (auto& t : outside)
      t.join();
  }

  // Returns: a description of every difference from the serial evaluation (empty if none).
  std::string check() const
  {
    std::ostringstream s;
    const std::vector<std::uint64_t> expected = serial_values(g_);
    for (std::size_t i = 0; i < n_; ++i)
    {
      if (runs_[i] != 1)
        s << "node " << i << " ran " << runs_[i] << " times; ";
      else if (value_[i] != expected[i])
        s << "node " << i << " has a wrong value; ";
      if (errors_[i])
        s << "node " << i << " caught an exception: " << error_text_ << "; ";
    }
    for (int k = 1; k <= g_.outside; ++k)
    {
      std::uint64_t sum = 0;
      for (int v : g_.observe[k - 1])
        sum += expected[v];
      if (observed_[k - 1] != sum)
        s << "outside thread " << k << " observed wrong values; ";
    }
    return s.str();
  }

  // For the deadlock report: racy snapshot of which nodes have not finished.
  std::string unfinished() const
  {
    static const char* const names[] = {"unsubmitted", "submitted", "started", "finished"};
    std::ostringstream s;
    for (std::size_t i = 0; i < n_; ++i)
    {
      const int st = state_[i].load(std::memory_order_relaxed);
      if (st != finished)
        s << ' ' << i << ':' << names[st];
    }
    return s.str();
  }

  long early_waits() const { return early_waits_.load(std::memory_order_relaxed); }

private:
  joinable_future<void> submit_root(int r)
  {
    mark_submitted(r);
    return fork(pool_, [this, r] { run_node(r); });
  }

  void outside_thread(int k)
  {
    std::vector<joinable_future<void>> mine;
    for (std::size_t r = 0; r < g_.roots.size(); ++r)
      if (g_.root_owner[r] == k)
        mine.push_back(submit_root(g_.roots[r]));
    std::uint64_t sum = 0;
    for (int v : g_.observe[k - 1])
    {
      boost::shared_future<void> f = done_future_[v];
      fj::join(pool_, f);
      sum += value_[v];
    }
    for (auto& f : mine)
    {
      f.join();
      f.get();
    }
    observed_[k - 1] = sum;
  }

  void mark_submitted(int v)
  {
    // relaxed: diagnostics only (the deadlock report and the early-wait count).
    state_[v].store(submitted, std::memory_order_relaxed);
  }

  void run_node(int i)
  {
    state_[i].store(started, std::memory_order_relaxed); // relaxed: diagnostics only
    ++runs_[i]; // plain: a second run races with the first, which ThreadSanitizer reports
    const node& v = g_.nodes[i];
    try
    {
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
    }
    catch (const std::exception& e)
    {
      note_error(i, e.what());
    }
    catch (...)
    {
      note_error(i, "unknown exception");
    }
    value_[i] = node_value(g_, i, value_);
    state_[i].store(finished, std::memory_order_relaxed); // relaxed: diagnostics only
    done_[i].set_value();
  }

  void note_error(int i, const char* what)
  {
    ++errors_[i];
    std::lock_guard<std::mutex> lk(error_mtx_);
    error_text_ = what;
  }

  std::function<void()> child_task(int c)
  {
    return [this, c] { run_node(c); };
  }

  void spawn_with_futures(int i)
  {
    const node& v = g_.nodes[i];
    const std::size_t kids = v.children.size();
    std::vector<joinable_future<void>> fs(g_.nodes.size());
    for (int c : v.children)
    {
      mark_submitted(c);
      if (v.how == spawn_kind::fork)
        fs[c] = fork(pool_, child_task(c));
      else
        fs[c] = boost::async(pool_, child_task(c));
    }
    for (std::size_t step = 0; step <= kids; ++step)
    {
      if (static_cast<int>(step) == v.deps_at)
        wait_for_deps(i);
      if (step == kids)
        break;
      joinable_future<void>& f = fs[v.join_order[step]];
      switch (v.join_kinds[step])
      {
      case join_kind::member:
        f.join();
        break;
      case join_kind::with_pool:
        fj::join(pool_, f);
        break;
      case join_kind::without_pool:
        fj::join(f);
        break;
      case join_kind::range:
      {
        // The futures not joined yet, in join order (joining a ready one again is harmless).
        std::vector<joinable_future<void>*> rest;
        for (std::size_t s = step; s < kids; ++s)
          rest.push_back(&fs[v.join_order[s]]);
        std::vector<joinable_future<void>> moved;
        for (auto* p : rest)
          moved.push_back(std::move(*p));
        fj::join(pool_, moved.begin(), moved.end());
        for (std::size_t s = 0; s < rest.size(); ++s)
          *rest[s] = std::move(moved[s]);
        break;
      }
      }
    }
    for (int c : v.children)
      fs[c].get(); // a child's exception would be a failure: run_node catches everything
  }

  // parallel_invoke with the own work and the children, k children as one call for k <= 3,
  // else as a tree of binary parallel_invokes.
  void spawn_with_invoke(int i)
  {
    const node& v = g_.nodes[i];
    for (int c : v.children)
      mark_submitted(c);
    auto own = [this, i] { wait_for_deps(i); };
    if (v.how == spawn_kind::invoke_own_first)
      invoke_with(own, v.children, true);
    else
      invoke_with(own, v.children, false);
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
      return run_node(kids[lo]);
    const std::size_t mid = lo + (hi - lo) / 2;
    boost::parallel_invoke(pool_, [&] { invoke_range(kids, lo, mid); }, [&] { invoke_range(kids, mid, hi); });
  }

  void spawn_with_block(int i)
  {
    const node& v = g_.nodes[i];
    boost::define_task_block(pool_, [&](boost::task_block& tb) {
      const int kids = static_cast<int>(v.children.size());
      for (int k = 0; k <= kids; ++k)
      {
        if (k == v.deps_at)
          wait_for_deps(i);
        if (k == v.block_wait_at)
          tb.wait();
        if (k == kids)
          break;
        const int c = v.children[k];
        mark_submitted(c);
        tb.run([this, c] { run_node(c); });
      }
    });
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
      switch (v.dep_kinds[k])
      {
      case 0:
        fj::join(pool_, f);
        break;
      case 1:
        fj::join(f);
        break;
      default:
      {
        // Two at once: this dep and the next one (or this one twice).
        boost::shared_future<void> g2 = done_future_[v.deps[k + 1 < v.deps.size() ? k + 1 : k]];
        fj::join(pool_, f, g2);
        break;
      }
      }
    }
  }

  fork_join_thread_pool& pool_;
  const graph& g_;
  std::size_t n_;
  std::vector<std::uint64_t> value_; // plain: written by the node, read after a join
  std::vector<int> runs_;            // plain, as value_
  std::vector<int> errors_;          // plain, as value_
  std::vector<boost::promise<void> > done_;
  std::vector<boost::shared_future<void> > done_future_;
  std::unique_ptr<std::atomic<int>[]> state_;
  std::vector<std::uint64_t> observed_; // per outside thread: sum of the values it read
  std::atomic<long> early_waits_{0};
  std::mutex error_mtx_;
  std::string error_text_;
};

// ---------------------------------------------------------------------------------------------
// The driver

struct tally
{
  long tried = 0;
  long failed = 0;
};

void run_graphs(bool strict)
{
  const std::uint64_t base = env_or("FJ_GRAPH_SEED", 20260923);
  const std::uint64_t replay = env_or("FJ_GRAPH_REPLAY", 0);
  const bool verbose = env_or("FJ_GRAPH_VERBOSE", 0) != 0;
  const long per_count = replay ? 1
                                : static_cast<long>(env_or(
                                      "FJ_GRAPH_COUNT", std::max(1, 100 * BOOST_THREAD_FJ_TEST_STRESS / BOOST_THREAD_FJ_TEST_SCALE)));
  std::printf("%s graphs: base seed %llu (FJ_GRAPH_SEED), %ld graphs per thread count%s\n",
              strict ? "strict fork/join" : "general", (unsigned long long)base, per_count,
              replay ? " (replay)" : "");
  std::fflush(stdout);

  tally totals[4];
  long early = 0, graph_number = 0;
  const auto t0 = std::chrono::steady_clock::now();
  for (int tc = 0; tc < 4; ++tc)
  {
    const unsigned threads = thread_counts[tc];
    for (long k = 0; k < per_count; ++k, ++graph_number)
    {
      const std::uint64_t seed =
          replay ? replay : mix(base ^ mix((strict ? 0x5000000ULL : 0) + std::uint64_t(threads) * 1000003ULL + k));
      const graph g = generate(seed, strict);
      if (verbose)
      {
        std::printf("graph %ld, %u threads, %s\n", graph_number, threads, g.shape().c_str());
        std::fflush(stdout);
      }
      std::unique_ptr<graph_run> run;
      {
        fork_join_thread_pool pool(threads);
        run.reset(new graph_run(pool, g));
        graph_run* r = run.get();
        the_watchdog().arm([&g, r, threads, graph_number] {
          std::ostringstream s;
          s << "graph " << graph_number << " on " << threads << " threads: " << g.shape() << '\n'
            << g.dump() << "not finished:" << r->unfinished() << '\n'
            << "replay: FJ_GRAPH_REPLAY=" << g.seed << " --run_test=" << (g.strict ? "strict_fork_join_graphs" : "general_graphs")
            << "\ngraph " << graph_number << " hung\n";
          return s.str();
        });
        run->run();
        pool.close();
        pool.join();
        the_watchdog().disarm();
      }
      ++totals[tc].tried;
      early += run->early_waits();
      const std::string problems = run->check();
      if (!problems.empty())
      {
        ++totals[tc].failed;
        BOOST_ERROR("graph " << graph_number << " on " << threads << " threads failed: " << g.shape() << ": " << problems);
      }
    }
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  for (int tc = 0; tc < 4; ++tc)
    std::printf("  %u threads: %ld graphs tried, %ld failed\n", thread_counts[tc], totals[tc].tried, totals[tc].failed);
  if (!strict)
    std::printf("  waits that began before the awaited node was submitted: %ld\n", early);
  std::printf("  %.1f s\n", seconds);
  std::fflush(stdout);
}

} // namespace

BOOST_AUTO_TEST_CASE(strict_fork_join_graphs)
{
  run_graphs(true);
}

BOOST_AUTO_TEST_CASE(general_graphs)
{
  run_graphs(false);
}

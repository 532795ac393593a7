// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// White-box: a thread reuses the states of its forks (detail/fork_join/futures/fork_recycler.hpp).
// A reused state must behave as a new one for every Boost use of its future (value, exception,
// then(), timed waits, wait_for_any), states whose futures end elsewhere must come back (the
// sweep), and a state must be freed exactly once whichever of its thread's exit, its run and
// its future's end comes last. Result types count their live instances: a leaked state keeps
// its result alive; LeakSanitizer (the ASan build) reports a leaked state as well.

#ifndef BOOST_TEST_MODULE // a group of test files built as one program names its own
#define BOOST_TEST_MODULE detail_fork_recycler
#endif
#include "../watchdog.hpp"

#include <boost/thread/executors/fork_join.hpp>
#include <boost/thread/latch.hpp>
#include <boost/thread/future.hpp>

#include <atomic>
#include <cstdint>
#include <functional>
#include <future>
#include <stdexcept>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

BOOST_AUTO_TEST_SUITE(detail_fork_recycler_pass) // this file's tests, which CTest runs by this name

namespace ex = boost::executors;

namespace {

#ifdef BOOST_THREAD_FJ_NO_FORK_RECYCLING
constexpr bool recycling = false;
#else
constexpr bool recycling = true;
#endif

// A result that counts its live instances.
std::atomic<long> live{0};
struct counted
{
  explicit counted(int v = 0) : value(v) { live.fetch_add(1, std::memory_order_relaxed); }
  counted(const counted& o) : value(o.value) { live.fetch_add(1, std::memory_order_relaxed); }
  ~counted() { live.fetch_sub(1, std::memory_order_relaxed); }
  counted& operator=(const counted&) = default;
  int value;
};

counted make_counted(int v) { return counted(v); }
std::uint64_t twice(std::uint64_t x) { return 2 * x; }
std::uint64_t fail(std::uint64_t x) { throw std::runtime_error(std::to_string(x)); }

// Runs f() as a task of pool and returns its result (fork and join take their pool-thread paths).
template <class F>
auto on_pool(ex::fork_join_thread_pool& pool, F f)
{
  std::promise<decltype(f())> result;
  std::future<decltype(f())> done = result.get_future();
  pool.submit([&] {
    try
    {
      result.set_value(f());
    }
    catch (...)
    {
      result.set_exception(std::current_exception());
    }
  });
  return done.get();
}

template <class Future>
const void* fork_state_of(const Future& f)
{
  return boost::detail::fork_join::task_of(f);
}

// The state types of ex::fork(pool, twice, x) and ex::fork(pool, make_counted, i), and how many
// states of that type the calling thread holds (0 without a recycler).
template <class R, class A>
using state_of = boost::detail::fork_join::fork_state<R, R (*)(A), std::tuple<A> >;
template <class State>
std::size_t states_held()
{
  const auto* r = boost::detail::fork_join::fork_recycler<State>::existing();
  return r ? r->states() : 0;
}

} // namespace

// The state of a joined and destroyed fork is the next fork's, on the thread that forked it:
// a thousand forks in turn use one state.
BOOST_AUTO_TEST_CASE(a_finished_fork_state_is_the_next_forks)
{
  ex::fork_join_thread_pool pool(1);
  typedef state_of<std::uint64_t, std::uint64_t> state;
  on_pool(pool, [&] {
    const void* first = nullptr;
    bool all_same = true;
    for (std::uint64_t i = 0; i < 1000; ++i)
    {
      ex::joinable_future<std::uint64_t> f = ex::fork(pool, twice, i);
      if (i == 0)
        first = fork_state_of(f);
      all_same = all_same && fork_state_of(f) == first;
      f.join();
      BOOST_TEST(f.get() == 2 * i);
    }
    BOOST_TEST((all_same || !recycling)); // without reuse the state cache may give the same memory
    BOOST_TEST(states_held<state>() == (recycling ? 1u : 0u));
    return 0;
  });
}

// A reused state's future behaves as a new one's: exception then value then exception, a then()
// continuation, a timed wait, wait_for_any, a second get() of a consumed future, a future that
// is not ready yet.
BOOST_AUTO_TEST_CASE(a_reused_state_behaves_as_new)
{
  ex::fork_join_thread_pool pool(2);
  on_pool(pool, [&] {
    for (int round = 0; round < 50; ++round)
    {
      {
        ex::joinable_future<std::uint64_t> f = ex::fork(pool, fail, std::uint64_t(round));
        f.join();
        BOOST_TEST(f.has_exception());
        try
        {
          f.get();
          BOOST_TEST(false);
        }
        catch (const std::runtime_error& e)
        {
          BOOST_TEST(std::string(e.what()) == std::to_string(round));
        }
      }
      {
        ex::joinable_future<std::uint64_t> f = ex::fork(pool, twice, std::uint64_t(round));
        f.join();
        BOOST_TEST(f.has_value());
        BOOST_TEST(!f.has_exception());
        BOOST_TEST(f.get() == 2u * round);
      }
      {
        ex::joinable_future<std::uint64_t> f = ex::fork(pool, twice, std::uint64_t(round));
        boost::future<std::uint64_t> next = f.then([](boost::future<std::uint64_t> p) { return p.get() + 1; });
        ex::join(pool, next);
        BOOST_TEST(next.get() == 2u * round + 1);
      }
      {
        ex::joinable_future<std::uint64_t> f = ex::fork(pool, twice, std::uint64_t(round));
        while (f.wait_for(boost::chrono::milliseconds(1)) != boost::future_status::ready)
          pool.try_executing_one();
        BOOST_TEST(f.get() == 2u * round);
      }
      {
        ex::joinable_future<std::uint64_t> a = ex::fork(pool, twice, std::uint64_t(round));
        ex::joinable_future<std::uint64_t> b = ex::fork(pool, fail, std::uint64_t(round));
        ex::join(pool, a, b);
        boost::wait_for_any(a, b);
        BOOST_TEST(a.get() == 2u * round);
        BOOST_TEST(b.has_exception());
      }
    }
    return 0;
  });
  // From outside the pool: the future waits (Boost's wait()) for a task that has not run yet.
  for (int round = 0; round < 20; ++round)
  {
    boost::latch started(1), release(1);
    ex::joinable_future<std::uint64_t> blocker = ex::fork(pool, [&] {
      started.count_down();
      release.wait();
      return std::uint64_t(7);
    });
    started.wait();
    ex::joinable_future<std::uint64_t> f = ex::fork(pool, twice, std::uint64_t(round));
    release.count_down();
    BOOST_TEST(f.get() == 2u * round); // Boost's get(): waits on the shared state
    BOOST_TEST(blocker.get() == 7u);
  }
}

// Futures that end elsewhere than in a joinable_future on the forking thread (plain
// boost::futures a fork's future was moved into, futures moved to another thread) come back by
// the sweep: a long run of them holds a bounded number of states, and idle states shrink back to
// the recycler's idle capacity. Results are destroyed when their state goes idle or is freed.
BOOST_AUTO_TEST_CASE(states_of_futures_ended_elsewhere_come_back)
{
  typedef state_of<counted, int> state;
  typedef boost::detail::fork_join::fork_recycler<state> recycler;
  {
    ex::fork_join_thread_pool pool(2);
    on_pool(pool, [&] {
      for (int i = 0; i < 20000; ++i)
      {
        boost::future<counted> f = ex::fork(pool, make_counted, i); // a plain future: no give back
        ex::join(pool, f);
        BOOST_TEST(f.get().value == i);
      }
      BOOST_TEST(states_held<state>() <= (recycling ? 2 * recycler::first_sweep : 0u));
      std::vector<ex::joinable_future<counted> > moved;
      for (int i = 0; i < 2000; ++i)
        moved.push_back(ex::fork(pool, make_counted, i));
      ex::join(pool, moved.begin(), moved.end());
      BOOST_TEST(states_held<state>() >= (recycling ? 2000u : 0u));
      std::thread([&] { moved.clear(); }).join(); // the last references end on another thread
      for (int i = 0; i < 20000; ++i)
      {
        ex::joinable_future<counted> f = ex::fork(pool, make_counted, i);
        f.join();
        BOOST_TEST(f.get().value == i);
      }
      BOOST_TEST(states_held<state>() <= (recycling ? recycler::idle_capacity + 2 : 0u));
      for (int i = 0; i < 2000; ++i)
      {
        boost::future<counted> f = boost::async(pool, make_counted, i);
        ex::join(pool, f);
        BOOST_TEST(f.get().value == i);
      }
      return 0;
    });
  }
  BOOST_TEST(live.load() == 0);
}

// A burst of forks that recurs makes its states once: a chain deeper than the recycler's idle
// capacity, run again and again (as a program calls the same parallel routine, or a benchmark
// repeats a run), spans many periodic sweeps, and none of them may free the states the next
// burst needs (a sweep that only halved the bound would free up to half of them, for the next
// run to make again). Once the bursts stop, the idle states still go back.
int chain(ex::fork_join_thread_pool& pool, int n)
{
  if (n == 0)
    return 0;
  ex::joinable_future<int> below = ex::fork(pool, chain, std::ref(pool), n - 1);
  ex::join(pool, below);
  return below.get() + 1;
}

BOOST_AUTO_TEST_CASE(a_recurring_burst_makes_its_states_once)
{
  typedef boost::detail::fork_join::fork_state<int, int (*)(ex::fork_join_thread_pool&, int),
                                               std::tuple<std::reference_wrapper<ex::fork_join_thread_pool>, int> >
      state;
  typedef boost::detail::fork_join::fork_recycler<state> recycler;
  constexpr int depth = 1200; // states in flight at once, far above idle_capacity
  static_assert(depth > 4 * recycler::idle_capacity, "a burst the idle capacity alone would not keep");
  // Periods of forks between periodic sweeps, with about depth states held: the first, and the
  // longest, which a steady state reaches after max_backoff quiet sweeps (fork_recycler.hpp).
  constexpr std::uint64_t period = recycler::first_period * (depth + recycler::first_sweep);
  constexpr std::uint64_t longest = period << recycler::max_backoff;
  ex::fork_join_thread_pool pool(1);
  on_pool(pool, [&] {
    BOOST_TEST_REQUIRE(chain(pool, depth) == depth);
    const recycler* r = recycler::existing();
    const std::uint64_t made = r ? r->made() : 0;
    BOOST_TEST(made >= (recycling ? std::uint64_t(depth) : 0u));
    // Bursts over a periodic sweep at every period length, the longest included (the periods
    // double from the first: period * (2^(max_backoff+1) - 1) forks), and one period more for
    // the forks before the first periodic sweep.
    const std::uint64_t burst_forks = period << (recycler::max_backoff + 1);
    for (std::uint64_t forks = 0; forks < burst_forks; forks += depth)
      BOOST_TEST_REQUIRE(chain(pool, depth) == depth);
    BOOST_TEST((r ? r->made() : 0) == made);
    if (r)
      BOOST_TEST(r->backoff() == recycler::max_backoff); // a steady state: the longest period
    // The bursts stop: a long run of single forks frees what they left idle, within two longest
    // periods (the one under way, whose sweep still sees the last burst, and the next, which
    // halves the bound and returns the period to the first) and three first ones (down to a
    // quarter, then to the idle capacity).
    for (std::uint64_t i = 0; i < 2 * longest + 3 * period; ++i)
      BOOST_TEST_REQUIRE(chain(pool, 1) == 1);
    BOOST_TEST(states_held<state>() <= (recycling ? recycler::idle_capacity + 2 : 0u));
    return 0;
  });
}

// The shortcut of the sweep's back-off (fork_recycler.hpp, sweep): a periodic sweep that finds
// nothing to do doubles the period, on the assumption that a steady state leaves no fork state
// behind, or that one left behind may wait a longest period. Attack: reach the longest period,
// then leave states behind (futures destroyed on another thread) while the thread still has idle
// states, so that no sweep comes for want of one; their results must be destroyed (their states
// taken back) within a longest period of forks, and the period must return to the first.
BOOST_AUTO_TEST_CASE(a_fork_state_left_behind_in_a_steady_state_comes_back)
{
  typedef state_of<counted, int> state;
  typedef boost::detail::fork_join::fork_recycler<state> recycler;
  constexpr int width = 2 * static_cast<int>(recycler::idle_capacity); // states of a burst
  constexpr int left = width / 4;                                      // futures left behind
  ex::fork_join_thread_pool pool(1);
  on_pool(pool, [&] {
    std::vector<ex::joinable_future<counted> > burst;
    const auto fork_burst = [&](int n) {
      for (int i = 0; i < n; ++i)
        burst.push_back(ex::fork(pool, make_counted, i));
      ex::join(pool, burst.begin(), burst.end());
      for (int i = 0; i < n; ++i)
        BOOST_TEST_REQUIRE(burst[i].get().value == i);
    };
    fork_burst(width);
    burst.clear();
    const recycler* r = recycler::existing();
    const std::uint64_t period = recycler::first_period * (states_held<state>() + recycler::first_sweep);
    const std::uint64_t longest = period << recycler::max_backoff;
    // A steady state: the same burst, its futures all given back, over every period length.
    for (std::uint64_t forks = 0; forks < period * ((2u << recycler::max_backoff) - 1) + longest; forks += width)
    {
      fork_burst(width);
      burst.clear();
    }
    if (r)
      BOOST_TEST_REQUIRE(r->backoff() == recycler::max_backoff);
    BOOST_TEST_REQUIRE(live.load() == 0);
    fork_burst(left);
    std::thread([&] { burst.clear(); }).join(); // their last references end on another thread
    BOOST_TEST_REQUIRE(live.load() == (recycling ? left : 0));
    std::uint64_t forks = 0;
    for (; live.load() != 0 && forks < 2 * longest; ++forks)
    {
      ex::joinable_future<counted> f = ex::fork(pool, make_counted, 1);
      f.join();
      BOOST_TEST_REQUIRE(f.get().value == 1);
    }
    BOOST_TEST(live.load() == 0);
    BOOST_TEST(forks <= longest);
    if (r)
      BOOST_TEST(r->backoff() == 0u); // the sweep took states back: the first period again
    return 0;
  });
  BOOST_TEST(live.load() == 0);
}

// boost::async(pool, f) takes its states from the same recycler; their plain futures cannot give
// them back, and the recycler stacks them and takes back those on top whose futures have ended
// (take_back_stacked), before any sweep. A long run of async + join + get holds a few states. The
// shortcut must not take back a state whose future lives on: futures kept unread while later
// asyncs are made, shared, given a continuation, or moved to another thread that reads them
// later, all keep their own values, and each result is destroyed once.
BOOST_AUTO_TEST_CASE(async_states_come_back_when_their_futures_end)
{
  typedef state_of<counted, int> state;
  typedef boost::detail::fork_join::fork_recycler<state> recycler;
  {
    ex::fork_join_thread_pool pool(2);
    on_pool(pool, [&] {
      for (int i = 0; i < 20000; ++i)
      {
        boost::future<counted> f = boost::async(pool, make_counted, i);
        ex::join(pool, f);
        BOOST_TEST_REQUIRE(f.get().value == i);
      }
      BOOST_TEST(states_held<state>() <= (recycling ? 2 * recycler::first_sweep : 0u));
      // A future kept alive sits on the stack under everything taken after it: those still
      // come back as their futures end.
      boost::future<counted> long_lived = boost::async(pool, make_counted, -1);
      for (int i = 0; i < 20000; ++i)
      {
        boost::future<counted> f = boost::async(pool, make_counted, i);
        ex::join(pool, f);
        BOOST_TEST_REQUIRE(f.get().value == i);
      }
      BOOST_TEST(states_held<state>() <= (recycling ? 2 * recycler::first_sweep : 0u));
      ex::join(pool, long_lived);
      BOOST_TEST(long_lived.get().value == -1);
      for (int round = 0; round < 200; ++round)
      {
        std::vector<boost::future<counted> > kept;
        std::vector<boost::shared_future<counted> > shared;
        std::vector<boost::future<int> > continued;
        boost::future<counted> moved = boost::async(pool, make_counted, -round);
        ex::join(pool, moved);
        int read = 1;
        std::thread reader([f = std::move(moved), &read]() mutable {
          std::this_thread::yield();
          read = f.get().value;
        });
        for (int i = 0; i < 24; ++i)
        {
          boost::future<counted> f = boost::async(pool, make_counted, 1000 * round + i);
          ex::join(pool, f);
          if (i % 3 == 0)
            kept.push_back(std::move(f));
          else if (i % 3 == 1)
            shared.push_back(f.share());
          else
            continued.push_back(f.then(pool, [](boost::future<counted> r) { return r.get().value; }));
          boost::future<counted> dropped = boost::async(pool, make_counted, i); // ends at once
          ex::join(pool, dropped);
        }
        reader.join();
        BOOST_TEST_REQUIRE(read == -round);
        ex::join(pool, continued.begin(), continued.end());
        for (int i = 0; i < 8; ++i)
        {
          BOOST_TEST_REQUIRE(kept[i].get().value == 1000 * round + 3 * i);
          BOOST_TEST_REQUIRE(shared[i].get().value == 1000 * round + 3 * i + 1);
          BOOST_TEST_REQUIRE(continued[i].get() == 1000 * round + 3 * i + 2);
        }
      }
      return 0;
    });
  }
  BOOST_TEST(live.load() == 0);
}

// A tree of boost::async calls (uts's pattern: every node calls its children, joins them all and
// ends their futures before it returns): round after round, the thread holds about as many
// states as the tree has in flight at once (depth x fan-out), not as many as it has nodes.
int async_tree(ex::fork_join_thread_pool& pool, int depth)
{
  if (depth == 0)
    return 1;
  std::vector<boost::future<int> > children;
  for (int i = 0; i < 4; ++i)
    children.push_back(boost::async(pool, async_tree, std::ref(pool), depth - 1));
  ex::join(pool, children.begin(), children.end());
  int nodes = 1;
  for (boost::future<int>& f : children)
    nodes += f.get();
  return nodes;
}

BOOST_AUTO_TEST_CASE(async_trees_reuse_their_states)
{
  typedef boost::detail::fork_join::fork_state<int, int (*)(ex::fork_join_thread_pool&, int),
                                               std::tuple<std::reference_wrapper<ex::fork_join_thread_pool>, int> >
      state;
  typedef boost::detail::fork_join::fork_recycler<state> recycler;
  ex::fork_join_thread_pool pool(1);
  on_pool(pool, [&] {
    for (int round = 0; round < 50; ++round)
      BOOST_TEST_REQUIRE(async_tree(pool, 6) == 5461);
    // 5461 nodes a round, 6 x 4 in flight at most.
    BOOST_TEST(states_held<state>() <= (recycling ? 2 * recycler::first_sweep : 0u));
    return 0;
  });
}

// A result that holds futures of the same state type: making its state idle destroys the
// result, whose futures give their own states back to the same recycler meanwhile (during a
// give back, a sweep and the thread's exit). Every node is counted once, none leaks.
struct node;
std::atomic<long> nodes{0};
struct node
{
  node() { nodes.fetch_add(1, std::memory_order_relaxed); }
  node(node&& o) noexcept : kids(std::move(o.kids)) { nodes.fetch_add(1, std::memory_order_relaxed); }
  node& operator=(node&&) = default;
  ~node() { nodes.fetch_sub(1, std::memory_order_relaxed); }
  std::vector<ex::joinable_future<node> > kids; // forked, joined, never read
};

node grow(ex::fork_join_thread_pool& pool, int depth)
{
  node n;
  if (depth > 0)
    for (int i = 0; i < 3; ++i)
      n.kids.push_back(ex::fork(pool, grow, std::ref(pool), depth - 1));
  ex::join(pool, n.kids.begin(), n.kids.end());
  return n;
}

BOOST_AUTO_TEST_CASE(a_result_holding_futures_of_its_own_type)
{
  {
    ex::fork_join_thread_pool pool(2);
    on_pool(pool, [&] {
      for (int round = 0; round < 20; ++round)
      {
        ex::joinable_future<node> root = ex::fork(pool, grow, std::ref(pool), 5);
        root.join();
        BOOST_TEST(root.get().kids.size() == 3u);
      }
      return 0;
    });
    std::vector<ex::joinable_future<node> > kept; // these end after the pool's threads exited
    for (int round = 0; round < 5; ++round)
      kept.push_back(ex::fork(pool, grow, std::ref(pool), 4));
    ex::join(pool, kept.begin(), kept.end());
    pool.close();
    pool.join();
  }
  BOOST_TEST(nodes.load() == 0);
}

// A thread that forks onto a pool and exits: its states are freed once, whichever of the exit,
// the run and the future's end comes last.
BOOST_AUTO_TEST_CASE(a_forking_thread_may_exit_first)
{
  {
    ex::fork_join_thread_pool pool(1);
    for (int order = 0; order < 3; ++order)
    {
      boost::latch started(1), release(1);
      ex::joinable_future<int> blocker = ex::fork(pool, [&] {
        started.count_down();
        release.wait();
        return 0;
      });
      started.wait(); // the pool's one thread is busy: the forks below wait in its queue
      ex::joinable_future<counted> kept;
      std::thread([&] {
        ex::joinable_future<counted> dropped = ex::fork(pool, make_counted, 1); // dropped unrun
        kept = ex::fork(pool, make_counted, 2);
        if (order == 2)
        {
          release.count_down(); // both run before this thread exits
          kept.wait();
          dropped.wait();
        }
      }).join();
      if (order != 2)
        release.count_down(); // the exit came first: the runner frees the orphans
      if (order == 1)
        kept = ex::joinable_future<counted>(); // the future's end before the run
      BOOST_TEST(blocker.get() == 0);
      if (order != 1)
        BOOST_TEST(kept.get().value == 2);
      kept = ex::joinable_future<counted>();
    }
    pool.close();
    pool.join();
  }
  BOOST_TEST(live.load() == 0);
}

BOOST_AUTO_TEST_SUITE_END()

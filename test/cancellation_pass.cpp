// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// Cancellation (an extension beyond N4411): task_block::cancel() / is_canceling(),
// cancellation_source with fork(ex, src, f, args...), and the parallel algorithms stopping in a
// canceled region. What is attacked: every fork is accounted for exactly once (its f ran once
// and its future holds its value, or it never ran and its future holds
// task_canceled_exception), canceled children that had not started never run, running ones
// finish, the algorithms stop and throw task_canceled_exception instead of returning a partial
// result, a task that a region's join helps with is not in the region, and the pool still
// closes and joins. Random cancellation points, function pointers and lambdas, 1, 2 and 4
// threads, and a basic_thread_pool for the generic paths.

#ifndef BOOST_TEST_MODULE // a group of test files built as one program names its own
#define BOOST_TEST_MODULE cancellation
#endif
#include "support.hpp"
#include "watchdog.hpp"

#include <boost/thread/executors/algorithm.hpp>
#include <boost/thread/executors/basic_thread_pool.hpp>
#include <boost/thread/executors/cancellation.hpp>
#include <boost/thread/executors/fork_join.hpp>
#include <boost/thread/executors/task_block.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <random>
#include <thread>
#include <type_traits>
#include <vector>

BOOST_AUTO_TEST_SUITE(cancellation_pass) // this file's tests, which CTest runs by this name

using boost::executors::cancellation_source;
using boost::executors::fork_join_thread_pool;
using boost::executors::joinable_future;
using boost::executors::task_block;
using boost::executors::task_canceled_exception;
namespace fj = boost::executors;
using namespace fj_test;

static_assert(!std::is_copy_constructible<cancellation_source>::value, "tasks refer to it");
static_assert(!std::is_move_constructible<cancellation_source>::value, "tasks refer to it");

namespace {

const unsigned thread_counts[] = {1u, 2u, 4u};

// Returns: how the future ended: 1 with its value (which must be `expected`), 0 with
// task_canceled_exception; fails the test otherwise.
template <class R>
int outcome(joinable_future<R>& f, const R& expected)
{
  try
  {
    const R v = f.get();
    BOOST_TEST(v == expected);
    return 1;
  }
  catch (const task_canceled_exception&)
  {
    return 0;
  }
}

// A forked task as a function pointer: marks its run, cancels the group if it is the chosen
// one, returns a value that depends on its argument.
std::uint64_t marked_work(std::atomic<int>* runs, cancellation_source* group, int k, int cancel_at)
{
  runs[k].fetch_add(1, std::memory_order_relaxed);
  if (k == cancel_at)
    group->cancel();
  return mix(std::uint64_t(k));
}

} // namespace

BOOST_AUTO_TEST_CASE(a_source_and_its_children)
{
  cancellation_source parent;
  cancellation_source child(parent);
  cancellation_source other;
  BOOST_TEST(!parent.is_canceled());
  BOOST_TEST(!child.is_canceled());
  child.cancel();
  BOOST_TEST(child.is_canceled());
  BOOST_TEST(!parent.is_canceled()); // a child does not cancel its parent
  cancellation_source second(parent);
  parent.cancel();
  parent.cancel(); // again: no effect
  BOOST_TEST(parent.is_canceled());
  BOOST_TEST(second.is_canceled());
  BOOST_TEST(!other.is_canceled());
}

BOOST_AUTO_TEST_CASE(forks_of_a_canceled_source_never_run)
{
  const int n = 200;
  for (unsigned threads : thread_counts)
  {
    BOOST_TEST_CONTEXT("threads " << threads)
    {
      fork_join_thread_pool pool(threads);
      cancellation_source group;
      group.cancel();
      std::unique_ptr<std::atomic<int>[]> runs(new std::atomic<int>[n]);
      for (int k = 0; k < n; ++k)
        runs[k].store(0);
      std::vector<joinable_future<std::uint64_t> > fs;
      for (int k = 0; k < n; ++k)
        if (k % 2)
          fs.push_back(fork(pool, group, &marked_work, runs.get(), &group, k, -1));
        else
          fs.push_back(fork(pool, group, [&runs, k] { return marked_work(runs.get(), nullptr, k, -1); }));
      join(pool, fs.begin(), fs.end());
      for (int k = 0; k < n; ++k)
      {
        BOOST_TEST(outcome(fs[std::size_t(k)], mix(std::uint64_t(k))) == 0);
        BOOST_TEST(runs[k].load() == 0);
      }
      pool.close();
      pool.join();
    }
  }
}

// Random cancellation points: one task of the group cancels it; every task ran at most once,
// and its future says whether it ran.
BOOST_AUTO_TEST_CASE(random_cancellation_points_every_fork_accounted_once)
{
  std::mt19937 random(7);
  const int n = 300;
  const int rounds = 40 / BOOST_THREAD_FJ_TEST_SCALE + 2;
  for (unsigned threads : thread_counts)
  {
    BOOST_TEST_CONTEXT("threads " << threads)
    {
      fork_join_thread_pool pool(threads);
      for (int round = 0; round < rounds; ++round)
      {
        const int cancel_at = int(random() % unsigned(n));
        cancellation_source group;
        std::unique_ptr<std::atomic<int>[]> runs(new std::atomic<int>[n]);
        for (int k = 0; k < n; ++k)
          runs[k].store(0);
        std::vector<joinable_future<std::uint64_t> > fs;
        fs.reserve(std::size_t(n));
        std::atomic<int>* const r = runs.get();
        for (int k = 0; k < n; ++k)
          if (round % 2)
            fs.push_back(fork(pool, group, &marked_work, r, &group, k, cancel_at));
          else
            fs.push_back(fork(pool, group, [r, &group, k, cancel_at] { return marked_work(r, &group, k, cancel_at); }));
        join(pool, fs.begin(), fs.end());
        int ran = 0;
        for (int k = 0; k < n; ++k)
        {
          const int o = outcome(fs[std::size_t(k)], mix(std::uint64_t(k)));
          BOOST_TEST(runs[k].load() == o); // ran exactly when its future has the value
          ran += o;
        }
        BOOST_TEST(runs[cancel_at].load() == 1); // the canceling task itself finished
        BOOST_TEST(group.is_canceled());
        BOOST_TEST(ran >= 1);
      }
      const fj::fork_join_statistics s = pool.statistics();
      BOOST_TEST(s.tasks_run >= std::uint64_t(n)); // a canceled fork is run (to store its exception)
      pool.close();
      pool.join(); // every task accounted for: does not hang
    }
  }
}

// A fork with a source on another executor and on the current pool.
BOOST_AUTO_TEST_CASE(forks_with_a_source_on_other_executors)
{
  boost::executors::basic_thread_pool basic(2);
  cancellation_source live, dead;
  dead.cancel();
  std::atomic<int> runs{0};
  auto a = fork(basic, live, [&runs](int x) { ++runs; return x + 1; }, 41);
  auto b = fork(basic, dead, [&runs](int x) { ++runs; return x + 1; }, 41);
  join(a, b);
  BOOST_TEST(a.get() == 42);
  BOOST_TEST(outcome(b, 42) == 0);
  BOOST_TEST(runs.load() == 1);

  auto c = fj::fork(live, [] { return 7; });
  auto d = fj::fork(dead, [] { return 7; });
  join(c, d);
  BOOST_TEST(c.get() == 7);
  BOOST_TEST(outcome(d, 7) == 0);

  fork_join_thread_pool pool(2);
  auto e = fork(pool, [&pool, &dead] {
    auto inner = fj::fork(dead, [] { return 1; }); // the current pool: `pool`
    join(pool, inner);
    return outcome(inner, 1);
  });
  BOOST_TEST(e.get() == 0);
}

BOOST_AUTO_TEST_CASE(a_child_source_is_canceled_with_its_parent)
{
  fork_join_thread_pool pool(2);
  cancellation_source all;
  cancellation_source part(all);
  all.cancel();
  std::atomic<int> runs{0};
  auto f = fork(pool, part, [&runs] { return ++runs; });
  join(pool, f);
  BOOST_TEST(outcome(f, 1) == 0);
  BOOST_TEST(runs.load() == 0);
}

// task_block::cancel(): children not started are skipped, running ones finish, run() then
// throws, and define_task_block returns normally (a cancel is not a failure).
BOOST_AUTO_TEST_CASE(task_block_cancel_skips_unstarted_children)
{
  const int n = 100;
  on_every_executor([&](auto& ex) {
    std::unique_ptr<std::atomic<int>[]> runs(new std::atomic<int>[n]);
    for (int k = 0; k < n; ++k)
      runs[k].store(0);
    std::atomic<int>* const r = runs.get();
    bool refused = false, canceling_seen = false;
    fj::define_task_block(ex, [&](task_block& tb) {
      BOOST_TEST(!tb.is_canceling());
      for (int k = 0; k < n; ++k)
        tb.run([r, k] { r[k].fetch_add(1, std::memory_order_relaxed); });
      tb.cancel();
      canceling_seen = tb.is_canceling();
      try
      {
        tb.run([] { BOOST_ERROR("run after cancel()"); });
      }
      catch (const task_canceled_exception&)
      {
        refused = true;
      }
    });
    BOOST_TEST(refused);
    BOOST_TEST(canceling_seen);
    for (int k = 0; k < n; ++k)
      BOOST_TEST(runs[k].load() <= 1);
  });
  // Run by the only thread of a pool, which nothing else helps (this thread waits without
  // joining until the block is over): nobody runs the children before the block's join, so all
  // of them are skipped.
  fork_join_thread_pool one(1);
  std::atomic<int> runs{0};
  std::atomic<bool> over{false};
  auto f = fork(one, [&] {
    fj::define_task_block(one, [&](task_block& tb) {
      for (int k = 0; k < 50; ++k)
        tb.run([&runs] { ++runs; });
      tb.cancel();
    });
    over = true;
  });
  wait_for(over);
  join(one, f);
  f.get();
  BOOST_TEST(runs.load() == 0);
}

BOOST_AUTO_TEST_CASE(task_block_cancel_from_a_child_at_random_points)
{
  std::mt19937 random(11);
  const int n = 200;
  for (unsigned threads : thread_counts)
  {
    BOOST_TEST_CONTEXT("threads " << threads)
    {
      fork_join_thread_pool pool(threads);
      for (int round = 0; round < 20; ++round)
      {
        const int cancel_at = int(random() % unsigned(n));
        std::unique_ptr<std::atomic<int>[]> runs(new std::atomic<int>[n]);
        for (int k = 0; k < n; ++k)
          runs[k].store(0);
        std::atomic<int>* const r = runs.get();
        bool threw = false; // run() once the child canceled, else wait()
        fj::define_task_block(pool, [&](task_block& tb) {
          try
          {
            for (int k = 0; k < n; ++k)
              tb.run([r, k, cancel_at, &tb] {
                r[k].fetch_add(1, std::memory_order_relaxed);
                if (k == cancel_at)
                  tb.cancel();
              });
            tb.wait();
          }
          catch (const task_canceled_exception&)
          {
            threw = true;
          }
        });
        BOOST_TEST(threw);
        BOOST_TEST(runs[cancel_at].load() == 1);
        for (int k = 0; k < n; ++k)
          BOOST_TEST(runs[k].load() <= 1);
      }
      pool.close();
      pool.join();
    }
  }
}

// A child that throws still produces the exception_list; a cancel() adds nothing to it.
BOOST_AUTO_TEST_CASE(task_block_cancel_and_failure)
{
  fork_join_thread_pool pool(2);
  try
  {
    fj::define_task_block(pool, [&](task_block& tb) {
      tb.run([] { throw tagged_error(3); });
      tb.wait();
    });
    BOOST_ERROR("no exception");
  }
  catch (const boost::experimental::parallel::exception_list& e)
  {
    BOOST_TEST(tags_of(e) == std::multiset<int>({3}));
  }
  bool ok = true;
  try
  {
    fj::define_task_block(pool, [&](task_block& tb) {
      tb.cancel();
      tb.wait(); // throws task_canceled_exception: a consequence, not reported
    });
  }
  catch (...)
  {
    ok = false;
  }
  BOOST_TEST(ok);
}

namespace {

// Runs parallel_for over n positions, calling cancel() at position `at`, in the region of the
// caller. Returns: whether it threw task_canceled_exception; `visited` counts the positions.
template <class Executor, class Cancel>
bool for_until_canceled(Executor& ex, std::size_t n, std::size_t at, std::atomic<std::size_t>& visited, Cancel cancel)
{
  try
  {
    fj::parallel_for(
        ex, std::size_t(0), n,
        [&](std::size_t i) {
          visited.fetch_add(1, std::memory_order_relaxed);
          if (i == at)
            cancel();
        },
        16);
  }
  catch (const task_canceled_exception&)
  {
    return true;
  }
  return false;
}

} // namespace

// An algorithm in a task block's child stops when the block is canceled and throws
// task_canceled_exception (which the block does not report).
BOOST_AUTO_TEST_CASE(algorithms_stop_in_a_canceled_block)
{
  const std::size_t n = 20000;
  on_every_executor([&](auto& ex) {
    std::atomic<std::size_t> visited{0};
    bool threw = false;
    fj::define_task_block(ex, [&](task_block& tb) {
      tb.run([&] { threw = for_until_canceled(ex, n, 100, visited, [&tb] { tb.cancel(); }); });
    });
    BOOST_TEST(threw);
    BOOST_TEST(visited.load() <= n);
  });
  // On the only thread of a pool, which nothing else helps (as above): the chunks after the
  // canceling one are all skipped.
  fork_join_thread_pool one(1);
  std::atomic<std::size_t> visited{0};
  bool threw = false;
  std::atomic<bool> over{false};
  auto f = fork(one, [&] {
    fj::define_task_block(one, [&](task_block& tb) {
      threw = for_until_canceled(one, n, 100, visited, [&tb] { tb.cancel(); });
    });
    over = true;
  });
  wait_for(over);
  join(one, f);
  f.get();
  BOOST_TEST(threw);
  BOOST_TEST(visited.load() < n);
  BOOST_TEST(visited.load() > 100);
}

// The algorithms in a fork of a canceled source stop; the fork's future reports it.
BOOST_AUTO_TEST_CASE(algorithms_stop_in_a_canceled_fork)
{
  std::mt19937 random(5);
  const std::size_t n = large / 10;
  for (unsigned threads : thread_counts)
  {
    BOOST_TEST_CONTEXT("threads " << threads)
    {
      fork_join_thread_pool pool(threads);
      for (int round = 0; round < 6; ++round)
      {
        const std::size_t at = random() % n;
        cancellation_source group;
        std::atomic<std::size_t> visited{0};
        // parallel_for
        auto f = fork(pool, group, [&pool, &group, &visited, at] {
          return for_until_canceled(pool, n, at, visited, [&group] { group.cancel(); });
        });
        join(pool, f);
        BOOST_TEST(f.get()); // the future holds true: parallel_for threw, f caught it
        // parallel_transform_reduce: throws instead of returning a partial sum
        cancellation_source group2;
        auto g = fork(pool, group2, [&pool, &group2, at] {
          return fj::parallel_transform_reduce(pool, std::size_t(0), n, std::uint64_t(0), std::plus<>(),
                                               [&group2, at](std::size_t i) {
                                                 if (i == at)
                                                   group2.cancel();
                                                 return mix(i);
                                               }, 64);
        });
        join(pool, g);
        BOOST_TEST(outcome(g, std::uint64_t(0)) == 0);
        // parallel_sort: throws, and leaves a permutation of the elements
        std::vector<std::uint64_t> v(n);
        for (std::size_t i = 0; i < n; ++i)
          v[i] = mix(i) % 1000;
        std::vector<std::uint64_t> sorted = v;
        std::sort(sorted.begin(), sorted.end());
        cancellation_source group3;
        std::atomic<std::size_t> comparisons{0};
        const std::size_t stop_after = at;
        auto h = fork(pool, group3, [&] {
          fj::parallel_sort(pool, v.begin(), v.end(), [&](std::uint64_t x, std::uint64_t y) {
            if (comparisons.fetch_add(1, std::memory_order_relaxed) == stop_after)
              group3.cancel();
            return x < y;
          });
          return 1;
        });
        join(pool, h);
        BOOST_TEST(outcome(h, 1) == 0);
        std::sort(v.begin(), v.end());
        BOOST_TEST((v == sorted));
      }
    }
  }
}

// A task that a canceled region's join runs (a plain fork) is not in the region: its algorithm
// runs to its end.
BOOST_AUTO_TEST_CASE(a_helped_task_is_not_in_the_region)
{
  const std::size_t n = 5000;
  for (unsigned threads : thread_counts)
  {
    BOOST_TEST_CONTEXT("threads " << threads)
    {
      fork_join_thread_pool pool(threads);
      cancellation_source group;
      auto f = fork(pool, group, [&pool, &group] {
        group.cancel(); // this task runs on; the region is canceled
        auto plain = fork(pool, [&pool] {
          std::atomic<std::size_t> visited{0};
          fj::parallel_for(pool, std::size_t(0), n, [&visited](std::size_t) { ++visited; }, 8);
          return visited.load();
        });
        join(pool, plain);
        return plain.get();
      });
      join(pool, f);
      BOOST_TEST(f.get() == n);
      // Inside a canceled block, a block that the canceled one's child starts throws.
      bool nested_threw = false;
      fj::define_task_block(pool, [&](task_block& tb) {
        tb.cancel();
        try
        {
          fj::define_task_block(pool, [](task_block& inner) { inner.run([] {}); });
        }
        catch (const task_canceled_exception&)
        {
          nested_threw = true;
        }
      });
      BOOST_TEST(nested_threw);
    }
  }
}

// A block's child is in the block's region wherever it runs: taken by another thread, or by
// the owner's final join from under a fork that nobody joins yet, in a task frame of its own
// (the one-thread case; a child nobody took runs inline, in the block's own frame). The child
// cancels the block, then starts a block of its own, which is nested in the canceled one and
// so throws. The same for an algorithm's split that another thread or a helping join takes: a
// block in a chunk of a canceled parallel_for's call throws.
BOOST_AUTO_TEST_CASE(a_child_is_in_its_region_wherever_it_runs)
{
  for (unsigned threads : thread_counts)
  {
    BOOST_TEST_CONTEXT("threads " << threads)
    {
      fork_join_thread_pool pool(threads);
      for (int round = 0; round < 20; ++round)
      {
        std::atomic<int> threw{0};
        auto outer = fork(pool, [&pool, &threw] {
          std::unique_ptr<joinable_future<int> > plain;
          fj::define_task_block(pool, [&](task_block& tb) {
            tb.run([&] {
              tb.cancel();
              try
              {
                fj::define_task_block(pool, [](task_block& inner) { inner.run([] {}); });
              }
              catch (const task_canceled_exception&)
              {
                ++threw;
              }
            });
            plain.reset(new joinable_future<int>(fork(pool, [] { return 1; })));
          });
          join(pool, *plain);
          return plain->get();
        });
        join(pool, outer);
        BOOST_TEST(outer.get() == 1);
        BOOST_TEST(threw.load() == 1);
      }
      // Chunk 0, which the calling thread (not a pool thread) reaches first, waits until a pool
      // thread has taken a split and started a chunk (or a while), then cancels the block; every
      // chunk waits for the cancel, then starts a block.
      std::atomic<bool> canceled{false};
      std::atomic<int> chunks_started{0};
      std::atomic<int> chunks_ran{0};
      std::atomic<int> chunks_threw{0};
      fj::define_task_block(pool, [&](task_block& tb) {
        fj::parallel_for(
            pool, 0, 64,
            [&](int i) {
              if (i == 0)
              {
                const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(2);
                while (chunks_started.load() == 0 && std::chrono::steady_clock::now() < until)
                  std::this_thread::yield();
                tb.cancel();
                canceled = true;
              }
              else
                ++chunks_started;
              while (!canceled)
                std::this_thread::yield();
              ++chunks_ran;
              try
              {
                fj::define_task_block(pool, [](task_block& inner) { inner.run([] {}); });
              }
              catch (const task_canceled_exception&)
              {
                ++chunks_threw;
              }
            },
            1);
      });
      BOOST_TEST(chunks_ran.load() >= 2);
      BOOST_TEST(chunks_threw.load() == chunks_ran.load());
    }
  }
}

// An algorithm's exception cancels the algorithms nested in its other chunks; the list holds
// the cause only, not their task_canceled_exception.
BOOST_AUTO_TEST_CASE(nested_algorithms_see_their_callers_failure)
{
  on_every_executor([&](auto& ex) {
    try
    {
      fj::parallel_for(
          ex, 0, 8,
          [&ex](int i) {
            if (i == 0)
              throw tagged_error(1);
            fj::parallel_for(ex, 0, 1000, [](int) {}, 4);
          },
          1);
      BOOST_ERROR("no exception");
    }
    catch (const boost::experimental::parallel::exception_list& e)
    {
      BOOST_TEST(tags_of(e) == std::multiset<int>({1}));
    }
  });
}

// Without any cancellation the algorithms and blocks return their whole results (the region
// machinery changes nothing there).
BOOST_AUTO_TEST_CASE(no_cancellation_whole_results)
{
  on_every_executor([&](auto& ex) {
    const std::size_t n = 10000;
    std::uint64_t expected = 0;
    for (std::size_t i = 0; i < n; ++i)
      expected += mix(i);
    std::uint64_t got = 0;
    fj::define_task_block(ex, [&](task_block& tb) {
      tb.run([&] {
        got = fj::parallel_transform_reduce(ex, std::size_t(0), n, std::uint64_t(0), std::plus<>(),
                                            [](std::size_t i) { return mix(i); }, 32);
      });
    });
    BOOST_TEST(got == expected);
  });
}

BOOST_AUTO_TEST_SUITE_END()

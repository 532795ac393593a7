// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// Children that parallel_invoke keeps back from a full deque (doc/design.md, "Fast paths and
// their assumptions", "Deferred children"): a call of two children or more on a pool thread
// whose deque already holds BOOST_THREAD_FJ_DEFER_DEPTH tasks, or one or more while no thread
// of the pool looks for work, runs them itself, unless its thread must park or block first,
// which queues them; a call that sees a thread look for work queues them too. So do a task block's children made on a
// deque of BOOST_THREAD_FJ_BLOCK_DEFER_DEPTH tasks ("A block's records kept back"): records for
// which the block queues no task until its stack stops, or a join of a stolen child finds the
// deque empty; the cases whose names speak of a block or of records attack that. The shortcuts
// assume that nothing needs the children elsewhere; these tests need them elsewhere: a sibling
// that waits for a kept-back child (through a park, on one thread and two; through an isolated
// frame's block; by spinning, while a join of a stolen child on an empty deque queues them for
// the thief; a waiter of a task that runs above the block, which must not run the block's
// claimer), calls kept back at several depths of one stack, exceptions, exactly-once
// accounting against serial code, and chains that run out of stack. Each case first fills the
// calling thread's deque, and checks that the call under test did keep its children back;
// without the queuing before a park or block each wait below hangs (the watchdog ends the run).

#ifndef BOOST_TEST_MODULE // a group of test files built as one program names its own
#define BOOST_TEST_MODULE deferred_children
#endif
#include "support.hpp"
#include "watchdog.hpp"

#include <boost/thread/executors/fork_join.hpp>
#include <boost/thread/executors/parallel_invoke.hpp>
#include <boost/thread/executors/task_block.hpp>
#include <boost/thread/future.hpp>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <future>
#include <set>
#include <thread>
#include <vector>

BOOST_AUTO_TEST_SUITE(deferred_children_pass) // this file's tests, which CTest runs by this name

using boost::executors::fork_join_thread_pool;
using boost::experimental::parallel::exception_list;
namespace fj = boost::executors;
namespace fjd = boost::detail::fork_join;
using namespace fj_test;

namespace {

// Whether the calling pool thread's innermost parallel_invoke keeps its children back now
// (white box: worker_slot::deferred).
bool kept_back_here()
{
  const fjd::worker_context* const w = fjd::current_worker;
  return w && static_cast<const fjd::worker_slot*>(w->slot)->deferred_top != 0;
}

// Runs f on a pool thread of `pool` whose deque holds at least BOOST_THREAD_FJ_DEFER_DEPTH tasks
// while f runs: forks, first that many and four more, each a task of its own on the calling
// thread's deque. They wait until f has returned, or until `release` is set, if earlier: a
// thief that takes one is held there, so that on two threads at most one of them leaves the
// deque before f ends.
template <class F>
void under_a_full_deque(fork_join_thread_pool& pool, F f, std::atomic<bool>* release = nullptr)
{
  std::atomic<bool> done{false};
  fj::fork(pool, [&] {
    std::vector<fj::joinable_future<void> > fillers;
    const auto wait_for_f = [&] {
      while (!done.load(std::memory_order_acquire) && !(release && release->load(std::memory_order_acquire)))
        std::this_thread::yield();
    };
    for (std::size_t i = 0; i != std::size_t(BOOST_THREAD_FJ_DEFER_DEPTH) + 4; ++i)
      fillers.push_back(fj::fork(pool, wait_for_f));
    const auto join_fillers = [&] {
      done.store(true, std::memory_order_release);
      for (fj::joinable_future<void>& x : fillers)
        x.join();
    };
    try
    {
      f();
    }
    catch (...)
    {
      join_fillers();
      throw;
    }
    join_fillers();
  }).get();
}

// Whether the calling pool thread's deque holds no task (white box: exact for its owner while
// no thief is taking one).
bool own_deque_empty()
{
  const fjd::worker_context* const w = fjd::current_worker;
  return w && static_cast<const fjd::worker_slot*>(w->slot)->deque.empty();
}

// The number of tasks in the calling pool thread's deque (white box: exact for its owner while
// no thief is taking one; a thief only lowers it).
std::size_t own_deque_size()
{
  const fjd::worker_context* const w = fjd::current_worker;
  return w ? static_cast<const fjd::worker_slot*>(w->slot)->deque.size() : 0;
}

// Runs `children` (each a callable) as a task block's children on `pool`, and returns whether
// the block kept them back: its run()s pushed nothing onto the calling thread's deque.
template <class... Children>
bool block_of(fork_join_thread_pool& pool, Children... children)
{
  bool kept = false;
  fj::define_task_block(pool, [&](fj::task_block& tb) {
    const std::size_t before = own_deque_size();
    (tb.run(children), ...);
    kept = own_deque_size() <= before;
  });
  return kept;
}

// Tribonacci through task blocks of three children (each kept back where the deque is full).
std::uint64_t block_trib(fork_join_thread_pool& pool, int n)
{
  if (n < 3)
    return n == 2 ? 1 : 0;
  std::uint64_t a = 0, b = 0, c = 0;
  fj::define_task_block(pool, [&](fj::task_block& tb) {
    tb.run([&] { a = block_trib(pool, n - 1); });
    tb.run([&] { b = block_trib(pool, n - 2); });
    tb.run([&] { c = block_trib(pool, n - 3); });
  });
  return a + b + c;
}

// A chain through task blocks of one child, which continues it.
std::size_t block_chain(fork_join_thread_pool& pool, std::size_t n)
{
  if (n == 0)
    return 0;
  std::size_t below = 0;
  fj::define_task_block(pool, [&](fj::task_block& tb) { tb.run([&] { below = block_chain(pool, n - 1); }); });
  return below + 1;
}

// Tribonacci, three children a call (a call of one child never keeps it back).
std::uint64_t trib(fork_join_thread_pool& pool, int n)
{
  if (n < 3)
    return n == 2 ? 1 : 0;
  std::uint64_t a = 0, b = 0, c = 0;
  fj::parallel_invoke(pool, [&] { a = trib(pool, n - 1); }, [&] { b = trib(pool, n - 2); }, [&] { c = trib(pool, n - 3); });
  return a + b + c;
}

std::uint64_t serial_trib(int n) { return n < 3 ? (n == 2 ? 1 : 0) : serial_trib(n - 1) + serial_trib(n - 2) + serial_trib(n - 3); }

// The calls of parallel_invoke that trib(n) makes.
std::uint64_t trib_invokes(int n) { return n < 3 ? 0 : 1 + trib_invokes(n - 1) + trib_invokes(n - 2) + trib_invokes(n - 3); }

// A chain that nests through the children: each level's second child continues it (a call
// of one child never keeps it back).
std::size_t chain(fork_join_thread_pool& pool, std::size_t n)
{
  if (n == 0)
    return 0;
  std::size_t below = 0;
  fj::parallel_invoke(pool, [] {}, [&] { below = chain(pool, n - 1); }, [] {});
  return below + 1;
}

// The waiting first callable of the cases below: counts in `kept` whether its call keeps its
// children back, then joins f, which a sibling kept back (or a child of a call below) sets.
void note_then_wait(fork_join_thread_pool& pool, boost::shared_future<int> f, int& kept, int& got)
{
  kept += kept_back_here();
  fj::join(pool, f);
  got = f.get();
}

// On a pool thread of a 2-thread pool under a full deque: lets the other thread take the
// deque's tasks (release), waits until it has, then joins a child y stolen from the now empty
// deque: x, run inline, returns once the other thread has taken y, so that the join of y finds
// the deque empty (pool_core::queue_deferred_if_empty). y then calls then().
template <class Then = void (*)()>
void join_a_stolen_child_on_an_emptied_deque(fork_join_thread_pool& pool, std::atomic<bool>& release, Then then = [] {})
{
  release.store(true, std::memory_order_release);
  while (!own_deque_empty())
    std::this_thread::yield();
  std::atomic<bool> y_started{false};
  fj::parallel_invoke(
      pool,
      [&] {
        while (!y_started.load(std::memory_order_acquire))
          std::this_thread::yield();
      },
      [&] {
        y_started.store(true, std::memory_order_release);
        then();
      });
}

// A child that counts itself in *finished, then throws tagged_error(tag).
struct throwing_child
{
  std::atomic<int>* finished;
  int tag;
  void operator()() const
  {
    finished->fetch_add(1);
    throw tagged_error(tag);
  }
};

// Runs call() on a full deque of pool; returns the tags of the exception_list it throws (none if
// it throws nothing).
template <class Call>
std::multiset<int> tags_thrown_on_a_full_deque(fork_join_thread_pool& pool, Call call)
{
  std::multiset<int> tags;
  under_a_full_deque(pool, [&] {
    try
    {
      call();
    }
    catch (const exception_list& list)
    {
      tags = tags_of(list);
    }
  });
  return tags;
}

// On a pool thread of `pool` under a full deque, inside an isolated region: call(p, f, release)
// with a promise p, f its shared future, and the flag that lets the fillers end early (so
// that, on two threads, the other thread is free to run a child the call queues).
template <class Call>
void isolated_on_a_full_deque(fork_join_thread_pool& pool, Call call)
{
  std::atomic<bool> release{false};
  under_a_full_deque(
      pool,
      [&] {
        fj::isolate([&] {
          boost::promise<int> p;
          const boost::shared_future<int> f = p.get_future().share();
          call(p, f, release);
        });
      },
      &release);
}

// Two siblings for the joins of a stolen child below: k2 spins, with no wait of the library,
// until k1 has started; each counts its runs, and k1 notes its thread.
struct spinning_siblings
{
  std::atomic<bool> k1_started{false};
  std::atomic<int> k1_runs{0}, k2_runs{0};
  std::thread::id k1_thread;

  auto k1()
  {
    return [this] {
      k1_thread = std::this_thread::get_id();
      k1_runs.fetch_add(1);
      k1_started.store(true, std::memory_order_release);
    };
  }
  auto k2()
  {
    return [this] {
      k2_runs.fetch_add(1);
      while (!k1_started.load(std::memory_order_acquire))
        std::this_thread::yield();
    };
  }
};

} // namespace

BOOST_AUTO_TEST_CASE(kept_back_children_run_exactly_once_with_serial_results)
{
  for (unsigned threads : {1u, 2u})
  {
    fork_join_thread_pool pool(threads);
    const std::uint64_t before = pool.statistics().tasks_run;
    bool kept = false;
    std::uint64_t r = 0;
    std::atomic<int> runs[5] = {};
    under_a_full_deque(pool, [&] {
      fj::parallel_invoke(
          pool, [&] { kept = kept_back_here(); runs[0].fetch_add(1); }, [&] { runs[1].fetch_add(1); }, [&] { runs[2].fetch_add(1); },
          [&] { runs[3].fetch_add(1); }, [&] { runs[4].fetch_add(1); });
      r = trib(pool, 18);
    });
    BOOST_TEST(kept == (BOOST_THREAD_FJ_DEFER_DEPTH != 0));
    for (auto& n : runs)
      BOOST_TEST(n.load() == 1);
    BOOST_TEST(r == serial_trib(18));
    // Kept back or not, every child is a task run (tasks_run's definition): 4 of the call
    // above, 2 per call of trib, the block's children, and the fork.
    BOOST_TEST(pool.statistics().tasks_run - before == 4 + 2 * trib_invokes(18) + BOOST_THREAD_FJ_DEFER_DEPTH + 4 + 1);
  }
}

// f1 waits for what f2, kept back behind it, provides. f1 runs first; its wait may run nothing
// it awaits, parks, and the park queues f2, which the thread then runs.
BOOST_AUTO_TEST_CASE(a_kept_back_child_may_be_what_its_sibling_waits_for)
{
  for (unsigned threads : {1u, 2u})
  {
    fork_join_thread_pool pool(threads);
    int kept = 0, got = 0;
    under_a_full_deque(pool, [&] {
      boost::promise<int> p;
      const boost::shared_future<int> f = p.get_future().share();
      fj::parallel_invoke(
          pool, [&] { note_then_wait(pool, f, kept, got); }, [] {}, [&] { p.set_value(42); }, [] {});
    });
    BOOST_TEST(kept == (BOOST_THREAD_FJ_DEFER_DEPTH != 0 ? 1 : 0));
    BOOST_TEST(got == 42);
    BOOST_TEST(pool.statistics().frames_parked >= 1u);
  }
}

// Calls kept back at three depths of one stack; the innermost first callable waits for a child
// of the outermost. One park queues them all, oldest call first.
BOOST_AUTO_TEST_CASE(one_park_queues_the_children_of_every_call_below_it)
{
  for (unsigned threads : {1u, 2u})
  {
    fork_join_thread_pool pool(threads);
    int kept = 0, got = 0;
    std::atomic<int> ran{0};
    under_a_full_deque(pool, [&] {
      boost::promise<int> p;
      const boost::shared_future<int> f = p.get_future().share();
      fj::parallel_invoke(
          pool,
          [&] {
            kept += kept_back_here();
            fj::parallel_invoke(
                pool,
                [&] {
                  kept += kept_back_here();
                  fj::parallel_invoke(
                      pool, [&] { note_then_wait(pool, f, kept, got); }, [&] { ran.fetch_add(1); }, [&] { ran.fetch_add(1); });
                },
                [&] { ran.fetch_add(1); }, [&] { ran.fetch_add(1); });
          },
          [&] { p.set_value(7); ran.fetch_add(1); }, [&] { ran.fetch_add(1); });
    });
    BOOST_TEST(kept == (BOOST_THREAD_FJ_DEFER_DEPTH != 0 ? 3 : 0));
    BOOST_TEST(got == 7);
    BOOST_TEST(ran.load() == 6);
  }
}

// An isolated frame's wait blocks its thread instead of parking; before it blocks it queues the
// children kept back below it, so that the other thread can run the one it waits for.
BOOST_AUTO_TEST_CASE(an_isolated_wait_queues_the_children_kept_back_before_it_blocks)
{
  fork_join_thread_pool pool(2);
  int kept = 0, got = 0;
  isolated_on_a_full_deque(pool, [&](boost::promise<int>& p, const boost::shared_future<int>& f, std::atomic<bool>& release) {
    fj::parallel_invoke(
        pool,
        [&] {
          release.store(true, std::memory_order_release); // the block's children may end now
          note_then_wait(pool, f, kept, got);
        },
        [&] { p.set_value(5); }, [] {});
  });
  BOOST_TEST(kept == (BOOST_THREAD_FJ_DEFER_DEPTH != 0 ? 1 : 0));
  BOOST_TEST(got == 5);
}

// A join whose child was stolen from an otherwise empty deque first queues the children kept
// back below it, for the thief (pool_core::queue_deferred_if_empty). The kept-back k2, which its
// call runs first, spins until k1 has started: no wait of the library, so nothing parks or
// queues k1 on the way, and the thread that spins cannot run k1. Without that queuing k2 never
// ends (the watchdog ends the run); with it the other thread steals k1.
BOOST_AUTO_TEST_CASE(a_join_of_a_stolen_child_on_an_empty_deque_queues_the_children_kept_back)
{
  fork_join_thread_pool pool(2);
  int kept = 0;
  std::atomic<bool> release{false};
  spinning_siblings k;
  std::thread::id owner;
  under_a_full_deque(
      pool,
      [&] {
        fj::parallel_invoke(
            pool,
            [&] {
              owner = std::this_thread::get_id();
              kept += kept_back_here();
              join_a_stolen_child_on_an_emptied_deque(pool, release);
            },
            k.k1(), k.k2());
      },
      &release);
  BOOST_TEST(kept == (BOOST_THREAD_FJ_DEFER_DEPTH != 0 ? 1 : 0));
  BOOST_TEST(k.k1_runs.load() == 1);
  BOOST_TEST(k.k2_runs.load() == 1);
  BOOST_TEST((k.k1_thread != owner)); // stolen: it was queued
}

// Runs f on a pool thread of `pool`, submitted from this thread, which waits outside the
// library (std::future): no wait of this thread looks for the pool's work meanwhile.
template <class F>
void on_the_pool(fork_join_thread_pool& pool, F f)
{
  std::promise<void> done;
  std::future<void> finished = done.get_future();
  pool.submit([&] {
    try
    {
      f();
      done.set_value();
    }
    catch (...)
    {
      done.set_exception(std::current_exception());
    }
  });
  finished.get();
}

// Under BOOST_THREAD_FJ_DEFER_DEPTH tasks, a call keeps its children back only while no thread
// of the pool looks for work (idle_sleep::seekers); the first call that sees one queues what
// the calls below it keep back, then its own children. One thread, so that only the test
// counts a seeker (white box: begin_seeking, as a thread that found nothing does).
BOOST_AUTO_TEST_CASE(a_call_keeps_its_children_back_from_a_short_deque_until_a_thread_seeks_work)
{
  fork_join_thread_pool pool(1);
  fjd::idle_sleep& idle = fjd::core_of(pool)->idle();
  int kept_outer = -1, kept_inner = -1;
  std::size_t queued_inner = 0;
  std::atomic<int> runs[6] = {};
  on_the_pool(pool, [&] {
    BOOST_TEST(!idle.seekers()); // the only pool thread runs this; the outside one waits outside
    fj::joinable_future<void> filler = fj::fork(pool, [&] { runs[5].fetch_add(1); }); // one task queued
    fj::parallel_invoke(
        pool,
        [&] {
          kept_outer = kept_back_here();
          idle.begin_seeking();
          fj::parallel_invoke(
              pool,
              [&] {
                kept_inner = kept_back_here();
                queued_inner = own_deque_size();
                runs[2].fetch_add(1);
              },
              [&] { runs[3].fetch_add(1); }, [&] { runs[4].fetch_add(1); });
          idle.end_seeking();
        },
        [&] { runs[0].fetch_add(1); }, [&] { runs[1].fetch_add(1); });
    filler.join();
  });
  // A threshold of 1 keeps children back from any deque that holds a task, seekers or not.
  BOOST_TEST(kept_outer == (BOOST_THREAD_FJ_DEFER_DEPTH != 0 ? 1 : 0));
  BOOST_TEST(kept_inner == (BOOST_THREAD_FJ_DEFER_DEPTH == 1 ? 1 : 0));
  // The filler, the outer call's two children (queued by the inner call) and the inner call's.
  BOOST_TEST(queued_inner == (BOOST_THREAD_FJ_DEFER_DEPTH == 1 ? 1u : 5u));
  for (auto& n : runs)
    BOOST_TEST(n.load() == 1);
}

// A pool thread that finds nothing to do counts as looking for work until it finds some,
// asleep as well: were a sleeper not counted, the calls of the other thread would keep their
// children back from it, and nothing would wake it.
BOOST_AUTO_TEST_CASE(an_idle_pool_thread_seeks_work_asleep_too)
{
  fork_join_thread_pool pool(2);
  fjd::idle_sleep& idle = fjd::core_of(pool)->idle();
  bool always = true;
  on_the_pool(pool, [&] {
    while (!idle.seekers()) // the other thread has nothing to do (the watchdog ends a hang)
      std::this_thread::yield();
    // It stays counted through its rounds of looking (BOOST_THREAD_FJ_IDLE_SPIN_ROUNDS, each a
    // yield) and its sleep: many more yields of this thread than its rounds, and on until a
    // thread of the pool has slept (the other one, unless both slept before this task).
    for (int i = 0; i < 100 * BOOST_THREAD_FJ_IDLE_SPIN_ROUNDS || pool.statistics().sleeps == 0; ++i)
    {
      std::this_thread::yield();
      always = always && idle.seekers();
    }
  });
  BOOST_TEST(always);
}

BOOST_AUTO_TEST_CASE(exceptions_of_kept_back_children_reach_the_caller)
{
  for (unsigned threads : {1u, 2u})
  {
    fork_join_thread_pool pool(threads);
    std::atomic<int> finished{0};
    bool kept = false;
    const std::multiset<int> tags = tags_thrown_on_a_full_deque(pool, [&] {
      fj::parallel_invoke(
          pool, [&] { kept = kept_back_here(); finished.fetch_add(1); }, throwing_child{&finished, 1}, [&] { finished.fetch_add(1); },
          throwing_child{&finished, 2}, throwing_child{&finished, 3});
    });
    BOOST_TEST(kept == (BOOST_THREAD_FJ_DEFER_DEPTH != 0));
    BOOST_TEST((tags == std::multiset<int>{1, 2, 3}));
    BOOST_TEST(finished.load() == 5);
  }
}

namespace {

// Runs chain_of(pool, 10^5) on a full deque, on worker stacks of 1 MiB and fiber stacks of 64
// KiB, at one and two threads: the chain nests 10^5 levels deep through children kept back from
// the first level on, and where the stack has no room left it goes on on a fresh stack
// (doc/index.md, "Deep chains"); a park must have happened.
void a_deep_chain_goes_on_on_fresh_stacks(std::size_t (*chain_of)(fork_join_thread_pool&, std::size_t))
{
  // Under the sanitizers 10^4: ThreadSanitizer cannot record a stack of more than 65536 frames.
  const std::size_t depth = 100000 / BOOST_THREAD_FJ_TEST_SCALE;
  for (unsigned threads : {1u, 2u})
  {
    fork_join_thread_pool::options opts;
    opts.stack_size = std::size_t(1) << 20;
    opts.fiber_stack_size = std::size_t(64) << 10;
    fork_join_thread_pool pool(threads, opts);
    std::size_t r = 0;
    under_a_full_deque(pool, [&] { r = chain_of(pool, depth); });
    BOOST_TEST(r == depth);
    BOOST_TEST(pool.statistics().frames_parked >= 1u);
  }
}

} // namespace

// parallel_invoke's children continue the chain: where the stack has no room left, a call
// queues its child instead, whose join parks.
BOOST_AUTO_TEST_CASE(a_chain_of_kept_back_children_goes_on_on_fresh_stacks)
{
  a_deep_chain_goes_on_on_fresh_stacks(&chain);
}

// ---- A task block's records kept back ("A block's records kept back", doc/design.md).

// Blocks of 1, 2, 3, 8 and 1000 children and a tribonacci of blocks, on a full deque: every
// child is kept back (no push), runs once, and counts once as a task run; results as serial.
BOOST_AUTO_TEST_CASE(a_blocks_kept_back_children_run_exactly_once_with_serial_results)
{
  for (unsigned threads : {1u, 2u})
  {
    fork_join_thread_pool pool(threads);
    const std::uint64_t before = pool.statistics().tasks_run;
    std::vector<std::atomic<int> > runs(1000);
    int kept = 0, blocks = 0;
    std::uint64_t r = 0;
    under_a_full_deque(pool, [&] {
      for (std::size_t k : {1u, 2u, 3u, 8u, 1000u})
      {
        ++blocks;
        bool block_kept = false;
        fj::define_task_block(pool, [&](fj::task_block& tb) {
          const std::size_t deque_before = own_deque_size();
          for (std::size_t i = 0; i != k; ++i)
            tb.run([&runs, i] { runs[i].fetch_add(1); });
          block_kept = own_deque_size() <= deque_before;
        });
        kept += block_kept;
      }
      r = block_trib(pool, 16);
    });
    BOOST_TEST(kept == (BOOST_THREAD_FJ_BLOCK_DEFER_DEPTH != 0 ? blocks : 0));
    for (std::size_t i = 0; i != runs.size(); ++i)
      BOOST_TEST(runs[i].load() == (i < 1 ? 5 : i < 2 ? 4 : i < 3 ? 3 : i < 8 ? 2 : 1));
    BOOST_TEST(r == serial_trib(16));
    // One thread: nothing parks and no thief runs, so no claimer ran; each child is a task run
    // (tasks_run's definition), then the fillers and the fork.
    if (threads == 1 && BOOST_THREAD_FJ_BLOCK_DEFER_DEPTH != 0)
      BOOST_TEST(pool.statistics().tasks_run - before == 1 + 2 + 3 + 8 + 1000 + 3 * trib_invokes(16) + BOOST_THREAD_FJ_DEFER_DEPTH + 4 + 1);
  }
}

// The newest child, which the block's join runs first, waits for an older one kept back: its
// wait may run nothing it awaits and parks, and the park's stop hook queues a claimer for the
// older child, which the thread then runs. The setter first, and in the middle of five.
BOOST_AUTO_TEST_CASE(a_kept_back_record_may_be_what_its_newer_sibling_waits_for)
{
  for (unsigned threads : {1u, 2u})
    for (int layout = 0; layout != 2; ++layout)
    {
      fork_join_thread_pool pool(threads);
      int got = 0;
      bool kept = false;
      std::atomic<int> ran{0};
      under_a_full_deque(pool, [&] {
        boost::promise<int> p;
        const boost::shared_future<int> f = p.get_future().share();
        const auto set = [&] { p.set_value(42); ran.fetch_add(1); };
        const auto other = [&] { ran.fetch_add(1); };
        const auto wait = [&] {
          fj::join(pool, f);
          got = f.get();
          ran.fetch_add(1);
        };
        kept = layout == 0 ? block_of(pool, set, wait) : block_of(pool, other, other, set, other, wait);
      });
      BOOST_TEST(kept == (BOOST_THREAD_FJ_BLOCK_DEFER_DEPTH != 0));
      BOOST_TEST(got == 42);
      BOOST_TEST(ran.load() == (layout == 0 ? 2 : 5));
      BOOST_TEST(pool.statistics().frames_parked >= 1u);
    }
}

// An isolated frame's wait blocks its thread instead of parking; before it blocks, the stop
// hooks queue a claimer for the records kept back below it, so that the other thread can run
// the one it waits for.
BOOST_AUTO_TEST_CASE(an_isolated_wait_offers_the_records_kept_back_before_it_blocks)
{
  fork_join_thread_pool pool(2);
  int got = 0;
  bool kept = false;
  isolated_on_a_full_deque(pool, [&](boost::promise<int>& p, const boost::shared_future<int>& f, std::atomic<bool>& release) {
    kept = block_of(
        pool, [&] { p.set_value(5); },
        [&] {
          release.store(true, std::memory_order_release); // the fillers may end now
          fj::join(pool, f);
          got = f.get();
        });
  });
  BOOST_TEST(kept == (BOOST_THREAD_FJ_BLOCK_DEFER_DEPTH != 0));
  BOOST_TEST(got == 5);
}

// A join whose child was stolen from an otherwise empty deque first runs the stop hooks, which
// queue a claimer for the block's records kept back (pool_core::queue_deferred_if_empty). The
// kept-back k2, which the block's join runs first, spins until k1 has started: no wait of the
// library, so nothing parks on the way, and the thread that spins cannot run k1. Without that
// claimer k2 never ends (the watchdog ends the run); with it the other thread runs k1.
BOOST_AUTO_TEST_CASE(a_join_of_a_stolen_child_on_an_empty_deque_offers_the_records_kept_back)
{
  fork_join_thread_pool pool(2);
  bool kept = false;
  std::atomic<bool> release{false};
  spinning_siblings k;
  std::thread::id owner;
  under_a_full_deque(
      pool,
      [&] {
        fj::define_task_block(pool, [&](fj::task_block& tb) {
          owner = std::this_thread::get_id();
          const std::size_t deque_before = own_deque_size();
          tb.run(k.k1());
          tb.run(k.k2());
          kept = own_deque_size() <= deque_before;
          join_a_stolen_child_on_an_emptied_deque(pool, release);
        });
      },
      &release);
  BOOST_TEST(kept == (BOOST_THREAD_FJ_BLOCK_DEFER_DEPTH != 0));
  BOOST_TEST(k.k1_runs.load() == 1);
  BOOST_TEST(k.k2_runs.load() == 1);
  BOOST_TEST((k.k1_thread != owner)); // a claimer took it
}

BOOST_AUTO_TEST_CASE(exceptions_of_a_blocks_kept_back_children_reach_the_caller)
{
  for (unsigned threads : {1u, 2u})
  {
    fork_join_thread_pool pool(threads);
    std::atomic<int> finished{0};
    std::atomic<bool> plain_ran{false};
    bool kept = false;
    const std::multiset<int> tags = tags_thrown_on_a_full_deque(pool, [&] {
      fj::define_task_block(pool, [&](fj::task_block& tb) {
        const std::size_t deque_before = own_deque_size();
        tb.run(throwing_child{&finished, 1});
        tb.run([&] {
          finished.fetch_add(1);
          plain_ran.store(true);
        });
        tb.run(throwing_child{&finished, 2});
        tb.run(throwing_child{&finished, 3});
        kept = own_deque_size() <= deque_before;
      });
    });
    BOOST_TEST(kept == (BOOST_THREAD_FJ_BLOCK_DEFER_DEPTH != 0));
    // A throw cancels the block, which skips the children that have not started: each child
    // that ran is reported once, and at least one threw.
    BOOST_TEST(!tags.empty());
    BOOST_TEST(tags.size() == std::set<int>(tags.begin(), tags.end()).size());
    for (int t : tags)
      BOOST_TEST((t >= 1 && t <= 3));
    BOOST_TEST(std::size_t(finished.load()) == tags.size() + (plain_ran.load() ? 1 : 0));
    // On one thread the join runs the newest first, whose throw skips the rest.
    if (threads == 1 && BOOST_THREAD_FJ_BLOCK_DEFER_DEPTH != 0)
      BOOST_TEST((tags == std::multiset<int>{3}));
  }
}

// Blocks whose one child continues the chain: where the stack has no room left, the block's join
// queues a claimer and waits for it, and the wait parks.
BOOST_AUTO_TEST_CASE(a_chain_of_a_blocks_kept_back_children_goes_on_on_fresh_stacks)
{
  a_deep_chain_goes_on_on_fresh_stacks(&block_chain);
}

// A claimer that a stop hook queues from the top of the stack is numbered as its block's frame
// (pool_core::reserve_push_seq), so that a waiter of a task running above the block does not
// leapfrog to it (admission.hpp, rule (b)): that task does not wait for the block's children,
// which may wait for the waiter. Here a block's function, on a pool thread W, joins a task S
// that an outside thread O forked and joins too: W runs S above the block, whose one child r
// is kept back. In S, the join of a child y that the other pool thread stole finds W's deque
// empty and queues the block's claimer; y then lets O join S while that claimer is queued, and
// ends once r has started. r waits until O's join of S has returned: no cycle (O waits for S,
// S for y, y for r's start, r for O's join; the block for r and S). Had O's join taken the
// claimer, r would run above that join and wait for it: the watchdog ends the run. Repeated,
// since only some interleavings let O look while the claimer is queued.
BOOST_AUTO_TEST_CASE(a_waiter_of_a_task_above_a_block_does_not_run_the_blocks_claimer)
{
  for (int round = 0; round != 20; ++round)
  {
    fork_join_thread_pool pool(2);
    std::atomic<bool> release{false}, block_ready{false}, o_may_join{false}, r_started{false}, s_joined{false};
    std::atomic<fj::joinable_future<void>*> s_future{nullptr};
    boost::promise<void> o_joined;
    const boost::shared_future<void> o_joined_f = o_joined.get_future().share();
    std::thread::id r_thread;
    bool kept = false;
    std::thread outside([&] {
      while (!block_ready.load(std::memory_order_acquire))
        std::this_thread::yield();
      fj::joinable_future<void> s = fj::fork(pool, [&] {
        const fjd::worker_slot* const w = static_cast<const fjd::worker_slot*>(fjd::current_worker->slot);
        join_a_stolen_child_on_an_emptied_deque(pool, release, [&] {
          // Until W's join of y has queued the claimer, or W has already run it (this thread
          // did not look while it was queued).
          while (w->deque.size() == 0 && !r_started.load(std::memory_order_acquire))
            std::this_thread::yield();
          o_may_join.store(true, std::memory_order_release);
          while (!r_started.load(std::memory_order_acquire))
            std::this_thread::yield();
        });
      });
      s_future.store(&s, std::memory_order_release);
      while (!o_may_join.load(std::memory_order_acquire))
        std::this_thread::yield();
      fj::join(pool, s);
      o_joined.set_value();
      while (!s_joined.load(std::memory_order_acquire)) // s lives until W's join of it returned
        std::this_thread::yield();
    });
    const std::size_t fillers = std::size_t(BOOST_THREAD_FJ_DEFER_DEPTH) + 4;
    under_a_full_deque(
        pool,
        [&] {
          fj::define_task_block(pool, [&](fj::task_block& tb) {
            const std::size_t before = own_deque_size();
            tb.run([&] {
              r_thread = std::this_thread::get_id();
              r_started.store(true, std::memory_order_release);
              fj::join(pool, o_joined_f);
            });
            kept = own_deque_size() <= before;
            while (own_deque_size() == fillers) // the other thread holds a filler: S is W's to take
              std::this_thread::yield();
            block_ready.store(true, std::memory_order_release);
            fj::joinable_future<void>* s = nullptr;
            while (!(s = s_future.load(std::memory_order_acquire)))
              std::this_thread::yield();
            fj::join(pool, *s);
            s_joined.store(true, std::memory_order_release);
          });
        },
        &release);
    const std::thread::id o_thread = outside.get_id();
    outside.join();
    BOOST_TEST(kept == (BOOST_THREAD_FJ_BLOCK_DEFER_DEPTH != 0));
    BOOST_TEST((r_thread != o_thread));
  }
}

BOOST_AUTO_TEST_SUITE_END()

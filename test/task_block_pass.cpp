// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// task_block (N4411): results against serial code, every child joined (also when f throws or
// forgets to wait), every exception collected, cancellation, nested blocks, blocks from
// threads that are not workers, the default pool, and other Boost executors.

#define BOOST_TEST_MODULE task_block
#include "support.hpp"
#include "watchdog.hpp"

#include <boost/thread/executors/basic_thread_pool.hpp>
#include <boost/thread/executors/fork_join.hpp>
#include <boost/thread/executors/loop_executor.hpp>
#include <boost/thread/executors/task_block.hpp>
#include <boost/thread/latch.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <future>
#include <set>
#include <stdexcept>
#include <thread>
#include <type_traits>
#include <vector>

using boost::executors::fork_join_thread_pool;
using boost::executors::task_block;
using boost::executors::task_canceled_exception;
using boost::experimental::parallel::exception_list;
namespace fj = boost::executors;
using namespace fj_test;

static_assert(!std::is_default_constructible<task_block>::value, "only define_task_block makes one");
static_assert(!std::is_copy_constructible<task_block>::value, "not copyable");
static_assert(!std::is_move_constructible<task_block>::value, "not movable");
static_assert(!std::is_copy_assignable<task_block>::value && !std::is_move_assignable<task_block>::value, "no assignment");

namespace {

// The article's final fib.
template <class Executor>
std::uint64_t fib(Executor& ex, int n)
{
  if (n < 2)
    return std::uint64_t(n);
  std::uint64_t a = 0, b = 0;
  fj::define_task_block(ex, [&](task_block& tb) {
    tb.run([&] { a = fib(ex, n - 1); });
    b = fib(ex, n - 2);
  });
  return a + b;
}

} // namespace

BOOST_AUTO_TEST_CASE(fib_matches_serial)
{
  for (unsigned threads : {1u, 2u, 4u})
  {
    fork_join_thread_pool pool(threads);
    for (int n : {0, 1, 2, 12, 22})
    {
      BOOST_TEST(fib(pool, n) == serial_fib(n));                                  // from main()
      BOOST_TEST(fj::fork(pool, [&] { return fib(pool, n); }).get() == serial_fib(n)); // on a worker
    }
  }
}

BOOST_AUTO_TEST_CASE(every_child_runs_exactly_once_and_is_joined_without_wait)
{
  fork_join_thread_pool pool(2);
  const int n = 20000 / BOOST_THREAD_FJ_TEST_SCALE;
  std::vector<std::atomic<int> > ran(n);
  auto body = [&] {
    fj::define_task_block(pool, [&](task_block& tb) {
      for (int i = 0; i < n; ++i) // many children: the arena grows past its inline buffer
        tb.run([&ran, i] { ran[i].fetch_add(1, std::memory_order_relaxed); });
      // no wait(): leaving the block joins them
    });
    for (std::atomic<int>& r : ran)
      BOOST_TEST(r.exchange(0) == 1);
  };
  body();
  fj::fork(pool, body).get();
}

BOOST_AUTO_TEST_CASE(wait_joins_what_ran_so_far_and_the_block_goes_on)
{
  fork_join_thread_pool pool(2);
  fj::fork(pool, [&] {
    std::atomic<int> stage{0};
    fj::define_task_block(pool, [&](task_block& tb) {
      tb.run([&] { stage.fetch_add(1); });
      tb.run([&] { stage.fetch_add(1); });
      tb.wait();
      BOOST_TEST(stage.load() == 2);
      tb.run([&] { stage.fetch_add(10); });
    });
    BOOST_TEST(stage.load() == 12);
  }).get();
}

BOOST_AUTO_TEST_CASE(children_may_run_more_children_into_the_block)
{
  fork_join_thread_pool pool(2);
  std::atomic<int> ran{0};
  fj::define_task_block(pool, [&](task_block& tb) {
    for (int i = 0; i < 100; ++i)
      tb.run([&] {
        ran.fetch_add(1);
        tb.run([&] { ran.fetch_add(1); });
      });
  });
  BOOST_TEST(ran.load() == 200);
}

BOOST_AUTO_TEST_CASE(exceptions_from_several_children_at_once_are_all_collected)
{
  {
    // Four children that all start before any throws (4 workers + the helping caller).
    fork_join_thread_pool pool(4);
    boost::latch all_started(4);
    try
    {
      fj::define_task_block(pool, [&](task_block& tb) {
        for (int i = 0; i < 4; ++i)
          tb.run([&all_started, i] {
            all_started.count_down_and_wait();
            throw tagged_error(i);
          });
      });
      BOOST_FAIL("define_task_block must throw");
    }
    catch (const exception_list& list)
    {
      BOOST_TEST((tags_of(list) == std::multiset<int>{0, 1, 2, 3}));
    }
  }
  for (unsigned threads : {1u, 2u})
  {
    // Fewer threads: after the first exception, children not yet started may be skipped, so
    // the list holds exactly the exceptions of the children that started.
    fork_join_thread_pool pool(threads);
    std::atomic<int> started{0};
    try
    {
      fj::define_task_block(pool, [&](task_block& tb) {
        for (int i = 0; i < 8; ++i)
          tb.run([&started, i] {
            started.fetch_add(1);
            throw tagged_error(i);
          });
      });
      BOOST_FAIL("define_task_block must throw");
    }
    catch (const exception_list& list)
    {
      BOOST_TEST(list.size() == std::size_t(started.load()));
      BOOST_TEST(list.size() >= 1u);
    }
  }
}

BOOST_AUTO_TEST_CASE(the_exception_of_f_and_of_children_are_collected_after_all_finish)
{
  fork_join_thread_pool pool(2);
  std::atomic<bool> slow_done{false};
  try
  {
    fj::define_task_block(pool, [&](task_block& tb) {
      tb.run([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
        slow_done = true;
      });
      throw tagged_error(7);
    });
    BOOST_FAIL("must throw");
  }
  catch (const exception_list& list)
  {
    // The slow child either ran to the end or was skipped; it never outlives the block.
    BOOST_TEST((tags_of(list) == std::multiset<int>{7}));
  }
  (void)slow_done.load();
}

BOOST_AUTO_TEST_CASE(run_on_a_canceled_block_throws_task_canceled_exception)
{
  fork_join_thread_pool pool(1);
  bool threw_canceled = false;
  std::atomic<int> ran_after{0};
  try
  {
    fj::define_task_block(pool, [&](task_block& tb) {
      tb.run([] { throw tagged_error(1); });
      try
      {
        tb.wait(); // the child threw: the block is canceled
      }
      catch (const task_canceled_exception&)
      {
        threw_canceled = true;
      }
      try
      {
        tb.run([&] { ran_after.fetch_add(1); });
      }
      catch (const task_canceled_exception&)
      {
        throw; // leaving f with it does not add it to the list
      }
      BOOST_FAIL("run must throw");
    });
    BOOST_FAIL("must throw");
  }
  catch (const exception_list& list)
  {
    BOOST_TEST((tags_of(list) == std::multiset<int>{1}));
  }
  BOOST_TEST(threw_canceled);
  BOOST_TEST(ran_after.load() == 0);
}

BOOST_AUTO_TEST_CASE(nested_blocks_help_and_report_nested_exceptions)
{
  fork_join_thread_pool pool(2);
  try
  {
    fj::define_task_block(pool, [&](task_block& outer) {
      outer.run([&] {
        fj::define_task_block(pool, [&](task_block& inner) {
          inner.run([] { throw tagged_error(1); });
          inner.run([] { throw tagged_error(2); });
        });
      });
      outer.run([&] { BOOST_TEST(fib(pool, 15) == serial_fib(15)); });
    });
    BOOST_FAIL("must throw");
  }
  catch (const exception_list& list)
  {
    // One exception of the outer block: the inner block's list, holding 1 or 2 of its own
    // (the second child may have been skipped after the first threw).
    BOOST_TEST(list.size() == 1u);
    const std::multiset<int> tags = tags_of(list);
    BOOST_TEST(tags.size() >= 1u);
    for (int t : tags)
      BOOST_TEST((t == 101 || t == 102));
  }
}

BOOST_AUTO_TEST_CASE(wait_from_another_thread_is_a_logic_error)
{
  fork_join_thread_pool pool(2);
  bool threw = false;
  fj::define_task_block(pool, [&](task_block& tb) {
    std::thread other([&] {
      try
      {
        tb.wait();
      }
      catch (const std::logic_error&)
      {
        threw = true;
      }
    });
    other.join();
  });
  BOOST_TEST(threw);
}

BOOST_AUTO_TEST_CASE(default_pool_and_restore_thread)
{
  std::uint64_t a = 0, b = 0;
  const std::thread::id me = std::this_thread::get_id();
  fj::define_task_block([&](task_block& tb) {
    tb.run([&] { a = serial_fib(20); });
    b = serial_fib(19);
  });
  BOOST_TEST(a + b == serial_fib(21));
  fj::define_task_block_restore_thread([&](task_block& tb) { tb.run([&] { a = 1; }); });
  BOOST_TEST(std::this_thread::get_id() == me);
  fork_join_thread_pool pool(2);
  fj::define_task_block_restore_thread(pool, [&](task_block& tb) { tb.run([&] { a = 2; }); });
  BOOST_TEST(a == 2u);
  BOOST_TEST(&fj::default_fork_join_pool() == &fj::default_fork_join_pool());
}

BOOST_AUTO_TEST_CASE(define_task_block_without_an_executor_uses_the_current_pool)
{
  // Inside a pool's task the form without an executor uses that pool.
  fork_join_thread_pool pool(2);
  std::atomic<int> elsewhere{0};
  std::atomic<int> ran{0};
  boost::executors::joinable_future<void> f = fork(pool, [&] {
    fj::define_task_block([&](task_block& tb) {
      for (int i = 0; i < 8; ++i)
        tb.run([&] {
          ran.fetch_add(1);
          if (fork_join_thread_pool::current() != &pool)
            elsewhere.fetch_add(1);
        });
    });
  });
  f.join();
  f.get();
  BOOST_TEST(ran.load() == 8);
  BOOST_TEST(elsewhere.load() == 0);
}

BOOST_AUTO_TEST_CASE(other_boost_executors)
{
  {
    boost::executors::basic_thread_pool pool(2);
    BOOST_TEST(fib(pool, 12) == serial_fib(12));
    try
    {
      fj::define_task_block(pool, [&](task_block& tb) {
        tb.run([] { throw tagged_error(1); });
        tb.run([] { throw tagged_error(2); });
      });
      BOOST_FAIL("must throw");
    }
    catch (const exception_list& list)
    {
      BOOST_TEST(list.size() >= 1u);
    }
  }
  {
    boost::executors::loop_executor loop; // runs closures only when the waiter loops
    BOOST_TEST(fib(loop, 12) == serial_fib(12));
  }
}

BOOST_AUTO_TEST_CASE(deep_blocks_on_other_executors_do_not_overflow)
{
  // As parallel_invoke's generic path: the owner runs unstarted children itself and nests at
  // most 8 levels of helped closures (fib(25) overflowed the stack before).
  {
    boost::executors::basic_thread_pool pool(2);
    BOOST_TEST(fib(pool, 25) == serial_fib(25));
  }
  {
    boost::executors::loop_executor loop;
    BOOST_TEST(fib(loop, 25) == serial_fib(25));
  }
  {
    // Children that run children into their parent's block, from the executor's threads: the
    // owner claims whatever they add that nobody has started, so each runs exactly once.
    boost::executors::basic_thread_pool pool(2);
    std::atomic<int> ran{0};
    fj::define_task_block(pool, [&](task_block& tb) {
      for (int i = 0; i < 100; ++i)
        tb.run([&] {
          ran.fetch_add(1);
          tb.run([&] { ran.fetch_add(1); });
        });
    });
    BOOST_TEST(ran.load() == 200);
  }
}

BOOST_AUTO_TEST_CASE(an_interruption_inside_a_block_stays_an_interruption)
{
  std::atomic<int> other_ran{0};
  boost::latch blocked(1);
  fork_join_thread_pool pool(1);
  pool.submit([&] {
    fj::define_task_block(pool, [&](task_block& tb) {
      tb.run([&] { other_ran.fetch_add(1); });
      blocked.count_down();
      boost::this_thread::sleep_for(boost::chrono::hours(1)); // an interruption point
    });
  });
  blocked.wait();
  pool.interrupt_and_join();
  BOOST_TEST(other_ran.load() <= 1); // skipped (canceled) or ran, never lost track of
}

// The owner's run() links a child into a list of its own without an atomic operation; a run()
// on another thread links into a shared list, which the owner's join reads with a relaxed load
// before it takes it (block_state.hpp). Attacked: in every round, the block's f waits until a
// child that another thread stole has added grandchildren (so the shared list is used), while
// the owner adds children of its own; stolen children keep adding while the owner joins. Every
// child runs once, and every one is joined before define_task_block returns.
BOOST_AUTO_TEST_CASE(children_added_from_other_threads_while_the_owner_joins)
{
  fork_join_thread_pool pool(3);
  const int rounds = 300 / BOOST_THREAD_FJ_TEST_SCALE + 1;
  for (int round = 0; round < rounds; ++round)
  {
    std::atomic<int> ran{0};
    std::atomic<int> added_elsewhere{0};
    int expected = 0;
    fj::fork(pool, [&] {
      const std::thread::id owner = std::this_thread::get_id();
      fj::define_task_block(pool, [&](task_block& tb) {
        const int children = 16;
        for (int i = 0; i < children; ++i)
          tb.run([&] {
            ran.fetch_add(1);
            if (std::this_thread::get_id() != owner)
            {
              for (int k = 0; k < 3; ++k)
                tb.run([&] {
                  ran.fetch_add(1);
                  tb.run([&] { ran.fetch_add(1); }); // a grandchild's child, from wherever it runs
                });
              added_elsewhere.fetch_add(1);
            }
          });
        // Run nothing until a thief has added to the shared list (the watchdog ends a hang).
        while (added_elsewhere.load() == 0)
          std::this_thread::yield();
        for (int i = 0; i < children; ++i)
          tb.run([&] { ran.fetch_add(1); }); // the owner's list, while thieves add to the other
      }); // joins both lists while stolen children still add
      expected = 2 * 16 + 6 * added_elsewhere.load();
    }).get();
    BOOST_TEST(ran.load() == expected);
    BOOST_TEST(added_elsewhere.load() >= 1);
  }
}

// Regression: wait() from a child that the block's own thread runs. It waits for the
// other children (not for itself), and the join it is nested in goes on over child storage
// that is still alive: the nested wait used to free the arena that the outer join was walking
// (AddressSanitizer and ThreadSanitizer: use after free) and to return at once.
BOOST_AUTO_TEST_CASE(wait_from_a_child_that_the_owner_runs)
{
  const int n = 40; // more children than the arena's inline buffer holds: most live in chunks
  {
    // One worker owns the block and runs every child itself: the newest child, joined first,
    // waits for the 39 others, still queued below it. main() blocks on a promise (it does not
    // help), so no other thread takes a child.
    fork_join_thread_pool pool(1);
    std::vector<int> ran(n, 0); // plain: every child runs on the one worker
    int done_before_wait = -1;
    std::promise<void> finished;
    pool.submit([&] {
      fj::define_task_block(pool, [&](task_block& tb) {
        for (int i = 0; i + 1 < n; ++i)
          tb.run([&ran, i] { ++ran[i]; });
        tb.run([&] {
          tb.wait();
          done_before_wait = static_cast<int>(std::count(ran.begin(), ran.end(), 1));
          ++ran[n - 1];
        });
      });
      finished.set_value();
    });
    finished.get_future().get();
    BOOST_TEST(done_before_wait == n - 1);
    BOOST_TEST(std::count(ran.begin(), ran.end(), 1) == n);
  }
  {
    // A closed pool refuses the children, so each runs on the owner inside run(), before it
    // is linked into the block: a wait() there must not free the storage it runs in.
    fork_join_thread_pool pool(1);
    pool.close();
    std::vector<int> ran(n, 0);
    fj::define_task_block(pool, [&](task_block& tb) {
      for (int i = 0; i < n; ++i)
        tb.run([&tb, &ran, i] {
          if (i % 8 == 7)
            tb.wait();
          ++ran[i];
        });
    });
    BOOST_TEST(std::count(ran.begin(), ran.end(), 1) == n);
  }
  {
    // On another executor: a loop_executor runs closures only when the owner helps, so the
    // owner runs every child, and a child's wait() must not wait for that child itself.
    boost::executors::loop_executor loop;
    std::vector<int> ran(n, 0);
    int done_before_wait = -1;
    fj::define_task_block(loop, [&](task_block& tb) {
      for (int i = 0; i + 1 < n; ++i)
        tb.run([&ran, i] { ++ran[i]; });
      tb.run([&] {
        tb.wait();
        done_before_wait = static_cast<int>(std::count(ran.begin(), ran.end(), 1));
        ++ran[n - 1];
      });
    });
    BOOST_TEST(done_before_wait == n - 1);
    BOOST_TEST(std::count(ran.begin(), ran.end(), 1) == n);
  }
  {
    // On a thread pool the owner claims some children and the pool's threads run the others:
    // a wait() in a child that the owner runs returns once those others are done.
    boost::executors::basic_thread_pool pool(2);
    const std::thread::id owner = std::this_thread::get_id();
    std::vector<std::atomic<int> > ran(n);
    fj::define_task_block(pool, [&](task_block& tb) {
      for (int i = 0; i < n; ++i)
        tb.run([&tb, &ran, owner, i] {
          if (std::this_thread::get_id() == owner)
            tb.wait();
          ran[i].fetch_add(1);
        });
    });
    for (std::atomic<int>& r : ran)
      BOOST_TEST(r.load() == 1);
  }
}

namespace {

struct alignas(64) cache_line
{
  unsigned char bytes[64];
};

bool aligned(const void* p, std::size_t a) { return reinterpret_cast<std::uintptr_t>(p) % a == 0; }

} // namespace

// Regression: a child whose function object is over-aligned (a capture with
// alignas(64)) gets storage of that alignment, from the owner's arena and from operator new
// (a child running a child into its parent's block) alike. UndefinedBehaviorSanitizer also
// reports the construction at a misaligned address.
BOOST_AUTO_TEST_CASE(over_aligned_children_are_aligned)
{
  for (unsigned threads : {1u, 2u})
  {
    fork_join_thread_pool pool(threads);
    const int n = 32;
    std::atomic<int> misaligned{0};
    std::atomic<int> ran{0};
    fj::define_task_block(pool, [&](task_block& tb) {
      for (int i = 0; i < n; ++i)
      {
        const cache_line line{};
        tb.run([line, &tb, &misaligned, &ran] {
          if (!aligned(&line, alignof(cache_line)))
            misaligned.fetch_add(1);
          ran.fetch_add(1);
          const cache_line inner{};
          tb.run([inner, &misaligned, &ran] {
            if (!aligned(&inner, alignof(cache_line)))
              misaligned.fetch_add(1);
            ran.fetch_add(1);
          });
        });
      }
    });
    BOOST_TEST(misaligned.load() == 0);
    BOOST_TEST(ran.load() == 2 * n);
  }
}

// Shortcut "A frame's own slot" (doc/design.md): a block on our pool looks up its owner's slot
// once and uses it for every run() and join on the owner's stack. Here the block's function
// parks between two run() calls (it waits for a future that a thread outside the pool sets
// only once the frame is parked); the frame must resume on its own thread, where the tests'
// assertion (BOOST_THREAD_FJ_ASSERT) checks the slot at the second run() and at the joins.
BOOST_AUTO_TEST_CASE(a_block_that_parks_between_runs_goes_on_on_its_own_thread)
{
  fork_join_thread_pool pool(2);
  const int rounds = 50;
  std::atomic<int> runs{0};
  for (int round = 0; round < rounds; ++round)
  {
    const ready_once_parked outside(pool);
    fj::fork(pool, [&] {
      fj::define_task_block(pool, [&](task_block& tb) {
        tb.run([&] { runs.fetch_add(1); });
        fj::join(pool, outside.future());
        tb.run([&] { runs.fetch_add(1); });
        tb.run([&] { runs.fetch_add(1); });
      });
    }).get();
  }
  BOOST_TEST(runs.load() == 3 * rounds);
}

// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// Regression tests of two defects: running out of memory while an exception is
// recorded. A join must not need memory to make progress: the scope still joins every child,
// never calls std::terminate, and still reports that something failed (std::bad_alloc in the
// exception_list, or thrown alone when even the list cannot be made).
//
// This executable replaces the global operator new and delete (so it holds nothing else): a
// thread can make every allocation of its own fail until it disarms (out_of_memory_here).

#define BOOST_TEST_MODULE out_of_memory
#include "replaced_operator_new.hpp"
#include "support.hpp"
#include "watchdog.hpp"

#include <boost/thread/executors/basic_thread_pool.hpp>
#include <boost/thread/executors/fork_join_thread_pool.hpp>
#include <boost/thread/executors/parallel_invoke.hpp>
#include <boost/thread/executors/task_block.hpp>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <new>
#include <thread>

using boost::executors::fork_join_thread_pool;
using boost::executors::task_block;
using boost::experimental::parallel::exception_list;
namespace fj = boost::executors;
using namespace fj_test;

namespace {

// Whether allocations by this thread fail (constant-initialized: usable from operator new at
// any point of a thread's life).
thread_local bool allocations_fail = false;

// Arms allocation failures on the calling thread; out_of_memory_over() disarms them.
void out_of_memory_here() noexcept { allocations_fail = true; }
void out_of_memory_over() noexcept { allocations_fail = false; }

// Returns: whether the exception being handled reports a failure as this suite expects: a
// std::bad_alloc, or an exception_list holding at least one exception.
bool reports_a_failure()
{
  try
  {
    throw;
  }
  catch (const std::bad_alloc&)
  {
    return true;
  }
  catch (const exception_list& list)
  {
    return list.size() >= 1u;
  }
  catch (...)
  {
    return false;
  }
}

} // namespace

// The replacement functions (replaced_operator_new.hpp): every allocation of a thread that
// armed out_of_memory_here() fails.
void* test_operator_new(std::size_t n, std::size_t alignment)
{
  void* const p = allocations_fail ? nullptr : malloc_block(n, alignment);
  if (!p)
    throw std::bad_alloc();
  return p;
}

void* test_operator_new_nothrow(std::size_t n, std::size_t alignment) noexcept
{
  return allocations_fail ? nullptr : malloc_block(n, alignment);
}

// First defect: f throws while a child runs on a worker, and recording f's exception runs out of
// memory. define_task_block used to let that std::bad_alloc out before joining: the child
// outlived the block (and then used its frame: AddressSanitizer's stack-use-after-scope).
BOOST_AUTO_TEST_CASE(define_task_block_joins_when_recording_the_exception_of_f_fails)
{
  fork_join_thread_pool pool(2);
  std::atomic<bool> started{false};
  std::atomic<bool> released{false};
  bool child_finished = false; // plain: only a join orders the child's write before our read
  bool reported = false;
  try
  {
    fj::define_task_block(pool, [&](task_block& tb) {
      tb.run([&] {
        started.store(true);
        // Stays running until the caller has left define_task_block, which a correct join
        // never lets happen; so, to let a correct join end, only for a while (a window that
        // makes a premature return observable, not a measurement: nothing asserts on it).
        const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(1);
        while (!released.load() && std::chrono::steady_clock::now() < until)
          std::this_thread::yield();
        child_finished = true;
      });
      while (!started.load()) // a worker took the child: it runs while f throws
        std::this_thread::yield();
      const tagged_error e(1); // made before memory runs out: only the recording lacks it
      out_of_memory_here();
      throw e;
    });
    out_of_memory_over();
    BOOST_FAIL("define_task_block must throw");
  }
  catch (...)
  {
    out_of_memory_over();
    reported = reports_a_failure();
    BOOST_TEST(child_finished); // joined before define_task_block left
    released.store(true);
  }
  BOOST_TEST(reported);
}

// Second defect: a child's exception reaches the joining thread when it has no memory left; adding
// it to the exception_list used to fail in a noexcept join (std::terminate).
BOOST_AUTO_TEST_CASE(task_block_collects_a_child_exception_without_memory)
{
  fork_join_thread_pool pool(1);
  bool reported = false;
  try
  {
    fj::define_task_block(pool, [&](task_block& tb) {
      tb.run([] { throw tagged_error(2); });
      out_of_memory_here(); // f returns normally; the join collects the child's exception
    });
    out_of_memory_over();
    BOOST_FAIL("define_task_block must throw");
  }
  catch (...)
  {
    out_of_memory_over();
    reported = reports_a_failure();
  }
  BOOST_TEST(reported);
}

BOOST_AUTO_TEST_CASE(parallel_invoke_collects_a_child_exception_without_memory)
{
  fork_join_thread_pool pool(1);
  bool reported = false;
  try
  {
    fj::parallel_invoke(pool, [] { out_of_memory_here(); }, [] { throw tagged_error(3); });
    out_of_memory_over();
    BOOST_FAIL("parallel_invoke must throw");
  }
  catch (...)
  {
    out_of_memory_over();
    reported = reports_a_failure();
  }
  BOOST_TEST(reported);
}

BOOST_AUTO_TEST_CASE(parallel_invoke_on_another_executor_collects_without_memory)
{
  boost::executors::basic_thread_pool pool(2);
  bool reported = false;
  try
  {
    fj::parallel_invoke(
        pool,
        [] {
          const tagged_error e(4);
          out_of_memory_here();
          throw e;
        },
        [] {});
    out_of_memory_over();
    BOOST_FAIL("parallel_invoke must throw");
  }
  catch (...)
  {
    out_of_memory_over();
    reported = reports_a_failure();
  }
  BOOST_TEST(reported);
}

// With memory back, the exceptions themselves are reported as before: the collector does not
// degrade when nothing fails.
BOOST_AUTO_TEST_CASE(with_memory_the_exceptions_are_reported_as_themselves)
{
  fork_join_thread_pool pool(2);
  try
  {
    fj::parallel_invoke(pool, [] { throw tagged_error(5); }, [] { throw tagged_error(6); });
    BOOST_FAIL("parallel_invoke must throw");
  }
  catch (const exception_list& list)
  {
    BOOST_TEST((tags_of(list) == std::multiset<int>{5, 6}));
  }
}

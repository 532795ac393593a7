// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// Helpers shared by the tests of parallel_invoke, task_block and the parallel algorithms:
// serial references, exceptions that say which task threw them, and the executors every
// algorithm is checked on.

#ifndef BOOST_THREAD_FJ_TEST_SUPPORT_HPP
#define BOOST_THREAD_FJ_TEST_SUPPORT_HPP

#include <boost/test/unit_test.hpp>
#include <boost/thread/executors/basic_thread_pool.hpp>
#include <boost/thread/executors/fork_join_thread_pool.hpp>
#include <boost/thread/experimental/exception_list.hpp>
#include <boost/thread/future.hpp>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <set>
#include <stdexcept>
#include <thread>
#include <vector>

#ifndef BOOST_THREAD_FJ_TEST_SCALE
#define BOOST_THREAD_FJ_TEST_SCALE 1
#endif

namespace fj_test {

// Waits (yielding) until flag is set: a rendezvous that makes one schedule the only one possible.
inline void wait_for(const std::atomic<bool>& flag)
{
  while (!flag.load(std::memory_order_acquire))
    std::this_thread::yield();
}

// A future that a thread outside `pool` makes ready once a frame of the pool is parked: a task
// that joins it parks, and resumes only after it has. The destructor joins that thread.
class ready_once_parked
{
public:
  explicit ready_once_parked(const boost::executors::fork_join_thread_pool& pool)
      : future_(promise_.get_future().share()), setter_([this, &pool] {
          while (pool.statistics().frames_parked_now == 0)
            std::this_thread::yield();
          promise_.set_value();
        })
  {
  }
  ~ready_once_parked() { setter_.join(); }
  ready_once_parked(const ready_once_parked&) = delete;
  ready_once_parked& operator=(const ready_once_parked&) = delete;

  const boost::shared_future<void>& future() const noexcept { return future_; }

private:
  boost::promise<void> promise_;
  boost::shared_future<void> future_;
  std::thread setter_;
};

// The size of the "large" inputs (smaller under the sanitizers).
const std::size_t large = 1000000 / BOOST_THREAD_FJ_TEST_SCALE;

inline std::uint64_t serial_fib(int n) { return n < 2 ? std::uint64_t(n) : serial_fib(n - 1) + serial_fib(n - 2); }

// A bijective 64-bit mix: results that a missed or repeated element would change.
inline std::uint64_t mix(std::uint64_t x)
{
  x ^= x >> 31;
  x *= 0x7fb5d329728ea185ULL;
  x ^= x >> 27;
  return x;
}

// An exception that names the task that threw it.
struct tagged_error : std::runtime_error
{
  explicit tagged_error(int t) : std::runtime_error("tagged"), tag(t) {}
  int tag;
};

// Returns: the tags of the tagged_errors in list, with repetitions; those inside a nested
// exception_list (a nested block's) count as 100 + tag.
inline std::multiset<int> tags_of(const boost::experimental::parallel::exception_list& list)
{
  std::multiset<int> tags;
  for (const boost::exception_ptr& e : list)
  {
    try
    {
      boost::rethrow_exception(e);
    }
    catch (const tagged_error& t)
    {
      tags.insert(t.tag);
    }
    catch (const boost::experimental::parallel::exception_list& inner)
    {
      for (int t : tags_of(inner))
        tags.insert(100 + t);
    }
  }
  return tags;
}

// Calls test(ex) on fork_join_thread_pools of 1, 2 and 4 threads and on a basic_thread_pool.
template <class Test>
void on_every_executor(Test test)
{
  for (unsigned threads : {1u, 2u, 4u})
  {
    BOOST_TEST_CONTEXT("fork_join_thread_pool(" << threads << ")")
    {
      boost::executors::fork_join_thread_pool pool(threads);
      test(pool);
    }
  }
  BOOST_TEST_CONTEXT("basic_thread_pool(2)")
  {
    boost::executors::basic_thread_pool pool(2);
    test(pool);
  }
}

// Returns: sizes around the grain g (g - 1, g, g + 1 and the same around 2g and 4g), and a few
// fixed ones.
inline std::vector<std::size_t> sizes_around(std::size_t g)
{
  std::vector<std::size_t> s = {0, 1, 2, 3, 4, 5, 7, 100, 1000};
  for (std::size_t k : {g, 2 * g, 4 * g})
    for (std::size_t d : {k - 1, k, k + 1})
      s.push_back(d);
  return s;
}

} // namespace fj_test

#endif // header

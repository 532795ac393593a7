// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// fork_join_thread_pool everywhere Boost.Thread takes an executor: boost::async,
// future::then, shared_future::then, executor_adaptor, generic_executor_ref, serial_executor,
// and boost::executor&. Public API only.

#ifndef BOOST_TEST_MODULE // a group of test files built as one program names its own
#define BOOST_TEST_MODULE executor_interop
#endif
#include "watchdog.hpp"

#include <boost/thread/executors/executor.hpp>
#include <boost/thread/executors/executor_adaptor.hpp>
#include <boost/thread/executors/fork_join.hpp>
#include <boost/thread/executors/generic_executor_ref.hpp>
#include <boost/thread/executors/serial_executor.hpp>
#include <boost/thread/future.hpp>

#include <memory>
#include <vector>

BOOST_AUTO_TEST_SUITE(executor_interop_pass) // this file's tests, which CTest runs by this name

using boost::executors::fork_join_thread_pool;

BOOST_AUTO_TEST_CASE(async_on_the_pool)
{
  fork_join_thread_pool pool(2);
  boost::future<int> f = boost::async(pool, [] { return 6 * 7; });
  BOOST_TEST(f.get() == 42);
  boost::future<int> g = boost::async(pool, [](int a, int b) { return a + b; }, 40, 2);
  BOOST_TEST(g.get() == 42);
  std::unique_ptr<int> p(new int(5));
  boost::future<int> h = boost::async(pool, [q = std::move(p)] { return *q; });
  BOOST_TEST(h.get() == 5);
}

BOOST_AUTO_TEST_CASE(then_on_the_pool)
{
  fork_join_thread_pool pool(2);
  boost::future<int> f = boost::async(pool, [] { return 20; });
  boost::future<int> g = f.then(pool, [](boost::future<int> x) { return x.get() + 1; });
  BOOST_TEST(g.get() == 21);

  boost::shared_future<int> s = boost::async(pool, [] { return 10; }).share();
  boost::future<int> a = s.then(pool, [](boost::shared_future<int> x) { return x.get() * 2; });
  boost::future<int> b = s.then(pool, [](boost::shared_future<int> x) { return x.get() * 3; });
  BOOST_TEST(a.get() + b.get() == 50);
}

BOOST_AUTO_TEST_CASE(executor_adaptor_and_polymorphic_executor)
{
  boost::executors::executor_adaptor<fork_join_thread_pool> adapted(2);
  boost::executors::executor& ex = adapted;
  boost::future<int> f = boost::async(ex, [] { return 3; });
  BOOST_TEST(f.get() == 3);
  int x = 0;
  boost::promise<void> done;
  ex.submit([&] {
    x = 1;
    done.set_value();
  });
  done.get_future().wait();
  BOOST_TEST(x == 1);
  BOOST_TEST(!ex.closed());
  ex.close();
  BOOST_TEST(ex.closed());
}

BOOST_AUTO_TEST_CASE(generic_executor_ref)
{
  fork_join_thread_pool pool(2);
  boost::executors::generic_executor_ref ref(pool);
  boost::future<int> f = boost::async(ref, [] { return 11; });
  BOOST_TEST(f.get() == 11);
  boost::promise<int> p;
  boost::future<int> g = p.get_future();
  ref.submit([&p] { p.set_value(12); });
  BOOST_TEST(g.get() == 12);
}

// A reference recorded while the pool lived stays safe after the pool is gone: submitting
// through it throws sync_queue_is_closed instead of touching a destroyed object.
BOOST_AUTO_TEST_CASE(generic_executor_ref_outliving_the_pool)
{
  std::unique_ptr<fork_join_thread_pool> pool(new fork_join_thread_pool(1));
  boost::executors::generic_executor_ref ref(*pool);
  pool.reset();
  BOOST_TEST(ref.closed());
  BOOST_CHECK_THROW(ref.submit([] {}), boost::sync_queue_is_closed);
}

BOOST_AUTO_TEST_CASE(serial_executor_on_the_pool)
{
  fork_join_thread_pool pool(4);
  std::vector<int> order; // serial_executor runs one closure at a time, in order
  {
    boost::executors::serial_executor serial(pool);
    for (int i = 0; i < 200; ++i)
      serial.submit([&order, i] { order.push_back(i); });
    boost::future<void> last = boost::async(serial, [] {});
    last.wait();
    BOOST_TEST(order.size() == 200u);
    for (int i = 0; i < 200; ++i)
      BOOST_TEST(order[i] == i);
    serial.close();
  }
}

BOOST_AUTO_TEST_SUITE_END()

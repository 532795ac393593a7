// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// fork_join_thread_pool as a drop-in replacement for basic_thread_pool.
//
// Everything below uses basic_thread_pool's interface only: submit, try_executing_one,
// reschedule_until, close, closed, the destructor, boost::async(ex, f) and
// future::then(ex, f). Switching pools is a change of the one line that names the type.

#include <boost/thread/executors/fork_join_thread_pool.hpp>
#include <boost/thread/future.hpp>

#include <cstddef>
#include <cstdio>
#include <string>
#include <vector>

// The only line that names the pool; it used to say boost::basic_thread_pool.
using pool_type = boost::fork_join_thread_pool;

int failures = 0;

void check(bool ok, const char* what)
{
  std::printf("%-52s %s\n", what, ok ? "ok" : "FAILED");
  if (!ok)
    ++failures;
}

// A task that splits its work into subtasks and waits for them the way one must on
// basic_thread_pool: reschedule_until runs queued closures meanwhile, and when it finds none
// left, the remaining subtasks are running on other threads, so a blocking wait is safe.
int sum_of_squares(pool_type& pool, int n)
{
  std::vector<boost::future<int> > parts;
  for (int i = 1; i <= n; ++i)
    parts.push_back(boost::async(pool, [i] { return i * i; }));
  pool.reschedule_until([&] {
    for (boost::future<int>& p : parts)
      if (!p.is_ready())
        return false;
    return true;
  });
  int sum = 0;
  for (boost::future<int>& p : parts)
    sum += p.get(); // get() blocks until ready
  return sum;
}

int main()
{
  // Written by closures, read after the pool is destroyed: the destructor makes that safe.
  std::vector<std::size_t> squares(100, 0);
  {
    pool_type pool(2);

    // Fire-and-forget closures.
    for (std::size_t i = 0; i < 100; ++i)
      pool.submit([&squares, i] { squares[i] = i * i; });

    // boost::async on the pool, and a continuation that runs on the pool too.
    boost::future<int> answer = boost::async(pool, [] { return 6 * 7; });
    boost::future<std::string> text = answer.then(pool, [](boost::future<int> f) { return std::to_string(f.get()); });
    check(text.get() == "42", "boost::async(pool, f).then(pool, g)");

    // A task that waits for subtasks of its own, with reschedule_until.
    boost::future<int> sum = boost::async(pool, [&pool] { return sum_of_squares(pool, 10); });
    // The calling thread may lend a hand too: run queued closures until the result is ready.
    while (!sum.is_ready())
      if (!pool.try_executing_one())
        boost::this_thread::yield();
    check(sum.get() == 385, "sum_of_squares(10) with reschedule_until");

    pool.close();
    check(pool.closed(), "closed() after close()");
    bool rejected = false;
    try
    {
      pool.submit([] {});
    }
    catch (const boost::sync_queue_is_closed&)
    {
      rejected = true;
    }
    check(rejected, "submit after close() throws sync_queue_is_closed");
  } // The destructor returns after every submitted closure has completed.

  bool all_ran = true;
  for (std::size_t i = 0; i < 100; ++i)
    all_ran = all_ran && squares[i] == i * i;
  check(all_ran, "every submitted closure ran before the destructor");
  return failures == 0 ? 0 : 1;
}

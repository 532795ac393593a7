// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// A task graph that is not a tree: one child waits for its sibling.
//
//   foobar:  fork foo;  fork bar;  join foo and bar
//   bar:     join foo;  then do bar's own work      (a sibling waits for its sibling)
//
// bar's task joins foo's future before it does its own work, and the parent joins both.
// Any acyclic graph of joins like this one completes on any number of threads, even one:
// whichever thread waits runs queued tasks meanwhile, so a task that others wait for is
// never stuck behind them in a queue nobody serves.

#include <boost/thread/executors/fork_join.hpp>

#include <cstddef>
#include <cstdio>
#include <initializer_list>
#include <vector>

using boost::executors::fork_join_thread_pool;

// What one run of foobar observed. Plain variables, not atomics: they are written by tasks and
// read after a join, and only the happens-before edges of join make that race-free (a build with
// -fsanitize=thread would report a data race if one of them were missing).
struct trace
{
  bool foo_done = false;
  bool bar_done = false;
  bool bar_saw_foo_done = false;
};

void foobar(fork_join_thread_pool& ex, trace& t)
{
  auto f1 = fork(ex, [&t] { t.foo_done = true; }); // foo
  auto f2 = fork(ex, [&] {
    join(ex, f1); // bar depends on foo, its sibling
    t.bar_saw_foo_done = t.foo_done;
    t.bar_done = true;
  });
  join(ex, f1, f2);
}

// Runs `rounds` batches of `width` concurrent foobars on a pool of `threads` threads.
// Returns: the number of foobars in which something ran out of order.
int run(unsigned threads, int rounds, int width)
{
  fork_join_thread_pool pool(threads);
  int failures = 0;
  for (int r = 0; r < rounds; ++r)
  {
    std::vector<trace> traces(static_cast<std::size_t>(width));
    std::vector<boost::joinable_future<void> > runs;
    for (trace& t : traces)
      runs.push_back(fork(pool, [&pool, &t] { foobar(pool, t); }));
    // The range form of join: helps the pool until every future in [first, last) is ready.
    join(pool, runs.begin(), runs.end());
    for (const trace& t : traces)
      if (!(t.foo_done && t.bar_done && t.bar_saw_foo_done))
        ++failures;
  }
  return failures;
}

int main()
{
  int failures = 0;
  for (unsigned threads : {1u, 2u})
  {
    const int f = run(threads, 200, 16);
    std::printf("%u thread(s): %d of %d foobars out of order\n", threads, f, 200 * 16);
    failures += f;
  }
  return failures == 0 ? 0 : 1;
}

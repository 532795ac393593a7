// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// fork_join_trace (fork_join_trace.hpp): the output is valid JSON; the slices of one lane never
// overlap and begin before they end; one task's first slice per task run and one steal per
// steal, against statistics() over the recorded interval; a full buffer drops and counts, and
// the output stays well formed; recording changes no result; a parked frame's spans pause and
// go on; threads that are not pool threads get lanes, as many as asked for.

#define BOOST_TEST_MODULE fork_join_trace
#include "replaced_operator_new.hpp"
#include "watchdog.hpp"

#include <boost/thread/executors/fork_join.hpp>
#include <boost/thread/executors/fork_join_trace.hpp>
#include <boost/thread/executors/parallel_invoke.hpp>
#include <boost/thread/executors/task_block.hpp>
#include <boost/thread/future.hpp>

#define BOOST_BIND_GLOBAL_PLACEHOLDERS // property_tree (Boost 1.74) includes the old boost/bind.hpp
#include <boost/property_tree/json_parser.hpp>
#include <boost/property_tree/ptree.hpp>

#include <algorithm>
#include <cstdlib>
#include <new>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace ex = boost::executors;
using boost::property_tree::ptree;

// The allocations of the threads that set counted_thread (recording_allocates_nothing).
static std::atomic<std::uint64_t> allocations{0};
static thread_local bool counted_thread = false;

void* test_operator_new_nothrow(std::size_t n, std::size_t alignment) noexcept
{
  // relaxed: read after the counted work ends, which the root's get() orders.
  if (counted_thread)
    allocations.fetch_add(1, std::memory_order_relaxed);
  return fj_test::malloc_block(n, alignment);
}

void* test_operator_new(std::size_t n, std::size_t alignment)
{
  if (void* p = test_operator_new_nothrow(n, alignment))
    return p;
  throw std::bad_alloc();
}

namespace {

  int serial_fib(int n) { return n < 2 ? n : serial_fib(n - 1) + serial_fib(n - 2); }

  int fib(int n)
  {
    if (n < 2)
      return n;
    boost::fork_join_thread_pool& pool = *boost::fork_join_thread_pool::current();
    auto a = ex::fork(pool, ex::named("fib", &fib), n - 1);
    const int b = fib(n - 2);
    a.join();
    return a.get() + b;
  }

  // "12.345" (microseconds, three decimals, as write_json prints them) in nanoseconds.
  std::int64_t ns_of(const std::string& us)
  {
    const std::size_t dot = us.find('.');
    BOOST_REQUIRE_MESSAGE(dot != std::string::npos && us.size() - dot == 4, "time " << us);
    const bool negative = us[0] == '-';
    const std::int64_t t = std::stoll(us.substr(negative, dot - negative)) * 1000 + std::stoll(us.substr(dot + 1));
    return negative ? -t : t;
  }

  // What a trace says, checked as it is read.
  struct parsed
  {
    std::uint64_t task_runs = 0; // task slices with piece 0
    std::uint64_t steals = 0;
    std::uint64_t submits = 0;
    std::uint64_t dropped = 0;
    std::map<std::string, std::uint64_t> names; // slices per name
    std::set<int> lanes;
  };

  // Requires: a trace written by write_json. Checks: it parses as JSON; every slice has
  // dur >= 0 and lies between the recording's start and stop; on each lane, slices do not
  // overlap; a task's pieces are numbered 0, 1, ... in time order; every event names a lane
  // the metadata named.
  parsed parse(const std::string& json)
  {
    ptree root;
    std::istringstream in(json);
    BOOST_REQUIRE_NO_THROW(boost::property_tree::read_json(in, root));
    parsed p;
    p.dropped = root.get<std::uint64_t>("otherData.dropped_events");
    const std::int64_t recorded = ns_of(root.get<std::string>("otherData.recorded_us"));
    std::set<int> named;
    struct piece_at
    {
      std::int64_t begin, end;
      std::uint64_t task;
      unsigned piece;
    };
    std::map<int, std::vector<piece_at> > slices;
    for (const auto& kv : root.get_child("traceEvents"))
    {
      const ptree& e = kv.second;
      const std::string ph = e.get<std::string>("ph");
      const int tid = e.get<int>("tid");
      if (ph == "M")
      {
        if (e.get<std::string>("name") == "thread_name")
          named.insert(tid);
        continue;
      }
      p.lanes.insert(tid);
      const std::int64_t ts = ns_of(e.get<std::string>("ts"));
      BOOST_TEST(ts >= 0);
      if (ph == "X")
      {
        const std::int64_t dur = ns_of(e.get<std::string>("dur"));
        BOOST_TEST(dur >= 0);
        BOOST_TEST(ts + dur <= recorded); // every event lies inside the recording
        const std::string name = e.get<std::string>("name");
        ++p.names[name];
        std::uint64_t task = 0;
        unsigned piece = 0;
        if (e.get<std::string>("cat") == "task")
        {
          task = e.get<std::uint64_t>("args.task");
          piece = e.get<unsigned>("args.piece");
          if (piece == 0)
            ++p.task_runs;
        }
        slices[tid].push_back(piece_at{ts, ts + dur, task, piece});
      }
      else if (ph == "i" && e.get<std::string>("name") == "steal")
      {
        ++p.steals;
        BOOST_TEST(named.count(e.get<int>("args.victim") + 1) == 1u); // a pool thread's lane
      }
      else if (ph == "i" && e.get<std::string>("name") == "submit")
        ++p.submits;
    }
    for (auto& lane : slices)
    {
      BOOST_TEST(named.count(lane.first) == 1u);
      std::stable_sort(lane.second.begin(), lane.second.end(),
                       [](const piece_at& a, const piece_at& b) { return a.begin < b.begin; });
      std::map<std::uint64_t, unsigned> next_piece;
      for (std::size_t i = 0; i < lane.second.size(); ++i)
      {
        const piece_at& s = lane.second[i];
        if (i > 0)
          BOOST_TEST_REQUIRE(lane.second[i - 1].end <= s.begin, "lane " << lane.first << ": slices overlap at " << s.begin);
        if (s.task)
          BOOST_TEST_REQUIRE(next_piece[s.task]++ == s.piece, "task " << s.task << " piece " << s.piece << " out of order");
      }
    }
    return p;
  }

  std::string json_of(ex::fork_join_trace& trace)
  {
    std::ostringstream out;
    trace.write_json(out);
    return out.str();
  }

  // Waits until no pool thread runs a task (each finished its last run's accounting): the
  // pool's counters are then still while nothing is submitted.
  void settle(boost::fork_join_thread_pool& pool)
  {
    for (int i = 0; i < 3; ++i)
    {
      std::uint64_t before;
      do
      {
        before = pool.statistics().tasks_run;
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
      } while (pool.statistics().tasks_run != before);
    }
  }

} // namespace

BOOST_AUTO_TEST_CASE(a_fib_trace_has_a_task_span_per_task_run_and_a_steal_per_steal)
{
  for (unsigned threads : {1u, 2u, 3u})
  {
    boost::fork_join_thread_pool pool(threads);
    settle(pool);
    const auto before = pool.statistics();
    ex::fork_join_trace trace(pool);
    auto f = ex::fork(pool, &fib, 16);
    f.join();
    BOOST_TEST(f.get() == serial_fib(16));
    settle(pool);
    trace.stop();
    const auto after = pool.statistics();
    parsed p = parse(json_of(trace));
    BOOST_TEST(p.dropped == 0u);
    BOOST_TEST(trace.dropped() == 0u);
    BOOST_TEST(p.task_runs == after.tasks_run - before.tasks_run);
    BOOST_TEST(p.steals == after.steals - before.steals);
    BOOST_TEST(p.names["fib"] > 0u);
    BOOST_TEST(p.submits >= 1u); // the root fork, and the forks of what this thread ran in its join
  }
}

BOOST_AUTO_TEST_CASE(every_kind_of_task_is_drawn_under_its_name)
{
  boost::fork_join_thread_pool pool(2);
  settle(pool);
  const auto before = pool.statistics();
  ex::fork_join_trace trace(pool);
  std::atomic<int> ran{0};
  const auto bump = [&ran] { ran.fetch_add(1, std::memory_order_relaxed); };
  pool.submit(bump);
  auto forked = ex::fork(pool, bump);
  auto asynced = boost::async(pool, bump);
  ex::parallel_invoke(pool, bump, bump);
  ex::define_task_block(pool, [&](ex::task_block& tb) {
    tb.run(bump);
    tb.run(ex::named("labelled \"child\"", bump));
  });
  forked.join();
  asynced.get();
  while (ran.load() != 7)
    std::this_thread::yield();
  settle(pool);
  trace.stop();
  const auto after = pool.statistics();
  parsed p = parse(json_of(trace));
  BOOST_TEST(p.task_runs == after.tasks_run - before.tasks_run);
  BOOST_TEST(p.names["submit"] >= 1u);
  BOOST_TEST(p.names["fork"] >= 1u);
#ifndef BOOST_THREAD_FJ_PUBLIC_API_ONLY
  BOOST_TEST(p.names["async"] >= 1u); // without fork states, Boost's async submits a closure
#endif
  BOOST_TEST(p.names["invoke"] >= 1u);
  BOOST_TEST(p.names["task_block"] >= 1u);
  BOOST_TEST(p.names["labelled \"child\""] >= 1u); // escaped in the JSON, read back whole
}

BOOST_AUTO_TEST_CASE(a_full_buffer_drops_and_counts_and_the_trace_stays_well_formed)
{
  for (std::size_t capacity : {std::size_t(1), std::size_t(7), std::size_t(64)})
  {
    boost::fork_join_thread_pool pool(2);
    settle(pool);
    const auto before = pool.statistics();
    ex::fork_join_trace trace(pool, capacity, 1);
    auto f = ex::fork(pool, &fib, 15);
    f.join();
    BOOST_TEST(f.get() == serial_fib(15));
    settle(pool);
    trace.stop();
    const auto after = pool.statistics();
    BOOST_TEST(trace.events() <= capacity * 3);
    BOOST_TEST(trace.dropped() > 0u);
    parsed p = parse(json_of(trace));
    BOOST_TEST(p.dropped + 0 <= trace.dropped());
    BOOST_TEST(p.dropped > 0u);
    BOOST_TEST(p.task_runs <= after.tasks_run - before.tasks_run);
  }
}

// Recording allocates nothing once the trace is built, whether the buffers have room or are
// full and drop: the same run on a pool of one thread allocates as much on that thread traced
// as untraced (nothing, once the fork states' recycler is warm). The root is not joined from
// here until it is done, so that this thread does not run it.
BOOST_AUTO_TEST_CASE(recording_allocates_nothing)
{
  boost::fork_join_thread_pool pool(1, [](boost::fork_join_thread_pool&) { counted_thread = true; });
  const auto run = [&pool] {
    std::atomic<bool> done{false};
    auto f = ex::fork(pool, [&done] {
      auto g = ex::fork(*boost::fork_join_thread_pool::current(), ex::named("fib", &fib), 15);
      g.join();
      const int r = g.get();
      done.store(true);
      return r;
    });
    while (!done.load())
      std::this_thread::yield();
    f.join();
    return f.get();
  };
  for (int i = 0; i < 3; ++i) // the fork states' recycler reaches its steady state
    BOOST_TEST(run() == serial_fib(15));
  settle(pool);
  std::uint64_t before = allocations.load();
  BOOST_TEST(run() == serial_fib(15));
  settle(pool);
  const std::uint64_t untraced = allocations.load() - before;
  for (std::size_t capacity : {std::size_t(1) << 16, std::size_t(16)})
  {
    ex::fork_join_trace trace(pool, capacity);
    before = allocations.load();
    const int r = run();
    settle(pool);
    const std::uint64_t traced = allocations.load() - before;
    trace.stop();
    BOOST_TEST(r == serial_fib(15));
    BOOST_TEST(traced == untraced, "capacity " << capacity << ": " << traced << " allocations traced, " << untraced << " untraced");
    BOOST_TEST(trace.events() > 0u);
    if (capacity == 16)
      BOOST_TEST(trace.dropped() > 0u);
  }
}

BOOST_AUTO_TEST_CASE(recording_changes_no_result)
{
  boost::fork_join_thread_pool pool(3);
  std::vector<long> with, without;
  for (int round = 0; round < 2; ++round)
  {
    std::vector<long>& out = round ? with : without;
    std::unique_ptr<ex::fork_join_trace> trace;
    if (round)
      trace.reset(new ex::fork_join_trace(pool, 1 << 10)); // small: it fills and drops too
    for (int n = 0; n < 20; ++n)
    {
      auto f = ex::fork(pool, &fib, n);
      std::vector<long> parts(8, 0);
      ex::define_task_block(pool, [&](ex::task_block& tb) {
        for (int i = 0; i < 8; ++i)
          tb.run([&parts, i, n] { parts[i] = serial_fib(n % 12 + i); });
      });
      f.join();
      long sum = f.get();
      for (long x : parts)
        sum += x;
      out.push_back(sum);
    }
  }
  BOOST_TEST(with == without, boost::test_tools::per_element());
}

// A join whose child was stolen and runs until the join has parked: the joiner's task pauses at
// the park and goes on at the resume, and the lane stays well formed.
BOOST_AUTO_TEST_CASE(a_parked_frame_pauses_its_spans_and_resumes_them)
{
  boost::fork_join_thread_pool pool(2);
  settle(pool);
  const auto before = pool.statistics();
  ex::fork_join_trace trace(pool);
  std::atomic<bool> parent_done{false};
  auto root = ex::fork(pool, ex::named("parent", [&pool, &parent_done] {
    std::atomic<bool> started{false};
    const std::uint64_t parked_before = pool.statistics().frames_parked;
    auto child = ex::fork(pool, ex::named("child", [&] {
      started.store(true);
      // Until the parent's join has parked (the count is the parent's thread's, bumped before
      // it switches stacks): the parent cannot resume before this returns.
      while (pool.statistics().frames_parked == parked_before)
        std::this_thread::yield();
    }));
    while (!started.load()) // stolen by the other thread: the join cannot run it
      std::this_thread::yield();
    child.join();
    parent_done.store(true);
  }));
  // Not a join: this thread would run the parent itself, and a thread that is not a pool thread
  // blocks in a join instead of parking.
  while (!parent_done.load())
    std::this_thread::yield();
  root.join();
  root.get();
  settle(pool);
  trace.stop();
  const auto after = pool.statistics();
  BOOST_TEST(after.frames_parked > before.frames_parked);
  parsed p = parse(json_of(trace));
  BOOST_TEST(p.task_runs == after.tasks_run - before.tasks_run);
  BOOST_TEST(p.names["parent"] >= 2u); // before the park, after the resume
  BOOST_TEST(p.names["child"] >= 1u);
}

BOOST_AUTO_TEST_CASE(outside_threads_get_lanes_as_many_as_asked)
{
  boost::fork_join_thread_pool pool(2);
  ex::fork_join_trace trace(pool, 1 << 12, 2);
  std::vector<std::thread> submitters;
  std::atomic<int> ran{0};
  for (int t = 0; t < 4; ++t)
    submitters.emplace_back([&] {
      for (int i = 0; i < 10; ++i)
        pool.submit([&ran] { ran.fetch_add(1); });
    });
  for (std::thread& t : submitters)
    t.join();
  while (ran.load() != 40)
    std::this_thread::yield();
  settle(pool);
  trace.stop();
  const parsed p = parse(json_of(trace));
  BOOST_TEST(p.submits == 20u);          // the two threads that got a lane
  BOOST_TEST(trace.dropped() == 20u);    // the other two threads' submissions
  BOOST_TEST(p.lanes.size() <= 2u + 2u); // the pool threads and two outside lanes
}

// Attacks the stop's handshake: traces started and stopped while every pool thread and an
// outside thread record (tasks, steals, searches, parks); each stopped trace is read while the
// threads go on (ThreadSanitizer reports a write into a lane after its stop) and must be well
// formed; the work's results stay right.
BOOST_AUTO_TEST_CASE(traces_started_and_stopped_while_the_pool_works)
{
  boost::fork_join_thread_pool pool(2);
  std::atomic<bool> stop{false};
  std::atomic<int> wrong{0};
  std::thread worker([&] {
    while (!stop.load())
    {
      auto f = ex::fork(pool, &fib, 12);
      ex::parallel_invoke(pool, [] { serial_fib(10); }, [] { serial_fib(11); });
      f.join();
      if (f.get() != serial_fib(12))
        wrong.fetch_add(1);
    }
  });
  struct stop_worker // a failed check below ends the case with the worker stopped, not std::terminate
  {
    std::atomic<bool>& stop;
    std::thread& worker;
    ~stop_worker()
    {
      stop.store(true);
      worker.join();
    }
  };
  {
    const stop_worker guard{stop, worker};
    for (int i = 0; i < 100; ++i)
    {
      ex::fork_join_trace trace(pool, std::size_t(1) << (i % 12), 2);
      std::this_thread::yield();
      trace.stop();
      parse(json_of(trace));
    }
  }
  BOOST_TEST(wrong.load() == 0);
}

BOOST_AUTO_TEST_CASE(one_trace_per_pool_and_a_trace_outlives_its_pool)
{
  std::unique_ptr<ex::fork_join_trace> trace;
  {
    boost::fork_join_thread_pool pool(2);
    trace.reset(new ex::fork_join_trace(pool));
    BOOST_CHECK_THROW(ex::fork_join_trace second(pool), std::logic_error);
    auto f = ex::fork(pool, &fib, 10);
    f.join();
    BOOST_TEST(f.get() == 55);
  }
  BOOST_TEST(trace->recording());
  parsed p = parse(json_of(*trace));
  BOOST_TEST(!trace->recording());
  BOOST_TEST(p.task_runs >= 1u);
  // Stopped, the pool may be traced again.
  boost::fork_join_thread_pool pool(1);
  {
    ex::fork_join_trace first(pool);
  }
  ex::fork_join_trace again(pool);
  BOOST_TEST(again.recording());
}

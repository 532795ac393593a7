// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// fork_join_shared_queue_bench: the measurement behind doc/design.md's "Where Boost.Lockfree is
// used". The pool's shared queue (submissions from outside threads) is a mutex-protected deque,
// detail/fork_join/primitives/locked_deque.hpp; the alternative Boost offers is boost::lockfree::queue. Both
// carry task pointers here, as they would in the pool: P producer threads push N pointers each
// while C consumer threads (the pool's workers) pull until every pointer has arrived; the sum of
// what was pulled checks that each arrived exactly once. Prints the median throughput of
// several runs for each queue and thread mix, all measured in this run.
//
// usage: fork_join_shared_queue_bench [runs] [pushes per producer]

#include <boost/lockfree/queue.hpp>
#include <boost/thread/executors/detail/fork_join/primitives/locked_deque.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

namespace {

struct task
{
};

// The two candidates behind one interface: push a pointer, try to pull one.
struct mutex_deque
{
  static const char* name() { return "locked_deque (mutex)"; }
  void push(task* t) { q.push_back(t); }
  bool try_pull(task*& t) { return q.try_pull_front(t) == boost::queue_op_status::success; }
  boost::detail::fork_join::locked_deque<task*> q;
};

struct lockfree_queue
{
  static const char* name() { return "lockfree::queue"; }
  void push(task* t)
  {
    while (!q.push(t)) // grows from the free list; fails only if allocation fails
      std::this_thread::yield();
  }
  bool try_pull(task*& t) { return q.pop(t); }
  boost::lockfree::queue<task*> q{1024};
};

// Returns: millions of pointers moved per second in one run.
template <class Queue>
double run_once(unsigned producers, unsigned consumers, std::uint64_t per_producer)
{
  Queue queue;
  const std::uint64_t total = producers * per_producer;
  // relaxed: counters read after join(), which orders every thread's increments before.
  std::atomic<std::uint64_t> pulled{0}, sum{0};
  std::atomic<bool> go{false};
  std::vector<std::thread> threads;
  for (unsigned c = 0; c < consumers; ++c)
    threads.emplace_back([&] {
      while (!go.load(std::memory_order_acquire)) // acquire: pairs with the release store below
        std::this_thread::yield();
      std::uint64_t my_sum = 0;
      // relaxed: only a stop condition; the totals are checked after join().
      while (pulled.load(std::memory_order_relaxed) < total)
      {
        task* t = nullptr;
        if (queue.try_pull(t))
        {
          my_sum += reinterpret_cast<std::uintptr_t>(t);
          pulled.fetch_add(1, std::memory_order_relaxed);
        }
        else
          std::this_thread::yield();
      }
      sum.fetch_add(my_sum, std::memory_order_relaxed);
    });
  for (unsigned p = 0; p < producers; ++p)
    threads.emplace_back([&, p] {
      while (!go.load(std::memory_order_acquire)) // acquire: pairs with the release store below
        std::this_thread::yield();
      for (std::uint64_t i = 1; i <= per_producer; ++i)
        queue.push(reinterpret_cast<task*>(static_cast<std::uintptr_t>(p * per_producer + i)));
    });
  const auto start = std::chrono::steady_clock::now();
  go.store(true, std::memory_order_release); // release: the queue is constructed before
  for (std::thread& t : threads)
    t.join();
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  // Every value 1..total exactly once: their sum is total * (total + 1) / 2.
  const std::uint64_t expected = total * (total + 1) / 2;
  if (pulled.load(std::memory_order_relaxed) != total || sum.load(std::memory_order_relaxed) != expected)
  {
    std::fprintf(stderr, "%s: lost or duplicated pointers\n", Queue::name());
    std::exit(1);
  }
  return double(total) / seconds / 1e6;
}

template <class Queue>
double median_of(unsigned runs, unsigned producers, unsigned consumers, std::uint64_t per_producer)
{
  std::vector<double> r;
  for (unsigned i = 0; i < runs; ++i)
    r.push_back(run_once<Queue>(producers, consumers, per_producer));
  std::sort(r.begin(), r.end());
  return r[r.size() / 2];
}

} // namespace

int main(int argc, char** argv)
{
  const unsigned runs = argc > 1 ? unsigned(std::stoul(argv[1])) : 5;
  const std::uint64_t per_producer = argc > 2 ? std::stoull(argv[2]) : 500000;
  std::printf("shared queue candidates: %llu task pointers per producer, median of %u runs, Mops/s "
              "(higher is better)\n",
              static_cast<unsigned long long>(per_producer), runs);
  std::printf("%-10s %-10s %20s %20s %8s\n", "producers", "consumers", mutex_deque::name(), lockfree_queue::name(),
              "ratio");
  for (unsigned consumers : {1u, 2u})
    for (unsigned producers : {1u, 2u, 4u})
    {
      const double m = median_of<mutex_deque>(runs, producers, consumers, per_producer);
      const double l = median_of<lockfree_queue>(runs, producers, consumers, per_producer);
      std::printf("%-10u %-10u %20.2f %20.2f %8.2f\n", producers, consumers, m, l, l / m);
    }
  return 0;
}

// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// fork_join_data_placement_bench: the measurement behind doc/benchmark/README.md's "Where
// matmul's matrices are written". No pool and no scheduler: matmul's serial multiply
// (matmul/matmul.hpp), n x n, timed on the thread that runs it, in three setups:
//  - main: the main thread clears C and multiplies, as the serial, oneTBB and OpenMP peers do;
//  - woken, main clears: a thread that the main thread wakes for each run multiplies, after the
//    main thread has made the matrices and cleared C, as fork_join_bench's pool peers did while
//    the main thread prepared their matmul runs;
//  - woken, it clears: the same woken thread clears C itself (untimed), then multiplies.
// And, as a control with no shared data, UTS T3's node count by its explicit-stack walk
// (uts/uts.hpp, iterative_count) on the main thread and on the woken thread.
// Each round runs every setup `runs` times in a row; the setups take turns across rounds.
// Prints each setup's median over rounds of its rounds' medians, and of its ratio to the same
// kernel on the main thread in the same round. The answers are checked equal across setups.
//
// usage: fork_join_data_placement_bench [rounds] [runs] [n]
//   (defaults 3, 7, 1024; n a power of two, >= 64)

#include "matmul/matmul.hpp"
#include "uts/uts.hpp"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace {

namespace mm = bench::matmul;

// The serial multiply, as the serial peer's: every sub-multiply in turn.
struct in_turn
{
  template <class F1, class F2, class F3, class F4>
  void operator()(F1&& f1, F2&& f2, F3&& f3, F4&& f4) const
  {
    f1();
    f2();
    f3();
    f4();
  }
};

// A thread that sleeps on a condition variable until run(f) hands it f, runs f, and wakes the
// caller: each run, the thread is woken from sleep, as a pool's idle worker is.
class woken_thread
{
public:
  woken_thread() : thread_([this] { loop(); }) {}

  ~woken_thread()
  {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      quit_ = true;
    }
    wake_.notify_all();
    thread_.join();
  }

  // Effects: f() on this thread; returns once it has returned.
  void run(const std::function<void()>& f)
  {
    std::unique_lock<std::mutex> lock(mutex_);
    job_ = &f;
    wake_.notify_all();
    done_.wait(lock, [this] { return job_ == nullptr; });
  }

private:
  void loop()
  {
    std::unique_lock<std::mutex> lock(mutex_);
    for (;;)
    {
      wake_.wait(lock, [this] { return job_ != nullptr || quit_; });
      if (quit_)
        return;
      lock.unlock();
      (*job_)();
      lock.lock();
      job_ = nullptr;
      done_.notify_all();
    }
  }

  std::mutex mutex_;
  std::condition_variable wake_, done_;
  const std::function<void()>* job_ = nullptr;
  bool quit_ = false;
  std::thread thread_;
};

double milliseconds_of(const std::function<void()>& f)
{
  const auto start = std::chrono::steady_clock::now();
  f();
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

double median(std::vector<double> v)
{
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

} // namespace

int main(int argc, char** argv)
{
  const unsigned rounds = argc > 1 ? static_cast<unsigned>(std::atoi(argv[1])) : 3;
  const unsigned runs = argc > 2 ? static_cast<unsigned>(std::atoi(argv[2])) : 7;
  const std::size_t n = argc > 3 ? static_cast<std::size_t>(std::atoll(argv[3])) : 1024;
  if (rounds == 0 || runs == 0 || n < mm::cutoff || (n & (n - 1)) != 0)
  {
    std::fputs("usage: fork_join_data_placement_bench [rounds] [runs] [n]   (n a power of two, >= 64)\n", stderr);
    return 2;
  }
  mm::matrices m(n);
  const in_turn join4;
  const bench::uts::standard_tree tree = bench::uts::t3::size(bench::scale::full);
  woken_thread other;

  enum setup
  {
    main_thread,
    woken_main_clears,
    woken_it_clears,
    uts_main,
    uts_woken,
    setups
  };
  const char* const names[setups] = {"matmul, main thread", "matmul, woken thread, main clears C",
                                     "matmul, woken thread, it clears C", "uts_t3 walk, main thread",
                                     "uts_t3 walk, woken thread"};
  // A round runs each setup `runs` times in a row, so that its runs find the data where its own
  // previous run left it (interleaving single runs would move the data between the threads'
  // caches before every run, in every setup); the setups take turns across rounds.
  std::vector<double> ms[setups], ratio[setups];
  std::uint64_t digests[setups] = {};
  for (unsigned round = 0; round < rounds; ++round)
  {
    double t[setups];
    std::uint64_t nodes = 0;
    std::vector<double> block;
    auto time_block = [&](int s, const std::function<void()>& run_once) {
      block.clear();
      for (unsigned r = 0; r < runs; ++r)
        run_once();
      t[s] = median(block);
    };
    auto timed = [&](const std::function<void()>& f) { block.push_back(milliseconds_of(f)); };
    time_block(main_thread, [&] {
      m.reset();
      timed([&] { mm::multiply(m, join4); });
      digests[main_thread] = m.digest();
    });
    time_block(woken_main_clears, [&] {
      m.reset();
      other.run([&] { timed([&] { mm::multiply(m, join4); }); });
      digests[woken_main_clears] = m.digest();
    });
    time_block(woken_it_clears, [&] {
      other.run([&] {
        m.reset();
        timed([&] { mm::multiply(m, join4); });
        digests[woken_it_clears] = m.digest();
      });
    });
    time_block(uts_main, [&] { timed([&] { nodes = bench::uts::iterative_count(tree); }); });
    digests[uts_main] = nodes;
    time_block(uts_woken, [&] { other.run([&] { timed([&] { nodes = bench::uts::iterative_count(tree); }); }); });
    digests[uts_woken] = nodes;
    for (int s = 0; s < setups; ++s)
    {
      ms[s].push_back(t[s]);
      ratio[s].push_back(t[s] / t[s < uts_main ? main_thread : uts_main]);
    }
  }
  if (digests[woken_main_clears] != digests[main_thread] || digests[woken_it_clears] != digests[main_thread] ||
      digests[uts_woken] != digests[uts_main])
  {
    std::fputs("fork_join_data_placement_bench: the setups' answers differ\n", stderr);
    return 1;
  }
  std::printf("n = %zu, %u rounds of %u runs a setup; median of the rounds' medians (ms), and of each round's "
              "ratio to the same kernel on the main thread\n",
              n, rounds, runs);
  for (int s = 0; s < setups; ++s)
    std::printf("%-40s %8.1f ms  %5.3f\n", names[s], median(ms[s]), median(ratio[s]));
  return 0;
}

// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// fork_join_waits_bench: many frames waiting at once for what happens outside the pool, as a
// server's tasks wait for I/O: what a waiting frame costs, whether waiting costs CPU, how fast
// a frame resumes, and whether all of it grows linearly in the number of frames N.
//
// Two kinds of wait, each swept over N (10^3, 10^4, 10^5) and thread counts:
//  - hooked:     N tasks on the pool each join the future of a boost::promise that main()
//                fulfils later (nothing of this library completes it: the frame is hooked to
//                the future's shared state, detail/fork_join/waits/future_hook.hpp);
//  - registered: the same N tasks, and N more that each join one of those forks (registered
//                with the fork's run record, detail/fork_join/tasks/waker.hpp): 2N frames wait.
// Per cell, a fresh pool:
//  - start:   from the first fork until every frame is parked;
//  - per waiting frame: resident memory (VmRSS), address space (VmSize) and kernel mappings
//             (lines of /proc/self/maps) that the pool's process gained, divided by the frames
//             (each frame's fork state and hook included: what a waiting task costs in all);
//  - idle:    the process's CPU time (getrusage) over --idle seconds while every frame waits and
//             main() sleeps, as a share of one core;
//  - resume:  for 100 frames, one at a time, the time from just before its promise is fulfilled
//             to the frame running again (median and 99th percentile);
//  - finish:  from fulfilling the rest, in one burst, to every task's result.
// Every task's result is checked, and every frame must resume exactly once; a wrong answer ends
// the program with status 1. The summary fits the growth exponent of start and finish in N (1.00
// = linear). For scale: a blocked goroutine costs about 2-8 KiB (its stack, which Go grows from
// 2 KiB), and no CPU.
//
// --limit: in a child process whose address space is limited (setrlimit(RLIMIT_AS): a process
// limit, no system setting) to what it uses plus --limit-mib, frames park until a join throws
// fiber_stack_error; prints how many parked and the exception's message.
//
// --timed: instead, how late a parked timed frame resumes after its deadline: a task on the pool
// calls join_until(f, now + 1 ms) on the future of a promise never fulfilled (its frame parks,
// hooked and timed, parking.hpp), then measures now - deadline; --samples times (default 500),
// one at a time, on each thread count, with the pool idle and busy: busy, an outside thread keeps
// submitting fib(18) tasks (forks and joins inside: about 10^4 tasks, a fraction of a
// millisecond each) so that every pool thread runs tasks the whole time, and the timed frame
// resumes between two of its thread's top-level tasks. Prints the median and 99th percentile.
//
// usage: fork_join_waits_bench [--sizes LIST] [--threads LIST] [--idle SECONDS] [--limit]
//                              [--limit-mib MIB] [--quick] [--timed [--samples N]]

#include "fit.hpp"

#include <boost/thread/executors/fork_join.hpp>
#include <boost/thread/future.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

namespace {

namespace ex = boost::executors;
using clock_type = std::chrono::steady_clock;

const char* const usage = R"(usage: fork_join_waits_bench [options]
  --sizes LIST    numbers of waiting tasks N, comma-separated (default 1000,10000,100000)
  --threads LIST  pool sizes (default 1,2)
  --idle S        seconds over which the CPU of waiting frames is measured (default 2)
  --limit         also reach a real limit: park frames under an address-space limit until a
                  join throws fiber_stack_error
  --limit-mib M   the address space that limit leaves the process beyond its use (default 4096)
  --quick         sizes 1000,10000, idle 0.5 s (a smoke run)
  --timed         instead: how late a parked timed join resumes after its deadline, on each
                  thread count, with the pool idle and busy (median, 99th percentile)
  --samples N     timed joins per --timed cell (default 500)
Each cell parks N frames (hooked: joins of promise futures; registered: N more joins of those
forks), reports what a waiting frame costs, the CPU while all wait, the resume latency and the
times to start and finish, and fits the growth exponent in N (1.00 = linear).
)";

struct options
{
  bool timed = false;
  unsigned samples = 500;
  std::vector<unsigned> sizes{1000, 10000, 100000};
  std::vector<unsigned> threads{1, 2};
  double idle_seconds = 2;
  bool limit = false;
  unsigned limit_mib = 4096;
};

std::vector<unsigned> parse_list(const char* s)
{
  std::vector<unsigned> r;
  std::stringstream in(s);
  std::string item;
  while (std::getline(in, item, ','))
    r.push_back(static_cast<unsigned>(std::stoul(item)));
  return r;
}

// Returns: a field of /proc/self/status in KiB ("VmRSS:", "VmSize:"), or -1.
long status_kib(const char* key)
{
  std::ifstream f("/proc/self/status");
  std::string line;
  const std::size_t n = std::strlen(key);
  while (std::getline(f, line))
    if (line.compare(0, n, key) == 0)
      return std::stol(line.substr(n));
  return -1;
}

long mappings()
{
  std::ifstream f("/proc/self/maps");
  std::string line;
  long n = 0;
  while (std::getline(f, line))
    ++n;
  return n;
}

double process_cpu_seconds()
{
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
         static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

double seconds_since(clock_type::time_point t) { return std::chrono::duration<double>(clock_type::now() - t).count(); }

void wait_until_parked(const ex::fork_join_thread_pool& pool, std::uint64_t n)
{
  while (pool.statistics().frames_parked_now < n)
    std::this_thread::yield();
}

struct cell
{
  double start_ms = 0, finish_ms = 0;
  double rss_kib = 0, vm_kib = 0, maps = 0; // per waiting frame
  double idle_percent = 0;
  double resume_median_us = 0, resume_p99_us = 0;
  std::uint64_t frames = 0, stacks = 0, stack_mappings = 0;
};

[[noreturn]] void fail(const char* what)
{
  std::fprintf(stderr, "fork_join_waits_bench: wrong result: %s\n", what);
  std::exit(1);
}

cell run_cell(bool registered, unsigned threads, unsigned n, double idle_seconds)
{
  std::vector<boost::promise<unsigned> > promises(n);
  std::vector<boost::shared_future<unsigned> > futures;
  futures.reserve(n);
  for (boost::promise<unsigned>& p : promises)
    futures.push_back(p.get_future().share());
  std::unique_ptr<std::atomic<int>[]> resumed(new std::atomic<int>[n]);
  std::unique_ptr<clock_type::time_point[]> resumed_at(new clock_type::time_point[n]);
  for (unsigned i = 0; i < n; ++i)
    resumed[i].store(0);
  std::vector<ex::joinable_future<unsigned> > waiting, joiners;
  std::vector<boost::shared_future<unsigned> > shared_waiting; // registered: what the joiners join
  waiting.reserve(n);
  if (registered)
  {
    joiners.reserve(n);
    shared_waiting.reserve(n);
  }

  ex::fork_join_thread_pool pool(threads);
  const long rss0 = status_kib("VmRSS:"), vm0 = status_kib("VmSize:"), maps0 = mappings();
  cell c;
  c.frames = registered ? 2ull * n : n;

  const clock_type::time_point start = clock_type::now();
  for (unsigned i = 0; i < n; ++i)
    waiting.push_back(fork(pool, [&pool, &futures, &resumed, &resumed_at, i] {
      boost::shared_future<unsigned> f = futures[i];
      ex::join(pool, f);
      resumed_at[i] = clock_type::now();
      resumed[i].fetch_add(1, std::memory_order_release);
      return f.get();
    }));
  wait_until_parked(pool, n);
  if (registered)
  {
    for (unsigned i = 0; i < n; ++i)
    {
      shared_waiting.push_back(waiting[i].share());
      boost::shared_future<unsigned> w = shared_waiting.back();
      joiners.push_back(fork(pool, [&pool, w]() mutable {
        ex::join(pool, w);
        return w.get() + 1;
      }));
    }
    wait_until_parked(pool, 2ull * n);
  }
  c.start_ms = 1e3 * seconds_since(start);
  const ex::fork_join_statistics s = pool.statistics();
  c.stacks = s.fiber_stacks;
  c.stack_mappings = s.fiber_stack_mappings;
  c.rss_kib = static_cast<double>(status_kib("VmRSS:") - rss0) / static_cast<double>(c.frames);
  c.vm_kib = static_cast<double>(status_kib("VmSize:") - vm0) / static_cast<double>(c.frames);
  c.maps = static_cast<double>(mappings() - maps0) / static_cast<double>(c.frames);

  const double cpu0 = process_cpu_seconds();
  const clock_type::time_point idle_start = clock_type::now();
  std::this_thread::sleep_for(std::chrono::duration<double>(idle_seconds));
  c.idle_percent = 100 * (process_cpu_seconds() - cpu0) / seconds_since(idle_start);

  // Single releases: the latency of one resumption while the others wait.
  const unsigned sampled = std::min(n, 100u);
  std::vector<double> latency_us;
  for (unsigned i = 0; i < sampled; ++i)
  {
    const clock_type::time_point released = clock_type::now();
    promises[i].set_value(i);
    while (resumed[i].load(std::memory_order_acquire) == 0)
      std::this_thread::yield();
    latency_us.push_back(1e6 * std::chrono::duration<double>(resumed_at[i] - released).count());
  }
  std::sort(latency_us.begin(), latency_us.end());
  c.resume_median_us = latency_us[latency_us.size() / 2];
  c.resume_p99_us = latency_us[latency_us.size() * 99 / 100];

  const clock_type::time_point finish = clock_type::now();
  for (unsigned i = sampled; i < n; ++i)
    promises[i].set_value(i);
  for (unsigned i = 0; i < n; ++i)
  {
    if ((registered ? shared_waiting[i].get() : waiting[i].get()) != i)
      fail("a waiting task's value");
    if (registered && joiners[i].get() != i + 1)
      fail("a joiner's value");
  }
  c.finish_ms = 1e3 * seconds_since(finish);
  for (unsigned i = 0; i < n; ++i)
    if (resumed[i].load() != 1)
      fail("a frame did not resume exactly once");
  if (pool.statistics().frames_parked_now != 0)
    fail("frames still parked after every task ended");
  return c;
}

// In a child process: the address space limited to its use plus limit_mib, frames park until a
// join throws fiber_stack_error. Returns: the child's exit status (0: the error came and every
// task ended; 2: no error within the frames tried).
int reach_the_limit(unsigned limit_mib)
{
  std::fflush(stdout);
  const pid_t child = ::fork();
  if (child != 0)
  {
    int status = 0;
    ::waitpid(child, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
  }
  rlimit r{};
  r.rlim_cur = r.rlim_max = (static_cast<rlim_t>(status_kib("VmSize:")) << 10) + (static_cast<rlim_t>(limit_mib) << 20);
  if (setrlimit(RLIMIT_AS, &r) != 0)
    std::_Exit(1);
  {
    ex::fork_join_thread_pool pool(2);
    boost::promise<void> gate;
    boost::shared_future<void> opened = gate.get_future().share();
    std::atomic<unsigned> refused{0};
    std::string message;
    std::vector<ex::joinable_future<void> > tasks;
    const unsigned most = 1000000;
    unsigned forked = 0;
    while (refused.load() == 0 && forked < most)
    {
      tasks.push_back(fork(pool, [&pool, opened, &refused] {
        try
        {
          ex::join(pool, opened);
        }
        catch (const ex::fiber_stack_error&)
        {
          refused.fetch_add(1);
          throw;
        }
      }));
      ++forked;
      while (pool.statistics().frames_parked_now + refused.load() < forked)
        std::this_thread::yield();
    }
    const ex::fork_join_statistics s = pool.statistics();
    gate.set_value();
    for (ex::joinable_future<void>& t : tasks)
    {
      try
      {
        t.get();
      }
      catch (const ex::fiber_stack_error& e)
      {
        if (message.empty())
          message = e.what();
      }
    }
    std::printf("limit: address space limited to the process's use + %u MiB: %llu frames parked (%llu fiber stacks, "
                "%llu MiB reserved, %llu mappings), then a join threw fiber_stack_error:\n  %s\n",
                limit_mib, static_cast<unsigned long long>(s.frames_parked_now), static_cast<unsigned long long>(s.fiber_stacks),
                static_cast<unsigned long long>(s.fiber_stack_bytes >> 20), static_cast<unsigned long long>(s.fiber_stack_mappings),
                message.empty() ? "(none: no limit reached)" : message.c_str());
    std::fflush(stdout);
    std::_Exit(message.empty() ? 2 : 0);
  }
}

} // namespace

long fib(ex::fork_join_thread_pool& pool, int n)
{
  if (n < 2)
    return n;
  ex::joinable_future<long> a = ex::fork(pool, fib, std::ref(pool), n - 1);
  const long b = fib(pool, n - 2);
  a.join();
  return a.get() + b;
}

// --timed: the lateness of parked timed frames after their deadlines, in microseconds
// (sorted), on a pool of `threads`, idle or kept busy by an outside thread's fib(18) tasks.
std::vector<double> timed_lateness(unsigned threads, bool busy, unsigned samples)
{
  ex::fork_join_thread_pool pool(threads);
  std::atomic<bool> stop{false};
  std::thread load;
  if (busy)
    load = std::thread([&pool, &stop] {
      long sum = 0;
      while (!stop.load(std::memory_order_relaxed))
      {
        std::vector<ex::joinable_future<long> > batch;
        for (unsigned k = 0; k < 2 * pool.thread_count(); ++k)
          batch.push_back(ex::fork(pool, fib, std::ref(pool), 18));
        for (auto& f : batch)
          sum += f.get();
      }
      if (sum % 2584 != 0) // fib(18)
        std::exit(1);
    });
  boost::promise<int> never;
  boost::shared_future<int> f = never.get_future().share();
  std::vector<double> late;
  for (unsigned i = 0; i < samples; ++i)
  {
    ex::joinable_future<double> t = ex::fork(pool, [f]() mutable {
      const boost::chrono::steady_clock::time_point deadline = boost::chrono::steady_clock::now() + boost::chrono::milliseconds(1);
      if (ex::join_until(f, deadline) != boost::future_status::timeout)
        return -1.0;
      return boost::chrono::duration<double, boost::micro>(boost::chrono::steady_clock::now() - deadline).count();
    });
    const double us = t.get();
    if (us < 0)
    {
      std::fprintf(stderr, "a timed join on a never-ready future did not time out\n");
      std::exit(1);
    }
    late.push_back(us);
  }
  stop.store(true);
  if (load.joinable())
    load.join();
  never.set_value(0);
  std::sort(late.begin(), late.end());
  return late;
}

int run_timed(const options& o)
{
  std::printf("fork_join_waits_bench --timed: %u cores; lateness of a parked timed join after its deadline (1 ms), %u "
              "samples per cell\n",
              std::thread::hardware_concurrency(), o.samples);
  std::printf("%3s %-5s %9s %9s %9s\n", "thr", "pool", "median", "p99", "max");
  for (unsigned t : o.threads)
    for (int busy = 0; busy < 2; ++busy)
    {
      const std::vector<double> late = timed_lateness(t, busy == 1, o.samples);
      std::printf("%3u %-5s %7.0fus %7.0fus %7.0fus\n", t, busy ? "busy" : "idle", late[late.size() / 2],
                  late[std::min(late.size() - 1, late.size() * 99 / 100)], late.back());
      std::fflush(stdout);
    }
  return 0;
}

int main(int argc, char** argv)
{
  options o;
  for (int i = 1; i < argc; ++i)
  {
    const std::string a = argv[i];
    if (a == "--sizes" && i + 1 < argc)
      o.sizes = parse_list(argv[++i]);
    else if (a == "--threads" && i + 1 < argc)
      o.threads = parse_list(argv[++i]);
    else if (a == "--idle" && i + 1 < argc)
      o.idle_seconds = std::stod(argv[++i]);
    else if (a == "--limit")
      o.limit = true;
    else if (a == "--limit-mib" && i + 1 < argc)
      o.limit_mib = static_cast<unsigned>(std::stoul(argv[++i]));
    else if (a == "--quick")
    {
      o.sizes = {1000, 10000};
      o.idle_seconds = 0.5;
      o.samples = 50;
    }
    else if (a == "--timed")
      o.timed = true;
    else if (a == "--samples" && i + 1 < argc)
      o.samples = static_cast<unsigned>(std::stoul(argv[++i]));
    else
    {
      std::fputs(usage, a == "--help" ? stdout : stderr);
      return a == "--help" ? 0 : 2;
    }
  }
  if (o.timed)
    return run_timed(o);
  std::printf("fork_join_waits_bench: %u cores; vm.max_map_count %s; per waiting frame: resident KiB, address space "
              "MiB, kernel mappings\n",
              std::thread::hardware_concurrency(), [] {
                static std::string v;
                std::ifstream f("/proc/sys/vm/max_map_count");
                std::getline(f, v);
                return v.c_str();
              }());
  std::printf("%-10s %3s %7s %9s %9s %7s %7s %7s %9s %8s %8s %8s\n", "kind", "thr", "N", "start ms", "finish ms", "KiB/fr",
              "MiB/fr", "map/fr", "idle %cpu", "res med", "res p99", "stacks");
  for (int kind = 0; kind < 2; ++kind)
    for (unsigned t : o.threads)
    {
      std::vector<double> xs, start_ms, finish_ms;
      for (unsigned n : o.sizes)
      {
        const cell c = run_cell(kind == 1, t, n, o.idle_seconds);
        std::printf("%-10s %3u %7u %9.1f %9.1f %7.2f %7.2f %7.4f %9.2f %6.0fus %6.0fus %8llu\n", kind ? "registered" : "hooked", t, n,
                    c.start_ms, c.finish_ms, c.rss_kib, c.vm_kib / 1024, c.maps, c.idle_percent, c.resume_median_us,
                    c.resume_p99_us, static_cast<unsigned long long>(c.stacks));
        std::fflush(stdout);
        xs.push_back(n);
        start_ms.push_back(c.start_ms);
        finish_ms.push_back(c.finish_ms);
      }
      if (xs.size() > 1)
        std::printf("%-10s %3u growth exponent in N (1.00 = linear): start %.2f (last step %.2f), finish %.2f (last step %.2f)\n",
                    kind ? "registered" : "hooked", t, bench::growth_exponent(xs, start_ms), bench::last_exponent(xs, start_ms),
                    bench::growth_exponent(xs, finish_ms), bench::last_exponent(xs, finish_ms));
    }
  std::printf("for scale: a blocked goroutine costs about 2-8 KiB and no CPU\n");
  if (o.limit)
    return reach_the_limit(o.limit_mib);
  return 0;
}

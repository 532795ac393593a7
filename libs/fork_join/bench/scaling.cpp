// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// fork_join_scaling_bench: how the cost of a wide fan-out grows with its width n.
// A join's cost must not grow with the number of futures awaited elsewhere: a scan per task over
// a list of n waiters makes a fan-out of n children O(n^2). The workloads of
// fork_join_bench each have one size, so a cost that grows with n shows there only as a slow
// cell; this program sweeps n over powers of ten and fits the growth exponent, which is 1.0 for
// a linear cost whatever the constant.
//
// The fan-out: one task on the pool forks n children; each child forks one grandchild (so that
// a child is not a trivial leaf: it has a join of its own, nested in the parent's) and joins it;
// then the parent joins all n children, in one of these forms, one row each:
//  - range_pool:    join(pool, first, last), the range join that helps the pool;
//  - newest_first:  each child's member join(), newest first (the reverse of fork order: each
//                   one is on top of the parent's deque, or stolen);
//  - oldest_first:  each child's member join(), in fork order: the first join waits for the
//                   child at the bottom of the deque, which a thief takes first; such a join may
//                   have nothing it may run and park its frame (parking.hpp), but its cost must
//                   still grow linearly;
//  - range:         join(first, last), without the pool (each future's own join(), in order);
//  - async_range_pool: the children made with boost::async(pool, child) (plain boost::futures,
//                   each with Boost's own shared state) and joined with join(pool, first, last);
//  - tbb_task_group: oneTBB's task_group runs the n children, each a task_group of one
//                   grandchild, then waits (when oneTBB was found): a reference.
// Every run's answer (the sum of the children's results) is checked against the serial sum; a
// wrong one ends the program with status 1. Each cell, a (form, threads, n), gets a fresh pool
// (so that its statistics() are its own) and runs several times; the table gives the median
// and minimum time of a whole fan-out, the median per child, and the frames the cell's pool
// parked. The summary gives, per (form, threads), the median ns per child at each n and
// the growth exponent: the least-squares slope of log(time) against log(n) over the sweep, and
// the slope over the last decade alone (where a quadratic term, if any, shows most).
//
// "threads" means what it means in fork_join_bench (fork_join_thread_pool.hpp, tbb.hpp): the
// threads that run tasks. The fan-out's root is a task on a pool of `threads` workers, and the
// main thread waits for it without helping (the pool never adds a thread: a join that may run
// nothing parks its frame, the parked column); oneTBB's root runs in an arena of `threads` slots,
// one of them the main thread's.
//
// usage: fork_join_scaling_bench [--max-n N] [--runs N] [--threads LIST] [--only LIST] [--retries N]
//                                [--quick]

#include "fit.hpp"
#include "fork_join_thread_pool.hpp"
#include "machine.hpp"

#include <boost/thread/executors/fork_join.hpp>
#include <boost/thread/future.hpp>
#include <boost/version.hpp>

#ifdef BOOST_FORK_JOIN_BENCH_HAS_TBB
#include "tbb.hpp"

#include <oneapi/tbb/task_group.h>
#include <oneapi/tbb/version.h>
#endif

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <sys/resource.h>
#include <unistd.h>

namespace {

namespace ex = boost::executors;

const char* const usage = R"(usage: fork_join_scaling_bench [options]

A wide fan-out on fork_join_thread_pool: one task forks n children, each of which forks and
joins one grandchild, then joins them all, by each join form in turn (and oneTBB's task_group
if it was found). Sweeps n over powers of ten from 10^3, checks every answer against the serial
sum, prints the median time per child and each form's growth exponent (1.00 = linear).

options:
  --max-n N        the largest n, at least 1000 (default 1000000; --quick: 10000)
  --runs N         timed runs per cell (default 5; --quick: 1)
  --threads LIST   thread counts, e.g. 1,2 (default 1,2)
  --only LIST      forms to run (default all): range_pool, newest_first, oldest_first, range,
                   async_range_pool, tbb_task_group
  --retries N      before each cell, wait up to 10 s for other processes to leave the CPU
                   quiet; run a cell during which they used 10% or more of it again, up to N
                   times, and keep the quietest attempt (default 2; --quick: 0: no waits)
  --quick          n up to 10^4, one run per cell: a smoke test
  --help           this text

Exit status: 0 if every answer is right; 1 if one is wrong or a run fails; 2 on bad usage.
)";

// ---- the work --------------------------------------------------------------------------------

// A grandchild's work: a well-mixed hash of its index (Steele, Lea, Flood, OOPSLA 2014), cheap
// and impossible to fold into a closed form, so that the answer checks that every grandchild ran.
std::uint64_t leaf(std::uint64_t x)
{
  x += 0x9e3779b97f4a7c15u;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9u;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebu;
  return x ^ (x >> 31);
}

// The fan-out computed serially: the answer every run must give.
std::uint64_t serial_sum(std::uint64_t n)
{
  std::uint64_t sum = 0;
  for (std::uint64_t i = 0; i < n; ++i)
    sum += leaf(i) + i;
  return sum;
}

// A child: forks its grandchild and joins it (its own join, nested in the parent's).
std::uint64_t child(ex::fork_join_thread_pool& pool, std::uint64_t i)
{
  ex::joinable_future<std::uint64_t> g = ex::fork(pool, leaf, i);
  g.join();
  return g.get() + i;
}

// The parent: forks n children, joins them with join_all(v), sums their results. Futures are
// made, joined and destroyed inside the timed task, as a user's fan-out would.
template <class JoinAll>
std::uint64_t fan_out(ex::fork_join_thread_pool& pool, std::uint64_t n, JoinAll join_all)
{
  std::vector<ex::joinable_future<std::uint64_t> > v;
  v.reserve(n);
  for (std::uint64_t i = 0; i < n; ++i)
    v.push_back(ex::fork(pool, child, std::ref(pool), i));
  join_all(v);
  std::uint64_t sum = 0;
  for (ex::joinable_future<std::uint64_t>& f : v)
    sum += f.get();
  return sum;
}

// The same with plain boost::futures from boost::async(pool, ...), joined as a range with the pool.
std::uint64_t async_fan_out(ex::fork_join_thread_pool& pool, std::uint64_t n)
{
  std::vector<boost::future<std::uint64_t> > v;
  v.reserve(n);
  for (std::uint64_t i = 0; i < n; ++i)
    v.push_back(boost::async(pool, child, std::ref(pool), i));
  ex::join(pool, v.begin(), v.end());
  std::uint64_t sum = 0;
  for (boost::future<std::uint64_t>& f : v)
    sum += f.get();
  return sum;
}

typedef std::vector<ex::joinable_future<std::uint64_t> > futures;

// What a form does with a fresh pool of `threads` for one cell: `runs` runs of a fan-out of n.
struct cell_result
{
  std::vector<double> ms; // each run's time, sorted
  long long parked = -1;  // the pool's statistics().frames_parked after the runs; -1: no pool
};

struct form
{
  const char* name;
  cell_result (*run)(unsigned threads, std::uint64_t n, unsigned runs, std::uint64_t expected);
};

// Throws: std::runtime_error if a run's answer is not the serial sum.
void check(const char* form, unsigned threads, std::uint64_t n, std::uint64_t answer, std::uint64_t expected)
{
  if (answer != expected)
    throw std::runtime_error(std::string("wrong answer: ") + form + ", " + std::to_string(threads) +
                             " threads, n = " + std::to_string(n) + ": " + std::to_string(answer) +
                             " instead of the serial " + std::to_string(expected));
}

// Untimed runs before a cell's timed ones, for at least this long (and at least one). A fresh
// pool's first fan-out starts its threads, allocates its fork states and grows its deques (3 to 4
// times the time of the next at n = 10^3), and a cell starts after the program has idled
// (wait_for_quiet, noise_window): on this benchmark's virtual machines a CPU that has idled runs
// the next millisecond or so slowly, which a cell of 0.2 ms runs cannot hide in their median.
constexpr std::chrono::milliseconds warm_up(50);

// Returns: `runs` times of body(), each checked, sorted, after the warm-up above (checked too).
// body() returns the run's answer.
template <class Body>
std::vector<double> time_runs(const char* form, unsigned threads, std::uint64_t n, unsigned runs,
                              std::uint64_t expected, Body body)
{
  const std::chrono::steady_clock::time_point warm_until = std::chrono::steady_clock::now() + warm_up;
  do
    check(form, threads, n, body(), expected);
  while (std::chrono::steady_clock::now() < warm_until);
  std::vector<double> ms;
  for (unsigned r = 0; r < runs; ++r)
  {
    const std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();
    const std::uint64_t answer = body();
    const std::chrono::duration<double, std::milli> elapsed = std::chrono::steady_clock::now() - start;
    check(form, threads, n, answer, expected);
    ms.push_back(elapsed.count());
  }
  std::sort(ms.begin(), ms.end());
  return ms;
}

// A form on fork_join_thread_pool: the root runs as a task of a fresh pool while the main thread
// blocks in get() (run_root, fork_join_thread_pool.hpp). Not join(): from outside the pool it
// runs the future's own task if it is still queued, so the main thread would sometimes run the
// root itself, as an extra thread that is not the pool's, and the cell would mix two setups.
template <class Root>
cell_result on_pool(const char* name, unsigned threads, std::uint64_t n, unsigned runs, std::uint64_t expected,
                    Root root)
{
  ex::fork_join_thread_pool pool(threads);
  cell_result r;
  r.ms = time_runs(name, threads, n, runs, expected,
                   [&] { return bench::fork_join::run_root(pool, [&] { return root(pool, n); }); });
  r.parked = static_cast<long long>(pool.statistics().frames_parked);
  return r;
}

cell_result range_pool(unsigned threads, std::uint64_t n, unsigned runs, std::uint64_t expected)
{
  return on_pool("range_pool", threads, n, runs, expected, [](ex::fork_join_thread_pool& pool, std::uint64_t m) {
    return fan_out(pool, m, [&](futures& v) { ex::join(pool, v.begin(), v.end()); });
  });
}

cell_result newest_first(unsigned threads, std::uint64_t n, unsigned runs, std::uint64_t expected)
{
  return on_pool("newest_first", threads, n, runs, expected, [](ex::fork_join_thread_pool& pool, std::uint64_t m) {
    return fan_out(pool, m, [](futures& v) {
      for (futures::reverse_iterator it = v.rbegin(); it != v.rend(); ++it)
        it->join();
    });
  });
}

cell_result oldest_first(unsigned threads, std::uint64_t n, unsigned runs, std::uint64_t expected)
{
  return on_pool("oldest_first", threads, n, runs, expected, [](ex::fork_join_thread_pool& pool, std::uint64_t m) {
    return fan_out(pool, m, [](futures& v) {
      for (ex::joinable_future<std::uint64_t>& f : v)
        f.join();
    });
  });
}

cell_result range(unsigned threads, std::uint64_t n, unsigned runs, std::uint64_t expected)
{
  return on_pool("range", threads, n, runs, expected, [](ex::fork_join_thread_pool& pool, std::uint64_t m) {
    return fan_out(pool, m, [](futures& v) { ex::join(v.begin(), v.end()); });
  });
}

cell_result async_range_pool(unsigned threads, std::uint64_t n, unsigned runs, std::uint64_t expected)
{
  return on_pool("async_range_pool", threads, n, runs, expected, &async_fan_out);
}

#ifdef BOOST_FORK_JOIN_BENCH_HAS_TBB
// oneTBB: a task_group runs the n children, each of which runs its grandchild in a task_group of
// its own and waits for it; results go to a vector, summed after the wait.
cell_result tbb_task_group(unsigned threads, std::uint64_t n, unsigned runs, std::uint64_t expected)
{
  bench::tbb_peer::team team(threads);
  cell_result r;
  r.ms = time_runs("tbb_task_group", threads, n, runs, expected, [&] {
    return team.execute([n] {
      std::vector<std::uint64_t> out(n);
      tbb::task_group g;
      for (std::uint64_t i = 0; i < n; ++i)
        g.run([&out, i] {
          std::uint64_t x = 0;
          tbb::task_group h;
          h.run([&x, i] { x = leaf(i); });
          h.wait();
          out[i] = x + i;
        });
      g.wait();
      std::uint64_t sum = 0;
      for (std::uint64_t x : out)
        sum += x;
      return sum;
    });
  });
  return r;
}
#endif

const std::vector<form>& forms()
{
  static const std::vector<form> all{
      {"range_pool", &range_pool},
      {"newest_first", &newest_first},
      {"oldest_first", &oldest_first},
      {"range", &range},
      {"async_range_pool", &async_range_pool},
#ifdef BOOST_FORK_JOIN_BENCH_HAS_TBB
      {"tbb_task_group", &tbb_task_group},
#endif
  };
  return all;
}

// ---- the fit ---------------------------------------------------------------------------------

using bench::growth_exponent;
using bench::last_exponent;

// ---- options and the machine ----------------------------------------------------------------

struct options
{
  std::uint64_t max_n = 0;
  unsigned runs = 0;
  std::vector<unsigned> threads;
  std::vector<std::string> only;
  int retries = -1;
  bool quick = false;
};

std::vector<std::string> split(const std::string& s)
{
  std::vector<std::string> parts;
  std::string::size_type start = 0;
  while (start <= s.size())
  {
    const std::string::size_type comma = std::min(s.find(',', start), s.size());
    if (comma > start)
      parts.push_back(s.substr(start, comma - start));
    start = comma + 1;
  }
  return parts;
}

std::uint64_t to_number(const std::string& s, const char* what, std::uint64_t least)
{
  std::size_t end = 0;
  unsigned long long v = 0;
  try
  {
    v = std::stoull(s, &end);
  }
  catch (const std::exception&)
  {
    end = 0;
  }
  if (end == 0 || end != s.size() || v < least)
    throw std::invalid_argument(std::string(what) + ": expected an integer of at least " + std::to_string(least) +
                                ", got '" + s + "'");
  return v;
}

bool known_form(const std::string& name)
{
  return std::any_of(forms().begin(), forms().end(), [&](const form& f) { return name == f.name; });
}

// Returns: the options; throws std::invalid_argument on bad usage. --help prints the usage and
// exits.
options parse(int argc, char** argv)
{
  options o;
  for (int i = 1; i < argc; ++i)
  {
    const std::string arg = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc)
        throw std::invalid_argument(arg + " needs a value");
      return argv[++i];
    };
    if (arg == "--max-n")
      o.max_n = to_number(value(), "--max-n", 1000);
    else if (arg == "--runs")
      o.runs = static_cast<unsigned>(to_number(value(), "--runs", 1));
    else if (arg == "--threads")
    {
      o.threads.clear();
      for (const std::string& t : split(value()))
        o.threads.push_back(static_cast<unsigned>(to_number(t, "--threads", 1)));
      if (o.threads.empty())
        throw std::invalid_argument("--threads: empty list");
    }
    else if (arg == "--only")
    {
      o.only = split(value());
      for (const std::string& f : o.only)
        if (!known_form(f))
          throw std::invalid_argument("--only: no form '" + f + "' (see --help; tbb_task_group needs oneTBB)");
    }
    else if (arg == "--retries")
      o.retries = static_cast<int>(to_number(value(), "--retries", 0));
    else if (arg == "--quick")
      o.quick = true;
    else if (arg == "--help")
    {
      std::fputs(usage, stdout);
      std::exit(0);
    }
    else
      throw std::invalid_argument("unknown option '" + arg + "'");
  }
  if (o.max_n == 0)
    o.max_n = o.quick ? 10000 : 1000000;
  if (o.runs == 0)
    o.runs = o.quick ? 1 : 5;
  if (o.threads.empty())
    o.threads = {1, 2};
  if (o.retries < 0)
    o.retries = o.quick ? 0 : 2;
  return o;
}

std::string cpu_model()
{
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line))
    if (line.compare(0, 10, "model name") == 0)
    {
      const std::string::size_type colon = line.find(':');
      if (colon != std::string::npos)
        return line.substr(line.find_first_not_of(' ', colon + 1));
    }
  return "unknown";
}

std::string libraries()
{
  std::string s = "Boost " + std::to_string(BOOST_VERSION / 100000) + "." + std::to_string(BOOST_VERSION / 100 % 1000) +
                  "." + std::to_string(BOOST_VERSION % 100);
#ifdef BOOST_FORK_JOIN_BENCH_HAS_TBB
  s += std::string("; oneTBB ") + TBB_VERSION_STRING + " (runtime " + TBB_runtime_version() + ")";
#else
  s += "; oneTBB not found at build time: no tbb_task_group row";
#endif
  return s;
}

// What share of the machine's CPU time other processes used while a cell ran: on a shared
// machine the noise in its times (as fork_join_bench's others_meter in main.cpp, for one process).
// /proc/stat counts in clock ticks (10 ms), so a cell is measured over at least `noise_window`
// (the program idles after a shorter cell): over 2 cpus that is 40 ticks, 2.5% each.
constexpr std::chrono::milliseconds noise_window(200);

using bench::first_line;
using bench::load_average;
using bench::machine_cpu;
using bench::machine_cpu_now;

using bench::others_meter;

// Effects: waits, for at most `limit` seconds, until a noise_window passes in which other
// processes leave the machine quiet.
void wait_for_quiet(double limit) { bench::wait_for_quiet(limit, noise_window); }

// ---- the sweep -------------------------------------------------------------------------------

// One (form, threads): the median and minimum time at each n.
struct series
{
  const char* form;
  unsigned threads;
  std::vector<double> median_ms;
  std::vector<double> min_ms;
};

double median(const std::vector<double>& sorted) { return sorted[sorted.size() / 2]; }


int run(const options& o)
{
  std::vector<std::uint64_t> sizes;
  for (std::uint64_t n = 1000; n <= o.max_n; n *= 10)
    sizes.push_back(n);
  std::vector<std::uint64_t> expected;
  for (std::uint64_t n : sizes)
    expected.push_back(serial_sum(n));

  std::string thread_list;
  for (unsigned t : o.threads)
    thread_list += (thread_list.empty() ? "" : ",") + std::to_string(t);
  std::printf("# fork_join_scaling_bench: a fan-out of n children (each forks and joins a grandchild), "
              "n = 10^3 to %llu, %u run%s per cell, threads %s\n",
              static_cast<unsigned long long>(sizes.back()), o.runs, o.runs == 1 ? "" : "s", thread_list.c_str());
  std::printf("# cpu: %s; hardware_concurrency %u; load average %s\n", cpu_model().c_str(),
              std::thread::hardware_concurrency(), load_average().c_str());
#if defined(__clang__)
  std::printf("# compiler: Clang %s", __clang_version__);
#elif defined(__GNUC__)
  std::printf("# compiler: GCC %d.%d.%d", __GNUC__, __GNUC_MINOR__, __GNUC_PATCHLEVEL__);
#else
  std::printf("# compiler: unknown");
#endif
#ifdef NDEBUG
  std::printf("; NDEBUG\n");
#else
  std::printf("; assertions on (not NDEBUG): not a build to time\n");
#endif
  std::printf("# libraries: %s\n", libraries().c_str());
  std::printf("# each cell: a fresh pool; median and min of the runs; ns/child = median / n; parked = the pool's "
              "statistics().frames_parked after the cell; others%% = the machine's CPU time other processes used "
              "meanwhile (a cell at %g%% or more runs again, up to %d times, and the quietest attempt is kept)\n\n",
              others_meter::noisy_percent, o.retries);
  std::printf("%-17s %7s %8s %11s %11s %10s %7s %8s\n", "form", "threads", "n", "median ms", "min ms", "ns/child",
              "parked", "others%");
  std::fflush(stdout);

  const std::chrono::steady_clock::time_point started = std::chrono::steady_clock::now();
  std::vector<series> all;
  unsigned noisy = 0;
  for (const form& f : forms())
  {
    if (!o.only.empty() && std::find(o.only.begin(), o.only.end(), f.name) == o.only.end())
      continue;
    for (unsigned threads : o.threads)
    {
      series s{f.name, threads, {}, {}};
      for (std::size_t k = 0; k < sizes.size(); ++k)
      {
        cell_result c;
        double others = 0;
        for (int attempt = 0; attempt <= o.retries; ++attempt)
        {
          // Unless retries are off (--quick), every attempt starts on a quiet machine if one
          // comes within 10 s.
          if (o.retries > 0)
            wait_for_quiet(10);
          const std::chrono::steady_clock::time_point cell_start = std::chrono::steady_clock::now();
          const others_meter meter;
          cell_result again = f.run(threads, sizes[k], o.runs, expected[k]);
          std::this_thread::sleep_until(cell_start + noise_window);
          const double percent = meter.percent();
          if (attempt == 0 || percent < others)
          {
            c = again;
            others = percent;
          }
          if (others < others_meter::noisy_percent)
            break;
        }
        noisy += others >= others_meter::noisy_percent;
        const double med = median(c.ms);
        s.median_ms.push_back(med);
        s.min_ms.push_back(c.ms.front());
        const std::string parked = c.parked < 0 ? "-" : std::to_string(c.parked);
        std::printf("%-17s %7u %8llu %11.3f %11.3f %10.1f %7s %7.1f%s\n", f.name, threads,
                    static_cast<unsigned long long>(sizes[k]), med, c.ms.front(),
                    med * 1e6 / static_cast<double>(sizes[k]), parked.c_str(), others,
                    others >= others_meter::noisy_percent ? " noisy" : "");
        std::fflush(stdout);
      }
      all.push_back(s);
    }
  }
  const std::chrono::duration<double> took = std::chrono::steady_clock::now() - started;

  // The summary: ns per child at each n, and the growth exponents.
  std::printf("\nmedian ns per child at each n; growth exponent of the time in n (1.00 = linear): fit = "
              "least-squares slope of log(median) on log(n) over the sweep, last = slope over the last decade "
              "alone, fit min = fit of the minima (less sensitive to other processes)\n");
  std::printf("%-17s %7s", "form", "threads");
  for (std::uint64_t n : sizes)
    std::printf(" %9s", ("n=1e" + std::to_string(static_cast<int>(std::lround(std::log10(static_cast<double>(n)))))).c_str());
  std::printf(" %6s %6s %8s\n", "fit", "last", "fit min");
  const std::vector<double> xs(sizes.begin(), sizes.end());
  for (const series& s : all)
  {
    std::printf("%-17s %7u", s.form, s.threads);
    for (std::size_t k = 0; k < sizes.size(); ++k)
      std::printf(" %9.1f", s.median_ms[k] * 1e6 / xs[k]);
    if (sizes.size() > 1)
      std::printf(" %6.2f %6.2f %8.2f\n", growth_exponent(xs, s.median_ms), last_exponent(xs, s.median_ms),
                  growth_exponent(xs, s.min_ms));
    else
      std::printf(" %6s %6s %8s\n", "-", "-", "-");
  }
  std::printf("\n%u cells noisy after retries; %.1f s (load average at the end %s): all answers right\n", noisy,
              took.count(), load_average().c_str());
  return 0;
}

} // namespace

int main(int argc, char** argv)
{
  options o;
  try
  {
    o = parse(argc, argv);
  }
  catch (const std::exception& e)
  {
    std::fprintf(stderr, "fork_join_scaling_bench: %s\n%s", e.what(), usage);
    return 2;
  }
  try
  {
    return run(o);
  }
  catch (const std::exception& e)
  {
    std::fflush(stdout);
    std::fprintf(stderr, "fork_join_scaling_bench: %s\n", e.what());
    return 1;
  }
}

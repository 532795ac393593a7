// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// fork_join_bench: runs every registered (workload, peer) at each thread count, each in a child
// process of its own, checks every answer against the serial peer's, and reports medians,
// minimums, speedups over serial and ratios to oneTBB measured in the same run, the children's
// peak memory, the pools' counters, and two probes of the pools themselves (idle cost, latency
// of an external submission).
//
// Child protocol. For a cell the parent runs
//   /proc/self/exe --child <workload> <peer> <threads> <runs> <quick|full>
// and reads the child's stdout, one line per event:
//   reference <answer>            (serial peer only: the answer computed another way)
//   run <index> <ns> <answer>     (after each run)
//   allocs <count>                (operator new calls during all the timed runs)
//   stats <tasks_run> <steals> <failed_steals> <sleeps> <peak_pending> <frames_parked>   (pools that count)
//   done
// A watchdog kills the child with SIGKILL when it has used no CPU time for --idle seconds (all
// its threads are blocked: a deadlock) or has run for --timeout seconds; a child killed by a
// signal of its own (a stack overflow is a SIGSEGV) is reported as a crash. The child's peak
// resident memory comes from wait4's rusage.
// The parent also measures, from /proc/stat, how much of the machine's CPU time other processes
// used while each child ran; a noisy cell runs again at the end (--retries) and the quietest
// attempt is kept.
// For a probe the parent runs
//   /proc/self/exe --probe <idle|latency> <pool> <quick|full>
// which prints `idle <cpu_ns> <wall_ns>` or one `latency <ns>` per submission, then `done`,
// under the timeout only (an idle pool is supposed to use no CPU).

#include "bench.hpp"
#include "machine.hpp"
#include "report.hpp"

#include <boost/version.hpp>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <exception>
#include <fstream>
#include <functional>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace bench {

  void report_run(unsigned index, std::chrono::nanoseconds elapsed, std::uint64_t answer)
  {
    std::printf("run %u %lld %llu\n", index, static_cast<long long>(elapsed.count()),
                static_cast<unsigned long long>(answer));
    std::fflush(stdout);
  }

  void report_statistics(const pool_statistics& s)
  {
    std::printf("stats %llu %llu %llu %llu %llu %llu\n", static_cast<unsigned long long>(s.tasks_run),
                static_cast<unsigned long long>(s.steals), static_cast<unsigned long long>(s.failed_steals),
                static_cast<unsigned long long>(s.sleeps), static_cast<unsigned long long>(s.peak_pending),
                static_cast<unsigned long long>(s.frames_parked));
    std::fflush(stdout);
  }

  void report_allocations(std::uint64_t count)
  {
    std::printf("allocs %llu\n", static_cast<unsigned long long>(count));
    std::fflush(stdout);
  }

  void report_idle(std::chrono::nanoseconds cpu, std::chrono::nanoseconds wall)
  {
    std::printf("idle %lld %lld\n", static_cast<long long>(cpu.count()), static_cast<long long>(wall.count()));
    std::fflush(stdout);
  }

  void report_latency(std::chrono::nanoseconds latency)
  {
    std::printf("latency %lld\n", static_cast<long long>(latency.count()));
    std::fflush(stdout);
  }

} // namespace bench

namespace {

const char* const usage = R"(usage: fork_join_bench [options]

Runs fork/join workloads (fib, fib with a cutoff, merge sort, an unbalanced tree, deep chains),
many external submissions, and parallel algorithms (a loop, a reduction, a sort) on serial
code, on fork_join_thread_pool (fork/join, parallel_invoke, submit, the parallel algorithms),
on Boost's basic_thread_pool, on oneTBB and on OpenMP (those found at build time; see --list),
each peer and thread count in a child process with a watchdog. Checks every answer against
the serial peer's and prints the median and minimum time of the runs, the speedup over serial,
the ratio to oneTBB at the same thread count, peak memory and the pool's counters; then what
an idle pool costs and how soon an external submission to an idle pool starts.

options:
  --threads LIST   thread counts to sweep, e.g. 1,2,4 (default 1,2,4; --quick: 1,2)
  --runs N         timed runs per peer and thread count (default 5; --quick: 1)
  --only LIST      workloads to run, e.g. fib,sort (default all; see --list)
  --peers LIST     peers to run besides serial, which always runs (default all)
  --timeout S      kill a child that runs longer than S seconds (default 30)
  --idle S         a child that uses no CPU for S seconds is deadlocked (default 2; --quick: 1)
  --retries N      at the end, run the cells during which other processes used 10% or more of
                   the CPU again, up to N times each (5 minutes at most in all); keep the
                   quietest attempt (default 2; --quick: 0)
  --no-probes      skip the idle-cost and submit-latency probes
  --json FILE      also write every cell, the probes and the machine's details to FILE
  --plot FILE      also draw the median times with gnuplot into FILE (PNG)
  --trace FILE     record the last run of the first cell on fork_join_thread_pool (the first
                   fork_join* peer, at the first thread count) as a timeline in FILE (Chrome
                   trace JSON: Perfetto opens it; fork_join_trace_plot FILE OUT.png draws it)
  --quick          tiny problems, for a smoke test
  --list           list the workloads, peers, probes and libraries, then exit
  --help           this text

Exit status: 0 if every answer is right and every peer that must finish did; 1 otherwise
(a peer allowed to fail, such as basic_thread_pool's, that deadlocks or crashes is reported,
not an error); 2 on bad usage.
)";

// Display (and run) order: the workloads in this order, then peers by family.
const std::vector<std::string> workload_order{"fib",        "fib_cutoff", "integrate",   "nqueens",     "matmul",
                                              "sort",       "uts",        "uts_t1",      "uts_t3",      "chain_1e4",
                                              "chain_1e5",  "order_chain", "order_tree", "external",    "par_for",
                                              "par_reduce", "par_sort"};
const std::vector<std::string> peer_order{"serial",
                                          "fork_join",
                                          "fork_join_range_each",
                                          "fork_join_range",
                                          "fork_join_invoke",
                                          "fork_join_block",
                                          "fork_join_typed",
                                          "bare_invoke",
                                          "bare_block",
                                          "fork_join_async",
                                          "fork_join_submit",
                                          "fork_join_algorithm",
                                          "tbb_task_group",
                                          "tbb_parallel_invoke",
                                          "tbb_arena_enqueue",
                                          "tbb_algorithm",
                                          "openmp_task",
                                          "openmp_for",
                                          "libfork_busy",
                                          "libfork_lazy",
                                          "basic_pool_reschedule",
                                          "basic_pool_get",
                                          "basic_pool_submit"};

// Returns: name's place in order; names it does not list come after, by name.
std::size_t rank(const std::vector<std::string>& order, const std::string& name)
{
  return static_cast<std::size_t>(std::find(order.begin(), order.end(), name) - order.begin());
}

template <class T, class Name>
void sort_by(std::vector<T>& v, const std::vector<std::string>& order, Name name)
{
  std::stable_sort(v.begin(), v.end(), [&](const T& a, const T& b) {
    const std::size_t ra = rank(order, name(a)), rb = rank(order, name(b));
    return ra != rb ? ra < rb : name(a) < name(b);
  });
}

struct options
{
  std::vector<unsigned> threads;
  unsigned runs = 0;
  std::vector<std::string> only;
  std::vector<std::string> peers;
  double timeout = 30;
  double idle = 0;
  int retries = -1;
  bool probes = true;
  std::string json;
  std::string plot;
  std::string trace;
  bench::scale scale = bench::scale::full;
  bool list = false;
};

std::vector<std::string> split(const std::string& s)
{
  std::vector<std::string> parts;
  std::istringstream in(s);
  for (std::string part; std::getline(in, part, ',');)
    if (!part.empty())
      parts.push_back(part);
  return parts;
}

unsigned to_unsigned(const std::string& s, const char* what)
{
  std::size_t end = 0;
  unsigned long v = 0;
  try
  {
    v = std::stoul(s, &end);
  }
  catch (const std::exception&)
  {
    end = 0;
  }
  if (end == 0 || end != s.size() || v == 0 || v > 4096)
    throw std::invalid_argument(std::string(what) + ": expected a positive integer, got '" + s + "'");
  return static_cast<unsigned>(v);
}

unsigned to_count(const std::string& s, const char* what)
{
  return s == "0" ? 0 : to_unsigned(s, what);
}

double to_seconds(const std::string& s, const char* what)
{
  std::size_t end = 0;
  double v = 0;
  try
  {
    v = std::stod(s, &end);
  }
  catch (const std::exception&)
  {
    end = 0;
  }
  if (end == 0 || end != s.size() || !(v > 0))
    throw std::invalid_argument(std::string(what) + ": expected a positive number of seconds, got '" + s + "'");
  return v;
}

bool known_workload(const std::string& name)
{
  const std::vector<bench::workload>& all = bench::workloads();
  return std::any_of(all.begin(), all.end(), [&](const bench::workload& w) { return w.name == name; });
}

bool known_peer(const std::string& name)
{
  const std::vector<bench::peer>& all = bench::peers();
  return std::any_of(all.begin(), all.end(), [&](const bench::peer& p) { return p.name == name; });
}

options parse(int argc, char** argv)
{
  options o;
  bool quick = false;
  for (int i = 1; i < argc; ++i)
  {
    const std::string arg = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc)
        throw std::invalid_argument(arg + " needs a value");
      return argv[++i];
    };
    if (arg == "--threads")
    {
      o.threads.clear();
      for (const std::string& t : split(value()))
        o.threads.push_back(to_unsigned(t, "--threads"));
      if (o.threads.empty())
        throw std::invalid_argument("--threads: empty list");
    }
    else if (arg == "--runs")
      o.runs = to_unsigned(value(), "--runs");
    else if (arg == "--only")
      o.only = split(value());
    else if (arg == "--peers")
      o.peers = split(value());
    else if (arg == "--timeout")
      o.timeout = to_seconds(value(), "--timeout");
    else if (arg == "--idle")
      o.idle = to_seconds(value(), "--idle");
    else if (arg == "--retries")
      o.retries = static_cast<int>(to_count(value(), "--retries"));
    else if (arg == "--no-probes")
      o.probes = false;
    else if (arg == "--json")
      o.json = value();
    else if (arg == "--plot")
      o.plot = value();
    else if (arg == "--trace")
      o.trace = value();
    else if (arg == "--quick")
      quick = true;
    else if (arg == "--list")
      o.list = true;
    else
      throw std::invalid_argument("unknown option '" + arg + "'");
  }
  for (const std::string& w : o.only)
    if (!known_workload(w))
      throw std::invalid_argument("--only: no workload '" + w + "' (see --list)");
  for (const std::string& p : o.peers)
    if (!known_peer(p))
      throw std::invalid_argument("--peers: no peer '" + p + "' (see --list)");
  if (quick)
    o.scale = bench::scale::quick;
  if (o.threads.empty())
    o.threads = quick ? std::vector<unsigned>{1, 2} : std::vector<unsigned>{1, 2, 4};
  if (o.runs == 0)
    o.runs = quick ? 1 : 5;
  if (o.idle == 0)
    o.idle = quick ? 1 : 2;
  if (o.retries < 0)
    o.retries = quick ? 0 : 2;
  return o;
}

// How long the probes measure: the idle pool's sleep and the number of timed submissions.
std::chrono::milliseconds probe_idle_time(bench::scale s)
{
  return std::chrono::milliseconds(s == bench::scale::quick ? 200 : 2000);
}

unsigned probe_submissions(bench::scale s) { return s == bench::scale::quick ? 20 : 200; }

// ---- the child ------------------------------------------------------------------------------

bench::scale scale_named(const std::string& size) { return size == "quick" ? bench::scale::quick : bench::scale::full; }

int run_child(int argc, char** argv)
{
  // A crash is an expected outcome for some peers: do not leave a core file behind.
  const rlimit no_core{0, 0};
  setrlimit(RLIMIT_CORE, &no_core);
  try
  {
    if (argc != 7)
      throw std::invalid_argument("--child: expected <workload> <peer> <threads> <runs> <quick|full>");
    const std::string workload = argv[2], name = argv[3];
    const bench::config cfg{to_unsigned(argv[4], "threads"), to_unsigned(argv[5], "runs"), scale_named(argv[6])};
    const std::vector<bench::peer>& peers = bench::peers();
    const auto peer = std::find_if(peers.begin(), peers.end(),
                                   [&](const bench::peer& p) { return p.workload == workload && p.name == name; });
    if (peer == peers.end())
      throw std::invalid_argument("--child: no peer " + name + " for workload " + workload);
    if (name == bench::serial_peer)
    {
      const std::vector<bench::workload>& all = bench::workloads();
      const auto w = std::find_if(all.begin(), all.end(), [&](const bench::workload& x) { return x.name == workload; });
      if (w == all.end())
        throw std::invalid_argument("--child: no workload " + workload);
      std::printf("reference %llu\n", static_cast<unsigned long long>(w->reference(cfg.scale)));
      std::fflush(stdout);
    }
    peer->run(cfg);
    std::printf("done\n");
    std::fflush(stdout);
    return 0;
  }
  catch (const std::exception& e)
  {
    std::fprintf(stderr, "fork_join_bench child %s %s: %s\n", argv[2], argc > 3 ? argv[3] : "", e.what());
    return 3;
  }
}

int run_probe_child(int argc, char** argv)
{
  try
  {
    if (argc != 5)
      throw std::invalid_argument("--probe: expected <idle|latency> <pool> <quick|full>");
    const std::string kind = argv[2], pool = argv[3];
    const bench::scale scale = scale_named(argv[4]);
    const std::vector<bench::probe>& all = bench::probes();
    const auto probe = std::find_if(all.begin(), all.end(), [&](const bench::probe& p) { return p.pool == pool; });
    if (probe == all.end())
      throw std::invalid_argument("--probe: no probe for pool " + pool);
    if (kind == "idle")
      probe->idle_cost(probe_idle_time(scale));
    else if (kind == "latency")
      probe->submit_latency(probe_submissions(scale));
    else
      throw std::invalid_argument("--probe: no probe " + kind);
    std::printf("done\n");
    std::fflush(stdout);
    return 0;
  }
  catch (const std::exception& e)
  {
    std::fprintf(stderr, "fork_join_bench probe %s %s: %s\n", argc > 2 ? argv[2] : "", argc > 3 ? argv[3] : "",
                 e.what());
    return 3;
  }
}

// ---- the machine ----------------------------------------------------------------------------

std::string cpu_model()
{
  std::ifstream in("/proc/cpuinfo");
  for (std::string line; std::getline(in, line);)
    if (line.compare(0, 10, "model name") == 0)
    {
      const std::size_t colon = line.find(':');
      if (colon != std::string::npos)
        return line.substr(line.find_first_not_of(" \t", colon + 1));
    }
  return "unknown";
}

unsigned cpus_available()
{
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) != 0)
    return 0;
  return static_cast<unsigned>(CPU_COUNT(&set));
}

using bench::first_line;
using bench::load_average;
using bench::machine_cpu;
using bench::machine_cpu_now;

using bench::others_meter;

// Effects: waits, for at most `limit` seconds, until a second passes in which other processes
// leave the machine quiet.
void wait_for_quiet(double limit) { bench::wait_for_quiet(limit, std::chrono::seconds(1)); }

std::string kernel()
{
  utsname u{};
  if (uname(&u) != 0)
    return "unknown";
  return std::string(u.sysname) + " " + u.release + " " + u.version + " " + u.machine;
}

std::string compiler()
{
#if defined(__clang__)
  return "clang " __clang_version__;
#elif defined(__GNUC__)
  return "GCC " __VERSION__;
#else
  return "unknown compiler";
#endif
}

std::string build()
{
  std::string b;
#if defined(__OPTIMIZE__)
  b = "optimized";
#else
  b = "NOT optimized (times are meaningless)";
#endif
#if defined(NDEBUG)
  b += ", NDEBUG";
#else
  b += ", assertions on";
#endif
  return b;
}

std::string utc_now()
{
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return buf;
}

bench::report::machine this_machine()
{
  bench::report::machine m;
  m.cpu_model = cpu_model();
  m.cpus_available = cpus_available();
  m.hardware_concurrency = std::thread::hardware_concurrency();
  m.kernel = kernel();
  m.compiler = compiler();
  m.boost = std::to_string(BOOST_VERSION / 100000) + "." + std::to_string(BOOST_VERSION / 100 % 1000) + "." +
            std::to_string(BOOST_VERSION % 100) + " (BOOST_LIB_VERSION " BOOST_LIB_VERSION ")";
  m.build = build();
  m.load_average = load_average();
  m.date = utc_now();
  for (const bench::library& l : bench::libraries())
    m.libraries.emplace_back(l.name, l.version());
  return m;
}

// ---- running a child ------------------------------------------------------------------------

// Progress on stderr while a child runs, for a terminal only: one line rewritten in place.
class progress
{
public:
  progress() : tty_(isatty(STDERR_FILENO) != 0) {}

  // Effects: shows that `what`, the index-th child of count, started and has finished
  // `finished` of its `runs` runs.
  void show(std::size_t index, std::size_t count, const std::string& what, unsigned finished, unsigned runs)
  {
    if (!tty_)
      return;
    std::fprintf(stderr, "\r[%zu/%zu] %s", index, count, what.c_str());
    if (runs > 0)
      std::fprintf(stderr, " run %u/%u", std::min(finished + 1, runs), runs);
    std::fprintf(stderr, "\x1b[K");
  }

  void clear()
  {
    if (tty_)
      std::fprintf(stderr, "\r\x1b[K");
  }

private:
  bool tty_;
};

// Returns: the CPU time the process has used so far, in clock ticks, or -1 if unknown.
long long cpu_ticks(pid_t pid)
{
  const std::string stat = first_line(("/proc/" + std::to_string(pid) + "/stat").c_str());
  const std::size_t paren = stat.rfind(')');
  if (paren == std::string::npos)
    return -1;
  std::istringstream fields(stat.substr(paren + 1));
  std::string field;
  long long utime = -1, stime = -1;
  // After the command name: state is field 3, utime field 14, stime field 15.
  for (int n = 3; n <= 15 && fields >> field; ++n)
  {
    if (n == 14)
      utime = std::atoll(field.c_str());
    else if (n == 15)
      stime = std::atoll(field.c_str());
  }
  return utime < 0 || stime < 0 ? -1 : utime + stime;
}

std::string signal_name(int sig)
{
  switch (sig)
  {
  case SIGSEGV:
    return "SIGSEGV";
  case SIGBUS:
    return "SIGBUS";
  case SIGABRT:
    return "SIGABRT";
  case SIGILL:
    return "SIGILL";
  case SIGFPE:
    return "SIGFPE";
  case SIGKILL:
    return "SIGKILL";
  case SIGTERM:
    return "SIGTERM";
  default:
    return "signal " + std::to_string(sig);
  }
}

std::string seconds(double s)
{
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g s", s);
  return buf;
}

// How a child ended.
struct ending
{
  std::string status = "ok"; // ok, deadlock (...), timeout (...), crash (...), error (...)
  std::string why;           // for the notes
  bool done = false;         // it printed `done`
  long peak_rss_kib = -1;
  double cpu_ms = 0;         // user + system CPU time of the whole child, as /usr/bin/time shows
  double wall_ms = 0;        // from spawn to exit
};

// Effects: runs this program with args in a child process, calls on_line(kind, rest) for each
// line it prints, and kills it after `timeout` seconds, or after `idle` seconds without using
// CPU time if idle > 0.
ending run_child_process(const std::string& exe, const std::vector<std::string>& args, double timeout, double idle,
                         const std::function<void(const std::string&, std::istringstream&)>& on_line)
{
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0)
    throw std::runtime_error(std::string("pipe2: ") + std::strerror(errno));
  std::vector<std::string> all{exe};
  all.insert(all.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (const std::string& a : all)
    argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, fds[1], STDOUT_FILENO);
  pid_t pid = 0;
  const int spawned = posix_spawn(&pid, exe.c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  close(fds[1]);
  if (spawned != 0)
  {
    close(fds[0]);
    throw std::runtime_error("posix_spawn " + exe + ": " + std::strerror(spawned));
  }

  typedef std::chrono::steady_clock clock;
  const clock::time_point start = clock::now();
  clock::time_point last_busy = start;
  long long last_cpu = -1;
  std::string pending;
  ending out;
  std::string killed;
  for (bool eof = false; !eof;)
  {
    pollfd p{fds[0], POLLIN, 0};
    if (poll(&p, 1, 100) > 0)
    {
      char buf[4096];
      const ssize_t n = read(fds[0], buf, sizeof buf);
      if (n > 0)
        pending.append(buf, static_cast<std::size_t>(n));
      else if (n == 0 || errno != EINTR)
        eof = true;
    }
    for (std::size_t nl; (nl = pending.find('\n')) != std::string::npos; pending.erase(0, nl + 1))
    {
      std::istringstream line(pending.substr(0, nl));
      std::string kind;
      line >> kind;
      if (kind == "done")
        out.done = true;
      else
        on_line(kind, line);
    }
    const clock::time_point now = clock::now();
    const long long cpu = cpu_ticks(pid);
    if (cpu < 0 || cpu != last_cpu)
    {
      last_cpu = cpu;
      last_busy = now;
    }
    if (!eof && idle > 0 && now - last_busy > std::chrono::duration<double>(idle))
      killed = "deadlock (idle " + seconds(idle) + ")";
    else if (!eof && now - start > std::chrono::duration<double>(timeout))
      killed = "timeout (" + seconds(timeout) + ")";
    if (!killed.empty())
    {
      kill(pid, SIGKILL);
      break;
    }
  }
  close(fds[0]);
  int status = 0;
  rusage usage{};
  while (wait4(pid, &status, 0, &usage) < 0 && errno == EINTR)
  {
  }
  out.peak_rss_kib = usage.ru_maxrss;
  out.cpu_ms = (static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1e6 +
                static_cast<double>(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec)) /
               1e3;
  out.wall_ms = std::chrono::duration<double, std::milli>(clock::now() - start).count();

  if (!killed.empty())
  {
    out.status = killed;
    out.why = killed.compare(0, 8, "deadlock") == 0 ? "every thread blocked" : "still running";
  }
  else if (WIFSIGNALED(status))
    out.status = "crash (" + signal_name(WTERMSIG(status)) + ")";
  else if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
  {
    out.status = "error (exit " + std::to_string(WIFEXITED(status) ? WEXITSTATUS(status) : -1) + ")";
    out.why = "see its message above";
  }
  else if (!out.done)
  {
    out.status = "error (output)";
    out.why = "the child's output was incomplete";
  }
  return out;
}

std::string scale_name(bench::scale s) { return s == bench::scale::quick ? "quick" : "full"; }

struct job
{
  const bench::peer* peer;
  unsigned threads;
};

// Effects: runs j in a child process under the watchdog. Returns: what it reported.
bench::report::cell run_cell(const std::string& exe, const job& j, const options& o, progress& bar,
                             std::size_t index, std::size_t count)
{
  bench::report::cell c;
  c.workload = j.peer->workload;
  c.peer = j.peer->name;
  c.threads = j.threads;
  c.outcome = j.peer->outcome;
  const std::string what = c.workload + " " + c.peer + " t=" + std::to_string(c.threads);
  bar.show(index, count, what, 0, o.runs);
  const others_meter others;
  const ending end = run_child_process(
      exe,
      {"--child", c.workload, c.peer, std::to_string(c.threads), std::to_string(o.runs), scale_name(o.scale)},
      o.timeout, o.idle, [&](const std::string& kind, std::istringstream& line) {
        if (kind == "reference")
        {
          std::uint64_t reference = 0;
          if (line >> reference)
            c.reference = reference;
        }
        else if (kind == "run")
        {
          unsigned run = 0;
          long long ns = 0;
          std::uint64_t answer = 0;
          if (line >> run >> ns >> answer)
          {
            c.ns.push_back(ns);
            c.answers.push_back(answer);
            bar.show(index, count, what, static_cast<unsigned>(c.ns.size()), o.runs);
          }
        }
        else if (kind == "allocs")
        {
          std::uint64_t count = 0;
          if (line >> count)
            c.allocations = count;
        }
        else if (kind == "stats")
        {
          bench::pool_statistics s{};
          if (line >> s.tasks_run >> s.steals >> s.failed_steals >> s.sleeps >> s.peak_pending >> s.frames_parked)
            c.statistics = s;
        }
      });
  bar.clear();
  c.others_percent = others.percent();
  c.peak_rss_kib = end.peak_rss_kib;
  c.status = end.status;
  const std::string ran = std::to_string(c.ns.size()) + " of " + std::to_string(o.runs) + " runs finished";
  c.note = end.why.empty() ? ran : end.why + "; " + ran;
  if (c.ok() && (c.ns.size() != o.runs || (c.peer == bench::serial_peer && !c.reference)))
  {
    c.status = "error (output)";
    c.note = "the child's output was incomplete";
  }
  return c;
}

// Effects: marks c WRONG if any of its answers differs from expected.
void check(bench::report::cell& c, std::uint64_t expected, const char* against)
{
  for (std::size_t i = 0; i < c.answers.size(); ++i)
    if (c.answers[i] != expected)
    {
      c.status = "WRONG";
      c.note = "run " + std::to_string(i + 1) + " answered " + std::to_string(c.answers[i]) + ", " + against + " " +
               std::to_string(expected);
      return;
    }
}

void run_probes(const std::string& exe, const options& o, bench::report::report& r)
{
  std::vector<bench::probe> probes = bench::probes();
  // This library's pool first.
  sort_by(probes, {"fork_join_thread_pool"}, [](const bench::probe& p) { return p.pool; });
  const std::size_t count = 2 * probes.size();
  std::size_t index = 0;
  progress bar;
  for (const bench::probe& p : probes)
  {
    bench::report::idle_probe idle;
    idle.pool = p.pool;
    bar.show(++index, count, "idle cost of " + p.pool, 0, 0);
    ending end = run_child_process(exe, {"--probe", "idle", p.pool, scale_name(o.scale)}, o.timeout, 0,
                                   [&](const std::string& kind, std::istringstream& line) {
                                     long long cpu = 0, wall = 0;
                                     if (kind == "idle" && line >> cpu >> wall)
                                     {
                                       idle.cpu_ms = static_cast<double>(cpu) / 1e6;
                                       idle.wall_ms = static_cast<double>(wall) / 1e6;
                                     }
                                   });
    idle.status = end.status;
    idle.process_cpu_ms = end.cpu_ms;
    idle.process_wall_ms = end.wall_ms;
    if (idle.ok() && idle.wall_ms == 0)
      idle.status = "error (output)";
    r.idle.push_back(idle);

    bench::report::latency_probe latency;
    latency.pool = p.pool;
    bar.show(++index, count, "submit latency of " + p.pool, 0, 0);
    end = run_child_process(exe, {"--probe", "latency", p.pool, scale_name(o.scale)}, o.timeout, 0,
                            [&](const std::string& kind, std::istringstream& line) {
                              long long ns = 0;
                              if (kind == "latency" && line >> ns)
                                latency.us.push_back(static_cast<double>(ns) / 1e3);
                            });
    bar.clear();
    latency.status = end.status;
    if (latency.ok() && latency.us.size() != r.probe_submissions)
      latency.status = "error (output)";
    r.latency.push_back(latency);
  }
}

bool selected(const std::vector<std::string>& wanted, const std::string& name)
{
  return wanted.empty() || std::find(wanted.begin(), wanted.end(), name) != wanted.end();
}

std::vector<bench::workload> sorted_workloads()
{
  std::vector<bench::workload> all = bench::workloads();
  sort_by(all, workload_order, [](const bench::workload& w) { return w.name; });
  return all;
}

void list_registry()
{
  for (const bench::workload& w : sorted_workloads())
  {
    std::printf("%-11s %s\n", w.name.c_str(), w.describe(bench::scale::full).c_str());
    std::vector<bench::peer> peers;
    for (const bench::peer& p : bench::peers())
      if (p.workload == w.name)
        peers.push_back(p);
    sort_by(peers, peer_order, [](const bench::peer& p) { return p.name; });
    std::string names;
    for (const bench::peer& p : peers)
      names += " " + p.name + (p.outcome == bench::outcome::may_fail ? "*" : "");
    std::printf("%-11s peers:%s\n", "", names.c_str());
  }
  std::printf("(* may fail: a deadlock or crash is reported, not an error)\n");
  std::string probes;
  for (const bench::probe& p : bench::probes())
    probes += " " + p.pool;
  std::printf("probes (idle cost, submit latency):%s\n", probes.c_str());
  std::string libraries;
  for (const bench::library& l : bench::libraries())
    libraries += "; " + l.name + " " + l.version();
  std::printf("built with Boost %s%s\n", BOOST_LIB_VERSION, libraries.c_str());
  const std::string skipped = BOOST_FORK_JOIN_BENCH_SKIPPED_PEERS;
  std::printf("peers not built: %s\n", skipped.empty() ? "none" : skipped.c_str());
}

int run_parent(const options& o)
{
  if (o.list)
  {
    list_registry();
    return 0;
  }
  // The children run this very binary, even if its file is rebuilt while they run.
  const std::string exe = "/proc/self/exe";

  bench::report::report r;
  r.host = this_machine();
  r.scale = scale_name(o.scale);
  r.runs = o.runs;
  r.threads = o.threads;
  r.timeout_s = o.timeout;
  r.idle_s = o.idle;
  r.retries = static_cast<unsigned>(o.retries);
  r.probe_idle_s = std::chrono::duration<double>(probe_idle_time(o.scale)).count();
  r.probe_submissions = probe_submissions(o.scale);

  std::vector<bench::workload> workloads;
  for (const bench::workload& w : sorted_workloads())
    if (selected(o.only, w.name))
    {
      workloads.push_back(w);
      r.workloads.emplace_back(w.name, w.describe(o.scale));
    }
  std::vector<const bench::peer*> peers;
  for (const bench::peer& p : bench::peers())
    if (p.name == bench::serial_peer || selected(o.peers, p.name))
      peers.push_back(&p);
  sort_by(peers, peer_order, [](const bench::peer* p) { return p->name; });
  for (const bench::peer* p : peers)
    if (std::find(r.peers.begin(), r.peers.end(), p->name) == r.peers.end())
      r.peers.push_back(p->name);

  std::vector<job> jobs;
  for (const bench::workload& w : workloads)
    for (const bench::peer* p : peers)
      if (p->workload == w.name)
      {
        if (p->name == bench::serial_peer)
          jobs.push_back(job{p, 1});
        else
          for (unsigned t : o.threads)
            jobs.push_back(job{p, t});
      }

  bench::report::print_header(r);
  const std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();
  const others_meter others;
  progress bar;
  // Serial runs first in each workload, so every other cell is checked as soon as it ends.
  std::map<std::string, std::uint64_t> serial_answer;
  auto run_checked = [&](std::size_t i) {
    bench::report::cell c = run_cell(exe, jobs[i], o, bar, i + 1, jobs.size());
    if (c.ok() && c.peer == bench::serial_peer)
    {
      check(c, *c.reference, "the reference answer is");
      if (c.ok())
        serial_answer.emplace(c.workload, c.answers.front());
    }
    else if (c.ok())
    {
      const auto s = serial_answer.find(c.workload);
      if (s == serial_answer.end())
      {
        c.status = "unchecked";
        c.note = "serial did not give a checked answer";
      }
      else
        check(c, s->second, "serial's is");
    }
    return c;
  };
  // --trace: the child of the first cell on our pool records (bench::fork_join::run_root).
  std::size_t traced = jobs.size();
  if (!o.trace.empty())
    for (std::size_t i = 0; i < jobs.size() && traced == jobs.size(); ++i)
      if (jobs[i].peer->name.compare(0, 9, "fork_join") == 0)
        traced = i;
  if (!o.trace.empty() && traced == jobs.size())
    std::fprintf(stderr, "fork_join_bench: --trace: no cell runs on fork_join_thread_pool; nothing recorded\n");
  for (std::size_t i = 0; i < jobs.size(); ++i)
  {
    if (i == traced)
      setenv(bench::trace_variable, o.trace.c_str(), 1);
    r.cells.push_back(run_checked(i));
    if (i == traced)
    {
      unsetenv(bench::trace_variable);
      std::printf("trace of %s %s t=%u: %s\n", jobs[i].peer->workload.c_str(), jobs[i].peer->name.c_str(), jobs[i].threads,
                  o.trace.c_str());
    }
    bench::report::print_progress(r.cells.back(), i + 1, jobs.size());
  }

  // Others' work skews times on a shared machine. Noisy cells run again at the end, each once
  // the machine is quiet (or 20 s have passed), and the quietest attempt stays; --retries
  // passes at most, and at most retry_budget in all. A failure other than a timeout does not
  // come from noise, so it is not run again.
  const std::chrono::steady_clock::time_point retries_start = std::chrono::steady_clock::now();
  const std::chrono::minutes retry_budget(5);
  auto noisy = [](const bench::report::cell& c) {
    return c.others_percent >= others_meter::noisy_percent && (c.ok() || c.status.compare(0, 7, "timeout") == 0);
  };
  for (int pass = 1; pass <= o.retries; ++pass)
  {
    std::vector<std::size_t> again;
    for (std::size_t i = 0; i < r.cells.size(); ++i)
      if (noisy(r.cells[i]))
        again.push_back(i);
    if (again.empty())
      break;
    std::printf("# %zu cells were noisy (other processes used %g%% or more of the CPU): running them again, pass %d "
                "of %d\n",
                again.size(), others_meter::noisy_percent, pass, o.retries);
    for (std::size_t i : again)
    {
      if (std::chrono::steady_clock::now() - retries_start > retry_budget)
        break;
      wait_for_quiet(20);
      bench::report::cell c = run_checked(i);
      bench::report::cell& old = r.cells[i];
      c.attempts = old.attempts + 1;
      if (c.others_percent < old.others_percent && (c.ok() || !old.ok()))
        old = std::move(c);
      else
        old.attempts = c.attempts;
      bench::report::print_progress(old, i + 1, jobs.size());
    }
  }
  if (o.probes)
    run_probes(exe, o, r);
  r.elapsed_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  r.host.load_average_end = load_average();
  r.others_percent = others.percent();

  // Ratios measured in this run: to serial, and to oneTBB at the same thread count.
  for (bench::report::cell& c : r.cells)
  {
    if (!c.ok())
      continue;
    auto find = [&](const std::string& peer, unsigned threads) -> const bench::report::cell* {
      for (const bench::report::cell& other : r.cells)
        if (other.workload == c.workload && other.peer == peer && other.threads == threads && other.ok())
          return &other;
      return nullptr;
    };
    if (const bench::report::cell* serial = find(bench::serial_peer, 1))
      c.speedup = serial->median_ms() / c.median_ms();
    if (c.peer != bench::serial_peer)
      for (const std::string& tbb : bench::report::tbb_baselines())
        if (const bench::report::cell* baseline = find(tbb, c.threads))
        {
          c.vs_tbb = c.median_ms() / baseline->median_ms();
          break;
        }
  }
  for (const bench::report::cell& c : r.cells)
    r.failed = r.failed || (!c.ok() && !c.expected_failure());
  for (const bench::report::idle_probe& p : r.idle)
    r.failed = r.failed || !p.ok();
  for (const bench::report::latency_probe& p : r.latency)
    r.failed = r.failed || !p.ok();

  bench::report::print_tables(r);
  if (!o.json.empty())
  {
    bench::report::write_json(r, o.json);
    std::printf("wrote %s\n", o.json.c_str());
  }
  if (!o.plot.empty() && bench::report::plot(r, o.plot))
    std::printf("wrote %s\n", o.plot.c_str());
  return r.failed ? 1 : 0;
}

} // namespace

int main(int argc, char** argv)
{
  if (argc > 1 && std::strcmp(argv[1], "--child") == 0)
    return run_child(argc, argv);
  if (argc > 1 && std::strcmp(argv[1], "--probe") == 0)
    return run_probe_child(argc, argv);
  for (int i = 1; i < argc; ++i)
    if (std::strcmp(argv[i], "--help") == 0 || std::strcmp(argv[i], "-h") == 0)
    {
      std::fputs(usage, stdout);
      return 0;
    }
  try
  {
    return run_parent(parse(argc, argv));
  }
  catch (const std::invalid_argument& e)
  {
    std::fprintf(stderr, "fork_join_bench: %s\n\n%s", e.what(), usage);
    return 2;
  }
  catch (const std::exception& e)
  {
    std::fprintf(stderr, "fork_join_bench: %s\n", e.what());
    return 1;
  }
}

// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// fork_join_bench: runs every registered (workload, peer) at each thread count, each in a child
// process of its own, checks every answer against the serial peer's, and prints medians and
// speedups over serial measured in the same run.
//
// Child protocol. The parent runs
//   /proc/self/exe --child <workload> <peer> <threads> <runs> <quick|full>
// and reads the child's stdout, one line per event:
//   reference <answer>            (serial peer only: the answer computed another way)
//   run <index> <ns> <answer>     (after each run)
//   done
// A watchdog kills the child with SIGKILL when it has used no CPU time for --idle seconds (all
// its threads are blocked: a deadlock) or has run for --timeout seconds; a child killed by a
// signal of its own (a stack overflow is a SIGSEGV) is reported as a crash.

#include "bench.hpp"

#include <boost/version.hpp>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <fstream>
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

} // namespace bench

namespace {

const char* const usage = R"(usage: fork_join_bench [options]

Runs classic fork/join workloads on serial code, on fork_join_thread_pool (fork/join) and on
Boost's basic_thread_pool (boost::async + get, and + reschedule_until), each peer and thread
count in a child process with a watchdog; checks every answer against the serial peer's and
prints the median and minimum time of the runs and the speedup over serial.

options:
  --threads LIST   thread counts to sweep, e.g. 1,2,4 (default 1,2,4; --quick: 1,2)
  --runs N         timed runs per peer and thread count (default 5; --quick: 1)
  --only LIST      workloads to run, e.g. fib,sort (default all; see --list)
  --peers LIST     peers to run besides serial, which always runs (default all)
  --timeout S      kill a child that runs longer than S seconds (default 30)
  --idle S         a child that uses no CPU for S seconds is deadlocked (default 2)
  --quick          tiny problems, for a smoke test
  --list           list the workloads and peers, then exit
  --help           this text

Exit status: 0 if every answer is right and every peer that must finish did; 1 otherwise
(a basic_thread_pool peer that deadlocks or crashes is reported, not an error); 2 on bad usage.
)";

struct options
{
  std::vector<unsigned> threads;
  unsigned runs = 0;
  std::vector<std::string> only;
  std::vector<std::string> peers;
  double timeout = 30;
  double idle = 2;
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
  return o;
}

// ---- the child ------------------------------------------------------------------------------

int run_child(int argc, char** argv)
{
  // A crash is an expected outcome for some peers: do not leave a core file behind.
  const rlimit no_core{0, 0};
  setrlimit(RLIMIT_CORE, &no_core);
  try
  {
    if (argc != 7)
      throw std::invalid_argument("--child: expected <workload> <peer> <threads> <runs> <quick|full>");
    const std::string workload = argv[2], name = argv[3], size = argv[6];
    const bench::config cfg{to_unsigned(argv[4], "threads"), to_unsigned(argv[5], "runs"),
                            size == "quick" ? bench::scale::quick : bench::scale::full};
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

std::string first_line(const char* path)
{
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  return line;
}

// The 1, 5 and 15 minute load averages: others' work on a shared machine skews the times.
std::string load_average()
{
  std::istringstream fields(first_line("/proc/loadavg"));
  std::string one, five, fifteen;
  fields >> one >> five >> fifteen;
  return one + " " + five + " " + fifteen;
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

void print_machine(const options& o)
{
  std::printf("# fork_join_bench: fork/join workloads, %s sizes\n", o.scale == bench::scale::quick ? "quick" : "full");
  std::printf("# cpu: %s; %u cpus available (hardware_concurrency %u); load average %s\n", cpu_model().c_str(),
              cpus_available(), std::thread::hardware_concurrency(), load_average().c_str());
  std::printf("# compiler: %s; Boost %d.%d.%d; build: %s\n", compiler().c_str(), BOOST_VERSION / 100000,
              BOOST_VERSION / 100 % 1000, BOOST_VERSION % 100, build().c_str());
  std::string threads;
  for (unsigned t : o.threads)
    threads += (threads.empty() ? "" : ",") + std::to_string(t);
  std::printf("# %u runs per peer and thread count; threads %s; a child is killed after %g s, or after %g s "
              "without using CPU (deadlock)\n",
              o.runs, threads.c_str(), o.timeout, o.idle);
}

// ---- the parent -----------------------------------------------------------------------------

struct job
{
  const bench::peer* peer;
  unsigned threads;
};

struct result
{
  std::string status = "ok"; // ok, deadlock (...), timeout (...), crash (...), error (...), WRONG
  std::string note;          // why, for the notes under the table
  bool has_reference = false;
  std::uint64_t reference = 0;
  std::vector<double> ms;
  std::vector<std::uint64_t> answers;
};

// Progress on stderr: one line rewritten in place on a terminal, one line per child otherwise.
class progress
{
public:
  progress() : tty_(isatty(STDERR_FILENO) != 0) {}

  // Effects: shows that job j, the index-th of count, starts.
  void start(std::size_t index, std::size_t count, const job& j, unsigned runs)
  {
    index_ = index;
    count_ = count;
    job_ = &j;
    if (tty_)
      update(1, runs);
    else
      std::fprintf(stderr, "[%zu/%zu] %s %s t=%u\n", index, count, j.peer->workload.c_str(), j.peer->name.c_str(),
                   j.threads);
  }

  // Effects: shows that `finished` of the job's runs have finished.
  void finished(unsigned finished, unsigned runs)
  {
    if (tty_ && finished < runs)
      update(finished + 1, runs);
  }

  void clear()
  {
    if (tty_)
      std::fprintf(stderr, "\r\x1b[K");
  }

private:
  void update(unsigned run, unsigned runs)
  {
    std::fprintf(stderr, "\r[%zu/%zu] %s %s t=%u run %u/%u\x1b[K", index_, count_, job_->peer->workload.c_str(),
                 job_->peer->name.c_str(), job_->threads, run, runs);
  }

  bool tty_;
  std::size_t index_ = 0, count_ = 0;
  const job* job_ = nullptr;
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

// Effects: runs j in a child process under the watchdog and collects what it reports.
result run_job(const std::string& exe, const job& j, const options& o, progress& bar, std::size_t index,
                std::size_t count)
{
  result out;
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0)
    throw std::runtime_error(std::string("pipe2: ") + std::strerror(errno));
  const std::vector<std::string> args{exe,
                                      "--child",
                                      j.peer->workload,
                                      j.peer->name,
                                      std::to_string(j.threads),
                                      std::to_string(o.runs),
                                      o.scale == bench::scale::quick ? "quick" : "full"};
  std::vector<char*> argv;
  for (const std::string& a : args)
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
  bool done = false;
  std::string killed;
  bar.start(index, count, j, o.runs);
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
      if (kind == "reference")
        out.has_reference = static_cast<bool>(line >> out.reference);
      else if (kind == "run")
      {
        unsigned run = 0;
        long long ns = 0;
        std::uint64_t answer = 0;
        if (line >> run >> ns >> answer)
        {
          out.ms.push_back(static_cast<double>(ns) / 1e6);
          out.answers.push_back(answer);
          bar.finished(static_cast<unsigned>(out.ms.size()), o.runs);
        }
      }
      else if (kind == "done")
        done = true;
    }
    const clock::time_point now = clock::now();
    const long long cpu = cpu_ticks(pid);
    if (cpu < 0 || cpu != last_cpu)
    {
      last_cpu = cpu;
      last_busy = now;
    }
    if (!eof && now - last_busy > std::chrono::duration<double>(o.idle))
      killed = "deadlock (idle " + seconds(o.idle) + ")";
    else if (!eof && now - start > std::chrono::duration<double>(o.timeout))
      killed = "timeout (" + seconds(o.timeout) + ")";
    if (!killed.empty())
    {
      kill(pid, SIGKILL);
      break;
    }
  }
  close(fds[0]);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
  {
  }

  const std::string ran = std::to_string(out.ms.size()) + " of " + std::to_string(o.runs) + " runs finished";
  if (!killed.empty())
  {
    out.status = killed;
    out.note = killed.compare(0, 8, "deadlock") == 0 ? "every thread blocked; " + ran : "still running; " + ran;
  }
  else if (WIFSIGNALED(status))
  {
    out.status = "crash (" + signal_name(WTERMSIG(status)) + ")";
    out.note = ran;
  }
  else if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
  {
    out.status = "error (exit " + std::to_string(WIFEXITED(status) ? WEXITSTATUS(status) : -1) + ")";
    out.note = "see its message above; " + ran;
  }
  else if (!done || out.ms.size() != o.runs || (j.peer->name == bench::serial_peer && !out.has_reference))
  {
    out.status = "error (output)";
    out.note = "the child's output was incomplete";
  }
  return out;
}

double median(std::vector<double> v)
{
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

// Effects: writes r with two decimals, or two significant digits when it is below 0.1.
void format_ratio(char* buf, std::size_t size, double r)
{
  std::snprintf(buf, size, r >= 0.1 ? "%.2f" : "%.2g", r);
}

// Effects: marks out WRONG if any of its answers differs from expected.
void check(result& out, std::uint64_t expected, const char* against)
{
  for (std::size_t i = 0; i < out.answers.size(); ++i)
    if (out.answers[i] != expected)
    {
      out.status = "WRONG";
      out.note = "run " + std::to_string(i + 1) + " answered " + std::to_string(out.answers[i]) + ", " + against +
                 " " + std::to_string(expected);
      return;
    }
}

// Display order: serial, then fork_join, then the other peers by name.
int peer_rank(const std::string& name)
{
  if (name == bench::serial_peer)
    return 0;
  return name == "fork_join" ? 1 : 2;
}

bool selected(const std::vector<std::string>& wanted, const std::string& name)
{
  return wanted.empty() || std::find(wanted.begin(), wanted.end(), name) != wanted.end();
}

std::string self_path()
{
  char buf[4096];
  const ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
  if (n <= 0)
    throw std::runtime_error("cannot find this program's path: /proc/self/exe is unreadable");
  return std::string(buf, static_cast<std::size_t>(n));
}

void list_registry()
{
  std::vector<bench::workload> workloads = bench::workloads();
  std::sort(workloads.begin(), workloads.end(),
            [](const bench::workload& a, const bench::workload& b) { return a.name < b.name; });
  for (const bench::workload& w : workloads)
  {
    std::printf("%-11s %s\n", w.name.c_str(), w.describe(bench::scale::full).c_str());
    std::string peers;
    for (const bench::peer& p : bench::peers())
      if (p.workload == w.name)
        peers += " " + p.name;
    std::printf("%-11s peers:%s\n", "", peers.c_str());
  }
}

int run_parent(const options& o)
{
  if (o.list)
  {
    list_registry();
    return 0;
  }
  const std::string exe = self_path();

  std::vector<bench::workload> workloads;
  for (const bench::workload& w : bench::workloads())
    if (selected(o.only, w.name))
      workloads.push_back(w);
  std::sort(workloads.begin(), workloads.end(),
            [](const bench::workload& a, const bench::workload& b) { return a.name < b.name; });
  std::vector<const bench::peer*> peers;
  for (const bench::peer& p : bench::peers())
    if (p.name == bench::serial_peer || selected(o.peers, p.name))
      peers.push_back(&p);
  std::sort(peers.begin(), peers.end(), [](const bench::peer* a, const bench::peer* b) {
    return peer_rank(a->name) != peer_rank(b->name) ? peer_rank(a->name) < peer_rank(b->name) : a->name < b->name;
  });

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

  print_machine(o);
  for (const bench::workload& w : workloads)
    std::printf("# %-11s %s\n", w.name.c_str(), w.describe(o.scale).c_str());
  std::fflush(stdout);

  const std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();
  progress bar;
  std::vector<result> outcomes;
  for (std::size_t i = 0; i < jobs.size(); ++i)
    outcomes.push_back(run_job(exe, jobs[i], o, bar, i + 1, jobs.size()));
  bar.clear();

  // Check: serial against the reference, everyone else against serial.
  std::map<std::string, const result*> serial;
  for (std::size_t i = 0; i < jobs.size(); ++i)
    if (jobs[i].peer->name == bench::serial_peer && outcomes[i].status == "ok")
    {
      check(outcomes[i], outcomes[i].reference, "the reference answer is");
      if (outcomes[i].status == "ok")
        serial[jobs[i].peer->workload] = &outcomes[i];
    }
  for (std::size_t i = 0; i < jobs.size(); ++i)
    if (jobs[i].peer->name != bench::serial_peer && outcomes[i].status == "ok")
    {
      const auto s = serial.find(jobs[i].peer->workload);
      if (s == serial.end())
      {
        outcomes[i].status = "unchecked";
        outcomes[i].note = "serial did not give a checked answer";
      }
      else
        check(outcomes[i], s->second->answers.front(), "serial's is");
    }

  std::printf("\n%-11s %-22s %7s %11s %11s %8s  %s\n", "workload", "peer", "threads", "median ms", "min ms",
              "speedup", "status");
  bool failed = false;
  std::vector<std::string> notes;
  for (std::size_t i = 0; i < jobs.size(); ++i)
  {
    const job& j = jobs[i];
    const result& out = outcomes[i];
    const bool ok = out.status == "ok";
    char median_ms[32] = "-", min_ms[32] = "-", speedup[32] = "-";
    if (ok)
    {
      const double m = median(out.ms);
      std::snprintf(median_ms, sizeof median_ms, "%.2f", m);
      std::snprintf(min_ms, sizeof min_ms, "%.2f", *std::min_element(out.ms.begin(), out.ms.end()));
      const auto s = serial.find(j.peer->workload);
      if (s != serial.end() && m > 0)
        format_ratio(speedup, sizeof speedup, median(s->second->ms) / m);
    }
    std::printf("%-11s %-22s %7u %11s %11s %8s  %s\n", j.peer->workload.c_str(), j.peer->name.c_str(), j.threads,
                median_ms, min_ms, speedup, out.status.c_str());
    if (!ok)
    {
      const bool expected = j.peer->outcome == bench::outcome::may_fail && out.status != "WRONG" &&
                            out.status != "unchecked" && out.status.compare(0, 5, "error") != 0;
      failed = failed || !expected;
      notes.push_back(j.peer->workload + " " + j.peer->name + " t=" + std::to_string(j.threads) + ": " + out.status +
                      ": " + out.note + (expected ? " (expected of this peer)" : ""));
    }
  }
  const double elapsed =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("\nspeedup = serial median / peer median, measured in this run. Every answer is checked against "
              "serial's;\nserial's against a reference computed another way.\n");
  if (!notes.empty())
  {
    std::printf("\nnotes:\n");
    for (const std::string& n : notes)
      std::printf("  %s\n", n.c_str());
  }
  std::printf("\n%zu children in %.1f s: %s\n", jobs.size(), elapsed,
              failed ? "FAILED (a wrong answer, or a peer that must finish did not)" : "all answers right");
  return failed ? 1 : 0;
}

} // namespace

int main(int argc, char** argv)
{
  if (argc > 1 && std::strcmp(argv[1], "--child") == 0)
    return run_child(argc, argv);
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

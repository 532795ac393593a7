// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// What the benchmark programs read of the machine from /proc and getrusage: its load, and the
// CPU time it and this process spent busy, so that a program can say how much other processes
// used while a cell ran (the noise in its times on a shared machine), and wait for a quiet one. Shared by fork_join_bench (main.cpp) and
// fork_join_scaling_bench (scaling.cpp).

#ifndef BOOST_FORK_JOIN_BENCH_MACHINE_HPP
#define BOOST_FORK_JOIN_BENCH_MACHINE_HPP

#include <algorithm>
#include <chrono>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>

#include <sys/resource.h>
#include <unistd.h>

namespace bench {

  // Returns: the first line of the file at path ("" if it cannot be read).
  inline std::string first_line(const char* path)
  {
    std::ifstream in(path);
    std::string line;
    std::getline(in, line);
    return line;
  }

  // Returns: the 1, 5 and 15 minute load averages: others' work on a shared machine skews the
  // times.
  inline std::string load_average()
  {
    std::istringstream fields(first_line("/proc/loadavg"));
    std::string one, five, fifteen;
    fields >> one >> five >> fifteen;
    return one + " " + five + " " + fifteen;
  }

  // CPU time the whole machine has spent busy (user, nice, system, irq, softirq, and steal: time
  // a hypervisor gave to others) and in all, from /proc/stat, in seconds.
  struct machine_cpu
  {
    double busy = 0;
    double total = 0;
  };

  inline machine_cpu machine_cpu_now()
  {
    std::istringstream fields(first_line("/proc/stat"));
    std::string cpu;
    unsigned long long user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0, steal = 0;
    fields >> cpu >> user >> nice >> system >> idle >> iowait >> irq >> softirq >> steal;
    const double hz = static_cast<double>(sysconf(_SC_CLK_TCK));
    machine_cpu m;
    m.busy = static_cast<double>(user + nice + system + irq + softirq + steal) / hz;
    m.total = m.busy + static_cast<double>(idle + iowait) / hz;
    return m;
  }

  // Returns: the CPU time, in seconds, this process has used (who = RUSAGE_SELF), or its
  // waited-for children (RUSAGE_CHILDREN).
  inline double own_cpu(int who)
  {
    rusage u{};
    getrusage(who, &u);
    return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
           static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
  }

  // Measures which share of the machine's CPU time processes other than this one and its
  // children used between construction and percent(): the noise in the times.
  class others_meter
  {
  public:
    // A cell during which others used this much of the CPU is noisy: it is run again (--retries).
    static constexpr double noisy_percent = 10;

    others_meter() : machine_(machine_cpu_now()), own_(own_cpu(RUSAGE_SELF) + own_cpu(RUSAGE_CHILDREN)) {}

    double percent() const
    {
      const machine_cpu now = machine_cpu_now();
      const double own = own_cpu(RUSAGE_SELF) + own_cpu(RUSAGE_CHILDREN) - own_;
      const double total = now.total - machine_.total;
      if (total <= 0)
        return 0;
      return std::max(0.0, 100 * (now.busy - machine_.busy - own) / total);
    }

  private:
    machine_cpu machine_;
    double own_;
  };

  // Effects: waits, for at most `limit` seconds, until a `window` passes in which other
  // processes leave the machine quiet. /proc/stat counts in clock ticks (10 ms): a window much
  // shorter than a few hundred milliseconds cannot tell.
  inline void wait_for_quiet(double limit, std::chrono::milliseconds window)
  {
    const std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();
    while (std::chrono::steady_clock::now() - start < std::chrono::duration<double>(limit))
    {
      const others_meter others;
      std::this_thread::sleep_for(window);
      if (others.percent() < others_meter::noisy_percent)
        return;
    }
  }

} // namespace bench

#endif // header

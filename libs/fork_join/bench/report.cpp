// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// The report's three forms: tables on stdout, JSON, and a gnuplot chart.

#include "report.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

namespace bench {
namespace report {

  bool cell::expected_failure() const
  {
    return !ok() && outcome == bench::outcome::may_fail && status != "WRONG" && status != "unchecked" &&
           status.compare(0, 5, "error") != 0;
  }

  double median(std::vector<double> v)
  {
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
  }

  namespace {

    std::vector<double> to_ms(const std::vector<std::int64_t>& ns)
    {
      std::vector<double> ms;
      for (std::int64_t t : ns)
        ms.push_back(static_cast<double>(t) / 1e6);
      return ms;
    }

    // Returns: the p-th quantile (0 <= p <= 1) of v (not empty), nearest rank.
    double quantile(std::vector<double> v, double p)
    {
      std::sort(v.begin(), v.end());
      const std::size_t rank = static_cast<std::size_t>(std::ceil(p * static_cast<double>(v.size())));
      return v[rank == 0 ? 0 : rank - 1];
    }

    std::string format(const char* fmt, double v)
    {
      char buf[64];
      std::snprintf(buf, sizeof buf, fmt, v);
      return buf;
    }

    // A time in ms with about three significant digits.
    std::string format_ms(double ms)
    {
      return format(ms < 1 ? "%.3f" : ms < 10 ? "%.2f" : ms < 100 ? "%.1f" : "%.0f", ms);
    }

    // A ratio with two decimals, or two significant digits below 0.1.
    std::string format_ratio(const std::optional<double>& r)
    {
      return r ? format(*r >= 0.1 ? "%.2f" : "%.2g", *r) : "-";
    }

    std::string format_mib(long kib) { return kib < 0 ? "-" : format("%.1f", static_cast<double>(kib) / 1024); }

    // The first word of a failed cell's status (crash, deadlock, timeout, error, WRONG, ...).
    std::string short_status(const std::string& status) { return status.substr(0, status.find(' ')); }

    std::string threads_list(const std::vector<unsigned>& threads)
    {
      std::string s;
      for (unsigned t : threads)
        s += (s.empty() ? "" : ",") + std::to_string(t);
      return s;
    }

    const cell* find(const report& r, const std::string& workload, const std::string& peer, unsigned threads)
    {
      for (const cell& c : r.cells)
        if (c.workload == workload && c.peer == peer && (c.threads == threads || peer == serial_peer))
          return &c;
      return nullptr;
    }

    bool has_peer(const report& r, const std::string& workload, const std::string& peer)
    {
      return std::any_of(r.cells.begin(), r.cells.end(),
                         [&](const cell& c) { return c.workload == workload && c.peer == peer; });
    }

  } // namespace

  double cell::median_ms() const { return median(to_ms(ns)); }

  double cell::min_ms() const
  {
    const std::vector<double> ms = to_ms(ns);
    return *std::min_element(ms.begin(), ms.end());
  }

  // ---- the terminal ---------------------------------------------------------------------------

  void print_progress(const cell& c, std::size_t index, std::size_t count)
  {
    const int width = static_cast<int>(std::to_string(count).size());
    std::printf("[%*zu/%zu] %-11s %-21s t=%-2u", width, index, count, c.workload.c_str(), c.peer.c_str(), c.threads);
    if (c.ok())
      std::printf("  median %9s ms  min %9s ms  peak %6s MiB  others %3.0f%%%s  ok\n",
                  format_ms(c.median_ms()).c_str(), format_ms(c.min_ms()).c_str(), format_mib(c.peak_rss_kib).c_str(),
                  c.others_percent, c.attempts > 1 ? (" (" + std::to_string(c.attempts) + " attempts)").c_str() : "");
    else
      std::printf("  %s: %s\n", c.status.c_str(), c.note.c_str());
    std::fflush(stdout);
  }

  void print_header(const report& r)
  {
    const machine& m = r.host;
    std::printf("# fork_join_bench: %s sizes, %u runs per cell, threads %s; a child is killed after %g s, or after "
                "%g s without using CPU (deadlock)\n# a cell during which other processes used 10%% or more of the "
                "CPU runs again at the end, up to %u times\n",
                r.scale.c_str(), r.runs, threads_list(r.threads).c_str(), r.timeout_s, r.idle_s, r.retries);
    std::printf("# cpu: %s; %u cpus available (hardware_concurrency %u); load average %s\n", m.cpu_model.c_str(),
                m.cpus_available, m.hardware_concurrency, m.load_average.c_str());
    std::printf("# kernel: %s\n", m.kernel.c_str());
    std::string libraries = "Boost " + m.boost;
    for (const auto& l : m.libraries)
      libraries += "; " + l.first + " " + l.second;
    std::printf("# compiler: %s; build: %s\n# libraries: %s\n# date: %s\n", m.compiler.c_str(), m.build.c_str(),
                libraries.c_str(), m.date.c_str());
    for (const auto& w : r.workloads)
      std::printf("# %-11s %s\n", w.first.c_str(), w.second.c_str());
    std::fflush(stdout);
  }

  namespace {

    void print_cells(const report& r)
    {
      std::printf("\n%-11s %-21s %7s %10s %10s %8s %9s %8s %7s  %s\n", "workload", "peer", "threads", "median ms",
                  "min ms", "speedup", "vs oneTBB", "peak MiB", "others%", "status");
      std::string last;
      for (const cell& c : r.cells)
      {
        if (!last.empty() && c.workload != last)
          std::printf("\n");
        last = c.workload;
        const bool ok = c.ok();
        std::printf("%-11s %-21s %7u %10s %10s %8s %9s %8s %7.0f  %s\n", c.workload.c_str(), c.peer.c_str(),
                    c.threads, ok ? format_ms(c.median_ms()).c_str() : "-", ok ? format_ms(c.min_ms()).c_str() : "-",
                    format_ratio(c.speedup).c_str(), format_ratio(c.vs_tbb).c_str(),
                    format_mib(c.peak_rss_kib).c_str(), c.others_percent, c.status.c_str());
      }
      std::printf("\nspeedup = serial's median / the peer's median; vs oneTBB = the peer's median / the median of "
                  "oneTBB's\ntask_group (external: task_arena::enqueue; par_*: oneTBB's parallel_for, parallel_reduce "
                  "or\nparallel_sort) at the same thread count, below 1 is faster; both measured in this run. peak "
                  "MiB:\nthe child process's peak resident memory (ru_maxrss). others%%: the share of the machine's "
                  "CPU\ntime that other processes used while the child ran (noise in its times; a noisy cell ran "
                  "again,\nand this is its quietest attempt).\n");
    }

    // Medians at one thread count: a row per peer, a column per workload; "-" where a peer has
    // no such workload.
    void print_matrix(const report& r, unsigned threads)
    {
      const std::string label = "median ms at " + std::to_string(threads) + (threads == 1 ? " thread" : " threads");
      std::printf("\n%-22s", label.c_str());
      for (const auto& w : r.workloads)
        std::printf(" %10s", w.first.c_str());
      std::printf("\n");
      for (const std::string& peer : r.peers)
      {
        std::printf("%-22s", peer == serial_peer ? "serial (1 thread)" : peer.c_str());
        for (const auto& w : r.workloads)
        {
          const cell* c = find(r, w.first, peer, threads);
          const std::string entry = !c ? "-" : c->ok() ? format_ms(c->median_ms()) : short_status(c->status);
          std::printf(" %10s", entry.c_str());
        }
        std::printf("\n");
      }
    }

    void print_statistics(const report& r)
    {
      if (std::none_of(r.cells.begin(), r.cells.end(), [](const cell& c) { return c.statistics.has_value(); }))
        return;
      std::printf("\npool counters per run (fork_join_thread_pool::statistics() over the child's runs / runs; "
                  "peak: the largest; new/task: calls of operator new in the timed runs / tasks run; parked: joins "
                  "that parked their frame in all runs, one per join that had nothing to run while it waited)\n"
                  "%-11s %-21s %7s %12s %10s %13s %9s %12s %8s %6s\n",
                  "workload", "peer", "threads", "tasks run", "steals", "failed steals", "sleeps", "peak pending",
                  "new/task", "parked");
      for (const cell& c : r.cells)
        if (c.statistics && !c.ns.empty())
        {
          const double runs = static_cast<double>(c.ns.size());
          const pool_statistics& s = *c.statistics;
          char per_task[32] = "-";
          if (c.allocations && s.tasks_run > 0)
            std::snprintf(per_task, sizeof per_task, "%.2f",
                          static_cast<double>(*c.allocations) / static_cast<double>(s.tasks_run));
          std::printf("%-11s %-21s %7u %12.0f %10.0f %13.0f %9.0f %12llu %8s %6llu\n", c.workload.c_str(), c.peer.c_str(),
                      c.threads, static_cast<double>(s.tasks_run) / runs, static_cast<double>(s.steals) / runs,
                      static_cast<double>(s.failed_steals) / runs, static_cast<double>(s.sleeps) / runs,
                      static_cast<unsigned long long>(s.peak_pending), per_task,
                      static_cast<unsigned long long>(s.frames_parked));
        }
    }

    void print_probes(const report& r)
    {
      if (!r.idle.empty())
      {
        std::printf("\nidle pool (2 threads, nothing to do for %g s): CPU time the whole process used meanwhile\n",
                    r.probe_idle_s);
        for (const idle_probe& p : r.idle)
        {
          if (p.ok())
            std::printf("  %-22s %8.2f ms = %6.3f%% of one core; the whole process (start, sleep, exit): %.1f ms "
                        "in %.0f ms\n",
                        p.pool.c_str(), p.cpu_ms, 100 * p.cpu_ms / p.wall_ms, p.process_cpu_ms, p.process_wall_ms);
          else
            std::printf("  %-22s %s\n", p.pool.c_str(), p.status.c_str());
        }
      }
      if (!r.latency.empty())
      {
        std::printf("\nexternal submit to an idle pool (2 threads; %u submissions from the main thread, each after "
                    "2 ms without work):\ntime from submit() to the closure starting\n",
                    r.probe_submissions);
        for (const latency_probe& p : r.latency)
        {
          if (p.ok() && !p.us.empty())
            std::printf("  %-22s median %8.1f us   p90 %8.1f us   min %8.1f us   max %8.1f us\n", p.pool.c_str(),
                        median(p.us), quantile(p.us, 0.9), *std::min_element(p.us.begin(), p.us.end()),
                        *std::max_element(p.us.begin(), p.us.end()));
          else
            std::printf("  %-22s %s\n", p.pool.c_str(), p.status.c_str());
        }
      }
    }

  } // namespace

  void print_tables(const report& r)
  {
    print_cells(r);
    for (unsigned t : r.threads)
      print_matrix(r, t);
    print_statistics(r);
    print_probes(r);

    std::vector<std::string> notes;
    for (const cell& c : r.cells)
      if (!c.ok())
        notes.push_back(c.workload + " " + c.peer + " t=" + std::to_string(c.threads) + ": " + c.status + ": " +
                        c.note + (c.expected_failure() ? " (allowed of this peer)" : ""));
    if (!notes.empty())
    {
      std::printf("\nnotes:\n");
      for (const std::string& n : notes)
        std::printf("  %s\n", n.c_str());
    }
    std::printf("\nother processes used %.1f%% of the machine's CPU time during the run%s\n", r.others_percent,
                r.others_percent >= 5 ? ": they skewed the times (see the others% column)" : "");
    std::printf("\n%zu cells and %zu probes in %.1f s (load average at the end %s): %s\n", r.cells.size(),
                r.idle.size() + r.latency.size(), r.elapsed_s, r.host.load_average_end.c_str(),
                r.failed ? "FAILED (a wrong answer, or a peer or probe that must finish did not)"
                         : "all answers right");
    std::fflush(stdout);
  }

  // ---- JSON ---------------------------------------------------------------------------------

  namespace {

    std::string quoted(const std::string& s)
    {
      std::string out = "\"";
      for (const char ch : s)
      {
        const unsigned char u = static_cast<unsigned char>(ch);
        if (ch == '"' || ch == '\\')
          out += std::string("\\") + ch;
        else if (u < 0x20)
        {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", u);
          out += buf;
        }
        else
          out += ch;
      }
      return out + "\"";
    }

    std::string number(double v) { return std::isfinite(v) ? format("%.6g", v) : "null"; }

    std::string number(const std::optional<double>& v) { return v ? number(*v) : "null"; }

    template <class T, class F>
    std::string array(const std::vector<T>& v, F each)
    {
      std::string out = "[";
      for (std::size_t i = 0; i < v.size(); ++i)
        out += (i ? ", " : "") + each(v[i]);
      return out + "]";
    }

  } // namespace

  void write_json(const report& r, const std::string& path)
  {
    std::ostringstream out;
    const machine& m = r.host;
    out << "{\n  \"machine\": {\n"
        << "    \"cpu_model\": " << quoted(m.cpu_model) << ",\n"
        << "    \"cpus_available\": " << m.cpus_available << ",\n"
        << "    \"hardware_concurrency\": " << m.hardware_concurrency << ",\n"
        << "    \"kernel\": " << quoted(m.kernel) << ",\n"
        << "    \"compiler\": " << quoted(m.compiler) << ",\n"
        << "    \"boost\": " << quoted(m.boost) << ",\n"
        << "    \"libraries\": {";
    for (std::size_t i = 0; i < m.libraries.size(); ++i)
      out << (i ? ", " : "") << quoted(m.libraries[i].first) << ": " << quoted(m.libraries[i].second);
    out << "},\n"
        << "    \"build\": " << quoted(m.build) << ",\n"
        << "    \"load_average\": " << quoted(m.load_average) << ",\n"
        << "    \"load_average_end\": " << quoted(m.load_average_end) << ",\n"
        << "    \"date\": " << quoted(m.date) << "\n  },\n";
    out << "  \"settings\": {\"scale\": " << quoted(r.scale) << ", \"runs\": " << r.runs
        << ", \"threads\": " << array(r.threads, [](unsigned t) { return std::to_string(t); })
        << ", \"timeout_s\": " << number(r.timeout_s) << ", \"idle_s\": " << number(r.idle_s)
        << ", \"retries\": " << r.retries << "},\n";
    out << "  \"workloads\": {";
    for (std::size_t i = 0; i < r.workloads.size(); ++i)
      out << (i ? ",\n    " : "\n    ") << quoted(r.workloads[i].first) << ": " << quoted(r.workloads[i].second);
    out << "\n  },\n  \"cells\": [";
    for (std::size_t i = 0; i < r.cells.size(); ++i)
    {
      const cell& c = r.cells[i];
      out << (i ? ",\n    " : "\n    ") << "{\"workload\": " << quoted(c.workload) << ", \"peer\": " << quoted(c.peer)
          << ", \"threads\": " << c.threads << ", \"may_fail\": "
          << (c.outcome == bench::outcome::may_fail ? "true" : "false") << ", \"status\": " << quoted(c.status)
          << ", \"note\": " << quoted(c.ok() ? "" : c.note)
          << ", \"runs_ns\": " << array(c.ns, [](std::int64_t t) { return std::to_string(t); })
          << ", \"median_ns\": " << (c.ns.empty() ? "null" : number(c.median_ms() * 1e6))
          << ", \"min_ns\": " << (c.ns.empty() ? "null" : number(c.min_ms() * 1e6))
          << ", \"speedup_vs_serial\": " << number(c.speedup) << ", \"ratio_vs_tbb\": " << number(c.vs_tbb)
          << ", \"peak_rss_kib\": " << c.peak_rss_kib << ", \"others_cpu_percent\": " << number(c.others_percent)
          << ", \"attempts\": " << c.attempts
          << ", \"operator_new_calls\": " << (c.allocations ? std::to_string(*c.allocations) : std::string("null"))
          << ", \"statistics\": ";
      if (c.statistics)
        out << "{\"tasks_run\": " << c.statistics->tasks_run << ", \"steals\": " << c.statistics->steals
            << ", \"failed_steals\": " << c.statistics->failed_steals << ", \"sleeps\": " << c.statistics->sleeps
            << ", \"peak_pending\": " << c.statistics->peak_pending
            << ", \"frames_parked\": " << c.statistics->frames_parked << ", \"over_runs\": " << c.ns.size() << "}";
      else
        out << "null";
      out << "}";
    }
    out << "\n  ],\n  \"ratio_vs_tbb_baselines\": "
        << array(tbb_baselines(), [](const std::string& s) { return quoted(s); }) << ",\n";
    out << "  \"idle_cost\": {\"threads\": 2, \"idle_s\": " << number(r.probe_idle_s) << ", \"pools\": [";
    for (std::size_t i = 0; i < r.idle.size(); ++i)
    {
      const idle_probe& p = r.idle[i];
      out << (i ? ", " : "") << "{\"pool\": " << quoted(p.pool) << ", \"status\": " << quoted(p.status)
          << ", \"cpu_ms\": " << number(p.cpu_ms) << ", \"wall_ms\": " << number(p.wall_ms)
          << ", \"percent_of_core\": " << (p.ok() ? number(100 * p.cpu_ms / p.wall_ms) : "null")
          << ", \"process_cpu_ms\": " << number(p.process_cpu_ms)
          << ", \"process_wall_ms\": " << number(p.process_wall_ms) << "}";
    }
    out << "]},\n  \"submit_latency\": {\"threads\": 2, \"submissions\": " << r.probe_submissions
        << ", \"pools\": [";
    for (std::size_t i = 0; i < r.latency.size(); ++i)
    {
      const latency_probe& p = r.latency[i];
      const bool ok = p.ok() && !p.us.empty();
      out << (i ? ", " : "") << "{\"pool\": " << quoted(p.pool) << ", \"status\": " << quoted(p.status)
          << ", \"median_us\": " << (ok ? number(median(p.us)) : "null")
          << ", \"p90_us\": " << (ok ? number(quantile(p.us, 0.9)) : "null")
          << ", \"samples_us\": " << array(p.us, [](double v) { return number(v); }) << "}";
    }
    out << "]},\n  \"elapsed_s\": " << number(r.elapsed_s)
        << ",\n  \"others_cpu_percent\": " << number(r.others_percent)
        << ",\n  \"failed\": " << (r.failed ? "true" : "false")
        << "\n}\n";

    std::ofstream file(path);
    file << out.str();
    file.close();
    if (!file)
      throw std::runtime_error("cannot write " + path + ": " + std::strerror(errno));
  }

  // ---- gnuplot ------------------------------------------------------------------------------

  namespace {

    bool on_path(const std::string& program)
    {
      const char* path = std::getenv("PATH");
      std::istringstream dirs(path ? path : "/usr/bin:/bin");
      for (std::string dir; std::getline(dirs, dir, ':');)
        if (!dir.empty() && access((dir + "/" + program).c_str(), X_OK) == 0)
          return true;
      return false;
    }

    // A string literal for gnuplot (double quotes, with backslash escapes).
    std::string gp_string(const std::string& s)
    {
      std::string out = "\"";
      for (const char ch : s)
      {
        if (ch == '\n')
          out += "\\n";
        else
        {
          if (ch == '"' || ch == '\\')
            out += '\\';
          out += ch;
        }
      }
      return out + "\"";
    }

    // Text for gnuplot's enhanced mode, where _ ^ { } @ & are markup.
    std::string escape_enhanced(const std::string& s)
    {
      std::string out;
      for (const char ch : s)
      {
        if (std::strchr("_^{}@&", ch))
          out += '\\';
        out += ch;
      }
      return out;
    }

    // s with line breaks at spaces, lines of at most about width characters.
    std::string wrap(const std::string& s, std::size_t width)
    {
      std::string out;
      std::size_t line = 0;
      std::istringstream words(s);
      for (std::string word; words >> word;)
      {
        if (line > 0 && line + 1 + word.size() > width)
        {
          out += "\n";
          line = 0;
        }
        else if (line > 0)
        {
          out += " ";
          ++line;
        }
        out += word;
        line += word.size();
      }
      return out;
    }

    // One per peer of main.cpp's peer_order, so that no two peers share a colour; a library's
    // *_algorithm (and openmp_for) peer in a darker shade of its family's.
    const char* const colors[] = {"#000000", "#1f77b4", "#17becf", "#2ca02c", "#0b3d91", "#5e60ce", "#d62728",
                                  "#ff7f0e", "#e377c2", "#8b0000", "#9467bd", "#4b2882", "#8c564b", "#7f7f7f",
                                  "#bcbd22"};

  } // namespace

  bool plot(const report& r, const std::string& path)
  {
    if (!on_path("gnuplot"))
    {
      std::fprintf(stderr, "fork_join_bench: no plot: gnuplot is not installed (Debian: gnuplot-nox)\n");
      return false;
    }
    char dir_template[] = "/tmp/fork_join_bench_plot.XXXXXX";
    const char* dir = mkdtemp(dir_template);
    if (!dir)
    {
      std::fprintf(stderr, "fork_join_bench: no plot: mkdtemp: %s\n", std::strerror(errno));
      return false;
    }
    std::vector<std::string> files;
    std::ostringstream gp;
    const std::size_t panels = r.workloads.size();
    const std::size_t columns = panels > 1 ? 2 : 1, rows = (panels + columns - 1) / columns;
    gp << "set terminal pngcairo size " << 700 * columns << "," << 420 * rows + 60 << " font 'sans,10'\n"
       << "set output " << gp_string(path) << "\n"
       << "set logscale y\nset logscale x 2\nset grid ytics mytics lc rgb '#dddddd'\n"
       << "set xlabel 'threads'\nset ylabel 'median ms per run'\n"
       << "set key outside right top Left reverse font ',8' samplen 2\n"
       << "set offsets graph 0.05, graph 0.05, 0, 0\nset xtics (";
    for (std::size_t i = 0; i < r.threads.size(); ++i)
      gp << (i ? ", " : "") << r.threads[i];
    gp << ")\n";
    for (std::size_t i = 0; i < r.peers.size(); ++i)
      gp << "set style line " << i + 1 << " lc rgb '" << colors[i % (sizeof colors / sizeof *colors)]
         << "' lw 2 pt " << (i % 13) + 1 << " ps 1.2" << (r.peers[i] == serial_peer ? " dt 2" : "") << "\n";
    gp << "set multiplot layout " << rows << "," << columns << " title "
       << gp_string(escape_enhanced("fork_join_bench: median time per run (log scales); " + r.host.cpu_model + ", " +
                                    std::to_string(r.host.cpus_available) + " cpus, " + r.host.date +
                                    "; a missing point is a failed cell"))
       << " font ',12'\n";
    for (const auto& w : r.workloads)
    {
      const std::string data = std::string(dir) + "/" + w.first + ".dat";
      std::ofstream out(data);
      std::vector<std::string> plots;
      std::size_t block = 0;
      for (std::size_t i = 0; i < r.peers.size(); ++i)
      {
        const std::string& peer = r.peers[i];
        if (!has_peer(r, w.first, peer))
          continue;
        std::string failures;
        std::ostringstream block_text;
        std::size_t points = 0;
        for (unsigned t : r.threads)
        {
          const cell* c = find(r, w.first, peer, t);
          if (c && c->ok())
          {
            block_text << t << " " << c->median_ms() << "\n";
            ++points;
          }
          else if (c)
            failures += (failures.empty() ? "" : ",") + std::to_string(t);
        }
        if (points > 0)
          out << "# " << peer << "\n" << block_text.str() << "\n\n";
        std::string title = peer;
        if (peer != serial_peer && !failures.empty())
        {
          const cell* failed = nullptr;
          for (unsigned t : r.threads)
            if (const cell* c = find(r, w.first, peer, t); c && !c->ok() && !failed)
              failed = c;
          title += " (" + short_status(failed->status) + " at t=" + failures + ")";
        }
        // A peer that failed at every thread count has no points, only its entry in the key.
        const std::string source = points ? gp_string(data) + " index " + std::to_string(block++) : "keyentry";
        plots.push_back(source + " with linespoints ls " + std::to_string(i + 1) + " title " +
                        gp_string(escape_enhanced(title)));
      }
      files.push_back(data);
      // The name, then the description in smaller type (a size group cannot span lines).
      std::string title = escape_enhanced(w.first);
      std::istringstream lines(wrap(w.second, 90));
      for (std::string line; std::getline(lines, line);)
        title += "\n{/*0.8 " + escape_enhanced(line) + "}";
      gp << "set title " << gp_string(title) << "\nplot ";
      for (std::size_t i = 0; i < plots.size(); ++i)
        gp << (i ? ", \\\n     " : "") << plots[i];
      gp << "\n";
    }
    gp << "unset multiplot\n";
    const std::string script = std::string(dir) + "/plot.gp";
    {
      std::ofstream out(script);
      out << gp.str();
    }
    files.push_back(script);
    // The script's path is mkdtemp's: nothing in it needs quoting for the shell.
    const int status = std::system(("gnuplot " + script).c_str());
    for (const std::string& f : files)
      std::remove(f.c_str());
    rmdir(dir);
    if (status != 0)
    {
      std::fprintf(stderr, "fork_join_bench: no plot: gnuplot failed (status %d)\n", status);
      return false;
    }
    return true;
  }

} // namespace report
} // namespace bench

// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// fork_join_trace_plot TRACE.json OUT.png [TITLE]: draws a trace written by
// boost::executors::fork_join_trace::write_json (or fork_join_bench --trace) with gnuplot:
// one row per thread, time across, a box per slice coloured by what it is (tasks by name,
// searching, joining, sleeping, blocked), and a line from victim to thief per steal.
//
// Reads the Chrome trace-event JSON with Boost.PropertyTree; it takes the "X" slices, the
// steal instants and the thread names, and ignores the rest. Cost: linear in the events.

#define BOOST_BIND_GLOBAL_PLACEHOLDERS // property_tree (Boost 1.74) includes the old boost/bind.hpp
#include <boost/property_tree/json_parser.hpp>
#include <boost/property_tree/ptree.hpp>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>
#include <string>
#include <vector>

namespace {

  struct slice
  {
    double ts, dur;
    int tid;
    std::string name, cat;
  };

  // Fixed colours for the library's own span names, then a palette for task labels.
  std::string colour_of(const std::string& name, std::map<std::string, std::string>& assigned)
  {
    static const std::map<std::string, std::string> fixed = {
        {"search", "#f2c14e"}, {"join", "#f78154"}, {"sleep", "#c8c8c8"}, {"blocked join", "#d1242f"},
        {"fork", "#2a6fdb"},   {"async", "#7b2cbf"}, {"submit", "#2b9348"}, {"invoke", "#0096c7"},
        {"task_block", "#5e60ce"}};
    static const char* const palette[] = {"#1b4965", "#6a994e", "#bc4749", "#386641", "#8338ec", "#3a86ff", "#fb5607"};
    const auto f = fixed.find(name);
    if (f != fixed.end())
      return f->second;
    const auto a = assigned.find(name);
    if (a != assigned.end())
      return a->second;
    const std::string c = palette[assigned.size() % (sizeof palette / sizeof *palette)];
    assigned.emplace(name, c);
    return c;
  }

  // A string literal for gnuplot (double quotes, with backslash escapes); `text`: shown in
  // enhanced mode, where _ ^ { } @ & are markup.
  std::string quoted(const std::string& s, bool text = true)
  {
    std::string r = "\"";
    for (char c : s)
    {
      if (c == '"' || c == '\\')
        r += '\\';
      if (text && (c == '_' || c == '^' || c == '{' || c == '}' || c == '@' || c == '&'))
        r += "\\\\";
      r += c;
    }
    return r + "\"";
  }

} // namespace

int main(int argc, char** argv)
{
  if (argc < 3)
  {
    std::cerr << "usage: fork_join_trace_plot TRACE.json OUT.png [TITLE]\n";
    return 2;
  }
  const std::string in = argv[1], png = argv[2], title = argc > 3 ? argv[3] : in;
  boost::property_tree::ptree root;
  try
  {
    boost::property_tree::read_json(in, root);
  }
  catch (const std::exception& e)
  {
    std::cerr << "fork_join_trace_plot: " << e.what() << '\n';
    return 1;
  }
  std::vector<slice> slices;
  std::vector<std::pair<double, std::pair<int, int> > > steals; // ts, (victim tid, thief tid)
  std::map<int, std::string> lanes;
  for (const auto& kv : root.get_child("traceEvents"))
  {
    const auto& e = kv.second;
    const std::string ph = e.get<std::string>("ph", "");
    const int tid = e.get<int>("tid", 0);
    if (ph == "M" && e.get<std::string>("name", "") == "thread_name")
      lanes[tid] = e.get<std::string>("args.name", "");
    else if (ph == "X")
      slices.push_back(slice{e.get<double>("ts"), e.get<double>("dur"), tid, e.get<std::string>("name", ""), e.get<std::string>("cat", "")});
    else if (ph == "i" && e.get<std::string>("name", "") == "steal")
      steals.push_back({e.get<double>("ts"), {e.get<int>("args.victim") + 1, tid}});
  }
  if (lanes.empty())
  {
    std::cerr << "fork_join_trace_plot: " << in << " names no thread\n";
    return 1;
  }
  std::map<int, int> row; // tid -> row from the top
  int r = 0;
  for (const auto& l : lanes)
    row[l.first] = r++;
  const std::string data = png + ".dat", script = png + ".gp";
  std::map<std::string, std::string> assigned;
  std::map<std::string, std::string> legend; // name -> colour, in first-seen order of names
  {
    std::ofstream d(data);
    d << "# x_centre row half_width half_height colour\n";
    for (const slice& s : slices)
    {
      const std::string c = colour_of(s.name, assigned);
      legend.emplace(s.name, c);
      // Each slice at least a hair wide, so that short tasks still show.
      d << (s.ts + s.dur / 2) / 1000.0 << ' ' << row[s.tid] << ' ' << s.dur / 2000.0 << " 0.4 0x" << c.substr(1) << '\n';
    }
    d << "\n\n# steals: x row_victim dx drow\n";
    for (const auto& st : steals)
      d << st.first / 1000.0 << ' ' << row[st.second.first] << " 0 " << row[st.second.second] - row[st.second.first] << '\n';
  }
  {
    std::ofstream g(script);
    g << "set terminal pngcairo size 1600," << 160 + 70 * lanes.size() << " font 'sans,10'\n";
    g << "set output " << quoted(png, false) << "\n";
    g << "set title " << quoted(title) << "\n";
    g << "set xlabel 'time (ms)'\nset yrange [" << lanes.size() - 0.5 << ":-0.5]\nset ytics (";
    bool first = true;
    for (const auto& l : lanes)
    {
      g << (first ? "" : ", ") << quoted(l.second) << ' ' << row[l.first];
      first = false;
    }
    g << ")\nset key outside right top\nset style fill solid 1.0 noborder\nset grid xtics\n";
    g << "plot " << quoted(data, false) << " index 0 using 1:2:3:4:5 with boxxyerror lc rgb variable notitle";
    if (!steals.empty())
      g << ", " << quoted(data, false) << " index 1 using 1:2:3:4 with vectors nohead lc rgb '#000000' lw 0.5 title 'steal'";
    for (const auto& l : legend)
      g << ", NaN with boxes lc rgb '" << l.second << "' title " << quoted(l.first);
    g << "\n";
  }
  const int status = std::system(("gnuplot " + script).c_str());
  if (status != 0)
  {
    std::cerr << "fork_join_trace_plot: gnuplot failed (status " << status << "; Debian: gnuplot-nox)\n";
    return 1;
  }
  std::remove(data.c_str());
  std::remove(script.c_str());
  return 0;
}

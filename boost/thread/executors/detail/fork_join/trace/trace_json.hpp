// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// Writes a stopped trace session (trace.hpp) in the Chrome trace-event JSON format, which
// Perfetto's UI (ui.perfetto.dev) and chrome://tracing open.
//
// One lane per thread, as Go's tracer draws one per processor: what the thread runs, one thing
// at a time. A lane holds complete slices ("ph":"X") that never overlap: when a span begins
// inside another (a task a join runs, the search of a join), the outer span's slice ends there
// and a new slice of it begins when the inner one ends; each slice says which span it is a piece
// of (args.task and args.piece for tasks, args.depth for every slice). That is also how a
// parked frame reads: its spans pause at the park and go on at the resume, on the same lane
// (a frame resumes on the thread that parked it), with the tasks the thread ran in between
// drawn as slices of their own. Steals are instant events on the thief's lane with a flow
// arrow from the victim's lane.
//
// Cost: O(events) time; memory O(open spans + parked frames) per lane.

#ifndef BOOST_THREAD_EXECUTORS_DETAIL_FORK_JOIN_TRACE_TRACE_JSON_HPP
#define BOOST_THREAD_EXECUTORS_DETAIL_FORK_JOIN_TRACE_TRACE_JSON_HPP

#include <boost/thread/executors/detail/fork_join/base/config.hpp>
#include <boost/thread/executors/detail/fork_join/trace/trace.hpp>

#include <cstdint>
#include <cstdio>
#include <ostream>
#include <string>
#include <unordered_map>
#include <vector>

namespace boost {
namespace detail {
namespace fork_join {

  class trace_json_writer
  {
  public:
    trace_json_writer(const trace_session& s, std::ostream& out) : s_(s), out_(out) {}

    void write()
    {
      const unsigned lanes = s_.pool_threads() + s_.outside_claimed();
      std::uint64_t dropped = 0;
      for (unsigned i = 0; i < lanes; ++i)
        dropped += s_.lane(i).dropped();
      out_ << "{\"displayTimeUnit\":\"ns\",\"otherData\":{\"pool_threads\":" << s_.pool_threads()
           << ",\"outside_threads\":" << s_.outside_claimed() << ",\"dropped_events\":" << dropped
           << ",\"unlaned_events\":" << s_.unclaimed() << ",\"recorded_us\":";
      time(s_.stop_ns());
      out_ << "},\n\"traceEvents\":[\n";
      out_ << "{\"ph\":\"M\",\"pid\":1,\"tid\":0,\"name\":\"process_name\",\"args\":{\"name\":\"fork_join_thread_pool\"}}";
      for (unsigned i = 0; i < lanes; ++i)
      {
        const bool pool_thread = i < s_.pool_threads();
        const unsigned n = pool_thread ? i : i - s_.pool_threads();
        out_ << ",\n{\"ph\":\"M\",\"pid\":1,\"tid\":" << tid(i) << ",\"name\":\"thread_name\",\"args\":{\"name\":\""
             << (pool_thread ? "pool thread " : "outside thread ") << n << "\"}}";
        out_ << ",\n{\"ph\":\"M\",\"pid\":1,\"tid\":" << tid(i) << ",\"name\":\"thread_sort_index\",\"args\":{\"sort_index\":"
             << tid(i) << "}}";
      }
      for (unsigned i = 0; i < lanes; ++i)
        lane(i);
      out_ << "\n]}\n";
    }

  private:
    struct open_span
    {
      trace_span span;
      const char* label;
      std::uint64_t piece_start;
      std::uint64_t task; // 0 unless a task
      std::uint32_t pieces;
    };
    typedef std::vector<open_span> stack;

    static unsigned tid(unsigned lane) noexcept { return lane + 1; }

    // Microseconds since the session's start, with nanoseconds as decimals.
    void time(std::uint64_t ns) { micros(ns, s_.start_ns()); }

    // The microseconds from `from` to `to`, negative if `to` is earlier: every event lies
    // inside the recording and a lane's events are in time order (trace_recorder::write), so a
    // negative time or duration in a trace is a bug to see, not to hide.
    void micros(std::uint64_t to, std::uint64_t from)
    {
      const bool negative = to < from;
      const std::uint64_t t = negative ? from - to : to - from;
      char buf[32];
      std::snprintf(buf, sizeof buf, "%s%llu.%03u", negative ? "-" : "", static_cast<unsigned long long>(t / 1000),
                    static_cast<unsigned>(t % 1000));
      out_ << buf;
    }

    void string(const char* p)
    {
      out_ << '"';
      for (; *p; ++p)
      {
        const unsigned char c = static_cast<unsigned char>(*p);
        if (c == '"' || c == '\\')
          out_ << '\\' << *p;
        else if (c < 0x20)
        {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          out_ << buf;
        }
        else
          out_ << *p;
      }
      out_ << '"';
    }

    // Emits the slice of `o` from its piece's start to `ns`, the depth-th open span of its stack.
    void piece(unsigned lane, open_span& o, std::size_t depth, std::uint64_t ns, bool truncated = false)
    {
      out_ << ",\n{\"ph\":\"X\",\"pid\":1,\"tid\":" << tid(lane) << ",\"name\":";
      string(o.label ? o.label : trace_span_name(o.span));
      out_ << ",\"cat\":\"" << (trace_span_is_task(o.span) ? "task" : "wait") << "\",\"ts\":";
      time(o.piece_start);
      out_ << ",\"dur\":";
      micros(ns, o.piece_start);
      out_ << ",\"args\":{\"depth\":" << depth;
      if (o.task)
        out_ << ",\"task\":" << o.task << ",\"piece\":" << o.pieces++;
      if (o.label)
        out_ << ",\"kind\":\"" << trace_span_name(o.span) << '"';
      if (truncated)
        out_ << ",\"truncated\":true";
      out_ << "}}";
    }

    void pause(unsigned lane, stack& open, std::uint64_t ns)
    {
      if (!open.empty())
        piece(lane, open.back(), open.size() - 1, ns);
    }

    void lane(unsigned i)
    {
      const trace_lane& l = s_.lane(i);
      stack open;
      std::unordered_map<const void*, stack> parked;
      std::uint64_t last = s_.start_ns();
      for (const trace_event& e : l)
      {
        last = e.ns;
        switch (e.what)
        {
        case trace_what::begin:
          pause(i, open, e.ns);
          open.push_back(open_span{e.span, nullptr, e.ns, trace_span_is_task(e.span) ? ++tasks_ : 0, 0});
          break;
        case trace_what::end:
          if (open.empty())
            break; // began before this lane's first event (cannot happen: scopes match sessions)
          piece(i, open.back(), open.size() - 1, e.ns);
          open.pop_back();
          if (!open.empty())
            open.back().piece_start = e.ns;
          break;
        case trace_what::label:
          for (auto it = open.rbegin(); it != open.rend(); ++it)
            if (trace_span_is_task(it->span))
            {
              // The label names the whole task, unless slices of it were drawn already: then
              // it names the slices from here on.
              if (it->pieces != 0 && it == open.rbegin())
              {
                piece(i, *it, open.size() - 1, e.ns);
                it->piece_start = e.ns;
              }
              it->label = static_cast<const char*>(e.ptr);
              break;
            }
          break;
        case trace_what::steal:
          out_ << ",\n{\"ph\":\"i\",\"s\":\"t\",\"pid\":1,\"tid\":" << tid(i) << ",\"name\":\"steal\",\"cat\":\"steal\",\"ts\":";
          time(e.ns);
          out_ << ",\"args\":{\"victim\":" << e.arg << "}}";
          ++flows_;
          out_ << ",\n{\"ph\":\"s\",\"id\":" << flows_ << ",\"pid\":1,\"tid\":" << tid(static_cast<unsigned>(e.arg))
               << ",\"name\":\"steal\",\"cat\":\"steal\",\"ts\":";
          time(e.ns);
          out_ << "},\n{\"ph\":\"f\",\"id\":" << flows_ << ",\"pid\":1,\"tid\":" << tid(i) << ",\"name\":\"steal\",\"cat\":\"steal\",\"ts\":";
          time(e.ns);
          out_ << '}';
          break;
        case trace_what::park:
          pause(i, open, e.ns);
          if (!open.empty())
            parked[e.ptr] = std::move(open);
          open.clear();
          break;
        case trace_what::resume:
        {
          // What ran on the stack the thread leaves has ended (a scheduler loop at its top).
          pause(i, open, e.ns);
          open.clear();
          const auto it = parked.find(e.ptr);
          if (it != parked.end())
          {
            open = std::move(it->second);
            parked.erase(it);
            open.back().piece_start = e.ns;
          }
          break;
        }
        case trace_what::submit:
          out_ << ",\n{\"ph\":\"i\",\"s\":\"t\",\"pid\":1,\"tid\":" << tid(i) << ",\"name\":\"submit\",\"cat\":\"submit\",\"ts\":";
          time(e.ns);
          out_ << '}';
          break;
        }
      }
      // Spans still open at the end: cut at the stop, or at the last event a full lane kept.
      const std::uint64_t cut = l.dropped() ? last : s_.stop_ns();
      if (!open.empty())
        piece(i, open.back(), open.size() - 1, cut, true);
    }

    std::uint64_t tasks_ = 0; // task spans numbered so far
    std::uint64_t flows_ = 0; // flow arrows written so far
    const trace_session& s_;
    std::ostream& out_;
  };

} // namespace fork_join
} // namespace detail
} // namespace boost

#endif // header

// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// Recording a timeline of a pool (fork_join_trace.hpp): the events, the per-thread buffers
// (lanes) and the session that owns them while a trace records.
//
// Threading contract
//  - A session has one lane per pool thread, written only by that thread, and a few lanes for
//    threads that are not pool threads (a main() that helps in a join, a submitter), each
//    claimed by one such thread for the session (claim_outside_lane()). So no two threads ever
//    write one lane, and a write is a plain store into the lane's own memory.
//  - A lane is a bounded array filled from the front. A full lane drops every later event and
//    counts them: it never blocks or allocates, and what it holds is a prefix of what its
//    thread did, which the writer (trace_json.hpp) can always close.
//  - The pool publishes the session through one pointer; how writers and the recorder that
//    stops the session meet is trace_recorder.hpp's (write, stop). The
//    lanes are read only after the session stopped, when no thread writes them any more.

#ifndef BOOST_THREAD_EXECUTORS_DETAIL_FORK_JOIN_TRACE_TRACE_HPP
#define BOOST_THREAD_EXECUTORS_DETAIL_FORK_JOIN_TRACE_TRACE_HPP

#include <boost/thread/executors/detail/fork_join/base/config.hpp>

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>

namespace boost {
namespace detail {
namespace fork_join {

  // What a span on a lane is. The first five are tasks, by how they were queued (task.hpp).
  enum class trace_span : std::uint8_t
  {
    submit,      // a closure given to submit(), submit_front(), submit_back()
    fork,        // fork()
    async,       // boost::async(pool, f)
    invoke,      // a parallel_invoke child (the algorithms are made of these)
    block,       // a task_block child (run())
    search,      // an idle pool thread looking for work
    join_search, // a join looking for a task it may run, before it parks or blocks
    sleep,       // an idle pool thread asleep
    join_block   // a join that blocks its thread (a thread that is not a pool thread)
  };

  constexpr bool trace_span_is_task(trace_span s) noexcept { return s <= trace_span::block; }

  inline const char* trace_span_name(trace_span s) noexcept
  {
    static const char* const names[] = {"submit", "fork", "async", "invoke", "task_block",
                                        "search", "join", "sleep", "blocked join"};
    return names[static_cast<unsigned>(s)];
  }

  enum class trace_what : std::uint8_t
  {
    begin,  // a span begins (span)
    end,    // the innermost span of the current stack ends
    label,  // the innermost task span is named (ptr: the label)
    steal,  // a task was stolen from pool thread `arg`
    park,   // the current stack parks (ptr: its parked_frame); its spans pause
    resume, // the frame ptr resumes on this thread; its spans go on
    submit  // a thread that is not a pool thread queued a task
  };

  // 24 bytes on a 64-bit target.
  struct trace_event
  {
    std::uint64_t ns;   // steady_clock, nanoseconds
    const void* ptr;    // label or frame
    std::int32_t arg;   // steal: the victim's index
    trace_what what;
    trace_span span;
  };

  inline std::uint64_t trace_now() noexcept
  {
    return static_cast<std::uint64_t>(
        std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch()).count());
  }

  // One thread's events. Written by one thread; read after the session stopped.
  class trace_lane
  {
  public:
    explicit trace_lane(std::size_t capacity) : events_(new trace_event[capacity]), capacity_(capacity) {}

    // Effects: records e, or counts it as dropped if the lane is full. Never blocks, never
    // allocates.
    void append(const trace_event& e) noexcept
    {
      if (size_ == capacity_)
      {
        ++dropped_;
        return;
      }
      events_[size_++] = e;
    }

    std::size_t size() const noexcept { return size_; }
    std::uint64_t dropped() const noexcept { return dropped_; }
    const trace_event* begin() const noexcept { return events_.get(); }
    const trace_event* end() const noexcept { return events_.get() + size_; }

  private:
    std::unique_ptr<trace_event[]> events_;
    const std::size_t capacity_;
    std::size_t size_ = 0;
    std::uint64_t dropped_ = 0;
  };

  // The lanes of one recording of one pool, from its start to its stop.
  class trace_session
  {
  public:
    // Throws: std::bad_alloc (every lane is allocated here, none later).
    trace_session(unsigned pool_threads, unsigned outside_lanes, std::size_t capacity)
        : id_(next_id()), pool_threads_(pool_threads), outside_lanes_(outside_lanes)
    {
      lanes_.reset(new std::unique_ptr<trace_lane>[pool_threads + outside_lanes]);
      for (unsigned i = 0; i < pool_threads + outside_lanes; ++i)
        lanes_[i].reset(new trace_lane(capacity));
      start_ns_ = trace_now();
    }

    // A number no other session of this process has: what a thread's cached outside lane and a
    // span that began in this session are matched against (an address could be reused).
    std::uint64_t id() const noexcept { return id_; }

    trace_lane& pool_lane(unsigned index) noexcept { return *lanes_[index]; }

    // Returns: the outside lane of the calling thread for this session, claimed on its first
    // call; nullptr once every outside lane is claimed (then the caller's event is dropped).
    // A thread remembers its lanes of its last four sessions (a thread that helps in joins on
    // several traced pools at once keeps one lane in each); a fifth claims again.
    trace_lane* claim_outside_lane() noexcept
    {
      struct claim
      {
        std::uint64_t session = 0;
        trace_lane* lane = nullptr;
      };
      static thread_local claim mine[4];
      static thread_local unsigned next = 0;
      claim* c = nullptr;
      for (claim& m : mine)
        if (m.session == id_)
          c = &m;
      if (!c)
      {
        c = &mine[next++ % 4];
        // relaxed: only the uniqueness of the index matters; the lanes were built before the
        // session was published (pool_core::start_trace).
        const unsigned k = next_outside_.fetch_add(1, std::memory_order_relaxed);
        c->session = id_;
        c->lane = k < outside_lanes_ ? lanes_[pool_threads_ + k].get() : nullptr;
      }
      if (!c->lane)
        // relaxed: a count read after the stop, which the writers' handshake orders.
        unclaimed_.fetch_add(1, std::memory_order_relaxed);
      return c->lane;
    }

    unsigned pool_threads() const noexcept { return pool_threads_; }
    // The outside lanes claimed (some may be empty).
    unsigned outside_claimed() const noexcept
    {
      const unsigned n = next_outside_.load(std::memory_order_relaxed); // relaxed: read after the stop
      return n < outside_lanes_ ? n : outside_lanes_;
    }
    const trace_lane& lane(unsigned i) const noexcept { return *lanes_[i]; }
    // Events of threads that found no outside lane left.
    std::uint64_t unclaimed() const noexcept { return unclaimed_.load(std::memory_order_relaxed); } // relaxed: as above

    std::uint64_t start_ns() const noexcept { return start_ns_; }
    std::uint64_t stop_ns() const noexcept { return stop_ns_; }
    void set_stop(std::uint64_t ns) noexcept { stop_ns_ = ns; }

  private:
    static std::uint64_t next_id() noexcept
    {
      static std::atomic<std::uint64_t> last{0};
      return last.fetch_add(1, std::memory_order_relaxed) + 1; // relaxed: only unique values matter
    }

    const std::uint64_t id_;
    const unsigned pool_threads_;
    const unsigned outside_lanes_;
    std::unique_ptr<std::unique_ptr<trace_lane>[]> lanes_;
    std::atomic<unsigned> next_outside_{0};
    std::atomic<std::uint64_t> unclaimed_{0};
    std::uint64_t start_ns_ = 0;
    std::uint64_t stop_ns_ = 0;
  };

} // namespace fork_join
} // namespace detail
} // namespace boost

#endif // header

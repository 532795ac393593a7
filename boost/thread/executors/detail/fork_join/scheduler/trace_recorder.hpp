// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// Recording a core's events into a trace session (trace.hpp, fork_join_trace.hpp).
//
// Threading contract
//  - Writers and the stop meet through trace_ and a busy count per writer (each pool thread's
//    trace_busy; one shared count, outside_busy_, for the threads that are not ours):
//    a writer raises its busy count, then loads trace_ and writes only to the session it
//    loaded, then lowers the count (write); stop() clears trace_, then waits until every busy
//    count is zero.
//  - Invariant: once stop() returns, no thread writes the stopped session's lanes and
//    every event written happens before the return. Proof: the raise, the load and the clear
//    are seq_cst. A writer whose raise precedes the clear in their single total order is seen
//    busy by stop()'s later seq_cst loads until its release lowering, which the load that
//    sees zero acquires (every change of a busy count is a read-modify-write, so that load
//    synchronizes with every lowering before it); a writer whose raise follows the clear loads
//    trace_ after it and finds no session, or a later one.
//  - Fast path, "trace off" (doc/design.md, "Fast paths and their assumptions"): when no trace records, an event costs one
//    relaxed load of trace_ and a branch; a stale non-null value only sends the writer to the
//    handshake above, which re-reads trace_; a stale null drops an event of a recording that
//    was starting, which was not under way for that thread yet.

#ifndef BOOST_THREAD_EXECUTORS_DETAIL_FORK_JOIN_SCHEDULER_TRACE_RECORDER_HPP
#define BOOST_THREAD_EXECUTORS_DETAIL_FORK_JOIN_SCHEDULER_TRACE_RECORDER_HPP

#include <boost/thread/executors/detail/fork_join/base/config.hpp>
#include <boost/thread/executors/detail/fork_join/scheduler/queues.hpp>
#include <boost/thread/executors/detail/fork_join/scheduler/worker_slot.hpp>
#include <boost/thread/executors/detail/fork_join/trace/trace.hpp>
#include <boost/thread/thread_only.hpp>

#include <atomic>
#include <cstdint>
#include <stdexcept>

namespace boost {
namespace detail {
namespace fork_join {

  class trace_recorder
  {
  public:
    // Effects: makes s the session that records this pool's events.
    // Throws: std::logic_error if a session already records this pool (s is then not used).
    void start(trace_session* s)
    {
      trace_session* expected = nullptr;
      // seq_cst (a release at least): publishes the session's lanes, built before, to the
      // writers' seq_cst loads.
      if (!trace_.compare_exchange_strong(expected, s, std::memory_order_seq_cst))
        throw std::logic_error("fork_join_trace: a trace already records this pool");
    }

    // Requires: s is the session that records this pool (start(s)); queues are the pool's.
    // Effects: stops recording; on return no thread writes to s any more (the invariant above).
    // Progress: waits (yielding) for the writes in progress, each a few stores long.
    void stop(trace_session& s, const task_queues& queues) noexcept
    {
      trace_session* expected = &s;
      trace_.compare_exchange_strong(expected, nullptr, std::memory_order_seq_cst); // seq_cst: the clear above
      for (unsigned i = 0, n = queues.thread_count(); i < n; ++i)
        while (queues.slot(i).trace_busy.load(std::memory_order_seq_cst) != 0) // seq_cst: see above
          this_thread::yield();
      while (outside_busy_.load(std::memory_order_seq_cst) != 0) // seq_cst: see above
        this_thread::yield();
      s.set_stop(trace_now());
    }

    // Returns: whether a trace may be recording (the hook's test, "trace off" above).
    BOOST_FORCEINLINE bool tracing() const noexcept
    {
      return trace_.load(std::memory_order_relaxed) != nullptr; // relaxed: see "trace off" above
    }

    // Effects: records the event on the calling thread's lane of the session that records this
    // pool, if any, and if `only` is zero or that session's id. own: the calling thread's slot
    // if it is a pool thread of this pool, else nullptr.
    // Returns: the id of the session written to; 0 if none (no session, another one, or no
    // outside lane left).
    BOOST_FORCEINLINE std::uint64_t write(worker_slot* own, trace_what w, trace_span span, const void* p, std::int32_t arg,
                                          std::uint64_t only) noexcept
    {
      std::atomic<unsigned>& busy = own ? own->trace_busy : outside_busy_;
      std::uint64_t wrote = 0;
      busy.fetch_add(1, std::memory_order_seq_cst); // seq_cst: the handshake with stop()
      if (trace_session* const session = trace_.load(std::memory_order_seq_cst)) // seq_cst: likewise
        if (only == 0 || session->id() == only)
          if (trace_lane* const lane = own ? &session->pool_lane(own->index) : session->claim_outside_lane())
          {
            // The clock is read after the load that found the session, so after its start
            // (taken before start() published it) and before its stop (taken after
            // stop() saw this writer's busy count fall): every event lies inside the
            // recording. Read before the load, a thread preempted between the two could
            // write an event older than the session's start.
            lane->append(trace_event{trace_now(), p, arg, w, span});
            wrote = session->id();
          }
      const unsigned before = busy.fetch_sub(1, std::memory_order_release); // release: the writes above, to stop()
      BOOST_THREAD_FJ_ASSERT(before != 0); // Invariant: one lowering per raise
      (void)before;
      return wrote;
    }

  private:
    std::atomic<trace_session*> trace_{nullptr}; // the recording session, if any (read-mostly)
    alignas(64) std::atomic<unsigned> outside_busy_{0}; // outside threads writing a trace
  };

} // namespace fork_join
} // namespace detail
} // namespace boost

#endif // header

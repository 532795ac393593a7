// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// A timeline of a fork_join_thread_pool: which thread ran which task when, who stole from
// whom, who searched, slept, parked or blocked; written as Chrome trace-event JSON, which
// Perfetto's UI (ui.perfetto.dev) and chrome://tracing open (doc/index.md, "Seeing a run").
// Includes fork_join.hpp, so this header alone is enough for the usage below:
//
//   boost::fork_join_thread_pool pool(2);
//   boost::executors::fork_join_trace trace(pool);       // records from here...
//   auto f = boost::executors::fork(pool, boost::executors::named("fib", fib), 20);
//   f.join();
//   trace.stop();                                        // ...to here
//   std::ofstream out("fib.json");
//   trace.write_json(out);

#ifndef BOOST_THREAD_EXECUTORS_FORK_JOIN_TRACE_HPP
#define BOOST_THREAD_EXECUTORS_FORK_JOIN_TRACE_HPP

#include <boost/thread/executors/fork_join.hpp>
#include <boost/thread/executors/fork_join_thread_pool.hpp>
#include <boost/thread/executors/detail/fork_join/scheduler/pool_core.hpp>
#include <boost/thread/executors/detail/fork_join/trace/trace.hpp>
#include <boost/thread/executors/detail/fork_join/trace/trace_json.hpp>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <ostream>
#include <type_traits>
#include <utility>

namespace boost {
namespace executors {

  // A recording of one pool's timeline, from construction to stop() (a scoped recorder: it
  // attaches to a running pool, so a program turns tracing on around the part it wants to see,
  // and a pool that is never traced pays one untaken branch per event site).
  class fork_join_trace
  {
  public:
    // Events each thread may record; a full thread drops later events and counts them.
    static constexpr std::size_t default_events_per_thread = std::size_t(1) << 18;
    // Threads that are not pool threads (a main() that joins and helps, a submitter) that get a
    // lane of their own; later ones' events are counted in dropped().
    static constexpr unsigned default_outside_threads = 4;

    // Effects: starts recording the events of `pool`: task runs (submitted closures, forks,
    // boost::async tasks, parallel_invoke and task_block children, and so the algorithms'
    // pieces), steals, searches, sleeps, parks and resumes of joining frames, joins that block,
    // submissions from threads that are not pool threads. Each pool thread records into a
    // buffer of events_per_thread events (24 bytes each on a 64-bit target) that only it
    // writes; each of the first outside_threads other threads that record gets one too.
    // Synchronization: an event that happens after the constructor returns is recorded (unless
    // its buffer is full); one that happens before is not.
    // Throws: std::logic_error if another fork_join_trace records `pool`; std::bad_alloc.
    explicit fork_join_trace(fork_join_thread_pool& pool, std::size_t events_per_thread = default_events_per_thread,
                             unsigned outside_threads = default_outside_threads)
        : core_(detail::fork_join::core_of(pool))
        , session_(new detail::fork_join::trace_session(core_->thread_count(), outside_threads, events_per_thread))
    {
      core_->start_trace(session_.get());
      recording_ = true;
    }

    // Effects: stop().
    ~fork_join_trace() { stop(); }

    fork_join_trace(const fork_join_trace&) = delete;
    fork_join_trace& operator=(const fork_join_trace&) = delete;

    // Effects: stops recording (later calls do nothing). The pool may be gone: the recording
    // keeps the pool's scheduler alive.
    // Synchronization: every event recorded happens before stop() returns; none is recorded
    // after. Spans still open (a task running, a frame parked) end at the stop in the output.
    // Progress: waits for the event writes in progress, each a few stores long.
    // Throws: nothing.
    void stop() noexcept
    {
      if (!recording_)
        return;
      core_->stop_trace(*session_);
      recording_ = false;
    }

    bool recording() const noexcept { return recording_; }

    // Returns: the events recorded. Requires: stopped (else 0).
    std::uint64_t events() const noexcept
    {
      if (recording_)
        return 0;
      std::uint64_t n = 0;
      for (unsigned i = 0, k = lanes(); i < k; ++i)
        n += session_->lane(i).size();
      return n;
    }

    // Returns: the events dropped: a thread's buffer was full, or an outside thread found no
    // buffer left. Requires: stopped (else 0).
    std::uint64_t dropped() const noexcept
    {
      if (recording_)
        return 0;
      std::uint64_t n = session_->unclaimed();
      for (unsigned i = 0, k = lanes(); i < k; ++i)
        n += session_->lane(i).dropped();
      return n;
    }

    // Effects: stop(), then writes the trace to `out` in the Chrome trace-event JSON format:
    // one lane (tid) per pool thread, then one per outside thread that recorded; on a lane,
    // slices ("ph":"X") that do not overlap: a span that begins inside another cuts it, and
    // the outer one goes on in a new slice when the inner one ends; each task slice has
    // args.task (the task's number) and args.piece (0 for its first slice); a steal is an
    // instant event on the thief's lane with a flow arrow from the victim's lane; a submission
    // from an outside thread is an instant event on its lane. otherData.dropped_events counts
    // what full buffers dropped.
    // Complexity: linear in events().
    // Throws: what writing to `out` throws; std::bad_alloc.
    void write_json(std::ostream& out)
    {
      stop();
      detail::fork_join::trace_json_writer(*session_, out).write();
    }

  private:
    unsigned lanes() const noexcept { return session_->pool_threads() + session_->outside_claimed(); }

    std::shared_ptr<detail::fork_join::pool_core> core_;
    std::unique_ptr<detail::fork_join::trace_session> session_;
    bool recording_ = false;
  };

  // A callable that names the tasks it runs in a trace: fork(pool, named("fib", fib), n) draws
  // the task as "fib" rather than "fork". Works wherever a pool runs a callable (fork, submit,
  // boost::async, parallel_invoke, task_block::run). `label` must outlive the trace's output (a
  // string literal does).
  template <class F>
  class named_task
  {
  public:
    template <class G>
    named_task(const char* label, G&& f) : label_(label), f_(std::forward<G>(f))
    {
    }

    // Effects: if a trace records the pool whose task the calling thread runs, names that
    // task; then calls f with args.
    // Returns: what f returns. Throws: what f throws.
    template <class... Args>
    decltype(auto) operator()(Args&&... args)
    {
      label();
      return std::invoke(f_, std::forward<Args>(args)...);
    }
    template <class... Args>
    decltype(auto) operator()(Args&&... args) const
    {
      label();
      return std::invoke(f_, std::forward<Args>(args)...);
    }

  private:
    void label() const noexcept
    {
      if (detail::fork_join::pool_core* const core = detail::fork_join::running_core)
        if (BOOST_UNLIKELY(core->tracing()))
          core->trace_write(detail::fork_join::trace_what::label, detail::fork_join::trace_span::submit, label_, 0, 0);
    }

    const char* label_;
    F f_;
  };

  // Returns: named_task<decay_t<F>>(label, f).
  // Throws: what copying or moving f throws.
  template <class F>
  named_task<typename std::decay<F>::type> named(const char* label, F&& f)
  {
    return named_task<typename std::decay<F>::type>(label, std::forward<F>(f));
  }

} // namespace executors

using executors::fork_join_trace;

} // namespace boost

#endif // header

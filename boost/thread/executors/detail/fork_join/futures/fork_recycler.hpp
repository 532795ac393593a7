// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// Where a fork's state (fork_state.hpp) comes from in a steady state: the thread that forks keeps
// the states of its forks, one recycler per state type, and reuses a state once its task has run
// and the last future of it is gone. A reused state keeps its shared_ptr control block and its
// Boost shared state (mutex, condition variable): a fork then counts no reference up or down
// and constructs no mutex. A new state costs boost::allocate_shared's five reference-count
// read-modify-writes (enable_shared_from_this's weak reference, a temporary and an aliasing
// copy), a mutex and a condition variable, and three more read-modify-writes to free; each
// read-modify-write drains the store buffer that building the state has just filled.
//
// Ownership. An idle state holds two references to itself: self_, its owner's, and spare_, the
// one the next future takes. A fork moves spare_ into the future; in flight, self_ stands for
// both the owner and the queue, so the state outlives its run however early its future goes.
//  - Give back (the fast path): a joinable_future destroyed on the thread that forked it, whose
//    task stored its result and which shares the state with self_ only (use_count() == 2),
//    moves its reference back into spare_ (give_back below).
//  - Sweep (the slow path): any other future (a plain boost::future a fork's future was moved
//    into, one moved to another thread, a shared_future, a continuation's) just releases its
//    reference. Now and then (sweep below) the thread takes back the states whose result is
//    stored and whose only reference is self_ (use_count() == 1); sweeps cost O(1) visits per
//    fork, amortized.
//  - Thread exit: idle states are freed; a state still in flight is orphaned: of its owner (at
//    exit) and its runner (at the end of the run), the one that sets its bit in the run
//    record's word second releases self_ (run_record::stored_bit, orphaned_bit).
// A state made on a thread without a recycler (while the thread exits, or with
// BOOST_THREAD_FJ_NO_FORK_RECYCLING defined) is born orphaned: its runner releases self_.
//
// Threading contract: a recycler is used by its own thread only (thread_local), and only that
// thread reuses or frees its idle states. A state is reused only after (a) stored(), whose
// acquire pairs with the runner's acq_rel fetch_or, the runner's last access to the state, and
// (b) use_count() of 2 or 1, whose acquire (Boost's) pairs with the acq_rel decrement of every
// reference released on another thread; so every other thread's use of the state happens
// before its reuse.
//
// Bound: a thread keeps idle as many states of a type as it recently had in flight at once, at
// least idle_capacity (peak_: at each periodic sweep, the larger of the most in flight during
// the period that ends and half the bound before); so a burst of forks that recurs within a
// period (four times as many forks as states, up to 64 times in a steady state: sweep) reuses
// its states and makes none, and what a past burst left goes back within a few periods of forks
// once it stops recurring.
//
// Built with AddressSanitizer, recycling stays on (unlike state_cache.hpp), so that the sanitizer
// checks the recycler itself (leaks at exit included); a stale use of a reused state is not
// reported as a use after free.

#ifndef BOOST_THREAD_EXECUTORS_DETAIL_FORK_JOIN_FUTURES_FORK_RECYCLER_HPP
#define BOOST_THREAD_EXECUTORS_DETAIL_FORK_JOIN_FUTURES_FORK_RECYCLER_HPP

#include <boost/thread/executors/detail/fork_join/base/config.hpp>
#include <boost/thread/executors/detail/fork_join/futures/state_cache.hpp>
#include <boost/thread/executors/detail/fork_join/tasks/task_frame.hpp>
#include <boost/make_shared.hpp>
#include <boost/shared_ptr.hpp>

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace boost {
namespace detail {
namespace fork_join {

  // Who owns a fork state: no two recyclers of a process ever have the same id. A count alone would
  // not do: a library built with hidden visibility has its own copy of new_recycler_id() and
  // of its counter, so the counter's address is part of the id. A default id is no one's.
  struct recycler_id
  {
    const void* domain = nullptr;
    std::uint64_t count = 0;
    bool operator==(const recycler_id& o) const noexcept { return domain == o.domain && count == o.count; }
  };

  // Returns: an id no recycler had before. relaxed: only uniqueness matters.
  inline recycler_id new_recycler_id() noexcept
  {
    static std::atomic<std::uint64_t> next{1};
    return recycler_id{&next, next.fetch_add(1, std::memory_order_relaxed)};
  }

  // State: a fork_state (fork_state.hpp), which befriends this class.
  template <class State>
  class fork_recycler
  {
  public:
    static constexpr std::size_t idle_capacity = 256; // idle states kept at least (peak_: more)
    static constexpr std::size_t first_sweep = 64;    // states made before the first sweep
    static constexpr std::uint64_t first_period = 4;  // forks a state held between periodic sweeps
    static constexpr unsigned max_backoff = 4;        // periods up to first_period << 4 (sweep)

    // Returns: the calling thread's recycler, made at the first call; nullptr once destroyed
    // (thread exit) or if BOOST_THREAD_FJ_NO_FORK_RECYCLING is defined.
    static fork_recycler* of_this_thread() noexcept
    {
#ifdef BOOST_THREAD_FJ_NO_FORK_RECYCLING
      return nullptr;
#else
      if (gone())
        return nullptr;
      thread_local fork_recycler r;
      return &r;
#endif
    }

    // Returns: the calling thread's recycler if it exists, without making one.
    static fork_recycler* existing() noexcept { return current(); }

    const recycler_id& id() const noexcept { return id_; }

    // Returns: how many states this thread holds, idle and in flight (for white-box tests).
    std::size_t states() const noexcept { return states_.size(); }

    // Returns: how many states this thread has made so far (for white-box tests).
    std::uint64_t made() const noexcept { return made_; }

    // Returns: the sweep's back-off: the period is first_period << backoff() forks a state held
    // (sweep; for white-box tests).
    unsigned backoff() const noexcept { return backoff_; }

    // Returns: a state of this thread's, idle until now, armed with the closure (State::arm).
    // If `stacked`, the state is also recorded on the stack of states whose futures cannot give
    // them back (take_back_stacked): a plain boost::future of our boost::async.
    // Throws: std::bad_alloc, or what arming throws; then every state is idle or in flight as
    // before (a state made for the call stays idle).
    template <class... Closure>
    State* take(bool stacked, Closure&&... closure)
    {
      const bool periodic = ++takes_ >= periodic_at_;
      if (!stacked_.empty())
        take_back_stacked();
      if (periodic || (idle_.empty() && (productive_ || states_.size() >= sweep_at_)))
        sweep(periodic);
      State* s;
      if (!idle_.empty())
      {
        s = idle_.back();
        idle_.pop_back();
      }
      else
        s = make_owned();
      const std::size_t in_flight = states_.size() - idle_.size();
      peak_ = std::max(peak_, in_flight);
      period_peak_ = std::max(period_peak_, in_flight);
      try
      {
        if (stacked)
          stacked_.push_back(s->index_);
        try
        {
          s->arm(std::forward<Closure>(closure)...);
        }
        catch (...)
        {
          if (stacked)
            stacked_.pop_back();
          throw;
        }
      }
      catch (...)
      {
        idle_.push_back(s); // no allocation: idle_'s capacity covers every state
        throw;
      }
      return s;
    }

    // Requires: called on this recycler's thread; s is one of its states, in flight, whose
    // result is stored and whose only references are self_ and `future`.
    // Effects: s is idle again (or freed, beyond the bound: make_idle), `future` empty.
    template <class Ref>
    void give_back(State* s, Ref& future) noexcept
    {
      s->spare_ = std::move(future);
      make_idle(s);
    }

    fork_recycler(const fork_recycler&) = delete;
    fork_recycler& operator=(const fork_recycler&) = delete;

  private:
    fork_recycler() : id_(new_recycler_id()) { current() = this; }

    ~fork_recycler()
    {
      gone() = true;
      current() = nullptr;
      for (State* s : states_)
      {
        if (s->spare_)
          s->spare_.reset(); // idle: self_ is its last reference
        // In flight: acq_rel, pairs with the runner's fetch_or (act): the second releases self_.
        else if (!(s->run_.result_stored.fetch_or(run_record::orphaned_bit, std::memory_order_acq_rel) &
                   run_record::stored_bit))
          continue;
        boost::shared_ptr<State> last = std::move(s->self_);
      }
    }

    // Whether this thread's recycler was destroyed: a trivially destructible thread_local, which
    // stays readable until the thread ends.
    static bool& gone() noexcept
    {
      thread_local bool destroyed = false;
      return destroyed;
    }
    static fork_recycler*& current() noexcept
    {
      thread_local fork_recycler* r = nullptr;
      return r;
    }

    State* make_owned()
    {
      if (states_.size() == states_.capacity()) // doubling: reserve(size + 1) would be exact
        states_.reserve(std::max<std::size_t>(2 * states_.capacity(), first_sweep));
      if (idle_.capacity() < states_.capacity())
        idle_.reserve(states_.capacity()); // so that putting a state back never allocates
      State* s = State::make_state(id_);
      s->index_ = states_.size();
      states_.push_back(s);
      ++made_;
      return s;
    }

    // Effects: s idle, kept if fewer states are idle than max(idle_capacity, peak_), else
    // freed: a thread keeps as many idle states as it recently had in flight, so that a
    // repeated burst of forks (a deep chain, a wide tree) reuses them all.
    void make_idle(State* s) noexcept
    {
      s->make_idle();
      if (idle_.size() < std::max(idle_capacity, peak_))
        idle_.push_back(s);
      else
        free_state(s);
    }

    // Requires: s idle. Effects: drops it from states_ and releases both its references.
    void free_state(State* s) noexcept
    {
      State* const moved = states_.back();
      moved->index_ = s->index_;
      states_[s->index_] = moved;
      states_.pop_back();
      s->spare_.reset();
      boost::shared_ptr<State> last = std::move(s->self_);
    }

    // Effects: pops the stack of stacked takes (take()) while its top is a state that is no
    // longer in flight, taking it back if its result is stored and its future is gone; stops at
    // the first state still in flight with a reference besides its own. The futures of a
    // recursive computation end in about the reverse order of their forks (a node's children's
    // futures end before the node's own), so the top is the likeliest state to have ended:
    // plain futures, which cannot give their states back, are found here, each pushed once and
    // popped once (O(1) amortized per take), before a sweep is due. An entry is a place in
    // states_, which may hold another state since (free_state moves states): any state that
    // passes the test may be taken back, and one that is idle is just popped.
    void take_back_stacked() noexcept
    {
      while (!stacked_.empty())
      {
        const std::size_t i = stacked_.back();
        if (i < states_.size())
        {
          State* const s = states_[i];
          if (!s->spare_) // in flight
          {
            // Fast path, "sweep reuse" (doc/design.md, "Fast paths and their assumptions"), as in sweep().
            if (!(s->run_.stored() && s->self_.use_count() == 1))
              return;
            s->spare_ = s->self_;
            make_idle(s); // may free s, moving the last state to place i
          }
        }
        stacked_.pop_back();
      }
    }

    // Effects: takes back every state in flight whose result is stored and whose future is
    // gone. The next sweep comes when no state is idle, if this one took back a quarter of the
    // states or more, or once as many states again as are still in flight were made; and in
    // any case (`periodic`) after a period of first_period << backoff_ times as many forks as
    // there are states, so that states left behind by futures that ended elsewhere are found. A
    // periodic sweep also lowers the bound peak_ to the most states in flight during the period
    // it ends, or to half the bound, whichever is larger, and frees the idle states beyond it: a
    // burst that came back during the period keeps its states (halving alone would free half
    // of them at every periodic sweep, and the next burst would make them again), and what a
    // past burst left idle goes back in a few periods.
    // Cost: each sweep visits every state, and a visit to a state in flight reads two or three
    // of its cache lines, which a computation with many forks pending (uts: about 10^4) has
    // long evicted; at one visit per four forks, that was more than half of uts's simulated
    // L2 read misses (doc/benchmark/README.md).
    // So a periodic sweep that finds nothing to do (it takes nothing back and leaves the bound
    // where it was: a steady state, whose futures all come back by give_back) doubles the
    // period, up to 4 << max_backoff; any sweep that takes a state back, and any periodic one
    // that lowers the bound, returns it to four. Amortized, the periodic sweeps visit one state
    // per four forks, one per 64 in a steady state (the other sweeps, O(1) visits per fork); a
    // fork state left behind after a steady state waits at most one longest period (or less: the
    // sweep when no state is idle finds it).
    void sweep(bool periodic) noexcept
    {
      const std::size_t before = states_.size();
      const std::size_t idle_before = idle_.size();
      std::size_t in_flight = 0;
      for (std::size_t i = 0; i < states_.size();)
      {
        State* const s = states_[i];
        const std::size_t size = states_.size();
        // Fast path, "sweep reuse" (doc/design.md, "Fast paths and their assumptions"): no future, waiter or continuation is left.
        if (!s->spare_ && s->run_.stored() && s->self_.use_count() == 1)
        {
          s->spare_ = s->self_; // the future's reference again (one increment, off the fast path)
          make_idle(s);         // may free s, moving the last state to index i
        }
        else if (!s->spare_)
          ++in_flight;
        if (states_.size() == size)
          ++i;
      }
      // Taken back: the states that went idle or were freed, less those freed that were idle.
      const std::size_t taken_back = (before - in_flight) - idle_before;
      productive_ = 4 * taken_back >= before;
      bool quiet = taken_back == 0;
      if (periodic)
      {
        const std::size_t bound = peak_;
        peak_ = std::max({in_flight, period_peak_, peak_ / 2});
        period_peak_ = in_flight;
        quiet = quiet && peak_ >= bound;
        while (idle_.size() > std::max(idle_capacity, peak_))
        {
          State* const s = idle_.back();
          idle_.pop_back();
          free_state(s);
        }
        if (quiet)
          backoff_ = std::min(backoff_ + 1, max_backoff);
      }
      if (!quiet)
        backoff_ = 0;
      sweep_at_ = states_.size() + std::max(first_sweep, in_flight);
      periodic_at_ = takes_ + (first_period << backoff_) * (states_.size() + first_sweep);
    }

    const recycler_id id_;
    std::vector<State*> states_; // every state this thread holds self_ of
    std::vector<State*> idle_;   // those ready for a fork; capacity >= states_.size()
    std::size_t sweep_at_ = first_sweep;       // states_.size() at which to sweep when none is idle
    bool productive_ = false;                  // whether the last sweep took back many states
    std::uint64_t takes_ = 0;                  // forks so far
    std::uint64_t periodic_at_ = first_period * first_sweep; // takes_ at which to sweep in any case
    std::size_t peak_ = 0;                     // the most states in flight at once, decaying
    std::size_t period_peak_ = 0;              // the most in flight since the last periodic sweep
    unsigned backoff_ = 0;                     // the period: first_period << backoff_ forks a state
    std::uint64_t made_ = 0;                   // states made so far
    std::vector<std::size_t> stacked_;         // places in states_ of stacked takes, in order
  };

} // namespace fork_join
} // namespace detail
} // namespace boost

#endif // header

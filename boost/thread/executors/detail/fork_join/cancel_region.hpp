// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// Cancellation regions: what a task block, a cancellation_source's fork or a call of a parallel
// algorithm hands down to the blocks and algorithms that run inside it, so that canceling it
// stops them too (doc/index.md, "Cancellation").
//
// A region is a cancel flag and the region it was made in (its parent): it is canceled if its
// flag or an ancestor's is set. The regions are
//  - a task_block's (its canceled_ flag): while the block's function or a child of it runs;
//  - a cancellation_source's: while a task forked with the source runs;
//  - a parallel algorithm's call (algorithm_scope.hpp): while one of its chunks runs.
// Each of them, while its code runs on a thread, makes itself that thread's current region
// (region_scope); a block or algorithm call started there takes the current region as its
// parent. Every parent outlives its children: a block or an algorithm call ends within the
// code of the region it was made in, which runs while they run.
//
// Current, per stack. The current region is one slot per thread, saved and restored with the
// stack's other state when a frame parks (parking.hpp: stack_state). It is valid only in the
// task frame (task_frame.hpp) it was set in: a join that helps runs queued tasks above the
// region's code, each in a frame of its own (pool_core::run_task_inline), and such a task, a
// plain fork or submitted closure for instance, is not part of the region. So the slot records
// current_frame when it is set, and current_region() answers the region only while that frame
// is still the innermost one. Nothing on the pool's paths writes the slot: a pool that uses no
// block, no source and no algorithm never touches it. A stack task its parent runs inline
// (a parallel_invoke child that nobody stole) runs in its parent's frame and so in its
// region; one that a thief runs does not (doc/index.md says so).
//
// A check in O(1). Regions nest as deep as blocks and algorithms nest (a recursive fib with a
// task block per level: one region per level), so walking the ancestors at every check costs
// O(depth): measured, 264 instructions more per block of fib(18) with a block per call. Instead
// every flag is set through cancel() below, which also counts a process-wide epoch, and each
// region remembers the epoch at which it last found its ancestors clear (clean_epoch). A check
// walks up only when some region somewhere was canceled since, and then each ancestor answers
// from its own memory: amortized O(1), and a pool where nothing is ever canceled never walks
// (measured: 72 instructions more per block of that fib than before regions existed, the
// thread-local stores included; doc/index.md, "Cancellation").
// Why this is exact, not a hint: cancel() sets the flag before it counts the epoch (release);
// a check that loads epoch e (acquire) and then finds every ancestor's flag clear has seen
// every flag that a cancel counted in e set, so the ancestors were clear at e, and any later
// cancel changes the epoch it compares with.
//
// Memory order: cancel() sets a flag with an acq_rel exchange (an explicit cancel publishes
// what the canceling code wrote before it) and checks load it with acquire, so an explicit
// cancel synchronizes with the check that sees it. For the block's failures and the
// algorithms' exceptions that is more than needed (their exceptions travel through the
// joins); it costs them nothing measurable, being once per failure. The skip decisions
// themselves are hints: a check racing with a cancel may miss it and run work that could have
// been skipped.

#ifndef BOOST_THREAD_EXECUTORS_DETAIL_FORK_JOIN_CANCEL_REGION_HPP
#define BOOST_THREAD_EXECUTORS_DETAIL_FORK_JOIN_CANCEL_REGION_HPP

#include <boost/thread/executors/detail/fork_join/config.hpp>
#include <boost/thread/executors/detail/fork_join/task_frame.hpp>
#include <boost/config.hpp>
#include <boost/exception_ptr.hpp>

#include <atomic>
#include <cstdint>
#include <exception>
#include <type_traits>

namespace boost {
namespace executors {

  // Thrown by task_block::run() and task_block::wait() once the block is canceled, stored in
  // the future of a fork whose cancellation_source was canceled before it started, and thrown
  // by a parallel algorithm that skipped work because its enclosing region was canceled
  // (doc/reference.md). define_task_block() then throws the exception_list of the causes; a
  // task_canceled_exception that is a consequence of the cancellation is not part of that list
  // (one that f or a child throws while the block is not canceled is, like any other).
  class task_canceled_exception : public std::exception
  {
  public:
    const char* what() const noexcept override { return "task_canceled_exception"; }
  };

} // namespace executors

namespace detail {
namespace fork_join {

  // How many flags cancel() has set in this process (see above). acq_rel/acquire: below.
  inline std::atomic<std::uint64_t> cancel_epoch{0};

  // Effects: sets a region's flag; counts the epoch if it was not set before.
  inline void cancel(std::atomic<bool>& flag) noexcept
  {
    // acq_rel: the release publishes the canceling code's writes to a check that sees the
    // flag; the flag is set before the epoch is counted (see above).
    if (!flag.exchange(true, std::memory_order_acq_rel))
      cancel_epoch.fetch_add(1, std::memory_order_release); // pairs with outer_canceled()'s acquire
  }

  struct cancel_region
  {
    std::atomic<bool>* flag; // set through cancel() only
    const cancel_region* parent;
    // The epoch at which the ancestors were last found clear: 0 at first, which is true (at
    // epoch 0 no flag was ever set). relaxed: a value written by any checking thread is a true
    // statement (see above), and a stale one only costs a walk.
    mutable std::atomic<std::uint64_t> clean_epoch{0};

    // Returns: whether this region or one that encloses it is canceled. acquire: pairs with
    // cancel()'s exchange.
    BOOST_FORCEINLINE bool canceled() const noexcept { return flag->load(std::memory_order_acquire) || outer_canceled(); }

    // Returns: whether a region that encloses this one (not this one) is canceled.
    BOOST_FORCEINLINE bool outer_canceled() const noexcept
    {
      if (!parent)
        return false;
      // acquire: pairs with cancel()'s fetch_add, so that every flag counted in e is seen.
      const std::uint64_t e = cancel_epoch.load(std::memory_order_acquire);
      return clean_epoch.load(std::memory_order_relaxed) != e && outer_canceled_at(e);
    }

  private:
    // The walk, off the path of the checks that find nothing new.
    BOOST_NOINLINE bool outer_canceled_at(std::uint64_t e) const noexcept
    {
      if (parent->canceled())
        return true; // canceled stays canceled: nothing to remember
      clean_epoch.store(e, std::memory_order_relaxed);
      return false;
    }
  };

  // A region made current, and the frame it was made current in (see above); lives in the
  // region_scope that made it current, on the stack it is current on.
  struct region_entry
  {
    const cancel_region* region;
    const task_frame* frame;
  };

  // The calling stack's current region: one word, so that making a region current costs one
  // thread-local store and one to restore.
  typedef const region_entry* region_slot;
  inline thread_local region_slot current_region_slot = nullptr;

  // Returns: the region the calling code runs in, or nullptr (see above).
  inline const cancel_region* current_region() noexcept
  {
    const region_entry* const e = current_region_slot;
    return e && e->frame == current_frame ? e->region : nullptr;
  }

  // Makes r the calling stack's current region for the scope's lifetime (nests).
  class region_scope
  {
  public:
    explicit region_scope(const cancel_region& r) noexcept : entry_{&r, current_frame}, prev_(current_region_slot)
    {
      current_region_slot = &entry_;
    }
    ~region_scope() { current_region_slot = prev_; }
    region_scope(const region_scope&) = delete;
    region_scope& operator=(const region_scope&) = delete;

  private:
    const region_entry entry_;
    const region_slot prev_;
  };

  // The callable of a fork with a cancellation_source (cancellation.hpp): a forked task whose
  // callable is one checks it before the run (forked_task.hpp, run_or_discard), so that a
  // canceled one stores canceled_task_exception() without a throw. Measured with callgrind, one
  // pool thread, 4096 forks of a canceled source joined at once: a throw and catch of
  // task_canceled_exception into each future cost 16,300 instructions per fork more (the
  // unwinder's search for frames, the capture of the exception), where a whole plain fork and
  // join cost 1,300; without the throw a canceled fork costs 113 more than a plain one.
  template <class Fn>
  class cancelable_call;

  template <class Fn>
  struct is_cancelable_call : std::false_type
  {
  };
  template <class Fn>
  struct is_cancelable_call<cancelable_call<Fn> > : std::true_type
  {
  };

  // The exception a canceled fork's future holds. Made once, at the first fork with a source
  // (cancellation.hpp), where an allocation may still fail by throwing, as
  // unrun_task_exception() (forked_task.hpp) is.
  inline const boost::exception_ptr& canceled_task_exception()
  {
    static const boost::exception_ptr e = boost::copy_exception(executors::task_canceled_exception());
    return e;
  }

} // namespace fork_join
} // namespace detail
} // namespace boost

#endif // header

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
// Memory order: a flag is set by a release store (an explicit cancel) or a relaxed one (a
// failure: the exception itself travels through the joins) and read with acquire, so that an
// explicit cancel() synchronizes with the check that sees it; the skip decisions themselves
// are hints, a miss runs work that could have been skipped.

#ifndef BOOST_THREAD_EXECUTORS_DETAIL_FORK_JOIN_CANCEL_REGION_HPP
#define BOOST_THREAD_EXECUTORS_DETAIL_FORK_JOIN_CANCEL_REGION_HPP

#include <boost/thread/executors/detail/fork_join/config.hpp>
#include <boost/thread/executors/detail/fork_join/task_frame.hpp>

#include <atomic>
#include <exception>

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

  struct cancel_region
  {
    std::atomic<bool>* flag;
    const cancel_region* parent;

    // Returns: whether this region or one that encloses it is canceled. acquire: pairs with
    // the release store of an explicit cancel (see above).
    bool canceled() const noexcept
    {
      for (const cancel_region* r = this; r; r = r->parent)
        if (r->flag->load(std::memory_order_acquire))
          return true;
      return false;
    }

    // Returns: whether a region that encloses this one (not this one) is canceled.
    bool outer_canceled() const noexcept { return parent && parent->canceled(); }
  };

  // The calling stack's current region and the frame it was set in (see above).
  struct region_slot
  {
    const cancel_region* region = nullptr;
    const task_frame* frame = nullptr;
  };

  inline thread_local region_slot current_region_slot;

  // Returns: the region the calling code runs in, or nullptr (see above).
  inline const cancel_region* current_region() noexcept
  {
    const region_slot& s = current_region_slot;
    return s.region && s.frame == current_frame ? s.region : nullptr;
  }

  // Makes r the calling stack's current region for the scope's lifetime (nests).
  class region_scope
  {
  public:
    explicit region_scope(const cancel_region& r) noexcept : prev_(current_region_slot)
    {
      current_region_slot = region_slot{&r, current_frame};
    }
    ~region_scope() { current_region_slot = prev_; }
    region_scope(const region_scope&) = delete;
    region_scope& operator=(const region_scope&) = delete;

  private:
    const region_slot prev_;
  };

} // namespace fork_join
} // namespace detail
} // namespace boost

#endif // header

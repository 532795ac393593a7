// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// What a queued or running task carries for the admission rule (admission.hpp): task tags, the
// frames of running tasks with their isolation mark, and the record of a task's run.
//
// Tags, stored with each task in the queues (so that a taker decides without reading a task
// another thread may already have freed):
//  - a heap task (submit, fork, boost::async) has a root id: fresh, never reused while the
//    process runs (ids are handed out in blocks of 2^20 per thread from one counter);
//  - a stack task (parallel_invoke, task_block children) has stack_bit | seq, where seq counts
//    the pushes of the deque it was pushed to (0 when pushed to the shared queue).
// Every task also knows its root (task::root()): a heap task's own id, or for a stack task the
// root of the task that spawned it; frames record it for cycle detection.
//
// Frames. Whoever runs a task from a queue links a task_frame on its own stack for as long as
// the task runs; `current_context.frame` is the innermost. A stack task its parent runs inline
// needs no frame of its own (it has its parent's root). Only the thread itself reads or writes
// its frames.
//
// The admission rule, which says which queued task a waiting frame may run, is admission.hpp's.
//
// Isolation. A frame is isolated if it runs inside executors::isolate(f), runs a task that was
// made in an isolated frame (its frame word carries isolated_bit), or runs above an isolated
// frame on the same stack (a task that an isolated wait runs, help.hpp, or that
// try_executing_one() runs there). A wait of an isolated frame runs what the admission rule admits and never parks
// (help.hpp): with nothing it may run it blocks its thread, as a wait on a thread that is not
// a pool thread does, so its thread runs nothing else meanwhile: no other task, and no parked
// frame of the thread resumes. A lock or thread_local state that the frame holds across the
// wait is then seen by nothing but the tasks the wait admits, which the frame waits for anyway.
// Tasks made in an isolated frame inherit it, so their waits, on whatever thread, block too:
// a thread that parked one of them would run any task while the isolating frame waits for it.

#ifndef BOOST_THREAD_EXECUTORS_DETAIL_FORK_JOIN_TASKS_TASK_FRAME_HPP
#define BOOST_THREAD_EXECUTORS_DETAIL_FORK_JOIN_TASKS_TASK_FRAME_HPP

#include <boost/thread/executors/detail/fork_join/base/config.hpp>

#include <atomic>
#include <cstddef>
#include <cstdint>

namespace boost {
namespace detail {
namespace fork_join {

  // A heap task's root id, or stack_bit | push sequence for a stack task (see above).
  typedef std::uint64_t task_tag;

  constexpr task_tag stack_bit = task_tag(1) << 63;

  constexpr bool tag_is_stack(task_tag t) noexcept { return (t & stack_bit) != 0; }
  constexpr std::uint64_t tag_seq(task_tag t) noexcept { return t & ~stack_bit; }

  // The calling thread's supply of root ids: a block of 2^20 ids at a time from one counter,
  // so ids one thread hands out grow (rule (b) of admission.hpp relies on it).
  struct root_id_supply
  {
    task_tag next = 0;
    task_tag end = 0;

    static root_id_supply& of_this_thread() noexcept
    {
      thread_local root_id_supply supply;
      return supply;
    }
  };

  // Returns: a root id no other call in this process returns (nonzero, below 2^63), larger
  // than every id this thread returned before.
  inline task_tag new_root_id() noexcept
  {
    constexpr task_tag block = task_tag(1) << 20;
    static std::atomic<task_tag> next_block{block}; // 0 is reserved for "no task"
    root_id_supply& s = root_id_supply::of_this_thread();
    if (s.next == s.end)
    {
      // relaxed: only the uniqueness of the blocks matters, which the RMW gives; a later
      // block of the same RMW's modification order is larger.
      s.next = next_block.fetch_add(block, std::memory_order_relaxed);
      s.end = s.next + block;
    }
    return s.next++;
  }

  // Returns: the last id new_root_id() returned on this thread (0 if none): every id it
  // returns later is larger.
  inline task_tag last_root_id() noexcept
  {
    const root_id_supply& s = root_id_supply::of_this_thread();
    return s.next ? s.next - 1 : 0; // next is past the first id of its block once one was handed out
  }

  // Marks an isolated frame (see "Isolation" above) in task_frame::word: a root is a heap task's
  // id, below 2^63 (new_root_id()), or 0, so its top bit is free; a frame stays 16 bytes, which
  // deep chains pay for on every level (pool_core::run_task_inline).
  constexpr task_tag isolated_bit = task_tag(1) << 63;

  // The frame of a task that runs on this thread; linked on the thread's own stack.
  struct task_frame
  {
    task_tag word; // the task's root, | isolated_bit if the frame is isolated
    const task_frame* prev;

    task_tag root() const noexcept { return word & ~isolated_bit; }
    bool isolated() const noexcept { return (word & isolated_bit) != 0; }
  };

  class cancel_region;

  // What the calling thread's running stack runs in: the innermost frame of a task (see above),
  // and the current cancellation region (cancel_region.hpp). Side by side, so that a region
  // that is made records both with one 16-byte load and store.
  struct task_context
  {
    const task_frame* frame;
    const cancel_region* region;
  };

  inline thread_local task_context current_context = {nullptr, nullptr};

  // What a stack must do before it stops running (its wait parks it, or blocks in an isolated
  // frame, help.hpp): the hooks of the task blocks whose frames are on it, innermost first
  // (block_state.hpp queues there a task for the children it has not handed out). A block
  // links its hook in for as long as its function and its final join run, so the list follows
  // the blocks' nesting. The list is part of the state that a stack saves and restores around
  // a switch (parking.hpp): a fresh fiber starts with none, and a call on a fresh stack that
  // continues the calling one (call_on_fresh_stack) with the caller's.
  struct stop_hook
  {
    void (*before_stop)(stop_hook&);
    stop_hook* prev;
  };

  inline thread_local stop_hook* current_stop_hooks = nullptr;

  // Returns: the root of the task the calling thread runs (innermost), or 0.
  inline task_tag current_root() noexcept
  {
    const task_frame* f = current_context.frame;
    return f ? f->root() : 0;
  }

  // Returns: whether the frame the calling thread runs (innermost) is isolated (see above).
  inline bool current_isolated() noexcept
  {
    const task_frame* f = current_context.frame;
    return f && f->isolated();
  }

  // Whether executors::isolate() was ever called in this process: until then no frame is
  // isolated, and a heap task's submission need not look at the calling frame (5 instructions
  // per fork, 0.8% of a fork's, measured with callgrind on fib). relaxed: a frame is isolated
  // only after the thread that entered the region stored true (sequenced before), or because it
  // runs a task made in such a frame, which its queue's hand-over orders after that store; so
  // every isolated frame's thread reads true.
  inline std::atomic<bool> isolation_used{false};

  // Effects: notes that a region is entered (see above).
  inline void note_isolation_used() noexcept
  {
    if (!isolation_used.load(std::memory_order_relaxed)) // relaxed: see above; a store only once
      isolation_used.store(true, std::memory_order_relaxed);
  }

  // Returns: isolated_bit if the frame the calling thread runs is isolated, else 0: what a task
  // made there carries in its frame word (task::set_tag).
  inline task_tag current_isolated_bit() noexcept
  {
    if (BOOST_LIKELY(!isolation_used.load(std::memory_order_relaxed))) // relaxed: see above
      return 0;
    const task_frame* f = current_context.frame;
    return f ? f->word & isolated_bit : 0;
  }

  // Links a frame whose word (a root, | isolated_bit if isolated) is `word` for the scope's
  // lifetime (nests). A frame above an isolated one is isolated too: who links one above an
  // isolated frame says so (pool_core::run_task_inline's `isolated`, executors::isolate).
  class frame_scope
  {
  public:
    explicit frame_scope(task_tag word) noexcept : frame_{word, current_context.frame} { current_context.frame = &frame_; }
    ~frame_scope() { current_context.frame = frame_.prev; }
    frame_scope(const frame_scope&) = delete;
    frame_scope& operator=(const frame_scope&) = delete;

  private:
    task_frame frame_;
  };

  // What the waiter of a task taken from a queue learns of its run (a stack task,
  // stack_task.hpp, or a forked heap task, fork_state.hpp): its completion state (pending, done,
  // or for a stack task the address of the parent's waker while it sleeps or is parked,
  // waker.hpp), and who runs it.
  struct run_record
  {
    static constexpr std::uintptr_t pending = 0;
    static constexpr std::uintptr_t done_state = 1; // no waker lives at address 1

    // Returns: whether the task has run to the end. acquire: pairs with the release exchange
    // or store that ended it, for its effects.
    bool done() const noexcept { return state.load(std::memory_order_acquire) == done_state; }

    // Bits of result_stored (forked heap tasks only): the result is stored, the run's last
    // access to the fork state; the thread that owns it has exited (fork_recycler.hpp). The
    // bits above them hold the list of wakers of the threads waiting for the result
    // (waker.hpp), which the fetch_or of stored_bit takes.
    static constexpr std::uintptr_t stored_bit = 1;
    static constexpr std::uintptr_t orphaned_bit = 2;

    // Returns: for a forked heap task (fork_state.hpp), whether its future is ready, without
    // the shared state's mutex. acquire: pairs with the acq_rel fetch_or after the result was
    // stored, so a get() that follows sees it, and a reuse of the fork state follows the run.
    bool stored() const noexcept { return result_stored.load(std::memory_order_acquire) & stored_bit; }

    std::atomic<std::uintptr_t> state{pending};
    std::atomic<std::uintptr_t> result_stored{0}; // forked heap tasks only: the bits above
    // Set once by the pool thread that takes the task from a queue, before it runs it (rule
    // (b)): runner_core, runner_seq and runner_root first, then runner_slot (release; readers
    // acquire). The three are read only after runner_slot was seen non-null, so they start
    // unset: every task has a record and few are ever stolen, so a stack task's construction
    // (on the path of every parallel_invoke child) does not write them.
    std::atomic<const void*> runner_slot{nullptr};
    const void* runner_core;
    std::uint64_t runner_seq;  // the runner's deque pushes so far
    task_tag runner_root;      // last_root_id() on the runner
  };

} // namespace fork_join
} // namespace detail
} // namespace boost

#endif // header

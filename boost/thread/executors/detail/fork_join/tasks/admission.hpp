// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// Which queued tasks a waiting thread may run: the admission rule that makes helping safe (the
// progress guarantee of doc/index.md), over the tags, frames and run records of task_frame.hpp.
//
// The admission rule (wait_scope). A thread that waits may run a queued task T only if the
// frame that waits provably waits for T:
//  (a) T is an awaited task: the stack task being joined (by address), or a heap task whose
//      future is being joined (by root id, which fork() records in the joinable_future);
//  (b) T sits in the deque of the thread that runs an awaited task S that was taken from a
//      queue (S stolen, or forked and run elsewhere), T was pushed there after that thread
//      started S, S is not done, and either
//      - T is a stack task: its parent frame joins it before it ends, and that frame is S or
//        runs above S on the thread's stack, so S waits for it; or
//      - T is a heap task that the thread is joining at that moment (worker_slot::joining): a
//        join that began after S started, while S runs, is a frame above S, so S waits for it.
//      ("leapfrogging" to the thief, as the JDK's ForkJoinPool helpStealer does; the JDK
//      takes any task of the thief, which a fork that nobody joins makes unsafe.)
//      "Pushed after the thread started S" is decided by the tag alone: a stack task's push
//      sequence against the one S's runner noted (run_record::runner_seq), a heap task's root
//      id against the last one the runner had handed out (runner_root: one thread's ids grow).
//      A stack task queued later, from a frame above its parent's, bears a number reserved in
//      its parent frame: parallel_invoke's children kept back (pool_core::defer_stack_tasks), a
//      task block's claimers, which a stop hook queues (pool_core::reserve_push_seq).
// A worker's loop, which runs inside no task, takes anything.
// Why no frame is then ever buried under a task that waits for it: by induction every frame on
// a thread's stack waits, transitively, for every frame above it (each was admitted by (a) or
// (b) for the frame below). If a task X above a frame Q waited for Q, Q would wait for X and X
// for Q: a cycle, which an acyclic task graph does not have, whatever X waits on (a future, a
// promise, a latch). The nesting on one thread is therefore bounded by the longest chain of
// tasks that wait for one another, not by what happens to be queued.
// One gap, listed in doc/index.md: a join that leaves by an exception (an interruption) stops
// waiting for its task, and a waiter that read the join's publication just before may still
// take that task.
//
// Threading contract: a wait_scope lives in the frame of the thread that waits and is read by
// that thread only (pool_core::find_task); what it points to (tasks, run records) is read by the
// rules' own orders (search.hpp, steal_for).

#ifndef BOOST_THREAD_EXECUTORS_DETAIL_FORK_JOIN_TASKS_ADMISSION_HPP
#define BOOST_THREAD_EXECUTORS_DETAIL_FORK_JOIN_TASKS_ADMISSION_HPP

#include <boost/thread/executors/detail/fork_join/base/config.hpp>
#include <boost/thread/executors/detail/fork_join/tasks/task_frame.hpp>

namespace boost {
namespace detail {
namespace fork_join {

  class task;

  // Returns: whether a task of root `root` runs in a frame on the calling thread's stack. A
  // thread that would wait for such a task waits for itself (every frame waits for the frames
  // above it, see above), which no progress can end.
  inline bool root_on_own_stack(task_tag root) noexcept
  {
    for (const task_frame* f = current_context.frame; f; f = f->prev)
      if (f->root() == root)
        return true;
    return false;
  }

  // What a waiting thread may run (the admission rule above).
  struct wait_scope
  {
    const task* awaited_task = nullptr; // (a): a stack task being joined
    // (a): up to two awaited tasks (heap or stack) that the waiting thread may have pushed
    // under newer ones; it takes them from the middle of its own deque (a join in fork
    // order). Each must stay alive while the scope is used, and its tag and queued_at()
    // must identify it (pool_core::find_task). Null: none.
    const task* claimable[2] = {nullptr, nullptr};
    // (a): whether `root` is the id of an awaited heap task; null: none is.
    bool (*awaits)(const void* context, task_tag root) noexcept = nullptr;
    const void* context = nullptr;
    // (b): the runs of up to two awaited tasks, whose runners' deques may hold tasks spawned
    // for them; null: none.
    const run_record* leapfrog[2] = {nullptr, nullptr};

    // (a), for a task found at the end of a queue.
    bool admits(const task* x, task_tag tag) const noexcept
    {
      if (x == awaited_task)
        return true;
      return !tag_is_stack(tag) && awaits && awaits(context, tag);
    }
  };

} // namespace fork_join
} // namespace detail
} // namespace boost

#endif // header

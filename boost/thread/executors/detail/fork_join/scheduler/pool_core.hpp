// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// The scheduler behind fork_join_thread_pool: queues, accounting, the worker loop.
//
// Threading contract
//  - One Chase–Lev deque per pool thread (chase_lev_deque.hpp). Only its owner pushes and pops,
//    at the bottom (newest first); every other thread steals at the top (the oldest).
//  - Pool threads: the thread_count() workers. Each has a slot (its deque, counters and
//    fiber_home); a slot is never freed before the core.
//  - One shared queue (a mutex deque) for submissions from threads that are not workers of this
//    pool, and for submit_back() from workers ("for later": after the worker's own work).
//  - A worker looks for work in this order: its own deque, the shared queue (front), the top of
//    a random victim's deque, then every other victim (victim_selection.hpp). A worker's loop
//    takes any task; a thread that waits for a task takes only what its wait_scope admits
//    (task_frame.hpp), and deques and the shared queue check that by the tag stored with each
//    task, without taking a task it may not run.
//  - Parking (parking.hpp): a pool thread whose join may run nothing parks the joining frame
//    and runs schedule() on a fresh fiber; each schedule() loop, between tasks, resumes the
//    thread's parked frames that were posted. So no thread ever blocks in a join and none is
//    ever added (the spare threads of ForkJoinPool's compensation, which this design replaced,
//    doc/index.md): the pool runs on exactly thread_count() threads.
//  - Counted tasks: every heap task (submit, fork) and every stack task (stack_task.hpp) pushed
//    by a thread that is not one of our pool threads. A stack task a pool thread pushes is not
//    counted: its parent frame is running and cannot end before it, and that parent is itself
//    counted or has a counted ancestor running.
//  - unfinished_ over-counts the counted tasks that have not finished, by the credits the pool
//    threads hold (worker_slot::credits): a pool thread draws credits in batches of
//    BOOST_THREAD_FJ_TASK_CREDITS, spends one per counted task it queues and gains one per
//    counted task it finishes, all in its own slot, and gives them back when it has too many
//    and before it sleeps (for lack of work) or leaves. Threads that are not ours add and
//    subtract one per task.
//    Invariant: unfinished_ == (counted tasks queued or running) + (credits held) >= 0, as
//    every draw happens before the queueing it pays for (sequenced before the push) and every
//    give-back after the finishes it returns. So fork, run and join write no line that every
//    pool thread shares, and unfinished_ reads zero only when no accepted work is queued or
//    running anywhere; pool threads leave only when the pool is closed, they hold no credit
//    and unfinished_ is zero, so nothing accepted is ever dropped. A pool thread that sleeps or
//    leaves holds none, so once the pool is drained and idle unfinished_ is exactly zero.
//  - The core outlives the pool object while an executor_ref (a future's recorded executor)
//    refers to it; after the pool is destroyed it is closed and empty, so such a reference can
//    still be used safely: submit throws sync_queue_is_closed, helping finds no work.
//
// Hazards of a fork/join pool, and how this file meets them
//  1. A wait on a worker never blocks without helping: see help.hpp and stack_task.hpp.
//  2. Lost wake-ups: every push of a heap task is followed by a notify of event_count.hpp (a
//     worker's push to its own deque by notify_one_if_waiting(), a fence and a load when nobody
//     sleeps); sleepers use its prepare / re-check / commit protocol. A worker's push of a stack
//     task notifies only when its deque was empty before (push_own): the fence was a quarter of
//     the time of a fine-grained parallel_invoke (doc/benchmark/README.md). Invariant: a
//     non-empty deque was advertised when it last became non-empty, its owner is running, and
//     its owner never sleeps in a wait (it parks the frame and goes on on a fresh stack) and
//     sleeps in schedule() only after finding every deque empty; a thief that leaves tasks
//     behind advertises them again (advertise_rest). So no stack task is ever
//     stranded: its parent's thread runs it or sleeps only after waking another thread, and a
//     thread that wakes re-checks every deque before it sleeps again. What a skipped notify
//     can cost is parallelism, never progress: a sleeper that registered after the deque's
//     advertisement but whose re-check raced with a steal of its last advertised task may
//     sleep while the owner pushes more; the owner or the thief (both awake) will take them.
//     A stack task is awaited only by its parent frame, through a join; a sibling that waits
//     for it by other means (a latch) breaks the rules for tasks (doc/index.md) and could then
//     wait forever, as on a pool of one thread.
//  3. Idle workers spin only a bounded number of rounds, then park.

#ifndef BOOST_THREAD_EXECUTORS_DETAIL_FORK_JOIN_SCHEDULER_POOL_CORE_HPP
#define BOOST_THREAD_EXECUTORS_DETAIL_FORK_JOIN_SCHEDULER_POOL_CORE_HPP

#include <boost/thread/executors/detail/fork_join/base/config.hpp>
#include <boost/thread/executors/detail/fork_join/primitives/chase_lev_deque.hpp>
#include <boost/thread/executors/detail/fork_join/primitives/event_count.hpp>
#include <boost/thread/executors/detail/fork_join/fibers/parking.hpp>
#include <boost/thread/executors/detail/fork_join/base/statistics.hpp>
#include <boost/thread/executors/detail/fork_join/primitives/locked_deque.hpp>
#include <boost/thread/executors/detail/fork_join/tasks/task.hpp>
#include <boost/thread/executors/detail/fork_join/tasks/task_frame.hpp>
#include <boost/thread/executors/detail/fork_join/trace/trace.hpp>
#include <boost/thread/executors/detail/fork_join/primitives/victim_selection.hpp>
#include <boost/thread/executors/detail/fork_join/tasks/worker_context.hpp>
#include <boost/shared_ptr.hpp>
#include <boost/thread/exceptions.hpp>
#include <boost/thread/executors/executor.hpp>
#include <boost/thread/mutex.hpp>
#include <boost/thread/thread_only.hpp>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <memory>
#include <stdexcept>

namespace boost {
namespace detail {
namespace fork_join {

  enum class queue_end
  {
    front,
    back
  };

  // A pool thread's deque and counters, on cache lines of their own so that owners do not
  // false-share. push_seq counts the pushes to the deque (owner-only): stack tasks carry it in
  // their tag, and a task taken from a queue notes it when it starts running (note_runner), so
  // that a thread waiting for that task knows which tasks of this deque were spawned for it.
  // joining: the root ids of the heap tasks the owner's innermost join awaits (0: none), for
  // rule (b) of task_frame.hpp; written by the owner (join_publication), read by waiters.
  // recorded_executor: the executor record (an executor_ref to the pool) that boost::async on
  // this thread puts in its futures (fork_join_thread_pool.hpp): one per thread, so that its
  // reference count is written by this thread and by whoever frees its futures, not by every
  // thread at once; owner-only, released when the thread leaves (it refers to the core).
  // home: the thread's parked frames and fiber stacks (parking.hpp). last_switch: push_seq
  // right after the owner's last switch between stacks (owner writes, waiters read), which
  // every switch first advances: rule (b) admits nothing a runner pushed after a switch
  // (steal_for). trace_busy: nonzero while the owner writes to a trace (pool_core::trace_write).
  struct alignas(64) worker_slot
  {
    worker_slot(unsigned i, std::size_t fiber_stack_size, stack_gauges* gauges, fiber_home::post_fn post, void* post_context) noexcept
        : index(i), home(fiber_stack_size, gauges, post, post_context)
    {
    }

    const unsigned index; // of the slot in its core

    chase_lev_deque<task> deque;
    counters stats;             // written by the owner only
    std::uint64_t push_seq = 0; // owner-only
    std::int64_t credits = 0;   // owner-only: task credits drawn from pool_core::unfinished_
    boost::shared_ptr<executors::executor> recorded_executor; // owner-only
    std::atomic<task_tag> joining[2] = {};
    std::atomic<std::uint64_t> last_switch{0};
    bool leaving = false; // owner-only: interrupted, leaves once no frame of it is parked
    std::atomic<unsigned> trace_busy{0};
    fiber_home home;
  };

  // Requires: called by the thread that took from a queue the task whose run `run` records,
  // before it runs the task. Effects: a pool thread records its slot, the slot's push count and
  // its last root id, so that the task's waiter may take what this run spawns (rule (b)).
  inline void note_runner(run_record& run) noexcept
  {
    const worker_context* const w = current_worker;
    if (!w)
      return;
    const worker_slot* const slot = static_cast<const worker_slot*>(w->slot);
    run.runner_core = w->core;
    run.runner_seq = slot->push_seq;
    run.runner_root = last_root_id();
    // release: publishes the fields above to the waiter's acquire (pool_core::steal_for).
    run.runner_slot.store(slot, std::memory_order_release);
  }

  // Publishes, for the scope's lifetime, the root ids of the heap tasks a pool thread's join
  // awaits (worker_slot::joining; rule (b) of task_frame.hpp), restoring the enclosing join's
  // on exit. A thread that is not a pool thread publishes nothing.
  class join_publication
  {
  public:
    join_publication(task_tag first, task_tag second) noexcept
    {
      const worker_context* const w = current_worker;
      if (!w || (first == 0 && second == 0))
        return;
      slot_ = static_cast<worker_slot*>(w->slot);
      // relaxed loads: this thread's own stores. release stores: a waiter that acquires a value
      // sees the switches before it (worker_slot::last_switch); otherwise it only needs some
      // value this thread stored, each naming tasks a join in progress awaited when it was
      // stored, which is all rule (b) asks.
      saved_[0] = slot_->joining[0].load(std::memory_order_relaxed);
      saved_[1] = slot_->joining[1].load(std::memory_order_relaxed);
      slot_->joining[0].store(first, std::memory_order_release);
      slot_->joining[1].store(second, std::memory_order_release);
    }
    ~join_publication()
    {
      if (!slot_)
        return;
      slot_->joining[0].store(saved_[0], std::memory_order_release); // release: as above
      slot_->joining[1].store(saved_[1], std::memory_order_release);
    }
    join_publication(const join_publication&) = delete;
    join_publication& operator=(const join_publication&) = delete;

  private:
    worker_slot* slot_ = nullptr;
    task_tag saved_[2] = {0, 0};
  };

  class pool_core
  {
  public:
    // fiber_stack_size: the size of each stack a pool thread parks onto (fiber_stack.hpp).
    pool_core(unsigned threads, std::size_t fiber_stack_size)
        : thread_count_(threads), slots_(new std::unique_ptr<worker_slot>[threads])
    {
      for (unsigned i = 0; i < threads; ++i)
        slots_[i].reset(new worker_slot(i, fiber_stack_size, &stack_gauges_, &pool_core::post_parked, this));
    }

    pool_core(const pool_core&) = delete;
    pool_core& operator=(const pool_core&) = delete;

    // The pool object whose threads run this core (opaque here), set by that pool before its
    // first thread starts and cleared after its last thread is joined; nullptr outside that
    // span. A thread that runs a task of this core, or is one of its threads, runs inside it.
    void set_owner(void* owner) noexcept
    {
      // release / acquire: a thread that reads the pointer sees the pool built.
      owner_.store(owner, std::memory_order_release);
    }
    void* owner() const noexcept { return owner_.load(std::memory_order_acquire); }

    ~pool_core()
    {
      // Only reached when nothing is queued (the pool drains before it lets go of the core);
      // a leftover would be a bug, and discarding keeps it from leaking.
      task* t = nullptr;
      while (shared_.try_pull_front(t) == queue_op_status::success)
        t->discard();
      for (unsigned i = 0, n = thread_count(); i < n; ++i)
        while ((t = slots_[i]->deque.pop()))
          t->discard();
    }

    // Returns: the number of pool threads, the workers: no thread is ever added.
    unsigned thread_count() const noexcept { return thread_count_; }

    // Effects: accepts the heap task t (ownership included) and makes it visible to every
    // consumer, then wakes a sleeper. From worker i: `front` to the bottom of deque i (runs
    // next), `back` to the back of the shared queue (runs after the worker's own work). From
    // a thread running one of our tasks: to the shared queue even if closed. From any other
    // thread: to the shared queue. t gets a new root id as its tag (task_frame.hpp), which a
    // joiner reads back as t->root().
    // Throws: sync_queue_is_closed if closed and the caller runs none of our tasks (t is then
    // destroyed unrun); whatever the allocation throws (likewise).
    void submit(task* t, queue_end end)
    {
      const task_tag tag = new_root_id();
      t->set_tag(tag, tag | current_isolated_bit()); // a task made in an isolated frame inherits it
      worker_slot* const own = own_slot();
      const outside_access guard(own ? nullptr : this);
      count_one(own);
      try
      {
        if (own && end == queue_end::front)
          push_own(*own, t);
        else
          push_shared(t, end, running_core == this || own);
        if (!own)
          trace(trace_what::submit);
      }
      catch (...)
      {
        t->discard();
        finish_one(own);
        throw;
      }
    }

    // Effects: queues the stack task t of the caller's frame (stack_task.hpp), which the caller
    // joins before the frame ends. From one of our workers: to its deque, uncounted. From any
    // other thread: to the front of the shared queue, counted.
    // Returns: false if the pool is closed and the caller runs none of our tasks, or the caller
    // is a pool thread that has no spare stack and cannot map one (parking.hpp): then nothing
    // was queued and the caller runs t itself.
    // Throws: std::bad_alloc (nothing queued).
    BOOST_FORCEINLINE bool push_stack_task(task* t)
    {
      if (worker_slot* const own = own_slot())
      {
        // Shortcut, "Spare stack" (doc/index.md ledger): a stack task is queued only while its
        // thread holds a spare stack, so that its wait, which cannot give up, can park. Without
        // one (the system refused the last mapping) each push tries a free stack, then a
        // mapping, until it gets one; meanwhile children run inline.
        if (BOOST_UNLIKELY(!own->home.has_spare()) && !own->home.reserve_stack())
          return false;
        const task_frame* const parent = current_context.frame;
        t->set_tag(stack_bit | ++own->push_seq, parent ? parent->word : 0); // its root and isolation
        t->set_counted(false);
        push_own(*own, t, true);
        return true;
      }
      // A pool thread of another pool waits on its own pool's home: the same shortcut.
      if (const worker_context* const w = current_worker)
      {
        fiber_home& home = static_cast<worker_slot*>(w->slot)->home;
        if (!home.has_spare() && !home.reserve_stack())
          return false;
      }
      t->set_tag(stack_bit, current_root() | current_isolated_bit());
      t->set_counted(true);
      const outside_access guard(this);
      count_one(nullptr);
      try
      {
        push_shared(t, queue_end::front, running_core == this);
        trace(trace_what::submit);
      }
      catch (const sync_queue_is_closed&)
      {
        finish_one(nullptr);
        return false;
      }
      catch (...)
      {
        finish_one(nullptr);
        throw;
      }
      return true;
    }

    // Returns: t if it is the newest task of the calling thread's own deque (then taken);
    // nullptr otherwise. The fast path of a stack task's join: its own child, nobody stole it.
    BOOST_FORCEINLINE task* pop_own_if_newest(const task* t) noexcept
    {
      worker_slot* const own = own_slot();
      return own ? own->deque.pop_if([t](task* x, task_tag) { return x == t; }) : nullptr;
    }

    // Returns: a task that `scope` admits (any task if scope is null), taken from, in order,
    // the caller's own deque if it is our pool thread (its newest task, then a task the scope
    // lists as claimable wherever it sits there), the shared queue (front), the deque of
    // the thread running the stolen stack task the scope waits for (rule (b) of
    // task_frame.hpp), another pool thread's deque (top); nullptr if none was seen. A task
    // that is not admitted stays queued. Of a deque only the end a taker may use is looked at;
    // of the shared queue, where submissions from outside wait in any order (two forks, then a
    // join of the older one), the first BOOST_THREAD_FJ_SHARED_LOOKAHEAD. Never blocks on
    // emptiness.
    task* find_task(const wait_scope* scope = nullptr)
    {
      const auto admits = [scope](task* x, task_tag tag) noexcept { return !scope || scope->admits(x, tag); };
      const int self = worker_index_in(this);
      if (self >= 0)
      {
        chase_lev_deque<task>& own = slots_[static_cast<std::size_t>(self)]->deque;
        if (task* t = own.pop_if(admits))
          return t;
        // An awaited task under newer ones (a join in fork order): taken from where it sits.
        if (scope)
          for (const task* c : scope->claimable)
            if (c)
              if (task* t = own.take_at(c->queued_at(), [c](task* x, task_tag tag) noexcept {
                    return x == c && tag == c->tag();
                  }))
                return t;
      }
      task* t = nullptr;
      // relaxed: only a hint to skip the mutex. Not missing a task here matters only on the
      // way to sleep, and there the waiter's acquire of the epoch in prepare_wait() has
      // synchronized with the pusher's notify, which follows its increment of the hint.
      // Fast path, "shared-queue lookahead" (doc/index.md ledger):
      // a scope looks at the first BOOST_THREAD_FJ_SHARED_LOOKAHEAD tasks only; pool threads,
      // which take the front unconditionally, run what lies beyond.
      // A scope reads each candidate's tag under the queue's lock; without one, the front is
      // taken unread (the task was built by another thread: a cache miss inside the lock that
      // outside submitters wait on).
      if (shared_hint_.load(std::memory_order_relaxed) > 0 &&
          (scope ? shared_.try_pull_first_if(t, BOOST_THREAD_FJ_SHARED_LOOKAHEAD,
                                             [scope](task* const& x) noexcept { return scope->admits(x, x->tag()); })
                 : shared_.try_pull_front(t)) == queue_op_status::success)
      {
        shared_hint_.fetch_sub(1, std::memory_order_relaxed); // relaxed: a hint, see above
        return t;
      }
      if (scope)
        for (const run_record* run : scope->leapfrog)
          if (run && (t = steal_for(*run)))
            return t;
      std::uint64_t failed = 0;
      unsigned victim = 0;
      for_each_victim(thread_count(), self, [&](unsigned v) {
        bool lost_race;
        t = slots_[v]->deque.steal_if(admits, lost_race);
        if (!t)
          ++failed;
        else
        {
          victim = v;
          advertise_rest(*slots_[v]);
        }
        return t != nullptr;
      });
      counters& c = counters_of(self);
      if (failed)
        c.add(c.failed_steals, failed);
      if (t)
      {
        c.add(c.steals, 1);
        trace(trace_what::steal, nullptr, static_cast<std::int32_t>(victim));
      }
      return t;
    }

    // Effects: runs t on the calling thread (ownership taken), then accounts for it.
    // Throws: boost::thread_interrupted if t throws it; any other exception from t calls
    // std::terminate, as for basic_thread_pool (a stack task never throws: it keeps its
    // exception for its parent). isolated: the caller's frame is isolated (task_frame.hpp), so
    // t's frame, above it, is too, whatever frame t was made in.
    void run_task(task* t, bool isolated = false) { run_task_inline(t, isolated); }

    // Effects, Throws: as run_task(t), inlined into the caller. A join's fast path ("own newest
    // child", join_futures.hpp) runs the child through this, so that between the joiner's frame
    // and the task's action there is no frame of ours: every frame a nested level adds is paid
    // once per level when a deep chain returns (doc/benchmark/README.md, "No frame of ours
    // between a joiner and its child": one more frame of 16 bytes per level made
    // a chain of 10^4 levels 1.5 times as slow).
    BOOST_FORCEINLINE void run_task_inline(task* t, bool isolated = false)
    {
      const bool counted = t->counted(); // read first: a stack task may be gone after run()
      frame_scope frame(t->frame_word() | (isolated ? isolated_bit : 0));
      worker_slot* const own = own_slot();
      const outside_access guard(own ? nullptr : this); // the finish below outlasts the task
      struct finish_guard
      {
        pool_core& core;
        worker_slot* own;
        bool counted;
        ~finish_guard()
        {
          if (counted)
            core.finish_one(own);
        }
      } finish{*this, own, counted};
      running_scope running(this);
      count_run();
      const trace_scope span(*this, t->trace_kind()); // before the run, after which t may be gone
      try
      {
        t->run();
      }
      catch (thread_interrupted&)
      {
        throw;
      }
      catch (...)
      {
        std::terminate();
      }
    }

    // Effects: runs one task found by find_task(scope), isolated if `isolated` (run_task).
    // Returns: whether one ran.
    bool try_run_one(const wait_scope* scope = nullptr, bool isolated = false)
    {
      task* t = find_task(scope);
      if (!t)
        return false;
      run_task(t, isolated);
      return true;
    }

    // Returns: the calling thread's slot if it is one of our pool threads, else nullptr.
    BOOST_FORCEINLINE worker_slot* own_slot() const noexcept
    {
      const worker_context* const w = current_worker;
      return (w && w->core == this) ? static_cast<worker_slot*>(w->slot) : nullptr;
    }

    // Accounts a task run inline by its parent (never queued through run_task()).
    BOOST_FORCEINLINE void count_run() noexcept
    {
      worker_slot* const own = own_slot();
      counters& c = own ? own->stats : outside_stats_;
      c.add(c.tasks_run, 1);
    }

    // The life of pool thread `index`: marks the thread as ours, calls on_entry() (the pool's
    // at_thread_entry: its submissions are a worker's), then runs tasks (schedule()), then
    // calls on_exit() (the pool's at_thread_exit), however schedule() ended: still as one of
    // our threads, on its own stack, with no frame parked, after its last task.
    // Returns when the pool is closed and drained.
    // Throws: boost::thread_interrupted when interrupted (in a task or while idle), once no frame
    // of the thread is parked; what on_entry() throws, likewise; what on_exit() throws, in
    // place of either.
    template <class OnEntry, class OnExit>
    void worker_loop(unsigned index, OnEntry&& on_entry, OnExit&& on_exit)
    {
      worker_slot& own = *slots_[index];
      worker_scope scope(this, index, &own);
      own.leaving = false;
      // However the thread leaves (an interruption, at_thread_entry's exception): no credit,
      // no executor record, no cached stack.
      struct leave
      {
        pool_core& core;
        worker_slot& own;
        ~leave()
        {
          core.give_back_credits(own);
          own.recorded_executor.reset();
          own.home.leave();
        }
      } cleanup{*this, own};
      own.home.enter();
      std::exception_ptr entry_error;
      try
      {
        on_entry(); // may fork and join, and so park
      }
      catch (...)
      {
        entry_error = std::current_exception();
        own.leaving = true; // but not before the frames it parked have resumed
      }
      try
      {
        schedule(own, true);
      }
      catch (...)
      {
        on_exit(); // an exception of its own replaces the interruption
        throw;
      }
      on_exit();
      if (entry_error)
        std::rethrow_exception(entry_error);
      if (own.leaving)
        throw thread_interrupted(); // the interruption schedule() took while frames were parked
    }

    // Requires: the calling thread is one of our pool threads, which reserve_stack() found a
    // stack for since its last park; `frame` was registered with what it waits for (waker.hpp),
    // hooked (parked_frame::hook_with) or made polled, as `how` says (not arm_result::done).
    // Effects: parks the calling frame (parking.hpp) and runs schedule() on a fresh fiber until
    // the frame is posted (or, polled, ready; or, polled or hooked and interruptible, the
    // thread is interrupted); returns on the calling thread, with the frame's state restored.
    void park(parked_frame& frame, arm_result how)
    {
      worker_slot* const slot = own_slot();
      if (!slot)
        std::terminate(); // the requirement broken: no frame of this thread could ever resume
      worker_slot& own = *slot;
      if (how == arm_result::polled)
        own.home.add_polled(frame);
      else if (how == arm_result::hooked)
        own.home.add_hooked(frame);
      // relaxed: gauges (see parked_now_).
      const std::uint64_t now = parked_now_.fetch_add(1, std::memory_order_relaxed) + 1;
      std::uint64_t peak = parked_peak_.load(std::memory_order_relaxed);
      while (now > peak && !parked_peak_.compare_exchange_weak(peak, now, std::memory_order_relaxed))
      {
      }
      // relaxed: the owner's own stores.
      const task_tag saved[2] = {own.joining[0].load(std::memory_order_relaxed), own.joining[1].load(std::memory_order_relaxed)};
      own.stats.add(own.stats.frames_parked, 1);
      note_switch(own);
      auto loop = [this, &own] { return schedule(own, false); };
      trace(trace_what::park, &frame); // the last event of this stack until the resume below
      own.home.park(frame, loop);
      parked_now_.fetch_sub(1, std::memory_order_relaxed); // relaxed: a gauge
      trace(trace_what::resume, &frame);
      // release: as join_publication's stores.
      own.joining[0].store(saved[0], std::memory_order_release);
      own.joining[1].store(saved[1], std::memory_order_release);
    }

    // Returns: whether a stack is at hand for the calling pool thread to park on (parking.hpp).
    bool reserve_stack() noexcept { return own_slot()->home.reserve_stack(); }

    // Effects: before the calling pool thread blocks in a wait (an isolated frame's, help.hpp),
    // wakes a sleeper if its deque holds tasks: the owner of hazard 2 (lost wake-ups), which
    // never sleeps with a non-empty deque, does here, so a thief must be told, as after a steal
    // (advertise_rest).
    void advertise_own() noexcept
    {
      if (worker_slot* const own = own_slot())
        advertise_rest(*own);
    }

    // Returns: the calling pool thread's home (parking.hpp). Requires: one of our pool threads.
    fiber_home& home() noexcept { return own_slot()->home; }

    // Returns: the gauges of the pool's parked frames and fiber stacks (a snapshot of moving
    // gauges: relaxed loads, as statistics()).
    fiber_gauges fiber_statistics() const noexcept
    {
      fiber_gauges g;
      g.parked_now = parked_now_.load(std::memory_order_relaxed);
      g.parked_peak = parked_peak_.load(std::memory_order_relaxed);
      g.stacks = stack_gauges_.stacks.load(std::memory_order_relaxed);
      g.bytes = stack_gauges_.bytes.load(std::memory_order_relaxed);
      g.mappings = stack_gauges_.mappings.load(std::memory_order_relaxed);
      return g;
    }

    // Requires: every pool thread has been joined (the pool's destructor).
    // Effects: waits until no thread that is not a pool thread is inside an access to the core
    // that may outlast the task it submitted or ran (outside_access); after that, the core may
    // be freed. Progress: blocks (yields) for at most the tail of such an access.
    void quiesce() const noexcept
    {
      // acquire: pairs with ~outside_access's release: its last access happens before ours.
      while (outside_ops_.load(std::memory_order_acquire) != 0)
        this_thread::yield();
    }

    // Effects: rejects further submissions from outside; wakes every sleeper so that workers
    // can leave once the pool is drained.
    void close()
    {
      shared_.close();
      parking_.notify_all();
    }

    bool closed() const { return shared_.closed(); }

    // Returns: whether no accepted task is queued or running and no pool thread holds task
    // credits (a snapshot): exact once every pool thread sleeps or has left, false while one
    // that holds credits is busy.
    bool drained() const
    {
      // acquire: pairs with the acq_rel decrement in subtract(), so a caller that sees zero
      // also sees everything the finished tasks did.
      return unfinished_.load(std::memory_order_acquire) == 0;
    }

    event_count& parking() noexcept { return parking_; }

    // Returns: the sum of every pool thread's counters and the outside threads' counters.
    counters::snapshot statistics() const noexcept
    {
      counters::snapshot total = outside_stats_.read();
      for (unsigned i = 0, n = thread_count(); i < n; ++i)
      {
        total += slots_[i]->stats.read();
        total.polls += slots_[i]->home.polls();
      }
      return total;
    }

    // ---- Recording a trace (trace.hpp, fork_join_trace.hpp) ----------------------------------
    //
    // Writers and the stop meet through trace_ and a busy count per writer (each pool thread's
    // trace_busy; one shared count, trace_outside_busy_, for the threads that are not ours):
    //  - a writer raises its busy count, then loads trace_ and writes only to the session it
    //    loaded, then lowers the count (trace_write);
    //  - stop_trace() clears trace_, then waits until every busy count is zero.
    // Invariant: once stop_trace() returns, no thread writes the stopped session's lanes and
    // every event written happens before the return. Proof: the raise, the load and the clear
    // are seq_cst. A writer whose raise precedes the clear in their single total order is seen
    // busy by stop_trace()'s later seq_cst loads until its release lowering, which the load that
    // sees zero acquires (every change of a busy count is a read-modify-write, so that load
    // synchronizes with every lowering before it); a writer whose raise follows the clear loads
    // trace_ after it and finds no session, or a later one.
    // Fast path, "trace off" (doc/index.md ledger): when no trace records, an event costs one
    // relaxed load of trace_ and a branch; a stale non-null value only sends the writer to the
    // handshake above, which re-reads trace_; a stale null drops an event of a recording that
    // was starting, which was not under way for that thread yet.

    // Effects: makes s the session that records this pool's events.
    // Throws: std::logic_error if a session already records this pool (s is then not used).
    void start_trace(trace_session* s)
    {
      trace_session* expected = nullptr;
      // seq_cst (a release at least): publishes the session's lanes, built before, to the
      // writers' seq_cst loads.
      if (!trace_.compare_exchange_strong(expected, s, std::memory_order_seq_cst))
        throw std::logic_error("fork_join_trace: a trace already records this pool");
    }

    // Requires: s is the session that records this pool (start_trace(s)).
    // Effects: stops recording; on return no thread writes to s any more (the invariant above).
    // Progress: waits (yielding) for the writes in progress, each a few stores long.
    void stop_trace(trace_session& s) noexcept
    {
      trace_session* expected = &s;
      trace_.compare_exchange_strong(expected, nullptr, std::memory_order_seq_cst); // seq_cst: the clear above
      for (unsigned i = 0, n = thread_count(); i < n; ++i)
        while (slots_[i]->trace_busy.load(std::memory_order_seq_cst) != 0) // seq_cst: see above
          this_thread::yield();
      while (trace_outside_busy_.load(std::memory_order_seq_cst) != 0) // seq_cst: see above
        this_thread::yield();
      s.set_stop(trace_now());
    }

    // Returns: whether a trace may be recording (the hook's test, "trace off" above).
    BOOST_FORCEINLINE bool tracing() const noexcept
    {
      return trace_.load(std::memory_order_relaxed) != nullptr; // relaxed: see "trace off" above
    }

    // Effects: if a trace records this pool, records an event on the calling thread's lane.
    BOOST_FORCEINLINE void trace(trace_what w, const void* p = nullptr, std::int32_t arg = 0) noexcept
    {
      if (BOOST_UNLIKELY(tracing()))
        trace_write(w, trace_span::submit, p, arg, 0);
    }

    // Effects: records the event on the calling thread's lane of the session that records this
    // pool, if any, and if `only` is zero or that session's id.
    // Returns: the id of the session written to; 0 if none (no session, another one, or no
    // outside lane left).
    BOOST_NOINLINE std::uint64_t trace_write(trace_what w, trace_span span, const void* p, std::int32_t arg,
                                             std::uint64_t only) noexcept
    {
      worker_slot* const own = own_slot();
      std::atomic<unsigned>& busy = own ? own->trace_busy : trace_outside_busy_;
      std::uint64_t wrote = 0;
      busy.fetch_add(1, std::memory_order_seq_cst); // seq_cst: the handshake with stop_trace()
      if (trace_session* const session = trace_.load(std::memory_order_seq_cst)) // seq_cst: likewise
        if (only == 0 || session->id() == only)
          if (trace_lane* const lane = own ? &session->pool_lane(own->index) : session->claim_outside_lane())
          {
            // The clock is read after the load that found the session, so after its start
            // (taken before start_trace() published it) and before its stop (taken after
            // stop_trace() saw this writer's busy count fall): every event lies inside the
            // recording. Read before the load, a thread preempted between the two could
            // write an event older than the session's start.
            lane->append(trace_event{trace_now(), p, arg, w, span});
            wrote = session->id();
          }
      busy.fetch_sub(1, std::memory_order_release); // release: the writes above, to stop_trace()
      return wrote;
    }

    // A span on the calling thread's lane for the scope's lifetime, if a trace records this
    // pool when it begins; its end goes to the session its begin went to, or nowhere.
    class trace_scope
    {
    public:
      BOOST_FORCEINLINE trace_scope(pool_core& core, trace_span span) noexcept : core_(core)
      {
        if (BOOST_UNLIKELY(core.tracing()))
          session_ = core.trace_write(trace_what::begin, span, nullptr, 0, 0);
      }
      BOOST_FORCEINLINE ~trace_scope()
      {
        if (BOOST_UNLIKELY(session_ != 0))
          core_.trace_write(trace_what::end, trace_span::submit, nullptr, 0, session_);
      }
      trace_scope(const trace_scope&) = delete;
      trace_scope& operator=(const trace_scope&) = delete;

    private:
      pool_core& core_;
      std::uint64_t session_ = 0;
    };

  private:
    // Marks an access to the core by a thread that is not one of its pool threads (null: none)
    // for the scope's lifetime: a submission, whose notify follows the push, or a task run,
    // whose count follows the task's end. Either may outlast the completion of what it
    // submitted or ran, after which the pool's owner may destroy the pool: Boost's own threads
    // (when_all's, async(launch::async)'s) submit continuations through an executor_adaptor
    // that owns the pool, and the continuation's result may be ready before submit() returns.
    // The pool's destructor therefore waits for these (quiesce()) before it frees the core.
    class outside_access
    {
    public:
      explicit outside_access(pool_core* core) noexcept : core_(core)
      {
        // relaxed: sequenced before the push or the run it guards, which happens before every
        // completion the destructor waits for, so its quiesce() sees this increment.
        if (core_)
          core_->outside_ops_.fetch_add(1, std::memory_order_relaxed);
      }
      ~outside_access()
      {
        if (core_)
          core_->outside_ops_.fetch_sub(1, std::memory_order_release); // release: see quiesce()
      }
      outside_access(const outside_access&) = delete;
      outside_access& operator=(const outside_access&) = delete;

    private:
      pool_core* const core_;
    };

    // Effects: pushes t to the bottom of the caller's own deque and advertises it to sleepers
    // (notify_one_if_waiting: a seq_cst fence and a load), except a stack task pushed onto a
    // deque that already held a task: that deque was advertised when it became non-empty, and
    // the task's parent, on this thread, waits for it only through help_until, which never
    // sleeps on a pool thread: it parks the frame and the thread goes on running its own deque
    // (schedule()). Hazard 2 above (lost wake-ups) has the argument. A hole that a
    // join's take_at left counts as a task here (push's count includes it): a stack task pushed
    // onto a deque of holes is not advertised either, which can cost parallelism, not progress,
    // by the same argument.
    // Fast path, "stack-task wake-up fence" (doc/index.md ledger).
    // Fast path, "pool of one" (doc/index.md ledger): a pool of one thread skips the advertisement
    // altogether. Precondition: only pool threads sleep on parking_ (schedule()), and the one
    // pool thread is the pusher, awake; threads that are not pool threads and help (joins from
    // outside) sleep on what they wait for, never on parking_.
    BOOST_FORCEINLINE void push_own(worker_slot& slot, task* t, bool stack_task = false)
    {
      t->set_queued_at(slot.deque.next_index());
      const std::size_t before = slot.deque.push(t, t->tag());
      slot.stats.raise_peak(before + 1);
      if ((!stack_task || before == 0) && thread_count_ > 1)
        parking_.notify_one_if_waiting();
    }

    void push_shared(task* t, queue_end end, bool force)
    {
      // relaxed: a hint, published with the task by the queue's mutex and the notify below;
      // raised before the push so that it never under-counts a queued task.
      const std::int64_t pending = shared_hint_.fetch_add(1, std::memory_order_relaxed) + 1;
      try
      {
        if (force)
          end == queue_end::front ? shared_.force_push_front(t) : shared_.force_push_back(t);
        else
          end == queue_end::front ? shared_.push_front(t) : shared_.push_back(t);
      }
      catch (...)
      {
        shared_hint_.fetch_sub(1, std::memory_order_relaxed); // relaxed: a hint
        throw;
      }
      outside_stats_.raise_peak(static_cast<std::uint64_t>(pending));
      parking_.notify_one();
    }

    counters& counters_of(int self) noexcept { return self >= 0 ? slots_[static_cast<std::size_t>(self)]->stats : outside_stats_; }

    // Rule (b) of task_frame.hpp: the oldest task of the deque of the thread that runs the
    // awaited task `run` records, if that thread pushed it after it started that task, that
    // task is not done yet, it is a stack task or a heap task the thread is joining, and the
    // thread has not switched stacks since it started the task (parking.hpp: after a switch,
    // what it pushes and joins belongs to another stack, not to frames above the task). The
    // tag is read before the take (chase_lev_deque.hpp), and the push happens before that
    // read; the task's end happens before every push that follows it on that thread, so a
    // task pushed after the end is seen with done() true. last_switch is loaded after the tag
    // and the publication were acquired: a push or a publication made after a switch comes
    // with that switch's store (note_switch).
    // Fast path, "join publication and leapfrogging by tag" (doc/index.md ledger).
    task* steal_for(const run_record& run) noexcept
    {
      // acquire: pairs with the runner's release store in note_runner(), for the other fields.
      const void* const slot = run.runner_slot.load(std::memory_order_acquire);
      if (!slot || run.runner_core != this)
        return nullptr; // not started yet, started by a thread that is not ours, or not a pool thread
      worker_slot& runner = *static_cast<worker_slot*>(const_cast<void*>(slot));
      bool lost_race;
      task* t = runner.deque.steal_if(
          [&run, &runner](task*, task_tag tag) noexcept {
            bool spawned_for_run;
            if (tag_is_stack(tag))
              spawned_for_run = tag_seq(tag) > run.runner_seq;
            else
              // acquire: see above.
              spawned_for_run = tag > run.runner_root && (tag == runner.joining[0].load(std::memory_order_acquire) ||
                                                          tag == runner.joining[1].load(std::memory_order_acquire));
            // relaxed: the steal's acquire of the deque's bottom (for a stack task) or the
            // acquire above (for a publication) makes a switch before the push or publication
            // happen before this load, so coherence gives its value or a later one.
            return spawned_for_run && runner.last_switch.load(std::memory_order_relaxed) <= run.runner_seq && !run.done();
          },
          lost_race);
      if (t)
      {
        counters& c = counters_of(worker_index_in(this));
        c.add(c.steals, 1);
        trace(trace_what::steal, nullptr, static_cast<std::int32_t>(runner.index));
        advertise_rest(runner);
      }
      return t;
    }

    // Effects: after a steal from `victim`, wakes a sleeper if the victim's deque still holds
    // tasks: stack tasks pushed onto a non-empty deque were not advertised (push_own), so the
    // thief that takes the one that was passes the word on. Steals are rare next to pushes, so
    // the fence moves from every push to every steal that leaves work behind.
    void advertise_rest(worker_slot& victim) noexcept
    {
      if (!victim.deque.empty())
        parking_.notify_one_if_waiting();
    }

    // The scheduler loop of pool thread `own`, on its own stack (own_stack) or on a fiber
    // (parking.hpp): runs tasks, resumes the thread's parked frames that were posted (or,
    // polled, are ready) between them, and sleeps when there is nothing to do.
    // Returns: on the own stack, nullptr when the pool is closed and drained, or when the thread
    // is leaving (own.leaving) and no frame of it is parked. On a fiber: the frame to resume when
    // the fiber ends, or nullptr to resume the idle own stack; a fiber never returns otherwise
    // (while it runs, a frame of the thread is parked or the own stack is idle).
    // Throws (own stack only): boost::thread_interrupted when the thread is interrupted with no
    // frame parked; then it leaves as it did before parking existed. With frames parked it
    // cannot (they are parts of accepted tasks, and only it can resume them): it notes that it
    // is leaving, resumes its interruptible polled frames with the interruption, and goes on
    // until the last parked frame has resumed.
    parked_frame* schedule(worker_slot& own, bool own_stack)
    {
      if (!own_stack)
        clear_joining(own); // a fresh stack joins nothing yet
      unsigned poll_sleep_us = 50;
      for (;;)
      {
        if (!own_stack && own.home.idle_main())
        {
          note_switch(own);
          return nullptr;
        }
        if (parked_frame* pf = own.home.take_ready())
        {
          poll_sleep_us = 50;
          note_switch(own);
          if (!own_stack)
            return pf;
          own.home.resume_from_own_stack(*pf);
          clear_joining(own); // back at the top of the own stack
          continue;
        }
        if (own_stack && own.leaving && own.home.parked() == 0)
          return nullptr;
        try
        {
          if (try_run_one())
            continue;
          bool ready = false;
          task* found = nullptr;
          {
            const trace_scope searching(*this, trace_span::search);
            const int rounds = own.home.parked() ? BOOST_THREAD_FJ_PARKED_SPIN_ROUNDS : BOOST_THREAD_FJ_IDLE_SPIN_ROUNDS;
            for (int round = 0; round < rounds && !ready && !found; ++round)
            {
              this_thread::yield();
              ready = own.home.has_ready();
              if (!ready)
                found = find_task();
            }
          }
          if (found)
            run_task(found);
          if (ready || found)
            continue;

          // A thread that sleeps or leaves holds no credit (the invariant above).
          give_back_credits(own);
          const event_count::key_type key = parking_.prepare_wait();
          // After prepare_wait(): a post() that this misses notifies after its push, so its
          // epoch ends the sleep below (parking.hpp, event_count.hpp).
          if (own.home.has_ready())
          {
            parking_.cancel_wait();
            continue;
          }
          if (task* t = find_task())
          {
            parking_.cancel_wait();
            run_task(t);
            continue;
          }
          // closed() reads under the shared queue's mutex, and so do close() and subtract():
          // an accepted outside push made its increment before close() took that mutex, so a
          // zero seen after seeing closed really means drained; and a decrement to zero that
          // this load misses is followed by a closed() that sees true and wakes us (subtract).
          // acquire: pairs with subtract()'s release, for the effects of finished tasks.
          if (own_stack && own.home.parked() == 0 && closed() && unfinished_.load(std::memory_order_acquire) == 0)
          {
            parking_.cancel_wait();
            return nullptr;
          }
          own.stats.add(own.stats.sleeps, 1);
          const trace_scope sleeping(*this, trace_span::sleep);
          if (own.home.polling())
          {
            parking_.commit_wait_for(key, own.home.sleep_us(poll_sleep_us)); // to a timed frame's deadline at most
            own.home.poll_all();
            poll_sleep_us = poll_sleep_us * 2 > BOOST_THREAD_FJ_POLL_SLEEP_MAX_US ? BOOST_THREAD_FJ_POLL_SLEEP_MAX_US : poll_sleep_us * 2;
          }
          else if (own.home.timed())
            parking_.commit_wait_for(key, own.home.sleep_us(~0u)); // until the earliest deadline (parking.hpp)
          else
            parking_.commit_wait(key);
        }
        catch (const thread_interrupted&)
        {
          if (own_stack && own.home.parked() == 0)
            throw;
          own.leaving = true;
          own.home.interrupt_polled();
        }
      }
    }

    // Effects: before each switch between the owner's stacks: advances push_seq past every
    // push so far and publishes it as last_switch (rule (b), steal_for).
    // Fast path, "Switch stamp" (doc/index.md ledger): one stamp per switch stands for the
    // stack each task was pushed from; after a switch, rule (b) admits nothing of the runner's.
    static void note_switch(worker_slot& own) noexcept
    {
      ++own.push_seq;
      // release: orders this store before the owner's later pushes and join publications
      // (release stores too), so a waiter that acquires one of those and then loads
      // last_switch sees this value or a later one (steal_for).
      own.last_switch.store(own.push_seq, std::memory_order_release);
    }

    static void clear_joining(worker_slot& own) noexcept
    {
      own.joining[0].store(0, std::memory_order_release); // release: as join_publication's
      own.joining[1].store(0, std::memory_order_release);
    }

    // post() of a parked frame of one of our pool threads (fiber_home::post_fn), by any thread.
    static void post_parked(void* context, fiber_home& home, parked_frame& frame) noexcept
    {
      pool_core* const core = static_cast<pool_core*>(context);
      // A poster that is not our pool thread keeps the core alive until its notify is done: once
      // the frame is posted, its task may end, and the pool with it.
      const outside_access guard(core->own_slot() ? nullptr : core);
      home.push_posted(frame);
      // All: the frame's own thread must wake, and notify_one could wake another.
      // Fast path, "Posts wake all sleepers" (doc/index.md ledger): no wake-up per thread; the
      // home thread re-checks its posted frames after prepare_wait() (schedule()).
      core->parking_.notify_all();
    }

    // Accounts a counted task about to be queued by the calling thread, whose slot is `own`
    // if it is one of our pool threads (it spends a credit), else nullptr.
    // Fast path, "task credits" (doc/index.md ledger): every credit goes back before its thread sleeps or
    // leaves, however it leaves (worker_loop's leave guard).
    BOOST_FORCEINLINE void count_one(worker_slot* own) noexcept
    {
      if (own && own->credits > 0)
      {
        --own->credits;
        return;
      }
      // relaxed: the queue that publishes the task publishes this increment with it (the
      // deque's release store of bottom, the shared queue's mutex), so whoever takes the task
      // and later gives its credit back or decrements comes after it in the counter's
      // modification order; see also worker_loop().
      const std::int64_t drawn = own ? BOOST_THREAD_FJ_TASK_CREDITS : 1;
      unfinished_.fetch_add(static_cast<std::size_t>(drawn), std::memory_order_relaxed);
      if (own)
        own->credits = drawn - 1;
    }

    // Accounts a counted task that finished (or was never queued) on the calling thread, whose
    // slot is `own` if it is one of our pool threads (it gains a credit), else nullptr.
    BOOST_FORCEINLINE void finish_one(worker_slot* own)
    {
      if (!own)
      {
        subtract(1);
        return;
      }
      if (++own->credits > 2 * BOOST_THREAD_FJ_TASK_CREDITS)
      {
        own->credits -= BOOST_THREAD_FJ_TASK_CREDITS;
        subtract(BOOST_THREAD_FJ_TASK_CREDITS);
      }
    }

    // Effects: gives every credit own holds back to the count.
    void give_back_credits(worker_slot& own) noexcept
    {
      if (own.credits == 0)
        return;
      const std::int64_t n = own.credits;
      own.credits = 0;
      subtract(n);
    }

    void subtract(std::int64_t n) noexcept
    {
      // acq_rel: the finished tasks' effects are released to whoever sees the count reach zero
      // (drained(), worker_loop()). The closed() test below reads under the shared queue's
      // mutex, which orders it against close() and against a worker's exit check.
      if (unfinished_.fetch_sub(static_cast<std::size_t>(n), std::memory_order_acq_rel) == static_cast<std::size_t>(n) &&
          closed())
        parking_.notify_all(); // the last one out wakes every worker waiting to leave
    }

    const unsigned thread_count_;
    // Before slots_: the slots' stack caches count into it until they are gone.
    stack_gauges stack_gauges_;
    // Frames parked now and at most, over the pool's threads. relaxed: gauges that order
    // nothing; a park is already the slow path of a join (nothing to run, spin rounds done).
    alignas(64) std::atomic<std::uint64_t> parked_now_{0};
    std::atomic<std::uint64_t> parked_peak_{0};
    std::unique_ptr<std::unique_ptr<worker_slot>[]> slots_;
    std::atomic<void*> owner_{nullptr};
    std::atomic<trace_session*> trace_{nullptr}; // the recording session, if any (read-mostly)
    locked_deque<task*> shared_;
    alignas(64) std::atomic<std::int64_t> shared_hint_{0}; // >= tasks in shared_
    alignas(64) std::atomic<std::size_t> unfinished_{0};
    counters outside_stats_{counters::shared}; // written by threads that are not workers
    alignas(64) std::atomic<unsigned> outside_ops_{0}; // outside_access scopes in flight
    alignas(64) std::atomic<unsigned> trace_outside_busy_{0}; // outside threads writing a trace
    event_count parking_;
  };

} // namespace fork_join
} // namespace detail
} // namespace boost

#endif // header

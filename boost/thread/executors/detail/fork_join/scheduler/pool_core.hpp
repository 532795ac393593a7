// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// The scheduler behind fork_join_thread_pool, the public face of this layer: it composes
//  - queues.hpp: one deque per pool thread (in its slot, worker_slot.hpp) and the shared
//    queue, and where a push goes;
//  - search.hpp: where a worker or a waiting thread looks for a task, and the take that the
//    admission rule (admission.hpp) filters;
//  - task_count.hpp: the count of unfinished tasks, in per-thread credits;
//  - sleep.hpp: idle sleep and wake-up around one event count;
//  - worker_loop.hpp: the scheduler loop of a pool thread, on its own stack or on a fiber, and
//    the park of a frame (parking.hpp);
//  - shutdown.hpp: close, drain, leave, and the accesses of outside threads the core outlives;
//  - trace_recorder.hpp: the events of a trace session.
// This file adds submission (submit, push_stack_task), the run of a task and its accounting,
// and the glue between those parts.
//
// Threading contract
//  - Any thread submits, helps (try_run_one) and runs tasks; pool threads run worker_loop() and
//    park(); each part's file gives its own contract.
//  - Parking (parking.hpp): a pool thread whose join may run nothing parks the joining frame
//    and runs schedule() on a fresh fiber; each schedule() loop, between tasks, resumes the
//    thread's parked frames that were posted. So no thread ever blocks in a join and none is
//    ever added (the spare threads of ForkJoinPool's compensation, which this design replaced,
//    doc/design.md, "Progress"): the pool runs on exactly thread_count() threads.
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
//  3. Idle workers spin only a bounded number of rounds, then sleep (sleep.hpp).

#ifndef BOOST_THREAD_EXECUTORS_DETAIL_FORK_JOIN_SCHEDULER_POOL_CORE_HPP
#define BOOST_THREAD_EXECUTORS_DETAIL_FORK_JOIN_SCHEDULER_POOL_CORE_HPP

#include <boost/thread/executors/detail/fork_join/base/config.hpp>
#include <boost/thread/executors/detail/fork_join/base/fence.hpp>
#include <boost/thread/executors/detail/fork_join/base/statistics.hpp>
#include <boost/thread/executors/detail/fork_join/fibers/parking.hpp>
#include <boost/thread/executors/detail/fork_join/primitives/stack_bounds.hpp>
#include <boost/thread/executors/detail/fork_join/scheduler/queues.hpp>
#include <boost/thread/executors/detail/fork_join/scheduler/search.hpp>
#include <boost/thread/executors/detail/fork_join/scheduler/shutdown.hpp>
#include <boost/thread/executors/detail/fork_join/scheduler/sleep.hpp>
#include <boost/thread/executors/detail/fork_join/scheduler/task_count.hpp>
#include <boost/thread/executors/detail/fork_join/scheduler/trace_recorder.hpp>
#include <boost/thread/executors/detail/fork_join/scheduler/worker_loop.hpp>
#include <boost/thread/executors/detail/fork_join/scheduler/worker_slot.hpp>
#include <boost/thread/executors/detail/fork_join/tasks/admission.hpp>
#include <boost/thread/executors/detail/fork_join/tasks/task.hpp>
#include <boost/thread/executors/detail/fork_join/tasks/task_frame.hpp>
#include <boost/thread/executors/detail/fork_join/tasks/worker_context.hpp>
#include <boost/thread/executors/detail/fork_join/trace/trace.hpp>
#include <boost/thread/exceptions.hpp>

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <memory>
#include <new>

namespace boost {
namespace detail {
namespace fork_join {

  class pool_core
  {
  public:
    // fiber_stack_size: the size of each stack a pool thread parks onto (fiber_stack.hpp).
    pool_core(unsigned threads, std::size_t fiber_stack_size)
        : queues_(threads, fiber_stack_size, &stack_gauges_, &pool_core::post_parked, this)
    {
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

    // Returns: the number of pool threads, the workers: no thread is ever added.
    unsigned thread_count() const noexcept { return queues_.thread_count(); }

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
      const outside_access guard(own ? nullptr : &outside_);
      count_one(own);
      try
      {
        if (own && end == queue_end::front)
          queues_.push_own(*own, t, sleep_);
        else
          queues_.push_shared(t, end, running_core == this || own, sleep_);
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
    BOOST_FORCEINLINE bool push_stack_task(task* t) { return push_stack_task(own_slot(), t); }

    // Requires: own == own_slot(), which a caller that pushes and joins several stack tasks in
    // one frame looks up once (fast path, "A frame's own slot", doc/design.md, "Fast paths and
    // their assumptions": a frame stays on its thread, parked or not, parking.hpp).
    // Effects, Returns, Throws: as push_stack_task(t).
    BOOST_FORCEINLINE bool push_stack_task(worker_slot* own, task* t)
    {
      BOOST_THREAD_FJ_ASSERT(own == own_slot());
      if (own)
        return push_stack_tasks(own, &t, 1);
      // A pool thread of another pool waits on its own pool's home: the same shortcut.
      if (const worker_context* const w = current_worker)
      {
        fiber_home& home = static_cast<worker_slot*>(w->slot)->home;
        if (!home.has_spare() && !home.reserve_stack())
          return false;
      }
      t->set_tag(stack_bit, current_root() | current_isolated_bit());
      t->set_counted(true);
      t->set_queued_at(-1); // the shared queue
      const outside_access guard(&outside_);
      count_one(nullptr);
      try
      {
        queues_.push_shared(t, queue_end::front, running_core == this, sleep_);
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

    // Requires: own == own_slot() and is not null (a pool thread of this pool); n > 0; ts[i]
    // are stack tasks (stack_task.hpp: made uncounted), none queued yet.
    // Effects: queues the stack tasks ts[0], ..., ts[n - 1] of the caller's frame at once
    // (task_queues::push_own_stack_tasks; ts[n - 1] the newest), uncounted, each as
    // push_stack_task(own, ts[i]) would: parallel_invoke's children look up the frame word
    // and the spare stack, and store the deque's bottom, once for all of them.
    // Returns: false, queuing none, if the caller has no spare stack and cannot map one.
    // Throws: std::bad_alloc (nothing queued).
    BOOST_FORCEINLINE bool push_stack_tasks(worker_slot* own, task* const* ts, std::size_t n)
    {
      BOOST_THREAD_FJ_ASSERT(own && own == own_slot() && n > 0);
      const std::uint64_t first = own->push_seq + 1;
      own->push_seq += n;
      return push_numbered(own, ts, n, first);
    }

    // Requires: own == own_slot() and is not null.
    // Returns: a sequence number of the calling thread's pushes, reserved for a stack task of
    // the calling frame that may be queued later, from a frame above it (push_stack_task_as()).
    // Rule (b) of admission.hpp reads a stack task's number as the moment its parent frame was
    // on top of the stack: the task is admitted to the waiters of a task that the thread started
    // before that moment, which the frame runs above, and not to those of a task started later
    // on top of the frame, which the frame waits for. A number taken at the push instead would
    // admit such a task to the waiters of every task started below the push, the frame's own
    // waits among them: a task block's claimer, queued by a stop hook from the top of the stack
    // (block_state.hpp), would then run the block's children on top of a frame that one of
    // them may wait for.
    BOOST_FORCEINLINE std::uint64_t reserve_push_seq(worker_slot* own) noexcept
    {
      BOOST_THREAD_FJ_ASSERT(own && own == own_slot());
      return ++own->push_seq;
    }

    // Requires: as push_stack_tasks(own, &t, 1); seq came from reserve_push_seq(own) in t's
    // parent frame, on the stack that runs now.
    // Effects, Returns, Throws: as push_stack_tasks(own, &t, 1), with seq as t's number.
    BOOST_FORCEINLINE bool push_stack_task_as(worker_slot* own, task* t, std::uint64_t seq)
    {
      BOOST_THREAD_FJ_ASSERT(own && own == own_slot() && seq <= own->push_seq);
      return push_numbered(own, &t, 1, seq);
    }

    // Effects: doubles the record of calls that keep their children back (at least 64).
    // Returns: false if there was no memory for it (the call then pushes its children).
    BOOST_NOINLINE bool grow_deferred(worker_slot& own) noexcept
    {
      const std::uint32_t capacity = own.deferred_capacity ? 2 * own.deferred_capacity : 64;
      std::unique_ptr<deferred_call[]> larger(new (std::nothrow) deferred_call[capacity]);
      if (!larger)
        return false;
      std::copy(own.deferred.get(), own.deferred.get() + own.deferred_top, larger.get());
      own.deferred = std::move(larger);
      own.deferred_capacity = capacity;
      return true;
    }

    // Requires: own == own_slot() and is not null; n > 0; ts[0], ..., ts[n - 1] are stack
    // tasks of the caller's frame, none queued yet, and the frame does not end before it calls
    // end_deferred().
    // Effects: if the calling thread's deque holds BOOST_THREAD_FJ_DEFER_DEPTH tasks or more,
    // or holds one or more while no thread of the pool looks for work (idle_sleep::seekers),
    // keeps the children back from it: records them (worker_slot::deferred) with the tags
    // push_stack_tasks() would give them now. The caller then runs them itself while
    // kept_back() says so, else joins them (push_deferred() queued them, before a park), and
    // calls end_deferred() before its frame ends. Where it does not keep them back for a
    // seeker, it first queues what the calls below it on the stack keep back
    // (share_kept_back()): the children of the calls nearest the root, for the seeker.
    // Returns: 0 if it did not keep them back (the caller pushes them), else a token for the
    // calls below.
    // Fast path, "Deferred children" (doc/design.md, "Fast paths and their assumptions"):
    // assumes that the other threads do not need the children: they find work enough in the
    // tasks already queued (the threshold's worth, oldest first, as they steal), or none of
    // them looks for work, and one that starts to will be seen at this thread's next call;
    // it costs parallelism where they would be needed before then: few long children kept back
    // by a deque of short tasks, or while no thread looked. No progress depends on it: every
    // wait that stops running this stack queues them first.
    BOOST_FORCEINLINE std::uint32_t defer_stack_tasks(worker_slot* own, task* const* ts, std::size_t n) noexcept
    {
      BOOST_THREAD_FJ_ASSERT(own && own == own_slot() && n > 0);
      if (BOOST_THREAD_FJ_DEFER_DEPTH == 0)
        return 0;
      // Under the threshold, only while no thread looks for work, and never on an empty deque,
      // so that one that starts to look finds a task here at once.
      const std::size_t queued = own->deque.size();
      if (queued < std::size_t(BOOST_THREAD_FJ_DEFER_DEPTH))
      {
        const bool seekers = sleep_.seekers();
        if (queued == 0 || seekers)
        {
          if (seekers && own->deferred_top != 0)
            share_kept_back(own);
          return 0;
        }
      }
      // Not where the stack has no room for the children (stack_bounds.hpp): pushed, their
      // joins park, and the thread runs them on a fresh stack (doc/index.md, "Deep chains").
      // The frame's children all run at this depth of the stack, so one check serves them.
      if (!stack_has_room())
        return 0;
      if (BOOST_UNLIKELY(own->deferred_top == own->deferred_capacity) && !grow_deferred(*own))
        return 0;
      const task_frame* const parent = current_context.frame;
      deferred_call& c = own->deferred[own->deferred_top];
      c.ts = ts;
      c.seq = own->push_seq;
      c.word = parent ? parent->word : 0;
      c.pending = static_cast<std::uint32_t>(n);
      own->push_seq += n; // the sequence numbers are theirs, whenever they are queued
      return ++own->deferred_top;
    }

    // Requires: token came from defer_stack_tasks(own, ...) in the caller's frame, whose
    // end_deferred() has not been called.
    // Returns: whether the call's children are still kept back (push_deferred() has not queued
    // them). The calls of one stack nest, and push_deferred() empties the record of calls: the
    // call's record is the newest exactly while it is there.
    BOOST_FORCEINLINE bool kept_back(const worker_slot* own, std::uint32_t token) const noexcept { return own->deferred_top == token; }

    // Requires: kept_back(own, token). Effects: records that child j runs now: a park meanwhile
    // queues the children before it, 0, ..., j - 1.
    BOOST_FORCEINLINE void mark_running(worker_slot* own, std::uint32_t token, std::size_t j) noexcept
    {
      own->deferred[token - 1].pending = static_cast<std::uint32_t>(j);
    }

    // Requires: as kept_back(own, token); every child of the call has run or was joined, and
    // every call it made ended. Effects: forgets the call if push_deferred() did not.
    BOOST_FORCEINLINE void end_deferred(worker_slot* own, std::uint32_t token) noexcept
    {
      // Invariant: the calls of one stack nest; after a park's push_deferred() the calls made
      // above this one since have ended.
      BOOST_THREAD_FJ_ASSERT(own->deferred_top == token || own->deferred_top == 0);
      if (own->deferred_top == token)
        own->deferred_top = token - 1;
    }

    // Requires: own == own_slot() and is not null.
    // Effects: queues the children that calls on the stack running now keep back
    // (defer_stack_tasks), oldest call first, each call's at once and newest last, with the
    // tags they were given, and forgets the calls, which then join them; called before the
    // stack stops running (a park or an isolated frame's block, help.hpp), and by a join of a
    // stolen child on an empty deque (queue_deferred_if_empty).
    // Queues none if the thread has no spare stack and cannot map one (as push_stack_tasks();
    // a park has just reserved one).
    // Throws: std::bad_alloc if the deque cannot grow to hold them all (nothing queued).
    void push_deferred(worker_slot* own)
    {
      BOOST_THREAD_FJ_ASSERT(own && own == own_slot());
      if (own->deferred_top == 0)
        return;
      if (!own->home.has_spare() && !own->home.reserve_stack())
        return;
      std::size_t all = 0;
      for (std::uint32_t i = 0; i != own->deferred_top; ++i)
        all += own->deferred[i].pending;
      own->deque.reserve(all); // the only step that can fail: before anything is queued
      for (std::uint32_t i = 0; i != own->deferred_top; ++i)
      {
        deferred_call& c = own->deferred[i];
        for (std::uint32_t k = 0; k != c.pending; ++k)
          c.ts[k]->set_tag(stack_bit | (c.seq + 1 + k), c.word);
        if (c.pending != 0)
          queues_.push_own_stack_tasks(*own, c.ts, c.pending, sleep_); // no growth: reserved
      }
      own->deferred_top = 0;
    }

    // Returns: t if it is the newest task of the calling thread's own deque (then taken);
    // nullptr otherwise. The fast path of a stack task's join: its own child, nobody stole it.
    BOOST_FORCEINLINE task* pop_own_if_newest(const task* t) noexcept { return pop_own_if_newest(own_slot(), t); }

    // Requires: own == own_slot() (see push_stack_task(own, t)). Returns: as pop_own_if_newest(t).
    BOOST_FORCEINLINE task* pop_own_if_newest(worker_slot* own, const task* t) noexcept
    {
      BOOST_THREAD_FJ_ASSERT(own == own_slot());
      return own ? own->deque.pop_if([t](task* x, task_tag) { return x == t; }) : nullptr;
    }

    // Returns: as task_search::find (search.hpp).
    task* find_task(const wait_scope* scope = nullptr) { return task_search<pool_core>::find(*this, scope); }

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
      const outside_access guard(own ? nullptr : &outside_); // the finish below outlasts the task
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
      count_run(own);
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

    // Requires: own == own_slot() (see push_stack_task(own, t)).
    // Effects: accounts a task run by the calling thread: by its parent inline, or by
    // run_task_inline().
    BOOST_FORCEINLINE void count_run(worker_slot* own) noexcept
    {
      BOOST_THREAD_FJ_ASSERT(own == own_slot());
      if (own)
        own->stats.owner_add(own->stats.tasks_run, 1);
      else
        queues_.outside_stats().add(queues_.outside_stats().tasks_run, 1);
    }

    // The life of pool thread `index` (scheduler_loop::run, worker_loop.hpp).
    template <class OnEntry, class OnExit>
    void worker_loop(unsigned index, OnEntry&& on_entry, OnExit&& on_exit)
    {
      scheduler_loop<pool_core>::run(*this, index, on_entry, on_exit);
    }

    // Requires, Effects: as scheduler_loop::park (worker_loop.hpp).
    void park(parked_frame& frame, arm_result how)
    {
      worker_slot* const slot = own_slot();
      if (!slot)
        std::terminate(); // the requirement broken: no frame of this thread could ever resume
      scheduler_loop<pool_core>::park(*this, *slot, frame, how);
    }

    // Returns: whether a stack is at hand for the calling pool thread to park on (parking.hpp).
    bool reserve_stack() noexcept { return own_slot()->home.reserve_stack(); }

    // Effects: before the calling pool thread blocks in a wait (an isolated frame's, help.hpp):
    // queues the children its stack keeps back (push_deferred()), then wakes a sleeper if its
    // deque holds tasks: the owner of hazard 2 (lost wake-ups), which never sleeps with a
    // non-empty deque, does here, so a thief must be told, as after a steal (advertise_rest).
    // Throws: std::bad_alloc, from push_deferred() (nothing queued, no one woken), or what
    // run_stop_hooks() throws.
    BOOST_NOINLINE void before_block()
    {
      if (worker_slot* const own = own_slot())
      {
        run_stop_hooks();
        push_deferred(own);
        sleep_.advertise_rest(*own);
      }
    }

    // Effects: run_stop_hooks(), then push_deferred(own_slot()), for a pool thread of this pool
    // (help.hpp, before a park). Throws: as either.
    void push_deferred()
    {
      if (worker_slot* const own = own_slot())
      {
        run_stop_hooks();
        push_deferred(own);
      }
    }

    // Effects: calls the stop hooks of the calling stack (task_frame.hpp), newest first: the
    // task blocks on it queue a task for the children nobody has taken (block_state.hpp).
    // Called where the stack stops running, with push_deferred(): a park, or a block in an
    // isolated frame; and, as a hint for thieves, by queue_deferred_if_empty().
    // Throws: std::bad_alloc or executors::fiber_stack_error, if a hook cannot queue its task
    // (block_state::offer).
    void run_stop_hooks()
    {
      stop_hook* h = current_stop_hooks;
      if (!h)
        return;
      // seq_cst: the hooks read whether a task that their block queued has started; this fence
      // pairs with the one a starting task issues before it looks for the block's children
      // (block_state.hpp, "The queued-task invariant"): of a child that the owner made before
      // this fence and a start that a hook does not see, the start sees the child.
      seq_cst_fence();
      for (; h; h = h->prev)
        h->before_stop(*h);
    }

    // Effects: if the calling thread is a pool thread of this pool and its deque is empty: runs
    // the stop hooks of its stack (the task blocks on it queue a task for the records they
    // keep back, block_state.hpp), then, if calls on its stack keep children back
    // (defer_stack_tasks), push_deferred(own_slot()); a hook or a push that fails for want of
    // memory or of a stack queues nothing (the children stay kept back, and the stack's next
    // stop tries again, which throws there).
    // Called by a join whose child is not at hand, before it waits (wait_for_stack_task,
    // stack_task.hpp). An empty deque there means that thieves took what it held, the child
    // among it. What this thread would push next are the children of its deepest calls, which
    // their parents join soon after: stolen, such a child often still runs then, and its parent
    // steals back what the thief spawned for it. The children kept back belong to calls nearer
    // the root, which join them later. On an empty deque they go in the order of their calls,
    // below anything pushed later, as the calls' own pushes would have put them (push_deferred
    // keeps their tags): doc/design.md, "Deferred children", and doc/benchmark/README.md, "What
    // two threads add on UTS".
    // Throws: nothing.
    void queue_deferred_if_empty() noexcept
    {
      worker_slot* const own = own_slot();
      // size() can only overstate for the owner (a top it read before a thief raised it), never
      // understate: a 0 is an empty deque, and a stale 1 merely leaves the children kept back.
      if (!own || own->deque.size() != 0)
        return;
      share_kept_back(own);
    }

    // Requires: own == own_slot() and is not null.
    // Effects: as queue_deferred_if_empty(), whatever the deque holds; also called by a call
    // that sees a thread look for work (defer_stack_tasks). Out of line: rare, and its
    // handlers would weigh on the calls' frames.
    BOOST_NOINLINE void share_kept_back(worker_slot* own) noexcept
    {
      try
      {
        run_stop_hooks();
      }
      catch (...)
      {
        // std::bad_alloc or executors::fiber_stack_error (block_state::offer): that block's
        // records stay kept back.
      }
      if (own->deferred_top == 0)
        return;
      try
      {
        push_deferred(own);
      }
      catch (const std::bad_alloc&)
      {
        // The deque could not grow: nothing was queued, and the calls run their children.
      }
    }

    // Returns: the idle sleep of the pool's threads (sleep.hpp), where the threads that look
    // for work are counted.
    idle_sleep& idle() noexcept { return sleep_; }

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

    // Requires, Effects: as outside_accesses::quiesce (shutdown.hpp).
    void quiesce() const noexcept { outside_.quiesce(); }

    // Effects: rejects further submissions from outside; wakes every sleeper so that workers
    // can leave once the pool is drained (shutdown.hpp).
    void close()
    {
      queues_.close();
      sleep_.wake_all();
    }

    bool closed() const { return queues_.closed(); }

    // Returns: whether no accepted task is queued or running and no pool thread holds task
    // credits (a snapshot): exact once every pool thread sleeps or has left, false while one
    // that holds credits is busy.
    bool drained() const { return count_.zero(); }

    // Returns: the sum of every pool thread's counters and the outside threads' counters.
    counters::snapshot statistics() const noexcept
    {
      counters::snapshot total = queues_.outside_stats().read();
      for (unsigned i = 0, n = thread_count(); i < n; ++i)
      {
        total += queues_.slot(i).stats.read();
        total.polls += queues_.slot(i).home.polls();
      }
      return total;
    }

    // ---- Recording a trace (trace_recorder.hpp, fork_join_trace.hpp) ------------------------

    // Effects, Throws: as trace_recorder::start.
    void start_trace(trace_session* s) { trace_.start(s); }

    // Requires, Effects: as trace_recorder::stop.
    void stop_trace(trace_session& s) noexcept { trace_.stop(s, queues_); }

    // Returns: whether a trace may be recording (the hook's test, trace_recorder.hpp).
    BOOST_FORCEINLINE bool tracing() const noexcept { return trace_.tracing(); }

    // Effects: if a trace records this pool, records an event on the calling thread's lane.
    BOOST_FORCEINLINE void trace(trace_what w, const void* p = nullptr, std::int32_t arg = 0) noexcept
    {
      if (BOOST_UNLIKELY(tracing()))
        trace_write(w, trace_span::submit, p, arg, 0);
    }

    // Effects, Returns: as trace_recorder::write, for the calling thread.
    BOOST_NOINLINE std::uint64_t trace_write(trace_what w, trace_span span, const void* p, std::int32_t arg,
                                             std::uint64_t only) noexcept
    {
      return trace_.write(own_slot(), w, span, p, arg, only);
    }

    // A span on the calling thread's lane for the scope's lifetime, if a trace records this
    // pool when it begins; its end goes to the session its begin went to, or nowhere.
    class trace_scope
    {
    public:
      BOOST_FORCEINLINE trace_scope(pool_core& core, trace_span span) noexcept : trace_scope(core, span, true) {}
      // The same span if `on`, else none.
      BOOST_FORCEINLINE trace_scope(pool_core& core, trace_span span, bool on) noexcept : core_(core)
      {
        if (BOOST_UNLIKELY(on && core.tracing()))
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
    template <class>
    friend class task_search;
    template <class>
    friend class scheduler_loop;

    // post() of a parked frame of one of our pool threads (fiber_home::post_fn), by any thread.
    static void post_parked(void* context, fiber_home& home, parked_frame& frame) noexcept
    {
      pool_core* const core = static_cast<pool_core*>(context);
      // A poster that is not our pool thread keeps the core alive until its notify is done: once
      // the frame is posted, its task may end, and the pool with it.
      const outside_access guard(core->own_slot() ? nullptr : &core->outside_);
      home.push_posted(frame);
      // All: the frame's own thread must wake, and notify_one could wake another.
      // Fast path, "Posts wake all sleepers" (doc/design.md, "Fast paths and their assumptions"): no wake-up per thread; the
      // home thread re-checks its posted frames after prepare_wait() (schedule()).
      core->sleep_.wake_all();
    }

    // Effects: push_stack_tasks(own, ts, n) with ts[i] numbered first + i.
    BOOST_FORCEINLINE bool push_numbered(worker_slot* own, task* const* ts, std::size_t n, std::uint64_t first)
    {
      // Shortcut, "Spare stack" (doc/design.md, "Fast paths and their assumptions"): a stack
      // task is queued only while its thread holds a spare stack, so that its wait, which
      // cannot give up, can park. Without one (the system refused the last mapping) each push
      // tries a free stack, then a mapping, until it gets one; meanwhile children run inline.
      if (BOOST_UNLIKELY(!own->home.has_spare()) && !own->home.reserve_stack())
        return false;
      const task_frame* const parent = current_context.frame;
      const task_tag word = parent ? parent->word : 0; // their root and isolation
      for (std::size_t i = 0; i != n; ++i)
        ts[i]->set_tag(stack_bit | (first + i), word); // uncounted since made (task::filled_by_push)
      queues_.push_own_stack_tasks(*own, ts, n, sleep_);
      return true;
    }

    // Effects: accounts a counted task about to be queued (task_count::count_one).
    BOOST_FORCEINLINE void count_one(worker_slot* own) noexcept { count_.count_one(own); }

    // Effects: accounts a counted task that finished or was never queued (task_count::finish_one);
    // the finish that takes the count to zero in a closed pool wakes every worker waiting to
    // leave (shutdown.hpp).
    BOOST_FORCEINLINE void finish_one(worker_slot* own)
    {
      if (count_.finish_one(own))
        wake_if_closed();
    }

    // Effects: gives every credit own holds back to the count, as finish_one.
    void give_back_credits(worker_slot& own) noexcept
    {
      if (count_.give_back_credits(own))
        wake_if_closed();
    }

    void wake_if_closed() noexcept
    {
      // closed() reads under the shared queue's mutex, which orders it against close() and
      // against a worker's exit check (worker_loop.hpp).
      if (closed())
        sleep_.wake_all(); // the last one out wakes every worker waiting to leave
    }

    // Before queues_: the slots' stack caches count into it until they are gone.
    stack_gauges stack_gauges_;
    // Frames parked now and at most, over the pool's threads. relaxed: gauges that order
    // nothing; a park is already the slow path of a join (nothing to run, spin rounds done).
    alignas(64) std::atomic<std::uint64_t> parked_now_{0};
    std::atomic<std::uint64_t> parked_peak_{0};
    std::atomic<void*> owner_{nullptr};
    trace_recorder trace_;
    task_count count_;
    outside_accesses outside_;
    idle_sleep sleep_;
    // Last, so destroyed first: its destructor discards leftover tasks while the other parts
    // are still alive.
    task_queues queues_;
  };

} // namespace fork_join
} // namespace detail
} // namespace boost

#endif // header

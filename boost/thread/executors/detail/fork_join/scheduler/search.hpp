// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// Where a thread looks for a task, and the take that the admission rule (admission.hpp)
// filters.
//
// Threading contract
//  - Any thread searches: a pool thread's loop (no scope: takes any task), or a thread that
//    waits (its wait_scope: takes only what the scope admits). A task that is not admitted
//    stays queued: deques and the shared queue check the tag stored with each task, without
//    taking a task the taker may not run.
//  - Order: the caller's own deque if it is our pool thread (its newest task, then a task the
//    scope lists as claimable wherever it sits there), the shared queue (front), the deque of
//    the thread running a stolen task the scope waits for (rule (b)), then the top of a random
//    victim's deque and every other victim after it (victim_selection.hpp).
//  - Never blocks on emptiness. A thief that leaves tasks behind advertises them (sleep.hpp).
//
// task_search::find() is inlined into the core's find_task(): Core is pool_core, a template
// parameter only so that this file need not see its definition.

#ifndef BOOST_THREAD_EXECUTORS_DETAIL_FORK_JOIN_SCHEDULER_SEARCH_HPP
#define BOOST_THREAD_EXECUTORS_DETAIL_FORK_JOIN_SCHEDULER_SEARCH_HPP

#include <boost/thread/executors/detail/fork_join/base/config.hpp>
#include <boost/thread/executors/detail/fork_join/base/statistics.hpp>
#include <boost/thread/executors/detail/fork_join/primitives/chase_lev_deque.hpp>
#include <boost/thread/executors/detail/fork_join/primitives/victim_selection.hpp>
#include <boost/thread/executors/detail/fork_join/scheduler/queues.hpp>
#include <boost/thread/executors/detail/fork_join/scheduler/worker_slot.hpp>
#include <boost/thread/executors/detail/fork_join/tasks/admission.hpp>
#include <boost/thread/executors/detail/fork_join/tasks/task.hpp>
#include <boost/thread/executors/detail/fork_join/tasks/task_frame.hpp>
#include <boost/thread/executors/detail/fork_join/tasks/worker_context.hpp>
#include <boost/thread/executors/detail/fork_join/trace/trace.hpp>

#include <cstddef>
#include <cstdint>

namespace boost {
namespace detail {
namespace fork_join {

  template <class Core>
  class task_search
  {
  public:
    // Returns: a task that `scope` admits (any task if scope is null), taken from, in order,
    // the caller's own deque if it is our pool thread (its newest task, then a task the scope
    // lists as claimable wherever it sits there), the shared queue (front), the deque of
    // the thread running the stolen stack task the scope waits for (rule (b) of
    // admission.hpp), another pool thread's deque (top); nullptr if none was seen. A task
    // that is not admitted stays queued. Of a deque only the end a taker may use is looked at;
    // of the shared queue, where submissions from outside wait in any order (two forks, then a
    // join of the older one), the first BOOST_THREAD_FJ_SHARED_LOOKAHEAD. Never blocks on
    // emptiness.
    BOOST_FORCEINLINE static task* find(Core& core, const wait_scope* scope)
    {
      task_queues& queues = core.queues_;
      const auto admits = [scope](task* x, task_tag tag) noexcept { return !scope || scope->admits(x, tag); };
      const int self = worker_index_in(&core);
      if (self >= 0)
      {
        chase_lev_deque<task>& own = queues.slot(static_cast<std::size_t>(self)).deque;
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
      if (task* t = queues.take_shared(scope))
        return t;
      task* t = nullptr;
      if (scope)
        for (const run_record* run : scope->leapfrog)
          if (run && (t = steal_for(core, *run)))
            return t;
      std::uint64_t failed = 0;
      unsigned victim = 0;
      for_each_victim(queues.thread_count(), self, [&](unsigned v) {
        bool lost_race;
        t = queues.slot(v).deque.steal_if(admits, lost_race);
        if (!t)
          ++failed;
        else
        {
          victim = v;
          core.sleep_.advertise_rest(queues.slot(v));
        }
        return t != nullptr;
      });
      counters& c = queues.counters_of(self);
      if (failed)
        c.add(c.failed_steals, failed);
      if (t)
      {
        c.add(c.steals, 1);
        core.trace(trace_what::steal, nullptr, static_cast<std::int32_t>(victim));
      }
      return t;
    }

  private:
    // Rule (b) of admission.hpp: the oldest task of the deque of the thread that runs the
    // awaited task `run` records, if that thread pushed it after it started that task, that
    // task is not done yet, it is a stack task or a heap task the thread is joining, and the
    // thread has not switched stacks since it started the task (parking.hpp: after a switch,
    // what it pushes and joins belongs to another stack, not to frames above the task). The
    // tag is read before the take (chase_lev_deque.hpp), and the push happens before that
    // read; the task's end happens before every push that follows it on that thread, so a
    // task pushed after the end is seen with done() true. last_switch is loaded after the tag
    // and the publication were acquired: a push or a publication made after a switch comes
    // with that switch's store (note_switch).
    // Fast path, "join publication and leapfrogging by tag" (doc/design.md, "Fast paths and their assumptions").
    static task* steal_for(Core& core, const run_record& run) noexcept
    {
      // acquire: pairs with the runner's release store in note_runner(), for the other fields.
      const void* const slot = run.runner_slot.load(std::memory_order_acquire);
      if (!slot || run.runner_core != &core)
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
        counters& c = core.queues_.counters_of(worker_index_in(&core));
        c.add(c.steals, 1);
        core.trace(trace_what::steal, nullptr, static_cast<std::int32_t>(runner.index));
        core.sleep_.advertise_rest(runner);
      }
      return t;
    }
  };

} // namespace fork_join
} // namespace detail
} // namespace boost

#endif // header

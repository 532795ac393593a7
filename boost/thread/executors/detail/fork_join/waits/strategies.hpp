// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// The kinds of wait that help_until (help.hpp) runs: one type per kind, each saying when the
// wait is over and how a thread waits when it may run nothing.
//
// A wait strategy W has
//   bool W::ready()                          whether the wait is over; called on the waiting
//                                            thread, and on its pool thread for a polled
//                                            parked frame (parking.hpp);
//   void W::block()                          sleeps until ready() would be true (it may return
//                                            earlier: the caller re-checks); called by a thread
//                                            that does not park (not a pool thread, or an
//                                            isolated frame, admission.hpp);
//   arm_result W::arm(parked_frame& frame)   before a pool thread parks the waiting frame:
//                                            registers `frame` (a waker) with what it waits
//                                            for, hooks it or makes it polled, or says that the
//                                            wait is over (arm_result, parking.hpp).
// Threading contract: a strategy lives in the waiting frame and is used by the waiting thread
// only. Each holds references to what the wait is about, which outlive the wait.

#ifndef BOOST_THREAD_EXECUTORS_DETAIL_FORK_JOIN_WAITS_STRATEGIES_HPP
#define BOOST_THREAD_EXECUTORS_DETAIL_FORK_JOIN_WAITS_STRATEGIES_HPP

#include <boost/thread/executors/detail/fork_join/base/config.hpp>
#include <boost/thread/executors/detail/fork_join/fibers/parking.hpp>

namespace boost {
namespace detail {
namespace fork_join {

  // The wait of a frame for one of its stack tasks (invoke/stack_task.hpp, wait_for_stack_task):
  // over when the task is done; blocks in the task's own handshake; a parked frame registers as
  // the task's waker. Task: stack_task, a template parameter because that layer is above this
  // one; it has done(), wait_done() and add_waker(waker&).
  template <class Task>
  class stack_task_wait
  {
  public:
    explicit stack_task_wait(Task& t) noexcept : task_(t) {}

    bool ready() const noexcept { return task_.done(); }
    void block() noexcept { task_.wait_done(); }
    arm_result arm(parked_frame& frame) noexcept { return task_.add_waker(frame) ? arm_result::registered : arm_result::done; }

  private:
    Task& task_;
  };

  // The wait of a join on futures (futures/join_futures.hpp, help_or_wait): ready() asks the
  // futures; block() sleeps until one of them is ready; arm() registers, hooks or polls the
  // frame (future_hook.hpp); check() runs before each sleep or park and may throw (a cycle, or
  // a deferred wait the join must run first).
  template <class Ready, class Block, class Check, class Arm>
  class futures_wait
  {
  public:
    futures_wait(Ready& ready, Block& block, Check& check, Arm& arm) noexcept
        : ready_(ready), block_(block), check_(check), arm_(arm)
    {
    }

    bool ready() { return ready_(); }
    void block()
    {
      check_();
      block_();
    }
    arm_result arm(parked_frame& frame)
    {
      check_();
      return arm_(frame);
    }

  private:
    Ready& ready_;
    Block& block_;
    Check& check_;
    Arm& arm_;
  };

} // namespace fork_join
} // namespace detail
} // namespace boost

#endif // header

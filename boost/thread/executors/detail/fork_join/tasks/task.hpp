// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// The task node: type-erased by a single function pointer. A heap task (task_impl below) is one
// allocation per submitted closure, freed when it has run; a stack task (stack_task.hpp) lives
// in the frame of the parent that joins it. Queues hold `task*` only, so moving a task between
// queues never moves the closure and a queue slot is one word.

#ifndef BOOST_THREAD_EXECUTORS_DETAIL_FORK_JOIN_TASKS_TASK_HPP
#define BOOST_THREAD_EXECUTORS_DETAIL_FORK_JOIN_TASKS_TASK_HPP

#include <boost/thread/executors/detail/fork_join/base/config.hpp>
#include <boost/thread/executors/detail/fork_join/tasks/task_frame.hpp>
#include <boost/thread/executors/detail/fork_join/trace/trace.hpp>

#include <cstdint>
#include <type_traits>
#include <utility>

namespace boost {
namespace detail {
namespace fork_join {

  // Threading contract: a task is owned by exactly one queue or one thread at a time; the queue
  // that hands it out transfers ownership (and the happens-before edge from its push).
  class task
  {
  public:
    task(const task&) = delete;
    task& operator=(const task&) = delete;

    // Runs the closure, then destroys the node (also when the closure throws); a stack task
    // instead marks itself done for its parent.
    void run() { action_(this, true); }

    // Destroys the node without running it: only for a node that was never accepted
    // (its push threw), so no accepted closure is ever dropped.
    void discard() noexcept { action_(this, false); }

    // Whether the pool's count of unfinished tasks includes this one (task_count.hpp). Written
    // by the thread that queues the task, before the push that publishes it.
    bool counted() const noexcept
    {
      BOOST_THREAD_FJ_ASSERT(filled(counted_bit));
      return counted_;
    }
    void set_counted(bool c) noexcept
    {
      counted_ = c;
      fill(counted_bit);
    }

    // Its tag (what waiting threads may take it, admission.hpp) and its frame word: its root
    // (for cycle detection), with isolated_bit if it was made in an isolated frame (its waits
    // then never park, wherever it runs; task_frame.hpp, "Isolation"). Written, like counted(),
    // by the thread that queues the task, before the push that publishes it.
    task_tag tag() const noexcept
    {
      BOOST_THREAD_FJ_ASSERT(filled(tag_bit));
      return tag_;
    }
    task_tag root() const noexcept { return frame_word() & ~isolated_bit; }
    task_tag frame_word() const noexcept
    {
      BOOST_THREAD_FJ_ASSERT(filled(tag_bit));
      return root_;
    }
    void set_tag(task_tag tag, task_tag frame_word) noexcept
    {
      tag_ = tag;
      root_ = frame_word;
      fill(tag_bit);
    }

    // Its index in the deque of the pool thread that pushed it (chase_lev_deque::next_index),
    // or -1 if it went to a shared queue: a join on that thread takes it from there wherever
    // it sits (chase_lev_deque::take_at). Written, like counted(), by the thread that queues the
    // task, before the push that publishes it, and only read by a joiner, which holds the task
    // (its future, or the stack frame it lives in) and got it after that push.
    std::int64_t queued_at() const noexcept
    {
      BOOST_THREAD_FJ_ASSERT(filled(queued_bit));
      return queued_at_;
    }
    void set_queued_at(std::int64_t i) noexcept
    {
      queued_at_ = i;
      fill(queued_bit);
    }

    // How the task was queued, for a trace's spans (trace.hpp). Written before the push that
    // publishes the task, as counted() is; read only by the thread that runs it.
    trace_span trace_kind() const noexcept { return kind_; }
    void set_trace_kind(trace_span k) noexcept { kind_ = k; }

  protected:
    using action_fn = void (*)(task*, bool run);
    explicit task(action_fn action, trace_span kind = trace_span::submit) noexcept
        : action_(action), tag_(0), root_(0), queued_at_(-1), counted_(true), kind_(kind)
    {
    }

    // For a stack task (stack_task.hpp): its tag, frame word and queued index are left for its
    // push to write (pool_core::push_stack_tasks, push_stack_task), which a stack task must pass
    // to reach any reader of them; one that is not queued runs inline, which reads none of
    // them. Uncounted, as a pool thread pushes it (only the push from another thread counts
    // it). Fast path, "A stack task filled by its push" (doc/design.md, "Fast paths and their
    // assumptions"): three stores fewer per parallel_invoke child. Assertion builds check at
    // every read that a push wrote them.
    struct filled_by_push
    {
    };
    task(action_fn action, trace_span kind, filled_by_push) noexcept : action_(action), counted_(false), kind_(kind)
    {
#ifdef BOOST_THREAD_FJ_ENABLE_ASSERT
      filled_ = counted_bit;
#endif
    }
    ~task() = default;

  private:
    action_fn action_;
    task_tag tag_;
    task_tag root_; // the frame word: see set_tag()
    // 8 bytes more per task: a bare node of 40 bytes instead of 32 still takes a 48-byte malloc
    // chunk; with a closure, a node may move up one 16-byte class.
    std::int64_t queued_at_;
    bool counted_;
    trace_span kind_; // in the padding after counted_: the node does not grow
    // After kind_ (and filled_), up to 8 bytes of tail padding, which a derived class's first
    // members may take (the Itanium C++ ABI reuses a non-POD base's tail padding): a stack
    // task's outcome byte sits there.

    // Assertion builds only: which of tag_ and root_, queued_at_ and counted_ were written (by
    // the constructor that writes them all, or by their setters).
    static constexpr unsigned char tag_bit = 1, queued_bit = 2, counted_bit = 4;
#ifdef BOOST_THREAD_FJ_ENABLE_ASSERT
    unsigned char filled_ = tag_bit | queued_bit | counted_bit;
    bool filled(unsigned char bit) const noexcept { return (filled_ & bit) != 0; }
    void fill(unsigned char bit) noexcept { filled_ |= bit; }
#else
    void fill(unsigned char) noexcept {}
#endif
  };

  template <class F>
  class task_impl final : public task
  {
  public:
    template <class G>
    explicit task_impl(G&& g) : task(&task_impl::act), f_(std::forward<G>(g)) {}

  private:
    static void act(task* t, bool run)
    {
      struct deleter
      {
        task_impl* p;
        ~deleter() { delete p; }
      } owner{static_cast<task_impl*>(t)};
      if (run)
        owner.p->f_();
    }

    F f_;
  };

  // Wraps any callable (move-only included) in a task node.
  template <class F>
  task* make_task(F&& f)
  {
    return new task_impl<typename std::decay<F>::type>(std::forward<F>(f));
  }

} // namespace fork_join
} // namespace detail
} // namespace boost

#endif // header

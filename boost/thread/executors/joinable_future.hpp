// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// joinable_future<R>: a boost::future<R> with an executor-aware join().
//
// Outline
//   template <class R> class joinable_future : public boost::future<R> {
//     joinable_future() noexcept;
//     joinable_future(boost::future<R>&& f) noexcept;   // implicit: = boost::async(pool, g)
//     joinable_future(joinable_future&&) noexcept;     // movable, not copyable
//     void join();                                     // helps instead of blocking
//     future_status join_for(const chrono::duration<Rep, Period>& d);   // helps, gives up at now + d
//     future_status join_until(const chrono::time_point<Clock, Duration>& t); // helps, gives up at t
//     R get();                                         // boost::future<R>::get(), lock-free once stored
//   };
//
// is_ready(), then(), wait_for_all() and the rest are boost::future<R>'s, unchanged.

#ifndef BOOST_THREAD_EXECUTORS_JOINABLE_FUTURE_HPP
#define BOOST_THREAD_EXECUTORS_JOINABLE_FUTURE_HPP

#include <boost/thread/executors/detail/fork_join/base/config.hpp>
#include <boost/thread/executors/detail/fork_join/futures/join_forms.hpp>
#include <boost/thread/executors/fork_join_thread_pool.hpp>
#include <boost/chrono/duration.hpp>
#include <boost/chrono/system_clocks.hpp>
#include <boost/chrono/time_point.hpp>
#include <boost/thread/future.hpp>

#include <memory>
#include <type_traits>
#include <utility>

namespace boost {
namespace executors {

  template <class R>
  class joinable_future : public boost::future<R>
  {
    typedef boost::future<R> base_type;

  public:
    // Effects: an invalid future (valid() == false).
    joinable_future() noexcept = default;

    // Effects: takes over f's shared state; join() will help the pool recorded in it, if any,
    // and may run f's task itself if boost::async(pool, ...) made f. Postconditions: !f.valid().
    // The move constructor: takes over o's shared state. Postconditions: !o.valid().
#ifdef BOOST_THREAD_FJ_PUBLIC_API_ONLY
    joinable_future(base_type&& f) noexcept : base_type(boost::move(f)) {}
    joinable_future(joinable_future&& o) noexcept
        : base_type(boost::move(static_cast<base_type&>(o))), keep_(std::move(o.keep_)), task_(std::exchange(o.task_, nullptr)), node_(std::move(o.node_))
    {
    }
#else
    joinable_future(base_type&& f) noexcept
    {
      // Boost's own move copies the reference, then resets it
      detail::fork_join::state_of(*this).swap(detail::fork_join::state_of(f));
      task_ = detail::fork_join::forked_task_of(*this);
    }
    joinable_future(joinable_future&& o) noexcept : keep_(std::move(o.keep_)), task_(std::exchange(o.task_, nullptr))
    {
      detail::fork_join::state_of(*this).swap(detail::fork_join::state_of(o)); // as above: no reference count is touched
    }
#endif

    // Effects: as ~joinable_future(), then takes over o's shared state. Postconditions: !o.valid().
    joinable_future& operator=(joinable_future&& o) noexcept
    {
      if (this != &o)
      {
#ifdef BOOST_THREAD_FJ_PUBLIC_API_ONLY
        base_type::operator=(boost::move(static_cast<base_type&>(o)));
        node_ = std::move(o.node_);
#else
        give_back();
        typename detail::fork_join::forked_result<R>::future_ref mine;
        mine.swap(detail::fork_join::state_of(*this));
        detail::fork_join::state_of(*this).swap(detail::fork_join::state_of(o));
#endif
        keep_ = std::move(o.keep_);
        // A moved-from future forgets the task too: its join() throws future_uninitialized
        // without reading a task its state no longer keeps alive.
        task_ = std::exchange(o.task_, nullptr);
      }
      return *this;
    }

    joinable_future(const joinable_future&) = delete;
    joinable_future& operator=(const joinable_future&) = delete;

    // Effects: as ~boost::future<R>(); the fork state of a task fork() made on the calling thread
    // may go back to the thread for its next fork (detail/fork_join/futures/fork_recycler.hpp).
#ifndef BOOST_THREAD_FJ_PUBLIC_API_ONLY
    ~joinable_future() { give_back(); }
#endif

    // Requires: valid().
    // Effects: returns when the future is ready. Until then the calling thread runs queued
    // tasks, one at a time, of the pool the task was forked onto (else the pool recorded in the
    // shared state, else the caller's own pool), never one that could wait for the caller; with
    // nothing to run, a pool thread parks the frame and runs other tasks on a fresh stack, any
    // other thread sleeps (doc/reference.md). A deferred task is run here.
    // Postconditions: is_ready(); valid() is unchanged, so get() may follow.
    // Synchronization: the completion of the future's task happens before join() returns.
    // Throws: future_uninitialized if !valid(); join_cycle_error if the future's task runs on
    // the calling thread's own stack (it could never be ready); boost::thread_interrupted. The
    // task's own exception is not thrown here; get() throws it.
    // Progress: may run other tasks while waiting; never blocks a worker while work is queued.
    BOOST_FORCEINLINE void join()
    {
#ifndef BOOST_THREAD_FJ_PUBLIC_API_ONLY
      // Checked first: share() empties the state but leaves task_, whose fork state nothing may
      // keep alive any more (the public-API-only build keeps its node; join_one() checks valid()).
      if (!detail::fork_join::state_of(*this))
        boost::throw_exception(future_uninitialized());
#endif
      // The task's scheduler is provably alive if the future holds it or the caller is one of
      // its threads (no reference count is touched); else the one recorded in the state, if any.
      detail::fork_join::pool_core* const core = scheduler();
      if (core && (keep_ || detail::fork_join::is_pool_thread_of(core)))
      {
        detail::fork_join::join_one(core, task_, static_cast<base_type&>(*this));
        return;
      }
      join_on_recorded();
    }

    // Requires: valid().
    // Effects: as join(), until the future is ready or Clock::now() >= t, whichever is first:
    // helps (the deadline is looked at between tasks), then a pool thread parks the frame
    // until the deadline at the latest, any other thread waits with wait_until(t). A deadline
    // already passed only looks; a deferred task is not run (as boost::future<R>::wait_until).
    // Returns: future_status::ready, deferred (a deferred future) or timeout.
    // Synchronization: if it returns ready, the completion of the task happens before it returns.
    // Throws: as join(); fiber_stack_error; std::bad_alloc (a pool thread's timed frames).
    template <class Clock, class Duration>
    future_status join_until(const boost::chrono::time_point<Clock, Duration>& t)
    {
      // A valid state first, as join() checks: share() empties the state but leaves task_.
      const bool has_state = this->valid();
      return detail::fork_join::join_until_helping(has_state ? scheduler() : nullptr, keep_ != nullptr,
                                                   has_state ? task_ : nullptr, static_cast<base_type&>(*this), t);
    }

    // Effects, Returns, Synchronization, Throws: join_until(boost::chrono::steady_clock::now() + d).
    template <class Rep, class Period>
    future_status join_for(const boost::chrono::duration<Rep, Period>& d)
    {
      return join_until(boost::chrono::steady_clock::now() + d);
    }

    // Effects, Returns, Throws, Synchronization: as boost::future<R>::get(); without the shared
    // state's mutex once the result of a task fork() or boost::async(pool, ...) made is stored.
    decltype(std::declval<base_type&>().get()) get()
    {
#ifndef BOOST_THREAD_FJ_PUBLIC_API_ONLY
      if (task_ && detail::fork_join::state_of(*this) && task_->record().stored())
        return detail::fork_join::take_stored<R>(*detail::fork_join::state_of(*this));
#endif
      return base_type::get();
    }

#ifdef BOOST_THREAD_FJ_PUBLIC_API_ONLY
    // Detail: the future of a fork onto pool (detail/fork_join/futures/fork_onto.hpp): the
    // future of the node's promise, and the node (promise_task.hpp).
    joinable_future(base_type&& f, std::shared_ptr<const detail::fork_join::forked_task> node,
                    const std::shared_ptr<detail::fork_join::pool_core>& pool) noexcept
        : base_type(boost::move(f)), task_(node.get()), node_(std::move(node))
    {
      if (!detail::fork_join::is_pool_thread_of(pool.get()))
        keep_ = pool;
    }
#else
    // Detail: the future of a fork onto pool (detail/fork_join/futures/fork_onto.hpp), whose
    // shared state is `shared` and task `task`, one fork state (fork_state.hpp).
    joinable_future(boost::shared_ptr<boost::detail::shared_state<R> > shared, const detail::fork_join::forked_result<R>* task,
                    const std::shared_ptr<detail::fork_join::pool_core>& pool) noexcept
        : task_(task)
    {
      if (!detail::fork_join::is_pool_thread_of(pool.get()))
        keep_ = pool;
      detail::fork_join::state_of(*this) = std::move(shared);
    }
#endif

  private:
    template <class T>
    friend const detail::fork_join::forked_task* detail::fork_join::task_of(const joinable_future<T>&) noexcept;

    // join() helping the executor recorded in the shared state, if any: out of line, so that
    // join()'s frame stays as small as its fast path needs.
    BOOST_NOINLINE void join_on_recorded()
    {
      const std::shared_ptr<detail::fork_join::pool_core> recorded = detail::fork_join::recorded_core(*this);
      detail::fork_join::join_one(recorded.get(), task_, static_cast<base_type&>(*this));
    }

    // The task's scheduler, if forked from outside its threads. Fast path, "no scheduler
    // reference" (doc/design.md, "Fast paths and their assumptions"): a copy per fork would write a line all threads share.
    std::shared_ptr<detail::fork_join::pool_core> keep_;
#ifdef BOOST_THREAD_FJ_PUBLIC_API_ONLY
    // The task of the future, if fork() made it, else null; it moves with the state, node_ keeps it.
    const detail::fork_join::forked_task* task_ = nullptr;
    std::shared_ptr<const detail::fork_join::forked_task> node_;
#else
    // The task in the shared state, if fork() or our boost::async made it, else null; it moves
    // with the state (fast path "cached task lookups").
    const detail::fork_join::forked_result<R>* task_ = nullptr;

    // The fork state of a task fork() or our boost::async made, back to its thread if it can go.
    void give_back() noexcept
    {
      if (task_ && detail::fork_join::state_of(*this))
        task_->offer_back(detail::fork_join::state_of(*this));
    }
#endif

    // The scheduler of the task, if fork() or our boost::async made it; else null.
    detail::fork_join::pool_core* scheduler() const noexcept { return task_ ? task_->scheduler() : nullptr; }
  };

} // namespace executors

namespace detail {
namespace fork_join {
  template <class R>
  const forked_task* task_of(const executors::joinable_future<R>& f) noexcept
  {
    return f.task_;
  }
} // namespace fork_join
} // namespace detail

using executors::joinable_future;
using executors::fiber_stack_error;
using executors::join_cycle_error;

// So that wait_for_all, wait_for_any and our join() accept a joinable_future as a future.
template <class R>
struct is_future_type<executors::joinable_future<R> > : true_type
{
};

} // namespace boost

#endif // header

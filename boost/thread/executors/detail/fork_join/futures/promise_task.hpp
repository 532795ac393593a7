// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// What fork() on a fork_join_thread_pool uses in the public-API-only build
// (BOOST_THREAD_FJ_PUBLIC_API_ONLY, boost_compat.hpp): a task node that holds the closure and a
// boost::promise, and completes the promise through its public interface (set_value,
// set_exception: under the promise's mutex, waking its waiters and launching its
// continuations). Two allocations per fork (the node, which std::make_shared puts with its
// control block, and the promise's shared state), none reused.
//
// Ownership: the joinable_future holds one reference to the node (for join(): the run record
// and the root id); the node holds another, self_, from its submission until it has run or
// been discarded (a task is owned by one queue or one thread at a time, task.hpp).
//
// Completion, in this order: the closure returns (or throws) and is destroyed; the run record
// is marked done (rule (b) stops admitting what the runner pushes next); the promise is
// satisfied; the run record is marked stored (a joiner reads it instead of the future's mutex);
// self_ is released.

#ifndef BOOST_THREAD_EXECUTORS_DETAIL_FORK_JOIN_FUTURES_PROMISE_TASK_HPP
#define BOOST_THREAD_EXECUTORS_DETAIL_FORK_JOIN_FUTURES_PROMISE_TASK_HPP

#include <boost/thread/executors/detail/fork_join/base/config.hpp>
#include <boost/thread/executors/detail/fork_join/base/exception.hpp>
#include <boost/thread/executors/detail/fork_join/futures/forked_task.hpp>
#include <boost/thread/executors/detail/fork_join/scheduler/pool_core.hpp>
#include <boost/thread/executors/detail/fork_join/tasks/waker.hpp>
#include <boost/thread/future.hpp>

#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <tuple>
#include <type_traits>
#include <utility>

namespace boost {
namespace detail {
namespace fork_join {

  template <class R, class Fn, class Bound>
  class promise_task final : public forked_task
  {
    struct make_key
    {
    };

  public:
    // Returns: a new node for fn(bound...), holding its own reference, and the future of its
    // promise.
    // Throws: std::bad_alloc, or what moving fn or bound throws.
    static std::shared_ptr<promise_task> make(Fn&& fn, Bound&& bound, boost::future<R>& future)
    {
      std::shared_ptr<promise_task> p = std::make_shared<promise_task>(make_key(), std::move(fn), std::move(bound));
      future = p->promise_.get_future();
      p->self_ = p;
      return p;
    }

    // Detail: made by make().
    promise_task(make_key, Fn&& fn, Bound&& bound)
        : forked_task(&promise_task::act, trace_span::fork), closure_(std::in_place, std::move(fn), std::move(bound))
    {
    }

  private:
    template <class Self>
    friend void run_or_discard(Self*, bool);
    typedef fork_closure<Fn, Bound> closure;

    static void act(task* t, bool run)
    {
      promise_task* const self = static_cast<promise_task*>(t);
      run_or_discard(self, run);
      // acq_rel: the release pairs with run_record::stored(): the promise was satisfied before
      // (or, if satisfying it failed, never will be, which a joiner cannot tell from is_ready()
      // either); the acquire with add_waker()'s release (waker.hpp), for the wakers it takes.
      const std::uintptr_t waiting = self->run_.result_stored.fetch_or(run_record::stored_bit, std::memory_order_acq_rel);
      {
        std::shared_ptr<promise_task> last = std::move(self->self_); // the node's last access
      }
      post_wakers(waiting);
    }

    void run_and_store()
    {
      // The result between the closure's end and the promise (a reference as a pointer).
      typedef typename std::conditional<std::is_reference<R>::value, std::reference_wrapper<typename std::remove_reference<R>::type>,
                                        R>::type value_type;
      std::optional<typename std::conditional<std::is_void<R>::value, int, value_type>::type> result;
      try
      {
        if constexpr (std::is_void<R>::value)
          std::apply(std::move(closure_->fn), std::move(closure_->bound));
        else
          result.emplace(std::apply(std::move(closure_->fn), std::move(closure_->bound)));
      }
      catch (...)
      {
        closure_.reset();
        end_run();
        store_exception(current_exception_lossless());
        return;
      }
      closure_.reset();
      end_run();
      try
      {
        if constexpr (std::is_void<R>::value)
          promise_.set_value();
        else if constexpr (std::is_reference<R>::value)
          promise_.set_value(result->get());
        else
          promise_.set_value(std::move(*result));
      }
      catch (...)
      {
        // Only lock_error or a continuation's launch can throw here; as in store_exception.
      }
    }


    void store_exception(const boost::exception_ptr& e) noexcept
    {
      try
      {
        promise_.set_exception(e);
      }
      catch (...)
      {
        // Only lock_error or a continuation's launch can throw here; the future then stays
        // unready, which the caller of a failed fork never sees (it holds no future).
      }
    }

    // The closure first: if moving it throws, no promise exists yet, whose destruction unsatisfied
    // would allocate its broken_promise exception inside a destructor.
    std::optional<closure> closure_; // from construction to the end of the run
    boost::promise<R> promise_;
    std::shared_ptr<promise_task> self_;
  };

} // namespace fork_join
} // namespace detail
} // namespace boost

#endif // header

// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// How a parked frame waits for a Boost future that no task of this library completes (from a
// boost::promise, then(), when_all(), boost::async on another executor): it hooks itself to
// the future's shared state, as a continuation, so that the future's completion posts the
// frame (parking.hpp), as a task of this library posts the frames registered with it.
//
// Boost runs the continuations of a shared state when it becomes ready, after its mutex is
// released (shared_state_base::do_continuation calls launch_continuation() on each, from
// mark_finished_internal), whatever made it ready: a value, an exception, a broken promise.
// A future_hook is such a continuation: a shared state of its own (continuations are
// boost::shared_ptr<shared_state_base>) whose launch_continuation() posts the frame. So a
// waiting frame costs no look at all until its future is ready, and one post then.
//
// A hook is not removed from the state's list when its frame stops waiting: an interruption of
// the frame's thread, or the deadline of a timed join, cancels it instead (the frame resumes
// with boost::thread_interrupted, or timed out, parking.hpp); target_ decides which of the post
// and the cancel wins, and the loser does nothing. Cancelled hooks are dropped from the list
// later, in bulk, by the next hook filed (drop_cancelled_hooks). The hook lives while the state
// lists it or the frame holds it, whichever is longer.
//
// This uses Boost.Thread's internals (boost_compat.hpp: the shared state through future_,
// its mutex, done, set_continuation_ptr() and launch_continuation()). In the public-API-only
// build, and where a hook cannot be made (no memory), the frame is polled instead.

#ifndef BOOST_THREAD_EXECUTORS_DETAIL_FORK_JOIN_WAITS_FUTURE_HOOK_HPP
#define BOOST_THREAD_EXECUTORS_DETAIL_FORK_JOIN_WAITS_FUTURE_HOOK_HPP

#include <boost/thread/executors/detail/fork_join/base/config.hpp>
#include <boost/thread/executors/detail/fork_join/base/boost_compat.hpp>
#include <boost/thread/executors/detail/fork_join/fibers/parking.hpp>
#include <boost/thread/executors/detail/fork_join/tasks/waker.hpp>
#include <boost/make_shared.hpp>
#include <boost/thread/future.hpp>

#include <algorithm>
#include <atomic>
#include <cstddef>

namespace boost {
namespace detail {
namespace fork_join {

#ifndef BOOST_THREAD_FJ_PUBLIC_API_ONLY
  class future_hook final : public boost::detail::shared_state<void>, public cancellable
  {
  public:
    explicit future_hook(waker& w) : target_(&w) {}

    // Called by Boost once the state it hooks is ready (any thread, the state's mutex not held).
    void launch_continuation() override
    {
      // relaxed: the exchange decides alone who owns the post (one read-modify-write order);
      // the frame reads what it waits for through the state's mutex, and the post orders the
      // rest (push_posted's release, take_posted's acquire).
      if (waker* const w = target_.exchange(nullptr, std::memory_order_relaxed))
        w->post();
    }

    bool cancel() noexcept override { return target_.exchange(nullptr, std::memory_order_relaxed) != nullptr; } // relaxed: as above

    // Returns: whether the hook was cancelled. Requires: the state's mutex held and the state
    // not done (so no launch has nulled target_: null means cancelled). relaxed: the cancel's
    // exchange is the hook's last write, and it is only dropped from the list.
    bool cancelled() const noexcept { return target_.load(std::memory_order_relaxed) == nullptr; }

  private:
    std::atomic<waker*> target_;
  };
#endif

#ifndef BOOST_THREAD_FJ_PUBLIC_API_ONLY
  // Effects: drops the cancelled hooks from a state's continuations when their number reaches a
  // power of two (16 or more) and at least half of them are cancelled hooks; so a future that
  // many timed joins gave up on keeps O(live continuations) of them, at O(1) amortized per
  // hook: after a drop at 2^k, at least 2^(k-1) hooks are filed before the next look.
  // Requires: the state's mutex held, the state not done.
  template <class Continuations>
  void drop_cancelled_hooks(Continuations& c)
  {
    const std::size_t n = c.size();
    if (n < 16 || (n & (n - 1)) != 0)
      return;
    auto is_cancelled = [](const typename Continuations::value_type& p) {
      const future_hook* const h = dynamic_cast<const future_hook*>(p.get());
      return h && h->cancelled();
    };
    std::size_t dead = 0;
    for (const auto& p : c)
      dead += is_cancelled(p) ? 1u : 0u;
    if (2 * dead >= n)
      c.erase(std::remove_if(c.begin(), c.end(), is_cancelled), c.end());
  }
#endif

  // Effects: for a pool thread's frame about to park on f (valid, not deferred): hooks the
  // frame to f's shared state (see above); for a frame that waits for a task of this library,
  // a timed join's, which must be able to give up.
  // Returns: arm_result::done if f is ready; arm_result::hooked if hooked; arm_result::polled
  // if no hook could be made (public-API-only build, or no memory).
  template <class Future>
  arm_result hook_future(Future& f, parked_frame& pf) noexcept
  {
#ifdef BOOST_THREAD_FJ_PUBLIC_API_ONLY
    (void)f;
    (void)pf;
    return arm_result::polled;
#else
    try
    {
      const boost::shared_ptr<future_hook> hook = boost::make_shared<future_hook>(static_cast<waker&>(pf));
      boost::detail::shared_state_base& state = *state_of(f);
      boost::unique_lock<boost::mutex> lk(state.mutex);
      if (state.done)
        return arm_result::done;
      drop_cancelled_hooks(state.continuations);
      state.set_continuation_ptr(hook, lk); // not done: only files the hook
      pf.hook_with(*hook, hook);
      return arm_result::hooked;
    }
    catch (...)
    {
      return arm_result::polled;
    }
#endif
  }

} // namespace fork_join
} // namespace detail
} // namespace boost

#endif // header

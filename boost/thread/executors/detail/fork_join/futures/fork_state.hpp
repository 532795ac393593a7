// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// What fork() on a fork_join_thread_pool uses: a fork state, one allocation that is at once the
// future's shared state (derived from Boost's, as boost::async's own states are), the queued
// task node, the closure with its bound arguments, and the run record a joiner leapfrogs with
// (task_frame.hpp, rule (b)). A promise, a separate task node and a separate control block would
// cost three allocations; a new fork state costs one (boost::allocate_shared, from the thread's
// state cache, state_cache.hpp), and a fork in a steady state none: the forking thread reuses
// the states of its finished forks (fork_recycler.hpp), control block and Boost mutex included.
//
// Ownership: the future holds one reference; the state holds another, self_, for the thread
// that owns it, which also keeps it alive from the submission until the task has run or been
// discarded (a task is owned by one queue or one thread at a time, task.hpp). So the record
// outlives the run for every joiner that holds the future, and the closure's frame never
// outlives the state.
//
// Completion, in this order: the closure returns (or throws) and is destroyed; the run record
// is marked done (rule (b) stops admitting what the runner pushes next); the result or
// exception is stored in the shared state, which wakes its Boost waiters and launches its
// continuations if any came (finish: "unwatched completion"); the run record is marked
// stored, which a joiner reads instead of taking the shared state's mutex, and after which the
// state may be reused.

#ifndef BOOST_THREAD_EXECUTORS_DETAIL_FORK_JOIN_FUTURES_FORK_STATE_HPP
#define BOOST_THREAD_EXECUTORS_DETAIL_FORK_JOIN_FUTURES_FORK_STATE_HPP

#ifdef BOOST_THREAD_FJ_PUBLIC_API_ONLY
#error "Boost.Thread fork/join executor: fork_state.hpp derives from Boost.Thread's shared state, which BOOST_THREAD_FJ_PUBLIC_API_ONLY excludes (use promise_task.hpp)"
#endif

#include <boost/thread/executors/detail/fork_join/base/config.hpp>
#include <boost/thread/executors/detail/fork_join/futures/state_cache.hpp>
#include <boost/thread/executors/detail/fork_join/base/boost_compat.hpp>
#include <boost/thread/executors/detail/fork_join/base/exception.hpp>
#include <boost/thread/executors/detail/fork_join/futures/fork_recycler.hpp>
#include <boost/thread/executors/detail/fork_join/futures/forked_task.hpp>
#include <boost/thread/executors/detail/fork_join/scheduler/pool_core.hpp>
#include <boost/thread/executors/detail/fork_join/tasks/task.hpp>
#include <boost/thread/executors/detail/fork_join/tasks/task_frame.hpp>
#include <boost/thread/executors/detail/fork_join/tasks/waker.hpp>
#include <boost/thread/executors/detail/fork_join/tasks/worker_context.hpp>
#include <boost/thread/future.hpp>
#include <boost/make_shared.hpp>
#include <boost/shared_ptr.hpp>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <new>
#include <optional>
#include <tuple>
#include <type_traits>
#include <typeinfo>
#include <utility>

#ifdef BOOST_THREAD_FJ_TSAN
#include <sanitizer/tsan_interface.h>
#endif

namespace boost {
namespace detail {
namespace fork_join {

  // A forked task whose future has result R: what joinable_future<R> hands its reference back
  // to, typed (the state's type also depends on the closure's).
  template <class R>
  class forked_result : public forked_task
  {
  public:
    typedef boost::shared_ptr<boost::detail::shared_state<R> > future_ref;

    // Requires: future is the reference to this fork state, as a shared state, that a future
    // about to be destroyed holds.
    // Effects: if the calling thread forked the task, the result is stored and no other
    // reference to the state exists, the reference goes back to the state, which is idle
    // again (fork_recycler.hpp); else nothing (the future's destruction releases it).
    void offer_back(future_ref& future) const noexcept { offer_(this, future); }

  protected:
    using offer_fn = void (*)(const forked_result*, future_ref&) noexcept;
    forked_result(action_fn action, offer_fn offer) noexcept : forked_task(action, trace_span::fork), offer_(offer) {}
    ~forked_result() = default;

  private:
    offer_fn offer_;
  };

  // Returns: the task behind the shared state of the future f (result R) if fork() or our
  // boost::async made it, else nullptr (also for an invalid future). A join that holds a
  // plain boost::future finds it this way, so that boost::async(pool, f) futures are joined as
  // forks.
  // Fast path, "cast cache" (doc/design.md, "Fast paths and their assumptions"): the cast from Boost's shared state to our task
  // part is a cross-cast, which searches the state's class hierarchy and compares type names
  // (a fifth of a boost::async + join on fib). Each thread remembers, per R, the dynamic type it
  // cast last and where that type's task part sits (or that it has none), and a state of that
  // type is answered from the cache with a load of its type_info. Precondition: every object of
  // one dynamic type has its forked_result<R> part at the same offset from its shared_state<R>
  // part (a complete type has one layout; neither base is virtual), and a type_info object
  // stands for one type only (two for one type, as across shared libraries, cost a miss; a
  // library unloaded after its futures were joined could leave an address that a type of
  // another library takes: the manual's ledger names this case).
  template <class R>
  const forked_result<R>* forked_task_of(const boost::detail::basic_future<R>& f) noexcept
  {
    const boost::detail::shared_state<R>* const s = state_of(f).get();
    if (!s)
      return nullptr;
    struct last_cast
    {
      const std::type_info* type; // null: none yet
      std::ptrdiff_t offset;      // of the task part from s; -1: the type has none
    };
    thread_local last_cast last = {nullptr, -1};
    const std::type_info& type = typeid(*s);
    const char* const bytes = reinterpret_cast<const char*>(s);
    if (&type == last.type)
      return last.offset < 0 ? nullptr : std::launder(reinterpret_cast<const forked_result<R>*>(bytes + last.offset));
    const forked_result<R>* const t = dynamic_cast<const forked_result<R>*>(s);
    last.type = &type;
    last.offset = t ? reinterpret_cast<const char*>(t) - bytes : -1;
    return t;
  }

  template <class R, class Fn, class Bound>
  class fork_state final : public boost::detail::shared_state<R>, public forked_result<R>
  {
    static_assert(compat::result_guard<R>::value);

  public:
    typedef typename forked_result<R>::future_ref future_ref;

    // Returns: a state for a fork of fn(bound...): from the calling thread's recycler if it has
    // one (fork_recycler.hpp); else a new one, freed when its run and its futures are over. Its
    // future's reference is future_reference(). `plain_future`: that reference goes to a plain
    // boost::future (our boost::async), which cannot give the state back when it ends; the
    // recycler stacks the state to find it when it has ended (take_back_stacked).
    // Throws: std::bad_alloc, or what moving fn or bound throws.
    static fork_state* take(Fn&& fn, Bound&& bound, bool plain_future = false)
    {
      const trace_span kind = plain_future ? trace_span::async : trace_span::fork;
      if (fork_recycler<fork_state>* r = fork_recycler<fork_state>::of_this_thread())
      {
        fork_state* const s = r->take(plain_future, std::move(fn), std::move(bound));
        s->set_trace_kind(kind); // a state serves forks and asyncs alike
        return s;
      }
      fork_state* const s = make_state(recycler_id());
      s->set_trace_kind(kind);
      // relaxed: not yet shared; the runner, whose fetch_or sees it, releases self_.
      s->run_.result_stored.store(run_record::orphaned_bit, std::memory_order_relaxed);
      try
      {
        s->arm(std::move(fn), std::move(bound));
      }
      catch (...)
      {
        s->spare_.reset();
        boost::shared_ptr<fork_state> last = std::move(s->self_);
        throw;
      }
      return s;
    }

    // Requires: called once per take(), before the task is queued.
    // Returns: the reference the future holds (moved out of the state).
    future_ref future_reference() noexcept { return std::move(spare_); }

    // Fast path, "never deferred" (doc/design.md, "Fast paths and their assumptions"): a fork's state is never deferred, so this is
    // answered without the mutex Boost's own version takes.
    bool run_if_is_deferred() override { return false; }

    // Detail: made by boost::allocate_shared (make_state); owner: the recycler's id, or a
    // default one for none.
    explicit fork_state(const recycler_id& owner) : forked_result<R>(&fork_state::act, &fork_state::offer), owner_(owner) {}

  private:
    friend class fork_recycler<fork_state>;
    template <class Self>
    friend void run_or_discard(Self*, bool);

    typedef fork_closure<Fn, Bound> closure;

    // Returns: a new idle state, holding its two references (fork_recycler.hpp).
    // Throws: std::bad_alloc.
    static fork_state* make_state(const recycler_id& owner)
    {
      // Made before the first state it would stand in for: a reused state was made here, so
      // the path of every fork in a steady state need not ask (a call with a guard, per fork).
      unrun_task_exception();
      boost::shared_ptr<fork_state> p = boost::allocate_shared<fork_state>(cached_allocator<fork_state>(), owner);
      fork_state* const s = p.get();
      s->callback = watch{s}; // kept for the state's life (make_idle leaves it)
      s->self_ = p;
      s->spare_ = std::move(p);
      return s;
    }

    void arm(Fn&& fn, Bound&& bound) { closure_.emplace(std::move(fn), std::move(bound)); }

    // Requires: the state's owner thread, the run over, no reference but self_ and spare_.
    // Effects: the state as a new one (the closure was destroyed after its run).
    void make_idle() noexcept
    {
      // Boost's shared state, field by field as its constructor sets it (boost/thread/future.hpp);
      // boost_compat.hpp fails the build if Boost adds a field this list would miss.
      BOOST_THREAD_FJ_ASSERT(this->external_waiters.empty() && this->continuations.empty());
      this->exception = boost::exception_ptr();
      this->done = false;
      this->is_valid_ = true;
      this->is_deferred_ = false;
      this->is_constructed = false;
      this->policy_ = boost::launch::none;
      this->ex_.reset();
      // callback: the state's watch, set once (make_state); relaxed: as the stores below.
      watched_.store(false, std::memory_order_relaxed);
      if constexpr (!std::is_void<R>::value)
        this->result = decltype(this->result)();
      // relaxed: the next publication of the state is its push, which orders these.
      this->run_.state.store(run_record::pending, std::memory_order_relaxed);
      this->run_.result_stored.store(0, std::memory_order_relaxed);
      this->run_.runner_slot.store(nullptr, std::memory_order_relaxed);
      this->scheduler_ = nullptr;
#ifdef BOOST_THREAD_FJ_TSAN
      // A new state's mutex is a new mutex to ThreadSanitizer: forget the lock orders of the
      // state's past uses, which Boost's wait_for_any (boost::lock, deadlock-free by its
      // back-off) would otherwise join into cycles across unrelated futures.
      __tsan_mutex_destroy(&this->mutex, 0);
      __tsan_mutex_create(&this->mutex, 0);
#endif
    }

    static void act(task* t, bool run)
    {
      fork_state* const self = static_cast<fork_state*>(t);
      run_or_discard(self, run);
      // acq_rel: the release pairs with run_record::stored() (the shared state is ready, or, if
      // storing failed, never will be, which a joiner cannot tell from is_ready() either) and
      // with the recycler's reuse; the acquire with its owner's orphaning fetch_or and with
      // add_waker()'s release (waker.hpp), for the wakers it takes in the same step. The last
      // access to the state, unless it is orphaned: then this releases its owner's reference.
      const std::uintptr_t old = self->run_.result_stored.fetch_or(run_record::stored_bit, std::memory_order_acq_rel);
      if (old & run_record::orphaned_bit)
        boost::shared_ptr<fork_state> last = std::move(self->self_);
      post_wakers(old); // touches the wakers only: the state may be reused or gone
    }

    // offer_back() for this type. Fast path, "state give-back" (doc/design.md, "Fast paths and their assumptions"): skips building a
    // new state; precondition: the forking thread, stored(), and no reference but this future
    // and self_ (every other holder of the state holds a reference of its own).
    static void offer(const forked_result<R>* t, future_ref& future) noexcept
    {
      fork_state* const self = const_cast<fork_state*>(static_cast<const fork_state*>(t));
      fork_recycler<fork_state>* const r = fork_recycler<fork_state>::existing();
      // use_count() (Boost's acquire load) == 2: the future and self_, no other reference; it
      // follows stored() so that a reference released by the run's continuations is counted.
      if (r && r->id() == self->owner_ && self->run_.stored() && future.use_count() == 2)
        r->give_back(self, future);
    }

    void run_and_store()
    {
      try
      {
        if constexpr (std::is_void<R>::value)
        {
          std::apply(std::move(closure_->fn), std::move(closure_->bound));
          closure_.reset();
          this->end_run();
          finish();
        }
        else
        {
          R r = std::apply(std::move(closure_->fn), std::move(closure_->bound));
          closure_.reset();
          this->end_run();
          finish(std::forward<R>(r)); // moves a value, passes a reference
        }
      }
      catch (...)
      {
        closure_.reset(); // a second call is harmless
        this->end_run();        // so is this one
        store_exception(current_exception_lossless());
      }
    }


    // What a Boost wait calls first (the shared state's callback; see finish()).
    struct watch
    {
      fork_state* self;
      // relaxed: the waiter then locks the state's mutex, which finish() holds when it reads.
      void operator()() const noexcept { self->watched_.store(true, std::memory_order_relaxed); }
    };

    // A continuation attached by then() (or unwrap) marks the state watched, under the mutex.
    void set_continuation_ptr(typename boost::detail::shared_state_base::continuation_ptr_type c,
                              boost::unique_lock<boost::mutex>& lock) override
    {
      watched_.store(true, std::memory_order_relaxed); // read by finish() under the same mutex
      boost::detail::shared_state<R>::set_continuation_ptr(std::move(c), lock);
    }

    // Effects: stores the result (none for void) and marks the state done, under its mutex, as
    // Boost's mark_finished_with_result does; the waiters, external waiters and continuations
    // are woken or launched only if the state is watched.
    // Fast path, "unwatched completion" (doc/design.md, "Fast paths and their assumptions"): skips the condition variable's
    // notify (its own mutex and a broadcast), the walk of the external waiters and the
    // continuations' check. Precondition: every thread that waits on the state's condition
    // variable, registers an external waiter (wait_for_any) or attaches a continuation set
    // watched_ before it locks the mutex to look at `done`: Boost's waits and
    // notify_when_ready() call the state's callback (do_callback: `watch`, with the mutex
    // released) before they look, and then() reaches set_continuation_ptr(), virtual, under
    // it. Either finish()'s critical section comes first, and the waiter, after its callback,
    // sees done; or the waiter's does, and its store happens before finish() locks the mutex.
    template <class... V>
    void finish(V&&... v)
    {
      boost::unique_lock<boost::mutex> lk(this->mutex);
      // relaxed: the mutex orders it against every mark that must be seen (the precondition).
      if (watched_.load(std::memory_order_relaxed))
      {
        this->mark_finished_with_result_internal(std::forward<V>(v)..., lk);
        return;
      }
      if constexpr (std::is_reference<R>::value)
        this->result = std::addressof(v...);
      else if constexpr (!std::is_void<R>::value)
      {
        if constexpr (std::is_same<compat::storage_of<R>, boost::optional<R> >::value)
          this->result.emplace(std::forward<V>(v)...);
        else
          this->result.reset(new R(std::forward<V>(v)...)); // csbl::unique_ptr, as Boost does
      }
      this->done = true;
    }

    void store_exception(const boost::exception_ptr& e) noexcept
    {
      try
      {
        boost::unique_lock<boost::mutex> lk(this->mutex);
        if (!this->done)
          this->mark_exceptional_finish_internal(e, lk);
      }
      catch (...)
      {
        // Only lock_error or a continuation's launch can throw here; the future then stays
        // unready, which the caller of a failed fork never sees (it holds no future).
      }
    }

    const recycler_id owner_;
    boost::shared_ptr<fork_state> self_; // the owner's reference (fork_recycler.hpp)
    future_ref spare_;                   // the next future's reference, while idle
    std::size_t index_ = 0;              // in the owner's list of states
    std::optional<closure> closure_;     // from arm() to the end of the run
    // Whether a Boost waiter or a continuation may need finish() to wake it (watch,
    // set_continuation_ptr); false again when the state is reused.
    std::atomic<bool> watched_{false};
  };

  // Fast path, "lock-free get()" (doc/design.md, "Fast paths and their assumptions").
  // Requires: s is the shared state of a fork (fork_state above) whose record says stored(),
  // and only the thread that owns the unique future calls this (so is_valid_, which only the
  // owner's get() writes, needs no lock; done, the result and the exception were written
  // before the record's release store that stored() acquired).
  // Effects, Returns, Throws: as boost::future<R>::get(), without taking the state's mutex.
  template <class R>
  typename boost::detail::shared_state<R>::move_dest_type take_stored(boost::detail::shared_state<R>& s)
  {
    if (!s.is_valid_)
      boost::throw_exception(future_uninitialized());
#ifdef BOOST_THREAD_PROVIDES_FUTURE_INVALID_AFTER_GET
    s.is_valid_ = false;
#endif
    if (s.exception)
      boost::rethrow_exception(s.exception);
    if constexpr (std::is_reference<R>::value)
      return *s.result;
    else if constexpr (!std::is_void<R>::value)
      return boost::move(*s.result);
  }

} // namespace fork_join
} // namespace detail
} // namespace boost

#endif // header

// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// fork_join_thread_pool, a drop-in replacement for basic_thread_pool whose waits help
// (doc/migration.md lists the differences); isolate(f); the default pool; the executor_ref
// Boost records for the pool; boost::async(pool, f, args...) as a fork. doc/reference.md has
// each contract in full; detail/fork_join/pool/ has the machinery.

#ifndef BOOST_THREAD_EXECUTORS_FORK_JOIN_THREAD_POOL_HPP
#define BOOST_THREAD_EXECUTORS_FORK_JOIN_THREAD_POOL_HPP

#include <boost/thread/executors/detail/fork_join/base/config.hpp>
#include <boost/thread/executors/detail/fork_join/futures/pool_executor_ref.hpp>
#ifndef BOOST_THREAD_FJ_PUBLIC_API_ONLY
#include <boost/thread/executors/detail/fork_join/futures/async_as_fork.hpp>
#endif
#include <boost/thread/executors/detail/fork_join/pool/calling_thread.hpp>
#include <boost/thread/executors/detail/fork_join/pool/default_pool.hpp>
#include <boost/thread/executors/detail/fork_join/pool/pool_statistics.hpp>
#include <boost/thread/executors/detail/fork_join/pool/pool_threads.hpp>
#include <boost/thread/executors/detail/fork_join/tasks/task.hpp>
#include <boost/thread/executors/detail/fork_join/tasks/task_frame.hpp>
#include <boost/thread/executors/generic_executor_ref.hpp>
#include <boost/thread/future.hpp>
#include <boost/thread/thread.hpp>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <type_traits>
#include <utility>

#include <boost/config/abi_prefix.hpp>

namespace boost {
namespace executors {

  // Counters of a fork_join_thread_pool since its construction (statistics()); the last five
  // are gauges: their values at the call.
  struct fork_join_statistics
  {
    std::uint64_t tasks_run = 0;     // closures and tasks run, queued or inline children alike
    std::uint64_t steals = 0;        // tasks taken from another worker's deque
    std::uint64_t failed_steals = 0; // looks at another worker's deque that found nothing
    std::uint64_t sleeps = 0;        // times a worker slept for lack of work (or polled a frame)
    std::uint64_t frames_parked = 0; // joins on pool threads that parked their frame to wait
    std::uint64_t polls = 0;         // checks of a parked frame's future that nothing could hook
    std::uint64_t peak_pending = 0;  // sum of each queue's peak length (an upper bound)
    std::uint64_t spare_threads = 0; // always 0: a join parks instead of blocking its thread
    std::uint64_t frames_parked_now = 0;    // frames parked at this moment
    std::uint64_t frames_parked_peak = 0;   // frames parked at once, at most, since construction
    std::uint64_t fiber_stacks = 0;         // fiber stacks mapped (in use or kept free)
    std::uint64_t fiber_stack_bytes = 0;    // address space reserved for them
    std::uint64_t fiber_stack_mappings = 0; // kernel mappings they take (an upper bound)
  };

  // Effects: calls f() in an isolated region: a join made inside it (by f or by a task made
  // inside f) runs only the tasks it awaits, and blocks instead of parking its frame.
  // Returns: f()'s result. Throws: what f() throws. Progress: fully strict fork/join inside the
  // region always finishes; any other wait holds its thread (doc/index.md, "Isolation").
  template <class F>
  auto isolate(F&& f) -> decltype(std::forward<F>(f)())
  {
    detail::fork_join::note_isolation_used();
    const detail::fork_join::frame_scope isolated(detail::fork_join::current_root() | detail::fork_join::isolated_bit);
    return std::forward<F>(f)();
  }

  class fork_join_thread_pool
  {
  public:
    typedef executors::work work;

    // What the constructor with options takes besides the thread count (0, empty: the default).
    // at_thread_exit must not submit to the pool nor join its tasks: its thread is leaving.
    struct options
    {
      std::size_t stack_size = 0;       // of each pool thread (BOOST_THREAD_FJ_WORKER_STACK_SIZE)
      std::size_t fiber_stack_size = 0; // of each stack a parked join switches to
      std::function<void(fork_join_thread_pool&)> at_thread_entry; // before a thread's first closure
      std::function<void(fork_join_thread_pool&)> at_thread_exit;  // after its last, if it called that
    };

    fork_join_thread_pool(const fork_join_thread_pool&) = delete;
    fork_join_thread_pool& operator=(const fork_join_thread_pool&) = delete;

    // Requires: thread_count > 0; AtThreadEntry is CopyConstructible and callable as
    // at_thread_entry(pool). Effects: a pool that runs closures on thread_count worker threads,
    // each with its own deque; each worker calls (its own copy of) at_thread_entry(*this) before
    // it runs any closure; opts: as options says. Not explicit, as basic_thread_pool's is not.
    // Throws: std::invalid_argument if thread_count == 0; what creating a thread throws.
    fork_join_thread_pool(unsigned thread_count = thread::hardware_concurrency() + 1)
        : fork_join_thread_pool(thread_count, &detail::fork_join::do_nothing_at_thread_entry) {}
    fork_join_thread_pool(unsigned thread_count, void (*at_thread_entry)(fork_join_thread_pool&))
        : core_(detail::fork_join::make_core(thread_count, 0, 0)), threads_(*this, *core_, thread_count, 0, at_thread_entry) {}
    template <class AtThreadEntry,
              class = typename std::enable_if<detail::fork_join::is_entry_functor<AtThreadEntry, options>::value>::type>
    fork_join_thread_pool(unsigned thread_count, AtThreadEntry&& at_thread_entry)
        : core_(detail::fork_join::make_core(thread_count, 0, 0))
        , threads_(*this, *core_, thread_count, 0, detail::fork_join::checked_entry(std::forward<AtThreadEntry>(at_thread_entry))) {}
    fork_join_thread_pool(unsigned thread_count, const options& opts)
        : core_(detail::fork_join::make_core(thread_count, opts.fiber_stack_size, opts.stack_size))
        , threads_(*this, *core_, thread_count, opts.stack_size, detail::fork_join::entry_or_nothing(opts.at_thread_entry),
                   opts.at_thread_exit) {}

    // Effects: interrupt_and_join(), which runs every closure still queued. Synchronization:
    // every accepted closure completes before it returns. Throws: nothing (else terminate).
    ~fork_join_thread_pool() { interrupt_and_join(); }

    // Returns: the pool whose task the calling thread runs (the innermost), else the pool it is
    // a thread of, else nullptr; the index (0 to thread_count() - 1) of the calling thread in
    // the pool it is a thread of, else -1. Throws: nothing.
    static fork_join_thread_pool* current() noexcept { return static_cast<fork_join_thread_pool*>(detail::fork_join::current_owner()); }
    static int current_thread_index() noexcept { return detail::fork_join::current_thread_index(); }

    // Returns: the constructor's thread_count; the counters since construction (a snapshot).
    unsigned thread_count() const noexcept { return core_->thread_count(); }
    fork_join_statistics statistics() const noexcept { return detail::fork_join::statistics_of<fork_join_statistics>(*core_); }

    // Effects, Returns, Throws: executors::isolate(std::forward<F>(f)).
    template <class F>
    auto isolate(F&& f) -> decltype(std::forward<F>(f)()) { return executors::isolate(std::forward<F>(f)); }

    // Effects: submissions from outside the pool throw sync_queue_is_closed from now on.
    // Returns (closed): whether the pool is closed.
    void close() { core_->close(); }
    bool closed() { return core_->closed(); }

    // Requires: Closure is callable as closure() and MoveConstructible.
    // Effects: submit: as submit_back. submit_front: schedules closure to run next, at the front
    // of the calling worker's deque (of the shared queue from other threads). submit_back: at
    // the back of the shared queue. Synchronization: the call happens before the closure runs.
    // Throws: sync_queue_is_closed if closed and not called from a closure running on this
    // pool; whatever storing the closure throws. A closure that throws calls std::terminate.
    template <class Closure>
    void submit(Closure&& closure) { submit_back(std::forward<Closure>(closure)); }
    template <class Closure>
    void submit_front(Closure&& closure)
    {
      core_->submit(detail::fork_join::make_task(std::forward<Closure>(closure)), detail::fork_join::queue_end::front);
    }
    template <class Closure>
    void submit_back(Closure&& closure)
    {
      core_->submit(detail::fork_join::make_task(std::forward<Closure>(closure)), detail::fork_join::queue_end::back);
    }

    // Effects: try_executing_one: runs one queued closure on the calling thread, if any
    // (isolated in an isolated region). schedule_one_or_yield: that, or this_thread::yield() if
    // nothing ran. reschedule_until: that until pred() is true or nothing ran.
    // Returns: whether a closure ran; (reschedule_until) whether pred() became true.
    // Throws: boost::thread_interrupted if a closure throws it.
    bool try_executing_one() { return core_->try_run_one(nullptr, detail::fork_join::current_isolated()); }
    void schedule_one_or_yield()
    {
      if (!try_executing_one())
        this_thread::yield();
    }
    template <class Pred>
    bool reschedule_until(const Pred& pred) { return detail::fork_join::run_until(*core_, pred); }

    // Requires (join): not called from one of this pool's threads.
    // Effects: join: joins the workers, then runs what interrupted ones left on fresh threads.
    // interrupt: close(), and requests interruption of every worker. interrupt_and_join: both.
    // Synchronization: the completion of every accepted closure happens before join returns.
    // Throws: boost::thread_resource_error if a fresh thread cannot be started.
    void join() { threads_.join(); }
    void interrupt() { threads_.interrupt(); }
    void interrupt_and_join()
    {
      interrupt();
      join();
    }

  private:
    friend const std::shared_ptr<detail::fork_join::pool_core>&
    detail::fork_join::core_of(const fork_join_thread_pool& pool) noexcept;

    std::shared_ptr<detail::fork_join::pool_core> core_;
    detail::fork_join::pool_threads threads_; // destroyed first: it ends the threads' use of core_
  };

  // Returns: the pool of the forms without an executor outside every pool, made on first use
  // with set_default_fork_join_pool_size()'s count, else hardware_concurrency(). Throws: as its constructor.
  inline fork_join_thread_pool& default_fork_join_pool()
  {
    static fork_join_thread_pool pool(detail::fork_join::default_pool_settings::take_thread_count());
    return pool;
  }

  // Effects: the default pool will have thread_count workers. Throws: std::invalid_argument if
  // thread_count == 0; std::logic_error if the default pool was made or its first use began.
  inline void set_default_fork_join_pool_size(unsigned thread_count)
  {
    detail::fork_join::default_pool_settings::set_thread_count(thread_count);
  }

  // Returns: *fork_join_thread_pool::current() if not null, else default_fork_join_pool().
  inline fork_join_thread_pool& current_fork_join_pool()
  {
    if (fork_join_thread_pool* p = fork_join_thread_pool::current())
      return *p;
    return default_fork_join_pool();
  }

  // What Boost.Thread records for this pool (boost::async, then(ex, f), generic_executor_ref):
  // it shares the pool's scheduler (detail/fork_join/futures/pool_executor_ref.hpp says why).
  template <>
  class executor_ref<fork_join_thread_pool> : public detail::fork_join::pool_executor_ref
  {
  public:
    explicit executor_ref(fork_join_thread_pool& ex) : pool_executor_ref(detail::fork_join::core_of(ex)) {}
  };

} // namespace executors

// The two ways in from detail/ (scheduler/pool_fwd.hpp, futures/pool_executor_ref.hpp).
inline const std::shared_ptr<detail::fork_join::pool_core>&
detail::fork_join::core_of(const executors::fork_join_thread_pool& pool) noexcept { return pool.core_; }
inline const detail::fork_join::pool_executor_ref* detail::fork_join::as_pool_executor_ref(const executors::executor* ex) noexcept
{ return dynamic_cast<const executors::executor_ref<executors::fork_join_thread_pool>*>(ex); }

#ifndef BOOST_THREAD_FJ_PUBLIC_API_ONLY
// Requires, Returns, Synchronization, Throws: as fork(ex, f, args...), but a plain future.
// Effects: as Boost's boost::async(ex, f, args...) (ex is the future's executor), queued as a
// fork, so that a join of the future may run the task itself. Functions of Boost's shape
// R (*)(A&&...) go to overloads of their own (detail/fork_join/futures/async_as_fork.hpp).
template <class F, class... Args,
          typename std::enable_if<!detail::fork_join::boost_async_takes_function_t<F, Args...>::value, int>::type = 0>
future<std::invoke_result_t<typename std::decay<F>::type, typename std::decay<Args>::type...> >
async(executors::fork_join_thread_pool& ex, F&& f, Args&&... args)
{
  return detail::fork_join::async_as_fork(ex, std::forward<F>(f), std::forward<Args>(args)...);
}
#endif // BOOST_THREAD_FJ_PUBLIC_API_ONLY

using executors::current_fork_join_pool;
using executors::default_fork_join_pool;
using executors::fork_join_statistics;
using executors::fork_join_thread_pool;
using executors::set_default_fork_join_pool_size;

} // namespace boost

#include <boost/config/abi_suffix.hpp>

#endif // header

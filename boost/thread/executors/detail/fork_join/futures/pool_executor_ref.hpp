// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// The executor a future records for one of our pools. Boost.Thread records
// `new executor_ref<Ex>(ex)` in the shared state of boost::async(ex, f) and future::then(ex, f),
// and generic_executor_ref wraps executors the same way. Our specialization,
// executor_ref<fork_join_thread_pool> (fork_join_thread_pool.hpp), derives from pool_executor_ref,
// which shares ownership of the pool's scheduler instead of pointing at the pool object: so a
// future that outlives its pool can still be joined safely (a join finds the scheduler with a
// dynamic_cast to pool_executor_ref, which proves it ours and alive, join_futures.hpp,
// recorded_core), and a late submission throws sync_queue_is_closed instead of touching a
// destroyed object. Our boost::async records an executor_ref<fork_join_thread_pool> too
// (async_as_fork.hpp).

#ifndef BOOST_THREAD_EXECUTORS_DETAIL_FORK_JOIN_FUTURES_POOL_EXECUTOR_REF_HPP
#define BOOST_THREAD_EXECUTORS_DETAIL_FORK_JOIN_FUTURES_POOL_EXECUTOR_REF_HPP

#include <boost/thread/executors/detail/fork_join/base/config.hpp>
#include <boost/thread/executors/detail/fork_join/scheduler/pool_core.hpp>
#include <boost/thread/executors/detail/fork_join/tasks/task.hpp>
#include <boost/thread/executors/detail/fork_join/tasks/task_frame.hpp>
#include <boost/thread/executors/executor.hpp>
#include <boost/thread/executors/work.hpp>

#include <memory>
#include <utility>

namespace boost {
namespace detail {
namespace fork_join {

  class pool_executor_ref : public executors::executor
  {
  public:
    typedef executors::work work;

    explicit pool_executor_ref(std::shared_ptr<pool_core> core) noexcept : core_(std::move(core)) {}
    pool_executor_ref(const pool_executor_ref&) = delete;
    pool_executor_ref& operator=(const pool_executor_ref&) = delete;

    void close() override { core_->close(); }
    bool closed() override { return core_->closed(); }
    void submit(BOOST_THREAD_RV_REF(work) closure) override
    {
      core_->submit(make_task(boost::move(closure)), queue_end::back);
    }
    bool try_executing_one() override { return core_->try_run_one(nullptr, current_isolated()); }

    // The scheduler this reference keeps alive (used by join()).
    const std::shared_ptr<pool_core>& core() const noexcept { return core_; }

  private:
    std::shared_ptr<pool_core> core_;
  };

  // Returns: ex as a pool_executor_ref if it is an executor_ref<fork_join_thread_pool> (what
  // our boost::async, then(pool, f) and generic_executor_ref record), else nullptr.
  // Throws: nothing.
  // Defined beside that specialization, in fork_join_thread_pool.hpp, because it casts to it:
  // a dynamic_cast to the most-derived type is one comparison of type_info, while a cast to
  // the base pool_executor_ref walks the class hierarchy and compares type names, which made
  // a boost::async on fib, whose join asks this of every future, 10 % slower.
  inline const pool_executor_ref* as_pool_executor_ref(const executors::executor* ex) noexcept;

} // namespace fork_join
} // namespace detail
} // namespace boost

#endif // header

// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// The root ids (task_frame.hpp) of the tasks a join over a range of futures awaits: the set
// that rule (a) of the admission rule looks a queued task's tag up in, once per task a waiting
// thread looks at. A scan of the range per lookup made a join of n children O(n^2) (10^5
// children took 9 s); this set is built once, in O(n) expected time, and answers each
// lookup in O(1) expected time.
//
// Open addressing with linear probing over a power-of-two table kept at most half full; 0
// (no task) marks a free slot. Up to inline_capacity / 2 ids live in the object itself, so the
// common small join allocates nothing. The table grows by doubling, so building it costs
// O(n) amortized whatever the range's iterator category. Ids are hashed by Fibonacci
// multiplication: one thread hands out consecutive ids, which this spreads over the table.
//
// Threading: built and read by the joining thread only (the admission callback runs on it).
// Fast path, "range join's awaited set" (doc/design.md, "Fast paths and their assumptions"): the awaited tasks are fixed for the
// whole join (a queued task is never ready, so it is still pending).

#ifndef BOOST_THREAD_EXECUTORS_DETAIL_FORK_JOIN_WAITS_ROOT_SET_HPP
#define BOOST_THREAD_EXECUTORS_DETAIL_FORK_JOIN_WAITS_ROOT_SET_HPP

#include <boost/thread/executors/detail/fork_join/base/config.hpp>
#include <boost/thread/executors/detail/fork_join/tasks/task_frame.hpp>

#include <cstddef>
#include <cstdint>
#include <memory>

namespace boost {
namespace detail {
namespace fork_join {

  class root_set
  {
  public:
    root_set() noexcept = default;
    root_set(const root_set&) = delete;
    root_set& operator=(const root_set&) = delete;

    // Effects: adds id (nothing for 0, "no task", or an id already in the set).
    // Throws: std::bad_alloc when the table must grow (the set is unchanged then).
    // Complexity: O(1) amortized expected.
    void insert(task_tag id)
    {
      if (id == 0)
        return;
      if (2 * (size_ + 1) > capacity_)
        grow();
      if (place(table(), capacity_, shift_, id))
        ++size_;
    }

    // Returns: whether id is in the set. Complexity: O(1) expected.
    bool contains(task_tag id) const noexcept
    {
      if (id == 0)
        return false;
      const task_tag* const t = table();
      for (std::size_t i = slot_of(id, shift_);; i = (i + 1) & (capacity_ - 1))
      {
        if (t[i] == id)
          return true;
        if (t[i] == 0)
          return false; // at most half full: a free slot ends every probe
      }
    }

    // wait_scope's `awaits` callback over a root_set (admission.hpp).
    static bool contains(const void* self, task_tag id) noexcept { return static_cast<const root_set*>(self)->contains(id); }

    // Returns: whether a task whose root is in the set runs in a frame on the calling thread's
    // stack (admission.hpp: a wait for it could never end). Complexity: O(d) expected for a
    // stack of d frames, whatever the size of the set.
    bool any_on_own_stack() const noexcept
    {
      for (const task_frame* f = current_context.frame; f; f = f->prev)
        if (contains(f->root()))
          return true;
      return false;
    }

  private:
    static constexpr std::size_t inline_capacity = 32;
    static_assert(inline_capacity == std::size_t(1) << 5, "shift_ starts at 64 - 5");

    // shift: 64 - log2(capacity); the slot is the top log2(capacity) bits of the product.
    static std::size_t slot_of(task_tag id, unsigned shift) noexcept
    {
      return static_cast<std::size_t>((id * 0x9E3779B97F4A7C15ull) >> shift);
    }

    // Returns: whether id was new.
    static bool place(task_tag* t, std::size_t capacity, unsigned shift, task_tag id) noexcept
    {
      for (std::size_t i = slot_of(id, shift);; i = (i + 1) & (capacity - 1))
      {
        if (t[i] == id)
          return false;
        if (t[i] == 0)
        {
          t[i] = id;
          return true;
        }
      }
    }

    void grow()
    {
      const std::size_t capacity = 2 * capacity_;
      std::unique_ptr<task_tag[]> bigger(new task_tag[capacity]()); // may throw: nothing changed yet
      const task_tag* const old = table();
      for (std::size_t i = 0; i < capacity_; ++i)
        if (old[i] != 0)
          place(bigger.get(), capacity, shift_ - 1, old[i]);
      heap_ = std::move(bigger);
      capacity_ = capacity;
      --shift_;
    }

    task_tag* table() noexcept { return heap_ ? heap_.get() : inline_; }
    const task_tag* table() const noexcept { return heap_ ? heap_.get() : inline_; }

    task_tag inline_[inline_capacity] = {};
    std::unique_ptr<task_tag[]> heap_;
    std::size_t capacity_ = inline_capacity;
    unsigned shift_ = 64 - 5; // log2(inline_capacity) == 5
    std::size_t size_ = 0;
  };

} // namespace fork_join
} // namespace detail
} // namespace boost

#endif // header

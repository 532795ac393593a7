// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// Where the memory of a new fork state (fork_state.hpp) comes from: a cache of freed states per
// thread, by size class, so that a state freed on a thread is the next one that thread's new
// states of that size take. A fork in a steady state makes no new state (fork_recycler.hpp
// reuses whole states); boost::async(pool, f) makes one per call. A state freed on another
// thread than the one that took it (by its last future, or by its runner once its owner has
// exited) joins that other thread's cache; a full cache hands states back to operator delete,
// so what a thread holds is bounded (classes x capacity states, 16 x 64 x at most 1 KiB).
//
// Threading contract: each thread touches only its own cache (thread_local); a state passes
// between threads only with the reference count that frees it, whose release/acquire orders
// its last use before its reuse. After a thread's cache is destroyed (thread exit), that
// thread allocates and frees with operator new and delete directly.
//
// Built with AddressSanitizer the cache is off (BOOST_THREAD_FJ_NO_STATE_CACHE), so that a use
// after free of a state is still reported; a user may define the macro to turn it off as well.

#ifndef BOOST_THREAD_EXECUTORS_DETAIL_FORK_JOIN_FUTURES_STATE_CACHE_HPP
#define BOOST_THREAD_EXECUTORS_DETAIL_FORK_JOIN_FUTURES_STATE_CACHE_HPP

#include <boost/thread/executors/detail/fork_join/base/config.hpp>

#include <cstddef>
#include <new>

namespace boost {
namespace detail {
namespace fork_join {

  class state_cache
  {
  public:
    static constexpr std::size_t step = 64;      // size classes: 64, 128, ..., 1024 bytes
    static constexpr std::size_t classes = 16;
    static constexpr unsigned capacity = 64;     // states kept per class and thread

    // Returns: n bytes (n > 0) aligned to alignof(std::max_align_t).
    // Throws: std::bad_alloc.
    static void* allocate(std::size_t n)
    {
#ifndef BOOST_THREAD_FJ_NO_STATE_CACHE
      const std::size_t c = class_of(n);
      if (c < classes)
      {
        if (state_cache* cache = of_this_thread())
          if (node* b = cache->bins_[c].head)
          {
            cache->bins_[c].head = b->next;
            --cache->bins_[c].count;
            return b;
          }
        return ::operator new((c + 1) * step); // the whole class, so that any size of it fits
      }
#endif
      return ::operator new(n);
    }

    // Requires: p came from allocate(n) on any thread.
    static void deallocate(void* p, std::size_t n) noexcept
    {
#ifndef BOOST_THREAD_FJ_NO_STATE_CACHE
      const std::size_t c = class_of(n);
      if (c < classes)
        if (state_cache* cache = of_this_thread())
          if (cache->bins_[c].count < capacity)
          {
            cache->bins_[c].head = ::new (p) node{cache->bins_[c].head};
            ++cache->bins_[c].count;
            return;
          }
#endif
      ::operator delete(p);
    }

    state_cache(const state_cache&) = delete;
    state_cache& operator=(const state_cache&) = delete;

  private:
    struct node
    {
      node* next;
    };
    struct bin
    {
      node* head = nullptr;
      unsigned count = 0;
    };

    state_cache() = default;
    ~state_cache()
    {
      gone() = true;
      for (bin& b : bins_)
        while (node* n = b.head)
        {
          b.head = n->next;
          ::operator delete(n);
        }
    }

    static std::size_t class_of(std::size_t n) noexcept { return (n + step - 1) / step - 1; }

    // Whether this thread's cache was destroyed: a trivially destructible thread_local, which
    // stays readable until the thread ends.
    static bool& gone() noexcept
    {
      thread_local bool destroyed = false;
      return destroyed;
    }

    // Returns: the calling thread's cache, or nullptr once it was destroyed.
    static state_cache* of_this_thread() noexcept
    {
      if (gone())
        return nullptr;
      thread_local state_cache cache;
      return &cache;
    }

    bin bins_[classes];
  };

  // A standard allocator over state_cache, for boost::allocate_shared. Types aligned beyond
  // what operator new gives by default bypass the cache.
  template <class T>
  struct cached_allocator
  {
    typedef T value_type;

    cached_allocator() noexcept = default;
    template <class U>
    cached_allocator(const cached_allocator<U>&) noexcept
    {
    }

    T* allocate(std::size_t n)
    {
      if constexpr (alignof(T) > __STDCPP_DEFAULT_NEW_ALIGNMENT__)
        return static_cast<T*>(::operator new(n * sizeof(T), std::align_val_t(alignof(T))));
      else
        return static_cast<T*>(state_cache::allocate(n * sizeof(T)));
    }

    void deallocate(T* p, std::size_t n) noexcept
    {
      if constexpr (alignof(T) > __STDCPP_DEFAULT_NEW_ALIGNMENT__)
        ::operator delete(p, std::align_val_t(alignof(T)));
      else
        state_cache::deallocate(p, n * sizeof(T));
    }

    template <class U>
    bool operator==(const cached_allocator<U>&) const noexcept
    {
      return true;
    }
    template <class U>
    bool operator!=(const cached_allocator<U>&) const noexcept
    {
      return false;
    }
  };

} // namespace fork_join
} // namespace detail
} // namespace boost

#endif // header

// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// White-box: the per-thread cache of fork states (detail/fork_join/futures/state_cache.hpp). Counts the
// calls of the global operator new to see what the cache saves; under AddressSanitizer the
// cache is off, and the tests check only what holds either way.

#define BOOST_TEST_MODULE detail_state_cache
#include "watchdog.hpp"

#include <boost/thread/executors/detail/fork_join/futures/state_cache.hpp>

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <new>
#include <thread>
#include <vector>

namespace {
std::atomic<long> news{0};
}

void* operator new(std::size_t n)
{
  news.fetch_add(1, std::memory_order_relaxed);
  if (void* p = std::malloc(n ? n : 1))
    return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }

using boost::detail::fork_join::state_cache;
using boost::detail::fork_join::cached_allocator;

#ifdef BOOST_THREAD_FJ_NO_STATE_CACHE
constexpr bool cache_on = false;
#else
constexpr bool cache_on = true;
#endif

BOOST_AUTO_TEST_CASE(a_freed_state_is_reused_by_its_size_class)
{
  void* a = state_cache::allocate(100);
  std::memset(a, 1, 100);
  state_cache::deallocate(a, 100);
  const long before = news.load();
  void* b = state_cache::allocate(128); // same class as 100: 65..128 bytes
  BOOST_TEST((cache_on ? b == a && news.load() == before : news.load() == before + 1));
  std::memset(b, 2, 128); // the whole class fits
  state_cache::deallocate(b, 128);
  void* c = state_cache::allocate(129); // next class: not that memory
  BOOST_TEST(c != nullptr);
  state_cache::deallocate(c, 129);
  void* big = state_cache::allocate(5000); // beyond the classes: operator new, never cached
  std::memset(big, 3, 5000);
  state_cache::deallocate(big, 5000);
}

BOOST_AUTO_TEST_CASE(a_full_class_gives_states_back)
{
  std::vector<void*> states;
  for (unsigned i = 0; i < 3 * state_cache::capacity; ++i)
    states.push_back(state_cache::allocate(200));
  for (void* p : states)
    state_cache::deallocate(p, 200); // the first `capacity` are kept, the rest freed
  const long before = news.load();
  for (unsigned i = 0; i < state_cache::capacity; ++i)
    states[i] = state_cache::allocate(200);
  BOOST_TEST(news.load() - before == (cache_on ? 0L : long(state_cache::capacity)));
  const void* extra = state_cache::allocate(200);
  BOOST_TEST(news.load() - before == long(state_cache::capacity) * (cache_on ? 0 : 1) + 1);
  state_cache::deallocate(const_cast<void*>(extra), 200);
  for (unsigned i = 0; i < state_cache::capacity; ++i)
    state_cache::deallocate(states[i], 200);
}

// A state taken on one thread and freed on another joins the freeing thread's cache; a thread's
// cache is freed when the thread ends (LeakSanitizer would report it otherwise, and a thread
// that frees after its cache is gone uses operator delete).
BOOST_AUTO_TEST_CASE(states_cross_threads_and_leave_with_them)
{
  void* mine = state_cache::allocate(300);
  void* theirs = nullptr;
  std::thread t([&] {
    state_cache::deallocate(mine, 300);
    theirs = state_cache::allocate(300);
    BOOST_TEST((!cache_on || theirs == mine));
  });
  t.join();
  state_cache::deallocate(theirs, 300); // freed on this thread, kept here
  void* again = state_cache::allocate(300);
  BOOST_TEST((!cache_on || again == mine));
  state_cache::deallocate(again, 300);
}

struct alignas(128) wide
{
  unsigned char bytes[128];
};

BOOST_AUTO_TEST_CASE(the_allocator_aligns_and_bypasses_for_wide_types)
{
  cached_allocator<wide> a;
  wide* w = a.allocate(2);
  BOOST_TEST(reinterpret_cast<std::uintptr_t>(w) % 128 == 0u);
  a.deallocate(w, 2);
  cached_allocator<std::uint64_t> b(a);
  std::uint64_t* p = b.allocate(10);
  BOOST_TEST(reinterpret_cast<std::uintptr_t>(p) % alignof(std::uint64_t) == 0u);
  b.deallocate(p, 10);
  BOOST_TEST((a == b));
}

// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// Counts the calls of the global operator new, for the "new per task" column (how many heap
// allocations a fork costs, counted rather than guessed). The replacements below take their
// memory from malloc, as libstdc++'s own do, so the default operator delete frees it.
//
// Cost to the timed runs: each thread counts in a slot of its own (a relaxed load and store, no
// read-modify-write, no line shared with another thread); a thread takes its slot at its first
// allocation, without allocating. Memory that libraries take from malloc directly (oneTBB's
// and OpenMP's task storage) is not counted, so the column is shown for our pools only.

#include "bench.hpp"

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <new>

namespace {

constexpr std::size_t max_slots = 4096; // threads after that share the last slot

struct alignas(64) slot
{
  std::atomic<std::uint64_t> count{0};
};

slot slots[max_slots];
std::atomic<std::size_t> slots_taken{0};
thread_local slot* own_slot = nullptr; // trivially destructible: no allocation at thread exit

void count_one() noexcept
{
  slot* s = own_slot;
  if (!s)
  {
    // relaxed: only the uniqueness of the index matters.
    const std::size_t i = slots_taken.fetch_add(1, std::memory_order_relaxed);
    s = own_slot = &slots[i < max_slots ? i : max_slots - 1];
  }
  if (s == &slots[max_slots - 1])
    s->count.fetch_add(1, std::memory_order_relaxed); // shared by the overflow threads
  else
    // relaxed: a statistic; the reader synchronizes with the runs it reads through their end.
    s->count.store(s->count.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
}

void* allocate(std::size_t n, std::size_t alignment)
{
  count_one();
  if (n == 0)
    n = 1;
  for (;;)
  {
    void* p = alignment <= alignof(std::max_align_t)
                  ? std::malloc(n)
                  : std::aligned_alloc(alignment, (n + alignment - 1) / alignment * alignment);
    if (p)
      return p;
    std::new_handler handler = std::get_new_handler();
    if (!handler)
      throw std::bad_alloc();
    handler();
  }
}

} // namespace

namespace bench {

  std::uint64_t allocations() noexcept
  {
    std::uint64_t total = 0;
    const std::size_t n = slots_taken.load(std::memory_order_relaxed);
    for (std::size_t i = 0; i < n && i < max_slots; ++i)
      total += slots[i].count.load(std::memory_order_relaxed); // relaxed: see count_one()
    return total;
  }

} // namespace bench

void* operator new(std::size_t n) { return allocate(n, alignof(std::max_align_t)); }
void* operator new(std::size_t n, std::align_val_t a) { return allocate(n, static_cast<std::size_t>(a)); }

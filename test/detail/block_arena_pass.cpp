// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// White-box: the storage of task blocks' children (detail/fork_join/invoke/block_arena.hpp).
// A chain of nested blocks, however deep, must reuse its chunks when it comes back (no operator
// new once a period has ended), and what a deep burst left idle must go back within a few
// periods of shallow blocks: the thread's cache never keeps more than its bound, and the bound
// comes back to its least value. This program replaces the global operator new and delete to
// count the calls of the thread that runs the test.

#define BOOST_TEST_MODULE detail_block_arena
#include "../watchdog.hpp"

#include <boost/thread/executors/detail/fork_join/invoke/block_arena.hpp>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <thread>
#include <vector>

namespace {

// The operator new calls of the thread that counts (constant-initialized: usable from operator
// new at any time).
thread_local bool counting = false;
thread_local std::size_t news = 0;

} // namespace

void* operator new(std::size_t n)
{
  if (counting)
    ++news;
  if (void* p = std::malloc(n ? n : 1))
    return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }

namespace {

using boost::detail::fork_join::block_arena;
using boost::detail::fork_join::chunk_cache;

// A child's size as a task block's on uts, and how many of them an arena of the chain holds:
// one more than its inline buffer takes, so that each takes one chunk.
constexpr std::size_t child_bytes = 144;
constexpr std::size_t chain_children = block_arena::inline_bytes / child_bytes + 1;

// Effects: one arena with 150 children, which take the inline buffer and a chunk of each kept
// size (4, 8 and 16 KiB), released. Returns: the operator new calls it made.
std::size_t wide_block()
{
  block_arena a;
  const std::size_t before = news;
  counting = true;
  for (int i = 0; i != 150; ++i)
    a.allocate(child_bytes, alignof(std::max_align_t));
  counting = false;
  a.release();
  return news - before;
}

// Effects: a chain of `depth` nested arenas, each holding chain_children children while the
// ones below it live (a nest of blocks), released innermost first; innermost, if given, runs while the whole
// chain lives. Returns: the operator new calls the chain made.
std::size_t nest(std::size_t depth, std::size_t (*innermost)() = nullptr)
{
  std::vector<std::unique_ptr<block_arena>> arenas;
  arenas.reserve(depth);
  std::size_t made = 0, over_bound = 0;
  for (std::size_t i = 0; i != depth; ++i)
  {
    arenas.push_back(std::make_unique<block_arena>());
    const std::size_t before = news;
    counting = true;
    for (std::size_t k = 0; k != chain_children; ++k)
      arenas.back()->allocate(child_bytes, alignof(std::max_align_t));
    counting = false;
    made += news - before;
    over_bound += chunk_cache::idle_bytes() > chunk_cache::idle_bound();
  }
  if (innermost)
    innermost();
  for (std::size_t i = depth; i != 0; --i)
  {
    arenas[i - 1]->release();
    over_bound += chunk_cache::idle_bytes() > chunk_cache::idle_bound();
  }
  BOOST_TEST(over_bound == 0u);
  return made;
}

} // namespace

// A chain deeper than the least bound's 16 chunks of 4 KiB comes back, again and again (as
// uts_t3's blocks do, 699 deep): once the first period has ended, none of its chunks is made
// anew; a fixed cache of 64 KiB made every chunk below the sixteenth again each time.
BOOST_AUTO_TEST_CASE(a_deep_chain_reuses_its_chunks)
{
  for (const std::size_t depth : {std::size_t(40), std::size_t(700)})
    std::thread([depth] {
      BOOST_TEST(nest(depth) == depth); // a new thread: every chunk is new
      // Until a period ends (four times the bound taken) a chain may still make chunks.
      for (int i = 0; i != 8; ++i)
        nest(depth);
      for (int i = 0; i != 20; ++i)
        BOOST_TEST(nest(depth) == 0u);
      BOOST_TEST(chunk_cache::idle_bytes() >= depth * 4096);
    }).join();
}

// After a deep burst, shallow blocks only: the cache gives the burst's chunks back within a few
// periods, down to the least bound, and never keeps more than its bound meanwhile.
BOOST_AUTO_TEST_CASE(a_burst_goes_back)
{
  std::thread([] {
    for (int i = 0; i != 10; ++i)
      nest(1000);
    BOOST_TEST(chunk_cache::idle_bytes() >= 1000 * 4096);
    const std::size_t burst_bound = chunk_cache::idle_bound();
    std::size_t periods = 0, last = burst_bound;
    for (int i = 0; i != 100000 && chunk_cache::idle_bound() > chunk_cache::min_bound; ++i)
    {
      nest(2);
      if (chunk_cache::idle_bound() != last)
      {
        BOOST_TEST(chunk_cache::idle_bound() >= last / 2); // at most halved per period
        last = chunk_cache::idle_bound();
        ++periods;
      }
    }
    BOOST_TEST(chunk_cache::idle_bound() == chunk_cache::min_bound);
    BOOST_TEST(chunk_cache::idle_bytes() <= chunk_cache::min_bound);
    // log2(burst_bound / min_bound) halvings, each a period.
    BOOST_TEST(periods <= 8u);
    BOOST_TEST_MESSAGE("bound " << burst_bound << " back to " << chunk_cache::min_bound << " in " << periods << " periods");
  }).join();
}

// A chunk larger than max_bytes (a child with a large capture) is never kept.
BOOST_AUTO_TEST_CASE(a_large_chunk_is_not_kept)
{
  std::thread([] {
    block_arena a;
    a.allocate(chunk_cache::max_bytes * 2, alignof(std::max_align_t));
    a.release();
    BOOST_TEST(chunk_cache::idle_bytes() == 0u);
  }).join();
}

// The cache keeps a list per chunk size: a take finds a chunk of its size behind any number of
// idle chunks of another size, and takes a larger one when none of its own size waits.
BOOST_AUTO_TEST_CASE(every_size_is_found_among_many_idle_chunks)
{
  std::thread([] {
    // A wide block innermost in a deep chain: the bound keeps all of their chunks.
    for (int i = 0; i != 9; ++i)
      nest(700, wide_block);
    BOOST_TEST(chunk_cache::idle_bytes() >= 700 * 4096 + 8192 + 16384);
    // Alone, the wide block finds a chunk of each size among 700 idle chunks of 4 KiB.
    BOOST_TEST(wide_block() == 0u);
  }).join();
  std::thread([] {
    BOOST_TEST(wide_block() == 3u); // a new thread: idle, one chunk of each size
    BOOST_TEST(nest(3) == 0u);      // three chunks of 4 KiB asked for: 4, 8 and 16 KiB given
  }).join();
}

// The arena keeps its bump pointer a multiple of alignof(std::max_align_t), rounding every size
// up, so that it tests nothing for the common alignments (block_arena::bump). Sizes of every
// remainder and alignments below, at and above that unit, in the inline buffer and across
// chunks: each piece is aligned as asked, and no two overlap (each is filled with its own byte
// and checked after all were made).
BOOST_AUTO_TEST_CASE(every_size_and_alignment_gets_its_own_aligned_bytes)
{
  block_arena a;
  struct piece
  {
    unsigned char* p;
    std::size_t size;
  };
  std::vector<piece> pieces;
  std::uint32_t x = 12345;
  for (int round = 0; round != 2; ++round)
  {
    for (int i = 0; i != 600; ++i)
    {
      x = x * 1664525u + 1013904223u; // a fixed pseudo-random sequence
      const std::size_t size = 1 + (x >> 8) % 300;
      const std::size_t align = std::size_t(1) << ((x >> 20) % 9); // 1 to 256
      unsigned char* const p = static_cast<unsigned char*>(a.allocate(size, align));
      BOOST_TEST(reinterpret_cast<std::uintptr_t>(p) % align == 0u);
      std::memset(p, static_cast<int>(pieces.size() % 251), size);
      pieces.push_back(piece{p, size});
    }
    for (std::size_t k = 0; k != pieces.size(); ++k)
      for (std::size_t b = 0; b != pieces[k].size; ++b)
        if (pieces[k].p[b] != static_cast<unsigned char>(k % 251))
        {
          BOOST_TEST(false, "piece " << k << " overwritten at byte " << b);
          break;
        }
    a.release(); // the second round starts from the inline buffer again
    pieces.clear();
  }
}

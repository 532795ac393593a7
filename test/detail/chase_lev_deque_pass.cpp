// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// White-box: the lock-free work-stealing deque (detail/fork_join/primitives/chase_lev_deque.hpp).
//
// Single-threaded semantics first (LIFO pop, FIFO steal, growth), then stress by accounting:
// every pushed element is taken exactly once, by the owner or by a thief. An element's payload
// is a plain field the owner writes just before push and the taker reads, and the taker marks
// it with a plain increment: ThreadSanitizer reports a missing happens-before edge or a double
// take, and the counters show a double or lost take in any build. Rings start at capacity 2,
// so they grow while thieves steal. Loop counts are divided by BOOST_THREAD_FJ_TEST_SCALE
// (10 under sanitizers); nothing here measures time.

#ifndef BOOST_TEST_MODULE // a group of test files built as one program names its own
#define BOOST_TEST_MODULE detail_chase_lev_deque
#endif
#include "watchdog.hpp"

#include <boost/thread/executors/detail/fork_join/primitives/chase_lev_deque.hpp>
#include <boost/test/data/monomorphic.hpp>
#include <boost/test/data/test_case.hpp>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <deque>
#include <memory>
#include <random>
#include <thread>
#include <vector>

#ifndef BOOST_THREAD_FJ_TEST_SCALE
#define BOOST_THREAD_FJ_TEST_SCALE 1
#endif

BOOST_AUTO_TEST_SUITE(detail_chase_lev_deque_pass) // this file's tests, which CTest runs by this name

using boost::detail::fork_join::chase_lev_deque;
namespace data = boost::unit_test::data;

// Named, not anonymous: the data-driven test cases are templates, and GCC warns
// (-Wsubobject-linkage) when they capture types with internal linkage.
namespace chase_lev_test {

// What the deque carries in the concurrent tests. Both fields are plain on purpose.
struct item
{
  std::int64_t payload = 0; // written by the owner right before push
  int taken = 0;            // incremented by whoever takes the item; must end at exactly 1
};

std::int64_t payload_of(std::size_t index) { return static_cast<std::int64_t>(index) * 7919 + 1; }

// The taker's side: checks the payload (counted, since Boost.Test assertions are not
// thread-safe) and marks the item taken.
void take(item* p, const std::vector<item>& items, std::int64_t& bad_payloads)
{
  if (p->payload != payload_of(static_cast<std::size_t>(p - items.data())))
    ++bad_payloads;
  ++p->taken;
}

// Waits for `flag` to reach `value`: spins briefly, then yields (2 cores, more threads).
template <class U>
void spin_until(const std::atomic<U>& flag, U value)
{
  // acquire: pairs with the release store that set the flag; what the setter did before is
  // visible after the wait.
  for (int spins = 0; flag.load(std::memory_order_acquire) != value; ++spins)
    if (spins > 64)
      std::this_thread::yield();
}

// Checks that every item was taken exactly once; reports the first offender only.
void check_each_taken_once(const std::vector<item>& items)
{
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < items.size(); ++i)
    if (items[i].taken != 1 && wrong++ == 0)
      BOOST_TEST(items[i].taken == 1, "item " << i << " taken " << items[i].taken << " times");
  BOOST_TEST(wrong == 0u);
}

// A short busy delay the compiler keeps.
thread_local volatile unsigned delay_sink = 0; // each thread's own: stores the compiler keeps

void delay(unsigned n)
{
  for (unsigned i = 0; i < n; ++i)
    delay_sink = i;
}

// The owner "runs" its newest element as a worker would: after a short delay (and, now and then,
// giving up the processor: a loaded machine may not run the thieves otherwise) it pops and takes
// it. Returns: whether there was one.
bool owner_runs_one(chase_lev_deque<item>& d, std::minstd_rand& rng, const std::vector<item>& items, std::int64_t& bad)
{
  delay(rng() % 256);
  if (rng() % 32 == 0)
    std::this_thread::yield();
  item* p = d.pop();
  if (!p)
    return false;
  take(p, items, bad);
  return true;
}

struct alignas(64) padded_counter
{
  std::atomic<std::int64_t> value{0};
};

} // namespace chase_lev_test

using namespace chase_lev_test;

// ---------------------------------------------------------------------------------------------
// Single-threaded semantics

BOOST_AUTO_TEST_CASE(capacity_is_a_power_of_two_at_least_2)
{
  BOOST_TEST(chase_lev_deque<int>().capacity() == 256u);
  BOOST_TEST(chase_lev_deque<int>(0).capacity() == 2u);
  BOOST_TEST(chase_lev_deque<int>(1).capacity() == 2u);
  BOOST_TEST(chase_lev_deque<int>(2).capacity() == 2u);
  BOOST_TEST(chase_lev_deque<int>(3).capacity() == 4u);
  BOOST_TEST(chase_lev_deque<int>(256).capacity() == 256u);
  BOOST_TEST(chase_lev_deque<int>(257).capacity() == 512u);
}

BOOST_AUTO_TEST_CASE(empty_deque_returns_nullptr)
{
  chase_lev_deque<int> d(2);
  int x = 0;
  bool lost_race = true;
  BOOST_TEST(d.empty());
  BOOST_TEST(d.size() == 0u);
  BOOST_TEST(d.pop() == nullptr);
  BOOST_TEST(d.steal() == nullptr);
  BOOST_TEST(d.steal(lost_race) == nullptr);
  BOOST_TEST(!lost_race);

  d.push(&x);
  BOOST_TEST(!d.empty());
  BOOST_TEST(d.size() == 1u);
  BOOST_TEST(d.pop() == &x);
  BOOST_TEST(d.pop() == nullptr); // an empty pop must leave bottom where it was
  BOOST_TEST(d.size() == 0u);
  BOOST_TEST(d.steal() == nullptr);

  BOOST_TEST(d.push(&x) == 0u); // emptied by pops: pool_core advertises such a push
  lost_race = true;
  BOOST_TEST(d.steal(lost_race) == &x);
  BOOST_TEST(!lost_race);
  BOOST_TEST(d.pop() == nullptr);
  BOOST_TEST(d.steal() == nullptr);
  BOOST_TEST(d.empty());
  BOOST_TEST(d.push(&x) == 0u); // emptied by a steal: likewise
  BOOST_TEST(d.pop() == &x);
}

BOOST_AUTO_TEST_CASE(pop_is_lifo)
{
  std::vector<int> v(100);
  chase_lev_deque<int> d(4);
  for (std::size_t i = 0; i < v.size(); ++i)
    BOOST_REQUIRE(d.push(&v[i]) == i); // push returns the count before it, across growth
  BOOST_TEST(d.size() == v.size());
  for (std::size_t i = v.size(); i-- > 0;)
    BOOST_REQUIRE(d.pop() == &v[i]);
  BOOST_TEST(d.pop() == nullptr);
}

BOOST_AUTO_TEST_CASE(steal_is_fifo)
{
  std::vector<int> v(100);
  chase_lev_deque<int> d(4);
  for (int& x : v)
    d.push(&x);
  for (std::size_t i = 0; i < v.size(); ++i)
    BOOST_REQUIRE(d.steal() == &v[i]);
  BOOST_TEST(d.steal() == nullptr);
  BOOST_TEST(d.empty());
}

// Random push, push_all, pop and steal against std::deque as the model.
BOOST_AUTO_TEST_CASE(mixed_against_model)
{
  std::vector<int> v(1000);
  chase_lev_deque<int> d(2);
  std::deque<int*> model;
  std::minstd_rand rng(42);
  std::size_t next = 0;
  for (int step = 0; step < 200000 / BOOST_THREAD_FJ_TEST_SCALE; ++step)
  {
    switch (rng() % 4)
    {
    case 0: // push as often as we take, so the deque (and the ring) keeps growing
      BOOST_REQUIRE_EQUAL(d.push(&v[next]), model.size());
      model.push_back(&v[next]);
      next = (next + 1) % v.size();
      break;
    case 1:
    {
      // push_all of up to 9 elements, more than a small ring holds: it may grow twice.
      int* batch[9];
      const std::size_t n = 1 + rng() % 9;
      for (std::size_t i = 0; i < n; ++i, next = (next + 1) % v.size())
        batch[i] = &v[next];
      BOOST_REQUIRE_EQUAL(d.push_all(batch, n, [](int*) { return 0; }), model.size());
      model.insert(model.end(), batch, batch + n);
      break;
    }
    case 2:
    {
      int* expected = model.empty() ? nullptr : model.back();
      if (!model.empty())
        model.pop_back();
      BOOST_REQUIRE(d.pop() == expected);
      break;
    }
    default:
    {
      int* expected = model.empty() ? nullptr : model.front();
      if (!model.empty())
        model.pop_front();
      bool lost_race = true;
      BOOST_REQUIRE(d.steal(lost_race) == expected);
      BOOST_REQUIRE(!lost_race); // nobody to lose against
      break;
    }
    }
    BOOST_REQUIRE_EQUAL(d.size(), model.size());
  }
}

// take_at: the owner takes an element wherever it sits; one taken from between the
// ends leaves a hole that pop and steal discard; an element already taken, or an index outside
// [top, bottom), or a slot whose content accept does not recognize, gives nullptr.
BOOST_AUTO_TEST_CASE(take_at_semantics)
{
  std::vector<int> v(6);
  chase_lev_deque<int> d(2);
  std::vector<std::int64_t> at;
  for (std::size_t i = 0; i < v.size(); ++i)
  {
    at.push_back(d.next_index());
    d.push(&v[i], i + 1); // the tag identifies the element
  }
  BOOST_TEST(at.front() == 0);
  BOOST_TEST(at.back() == 5);
  auto is = [](int* p, std::uint64_t tag) { return [p, tag](int* x, std::uint64_t t) { return x == p && t == tag; }; };
  BOOST_TEST(d.take_at(at[2], is(&v[3], 4)) == nullptr); // not the element at that index
  BOOST_TEST(d.take_at(at[2], is(&v[2], 3)) == &v[2]);   // from the middle: a hole
  BOOST_TEST(d.take_at(at[2], is(&v[2], 3)) == nullptr); // taken already
  BOOST_TEST(d.size() == 6u);                            // the hole counts until discarded
  BOOST_TEST(d.take_at(at[0], is(&v[0], 1)) == &v[0]);   // the oldest: top moves, no hole
  BOOST_TEST(d.size() == 5u);
  BOOST_TEST(d.take_at(at[5], is(&v[5], 6)) == &v[5]);   // the newest: a pop
  BOOST_TEST(d.take_at(at[5], is(&v[5], 6)) == nullptr); // above bottom now
  BOOST_TEST(d.take_at(99, is(&v[5], 6)) == nullptr);
  BOOST_TEST(d.take_at(-1, is(&v[0], 1)) == nullptr);
  BOOST_TEST(d.take_at(at[3], is(&v[3], 4)) == &v[3]);   // a second hole, next to the first
  BOOST_TEST(d.steal() == &v[1]);
  BOOST_TEST(d.size() == 3u);                            // two holes and v[4]
  BOOST_TEST(d.steal() == &v[4]);                        // past both holes
  BOOST_TEST(d.empty());
  BOOST_TEST(d.pop() == nullptr);
  BOOST_TEST(d.steal() == nullptr);

  // Holes at the bottom: pop discards them, and pop_if does not ask accept about them.
  const std::int64_t base = d.next_index();
  for (std::size_t i = 0; i < 4; ++i)
    d.push(&v[i], 10 + i);
  BOOST_TEST(d.take_at(base + 1, is(&v[1], 11)) == &v[1]);
  BOOST_TEST(d.take_at(base + 2, is(&v[2], 12)) == &v[2]);
  BOOST_TEST(d.pop() == &v[3]);
  BOOST_TEST(d.pop_if([](int* x, std::uint64_t) {
    BOOST_TEST(x != nullptr);
    return false;
  }) == nullptr); // v[0] stays
  BOOST_TEST(d.pop() == &v[0]);
  BOOST_TEST(d.empty());
  // A deque of holes only: a pop discards them and finds it empty; the next push counts none.
  for (std::size_t i = 0; i < 3; ++i)
    d.push(&v[i], 20 + i);
  const std::int64_t third = d.next_index() - 1;
  BOOST_TEST(d.take_at(third - 1, is(&v[1], 21)) == &v[1]);
  BOOST_TEST(d.take_at(third, is(&v[2], 22)) == &v[2]);
  BOOST_TEST(d.take_at(third - 2, is(&v[0], 20)) == &v[0]);
  BOOST_TEST(d.size() == 1u); // the hole v[1] left
  BOOST_TEST(d.pop() == nullptr);
  BOOST_TEST(d.empty());
  BOOST_TEST(d.push(&v[0], 30) == 0u);
  BOOST_TEST(d.pop() == &v[0]);
}

// Random push / pop / steal / take_at against a model that keeps holes (nullptr) in place and
// the index of its front, so that next_index() and take_at() are checked too. take_at aims at
// live elements, holes, elements taken long ago (their slot may still hold them: accept then
// matches a stale slot) and indices outside the deque.
BOOST_AUTO_TEST_CASE(take_at_against_model)
{
  struct entry
  {
    int* p;
    std::uint64_t tag;
  };
  std::vector<int> v(1000);
  chase_lev_deque<int> d(2);
  std::deque<entry> model;  // [top, bottom), holes with p == nullptr
  std::int64_t top = 0;     // the index of model.front()
  std::vector<entry> ever;  // the last element pushed at each index (what its slot may hold)
  std::minstd_rand rng(7);
  std::uint64_t next_tag = 1;
  std::size_t holes_made = 0, stale_tries = 0;
  // The model's takes: from the front top moves; from the back too when it was the last one
  // (the compare-exchange on top).
  auto take_front = [&] {
    int* p = model.front().p;
    model.pop_front();
    ++top;
    return p;
  };
  auto take_back = [&] {
    int* p = model.back().p;
    model.pop_back();
    if (model.empty())
      ++top;
    return p;
  };
  auto drop_front_holes = [&] {
    while (!model.empty() && !model.front().p)
      take_front();
  };
  auto drop_back_holes = [&] {
    while (!model.empty() && !model.back().p)
      take_back();
  };
  for (int step = 0; step < 200000 / BOOST_THREAD_FJ_TEST_SCALE; ++step)
  {
    BOOST_REQUIRE_EQUAL(d.next_index(), top + static_cast<std::int64_t>(model.size()));
    switch (rng() % 5)
    {
    case 0:
    case 1:
    {
      const entry e{&v[next_tag % v.size()], next_tag};
      ++next_tag;
      const std::int64_t i = d.next_index();
      if (ever.size() <= static_cast<std::size_t>(i))
        ever.resize(static_cast<std::size_t>(i) + 1);
      ever[static_cast<std::size_t>(i)] = e;
      d.push(e.p, e.tag);
      model.push_back(e);
      break;
    }
    case 2:
    {
      drop_back_holes();
      int* const expected = model.empty() ? nullptr : take_back();
      BOOST_REQUIRE(d.pop() == expected);
      break;
    }
    case 3:
    {
      drop_front_holes();
      int* const expected = model.empty() ? nullptr : take_front();
      bool lost_race = true;
      BOOST_REQUIRE(d.steal(lost_race) == expected);
      BOOST_REQUIRE(!lost_race);
      break;
    }
    default:
    {
      if (ever.empty())
        break;
      // Half the time inside [top, bottom], else anywhere from far below top to past bottom.
      const std::int64_t i = rng() % 2 ? top + static_cast<std::int64_t>(rng() % (model.size() + 1))
                                       : static_cast<std::int64_t>(rng() % (ever.size() + 4)) - 2;
      const entry target = (i >= 0 && static_cast<std::size_t>(i) < ever.size()) ? ever[static_cast<std::size_t>(i)] : entry{&v[0], 0};
      int* expected = nullptr;
      const std::int64_t j = i - top;
      if (j >= 0 && j < static_cast<std::int64_t>(model.size()) && model[static_cast<std::size_t>(j)].p &&
          model[static_cast<std::size_t>(j)].tag == target.tag)
      {
        expected = target.p;
        if (j + 1 == static_cast<std::int64_t>(model.size()))
          take_back(); // the newest: a pop
        else if (j == 0)
          take_front(); // the oldest: top moves
        else
        {
          model[static_cast<std::size_t>(j)].p = nullptr; // a hole
          ++holes_made;
        }
      }
      else
        ++stale_tries;
      BOOST_REQUIRE(d.take_at(i, [&target](int* x, std::uint64_t tag) { return x == target.p && tag == target.tag; }) ==
                    expected);
      break;
    }
    }
    BOOST_REQUIRE_EQUAL(d.size(), model.size());
  }
  BOOST_TEST_MESSAGE("take_at: " << holes_made << " holes made, " << stale_tries << " tries that had to fail");
  BOOST_TEST(holes_made > 0u);
  BOOST_TEST(stale_tries > 0u);
}

// reserve(n): the next pushes of n elements in all do not grow the ring (the queuing of the
// children parallel_invoke kept back relies on it: pool_core::push_deferred), and the elements
// already there keep their order and indices.
BOOST_AUTO_TEST_CASE(reserve_makes_room_for_the_next_pushes)
{
  std::vector<int> v(40);
  for (std::size_t k : {0u, 1u, 3u, 17u})
  {
    chase_lev_deque<int> d(2);
    for (std::size_t i = 0; i != k; ++i)
      d.push(&v[i]);
    const std::int64_t first = d.next_index();
    d.reserve(20);
    const std::size_t capacity = d.capacity();
    BOOST_TEST(capacity >= k + 20);
    BOOST_TEST(d.next_index() == first);
    int* batch[7];
    for (std::size_t i = 0; i != 7; ++i)
      batch[i] = &v[k + i];
    d.push_all(batch, 7, [](int*) noexcept { return std::uint64_t(0); });
    for (std::size_t i = 7; i != 20; ++i)
      d.push(&v[k + i]);
    BOOST_TEST(d.capacity() == capacity);
    for (std::size_t i = k + 20; i-- > 0;)
      BOOST_REQUIRE(d.pop() == &v[i]);
    BOOST_TEST(d.empty());
  }
}

// From capacity 2 to more than 10^5 elements, with a steal every third push so that top is
// never 0 when the ring grows (the live range wraps around the old ring); then drained from
// both ends alternately.
BOOST_AUTO_TEST_CASE(growth_preserves_order)
{
  const std::size_t n = std::size_t(3) << 16; // 196608 pushes, 131072 left after the steals
  std::vector<int> v(n);
  chase_lev_deque<int> d(2);
  std::size_t oldest = 0;
  for (std::size_t i = 0; i < n; ++i)
  {
    d.push(&v[i]);
    if (i % 3 == 2)
      BOOST_REQUIRE(d.steal() == &v[oldest++]);
  }
  BOOST_TEST(d.size() == n - oldest);
  BOOST_TEST(d.size() >= 100000u);
  BOOST_TEST(d.capacity() >= d.size());
  std::size_t newest = n;
  for (bool from_top = true; oldest != newest; from_top = !from_top)
  {
    if (from_top)
      BOOST_REQUIRE(d.steal() == &v[oldest++]);
    else
      BOOST_REQUIRE(d.pop() == &v[--newest]);
  }
  BOOST_TEST(d.empty());
  BOOST_TEST(d.pop() == nullptr);
  BOOST_TEST(d.steal() == nullptr);
}

// ---------------------------------------------------------------------------------------------
// Concurrent: accounting

// The owner pushes (one by one, or a burst at once) and pops in random bursts while `thieves`
// threads steal continuously. Each round uses a fresh deque of capacity 2, so it grows under
// contention in every round; thieves move on to the next round's deque when the owner moves on.
BOOST_DATA_TEST_CASE(owner_against_thieves, data::make({1, 2, 4, 8}), thieves)
{
  const std::size_t per_round = 4096;
  const std::size_t rounds = 320 / BOOST_THREAD_FJ_TEST_SCALE; // 4 x 1.3M pushes, as many takes
  std::vector<item> items(per_round * rounds);
  std::vector<std::unique_ptr<chase_lev_deque<item> > > deques;
  for (std::size_t r = 0; r < rounds; ++r)
    deques.emplace_back(new chase_lev_deque<item>(2));
  std::atomic<std::size_t> round{0};

  std::vector<std::int64_t> stolen(thieves, 0), thief_bad(thieves, 0), lost_races(thieves, 0);
  std::vector<std::thread> ts;
  for (int k = 0; k < thieves; ++k)
    ts.emplace_back([&, k] {
      std::int64_t n = 0, bad = 0, lost = 0;
      for (;;)
      {
        // relaxed: only an index (the deques exist before this thread starts); a stale one
        // means a few steals from an already drained deque.
        const std::size_t r = round.load(std::memory_order_relaxed);
        if (r == rounds)
          break;
        bool lost_race;
        if (item* p = deques[r]->steal(lost_race))
        {
          take(p, items, bad);
          ++n;
        }
        else if (lost_race)
          ++lost;
        else
          std::this_thread::yield();
      }
      stolen[k] = n;
      thief_bad[k] = bad;
      lost_races[k] = lost;
    });

  std::minstd_rand rng(1000 + thieves);
  std::int64_t popped = 0, owner_bad = 0;
  std::vector<item*> batch;
  for (std::size_t r = 0; r < rounds; ++r)
  {
    chase_lev_deque<item>& d = *deques[r];
    std::size_t next = r * per_round;
    const std::size_t end = next + per_round;
    while (next != end)
    {
      // Mostly short bursts, sometimes a long one, so the ring keeps growing.
      // Half of them pushed at once (push_all: one store of bottom for the whole burst).
      const std::size_t burst = 1 + rng() % (rng() % 16 == 0 ? 1024 : 64);
      const bool at_once = rng() % 2 == 0;
      batch.clear();
      for (std::size_t i = 0; i < burst && next != end; ++i, ++next)
      {
        items[next].payload = payload_of(next);
        if (at_once)
          batch.push_back(&items[next]);
        else
          d.push(&items[next]);
      }
      if (!batch.empty())
        d.push_all(batch.data(), batch.size(), [](item*) { return 0; });
      // Then run a few of them, leaving the thieves time to steal.
      for (std::size_t i = rng() % (burst / 2 + 1); i > 0 && owner_runs_one(d, rng, items, owner_bad); --i)
        ++popped;
    }
    while (owner_runs_one(d, rng, items, owner_bad))
      ++popped;
    // relaxed: the thieves read only the index (see above).
    round.store(r + 1, std::memory_order_relaxed);
  }
  for (std::thread& t : ts)
    t.join();

  std::int64_t total = popped, bad = owner_bad, lost = 0;
  for (int k = 0; k < thieves; ++k)
  {
    total += stolen[k];
    bad += thief_bad[k];
    lost += lost_races[k];
  }
  std::size_t grown = 0; // capacity reached, summed over the rounds
  for (const auto& d : deques)
    grown += d->capacity();
  BOOST_TEST_MESSAGE(thieves << " thieves: " << items.size() << " pushed, " << popped << " popped, "
                             << total - popped << " stolen, " << lost << " lost races, mean ring capacity "
                             << grown / rounds);
  BOOST_TEST(total == static_cast<std::int64_t>(items.size()));
  BOOST_TEST(bad == 0);
  check_each_taken_once(items);
}

// The owner pushes exactly one element (or two) and pops once while the thieves try to steal
// them: each element is taken exactly once. The owner waits a little between the signal and
// its pop; the wait grows when its pop got an element and shrinks when the thieves had taken
// them all, so it settles where both sides arrive together: the steal meets every part of pop
// (before the fence, at the compare-exchange, after it). With one element that is the
// compare-exchange race on the last element; with two, a thief's second steal races a pop that
// must not take the same element without the compare-exchange (what pop's fence prevents).
// With 2 thieves they also race each other. The deque is reused, so top and bottom move on.
BOOST_DATA_TEST_CASE(last_element_race, data::make({1, 2}) * data::make({1, 2}), thieves, elements)
{
  const std::size_t rounds = 100000 / BOOST_THREAD_FJ_TEST_SCALE;
  std::vector<item> items(rounds * elements);
  chase_lev_deque<item> d(2);
  std::atomic<std::size_t> go{0};
  std::vector<padded_counter> finished(thieves);
  std::vector<std::int64_t> won(thieves, 0), thief_bad(thieves, 0), lost_races(thieves, 0);

  std::vector<std::thread> ts;
  for (int k = 0; k < thieves; ++k)
    ts.emplace_back([&, k] {
      std::minstd_rand rng(7 + k);
      std::int64_t n = 0, bad = 0, lost = 0;
      for (std::size_t r = 1; r <= rounds; ++r)
      {
        spin_until(go, r);
        delay(rng() % 16);
        for (int i = 0; i < elements; ++i)
        {
          bool lost_race;
          if (item* p = d.steal(lost_race))
          {
            take(p, items, bad);
            ++n;
          }
          else if (lost_race)
            ++lost; // lost the compare-exchange: the closest race there is
          else
            break; // empty
        }
        // release: pairs with the owner's acquire in spin_until; our takes happen before its
        // check of this round's items.
        finished[k].value.store(static_cast<std::int64_t>(r), std::memory_order_release);
      }
      won[k] = n;
      thief_bad[k] = bad;
      lost_races[k] = lost;
    });

  std::minstd_rand rng(3);
  std::int64_t owner_won = 0, owner_bad = 0;
  std::size_t wrong = 0;
  unsigned owner_delay = 0; // adapted each round, see above
  for (std::size_t r = 1; r <= rounds; ++r)
  {
    item* const first = &items[(r - 1) * elements];
    for (int i = 0; i < elements; ++i)
    {
      first[i].payload = payload_of(static_cast<std::size_t>(first + i - items.data()));
      d.push(first + i);
    }
    // release: a thief starts stealing after seeing this (the elements themselves are
    // published by push).
    go.store(r, std::memory_order_release);
    delay(owner_delay + rng() % 16);
    if (item* p = d.pop())
    {
      take(p, items, owner_bad);
      ++owner_won;
      if (owner_delay < 4096) // bounded: a thief that is not scheduled must not slow us down
        owner_delay += 4;
    }
    else if (owner_delay >= 4)
      owner_delay -= 4;
    for (padded_counter& f : finished)
      spin_until(f.value, static_cast<std::int64_t>(r));
    while (item* p = d.pop()) // what the thieves left (they stop at their first "empty")
    {
      take(p, items, owner_bad);
      ++owner_won;
    }
    // Not BOOST_REQUIRE: the thieves are still running.
    for (int i = 0; i < elements; ++i)
      if (first[i].taken != 1 && wrong++ == 0)
        BOOST_TEST(first[i].taken == 1, "round " << r << ", element " << i << ": taken " << first[i].taken
                                                 << " times");
  }
  for (std::thread& t : ts)
    t.join();

  std::int64_t total = owner_won, bad = owner_bad, lost = 0;
  for (int k = 0; k < thieves; ++k)
  {
    total += won[k];
    bad += thief_bad[k];
    lost += lost_races[k];
  }
  BOOST_TEST_MESSAGE(thieves << " thieves, " << elements << " element(s), " << rounds << " rounds: owner took "
                             << owner_won << ", thieves took " << total - owner_won
                             << ", steals that lost the compare-exchange " << lost);
  BOOST_TEST(wrong == 0u);
  BOOST_TEST(total == static_cast<std::int64_t>(items.size()));
  BOOST_TEST(bad == 0);
  BOOST_TEST(d.empty());
}

// take_at against thieves: as owner_against_thieves, but the owner also takes
// elements from anywhere in its deque by the index next_index() gave them, aiming at random
// ones it pushed in this round (many of them stolen or taken already: those tries must fail).
// Each round's deque starts at capacity 2, so claims meet rings that grew under the thieves.
BOOST_DATA_TEST_CASE(take_at_against_thieves, data::make({1, 2, 4, 8}), thieves)
{
  const std::size_t per_round = 4096;
  const std::size_t rounds = 160 / BOOST_THREAD_FJ_TEST_SCALE;
  std::vector<item> items(per_round * rounds);
  std::vector<std::int64_t> index_of(items.size(), -1);
  std::vector<std::unique_ptr<chase_lev_deque<item> > > deques;
  for (std::size_t r = 0; r < rounds; ++r)
    deques.emplace_back(new chase_lev_deque<item>(2));
  std::atomic<std::size_t> round{0};

  std::vector<std::int64_t> stolen(thieves, 0), thief_bad(thieves, 0);
  std::vector<std::thread> ts;
  for (int k = 0; k < thieves; ++k)
    ts.emplace_back([&, k] {
      std::int64_t n = 0, bad = 0;
      for (;;)
      {
        // relaxed: only an index, as in owner_against_thieves.
        const std::size_t r = round.load(std::memory_order_relaxed);
        if (r == rounds)
          break;
        if (item* p = deques[r]->steal())
        {
          take(p, items, bad);
          ++n;
        }
        else
          std::this_thread::yield();
      }
      stolen[k] = n;
      thief_bad[k] = bad;
    });

  std::minstd_rand rng(2000 + thieves);
  std::int64_t owner_took = 0, claimed = 0, owner_bad = 0;
  for (std::size_t r = 0; r < rounds; ++r)
  {
    chase_lev_deque<item>& d = *deques[r];
    const std::size_t first = r * per_round;
    std::size_t next = first;
    const std::size_t end = first + per_round;
    auto tag_of = [](std::size_t k) { return static_cast<std::uint64_t>(k) + 1; }; // unique
    auto claim = [&](std::size_t k) {
      item* const want = &items[k];
      if (item* p = d.take_at(index_of[k], [want, &tag_of, k](item* x, std::uint64_t tag) {
            return x == want && tag == tag_of(k);
          }))
      {
        take(p, items, owner_bad);
        ++owner_took;
        ++claimed;
      }
    };
    while (next != end)
    {
      const std::size_t burst = 1 + rng() % (rng() % 16 == 0 ? 1024 : 64);
      for (std::size_t i = 0; i < burst && next != end; ++i, ++next)
      {
        items[next].payload = payload_of(next);
        index_of[next] = d.next_index();
        d.push(&items[next], tag_of(next));
      }
      for (std::size_t i = rng() % (burst / 2 + 1); i > 0; --i)
      {
        switch (rng() % 3)
        {
        case 0: // the newest
          if (owner_runs_one(d, rng, items, owner_bad))
            ++owner_took;
          break;
        case 1: // one of the last pushed, as a join in fork order would
          claim(next - 1 - rng() % std::min<std::size_t>(next - first, 8));
          break;
        default: // anything pushed this round
          claim(first + rng() % (next - first));
          break;
        }
      }
    }
    while (owner_runs_one(d, rng, items, owner_bad))
      ++owner_took;
    round.store(r + 1, std::memory_order_relaxed); // relaxed: see owner_against_thieves
  }
  for (std::thread& t : ts)
    t.join();

  std::int64_t total = owner_took, bad = owner_bad;
  for (int k = 0; k < thieves; ++k)
  {
    total += stolen[k];
    bad += thief_bad[k];
  }
  BOOST_TEST_MESSAGE(thieves << " thieves: " << items.size() << " pushed, " << owner_took << " taken by the owner ("
                             << claimed << " by take_at), " << total - owner_took << " stolen");
  BOOST_TEST(claimed > 0);
  BOOST_TEST(total == static_cast<std::int64_t>(items.size()));
  BOOST_TEST(bad == 0);
  check_each_taken_once(items);
}

// take_at at every position against thieves at the same moment: the owner pushes `elements`
// elements, signals the thieves, then claims the one at `position` (0 the oldest, the last the
// newest) after an adaptive delay, as last_element_race does for pop, so that claims meet
// steals before the fence, at the compare-exchange and after. Every other round starts on a
// fresh deque of capacity 2, whose ring grew during the pushes just before the claim.
BOOST_DATA_TEST_CASE(take_at_race, data::make({1, 2, 4}) * data::make({2, 3, 5}), thieves, elements)
{
  const std::size_t rounds = 40000 / BOOST_THREAD_FJ_TEST_SCALE;
  std::vector<item> items(rounds * elements);
  std::vector<std::unique_ptr<chase_lev_deque<item> > > deques;
  deques.emplace_back(new chase_lev_deque<item>(2));
  std::atomic<chase_lev_deque<item>*> current{deques.back().get()};
  std::atomic<std::size_t> go{0};
  std::vector<padded_counter> finished(thieves);
  std::vector<std::int64_t> won(thieves, 0), thief_bad(thieves, 0);

  std::vector<std::thread> ts;
  for (int k = 0; k < thieves; ++k)
    ts.emplace_back([&, k] {
      std::minstd_rand rng(17 + k);
      std::int64_t n = 0, bad = 0;
      for (std::size_t r = 1; r <= rounds; ++r)
      {
        spin_until(go, r);
        // relaxed: the owner stores the deque before its release store of `go`.
        chase_lev_deque<item>& d = *current.load(std::memory_order_relaxed);
        delay(rng() % 16);
        for (int i = 0; i < elements; ++i)
        {
          if (item* p = d.steal())
          {
            take(p, items, bad);
            ++n;
          }
          else
            break;
        }
        // release: pairs with the owner's acquire in spin_until.
        finished[k].value.store(static_cast<std::int64_t>(r), std::memory_order_release);
      }
      won[k] = n;
      thief_bad[k] = bad;
    });

  std::minstd_rand rng(5);
  std::int64_t owner_won = 0, claims_won = 0, owner_bad = 0;
  std::size_t wrong = 0;
  unsigned owner_delay = 0;
  std::vector<std::int64_t> at(elements);
  for (std::size_t r = 1; r <= rounds; ++r)
  {
    if (r % 2 == 0)
    {
      deques.emplace_back(new chase_lev_deque<item>(2));
      current.store(deques.back().get(), std::memory_order_relaxed); // relaxed: published by `go`
    }
    chase_lev_deque<item>& d = *current.load(std::memory_order_relaxed);
    item* const first = &items[(r - 1) * elements];
    for (int i = 0; i < elements; ++i)
    {
      first[i].payload = payload_of(static_cast<std::size_t>(first + i - items.data()));
      at[i] = d.next_index();
      d.push(first + i, static_cast<std::uint64_t>(first + i - items.data()) + 1);
    }
    const int position = static_cast<int>(r % elements);
    item* const want = first + position;
    const std::uint64_t want_tag = static_cast<std::uint64_t>(want - items.data()) + 1;
    go.store(r, std::memory_order_release); // release: see last_element_race
    delay(owner_delay + rng() % 16);
    if (item* p = d.take_at(at[position], [want, want_tag](item* x, std::uint64_t tag) { return x == want && tag == want_tag; }))
    {
      take(p, items, owner_bad);
      ++owner_won;
      ++claims_won;
      if (owner_delay < 4096)
        owner_delay += 4;
    }
    else if (owner_delay >= 4)
      owner_delay -= 4;
    for (padded_counter& f : finished)
      spin_until(f.value, static_cast<std::int64_t>(r));
    while (item* p = d.pop())
    {
      take(p, items, owner_bad);
      ++owner_won;
    }
    for (int i = 0; i < elements; ++i)
      if (first[i].taken != 1 && wrong++ == 0)
        BOOST_TEST(first[i].taken == 1, "round " << r << ", element " << i << " (claimed: " << position
                                                 << "): taken " << first[i].taken << " times");
  }
  for (std::thread& t : ts)
    t.join();

  std::int64_t total = owner_won, bad = owner_bad;
  for (int k = 0; k < thieves; ++k)
  {
    total += won[k];
    bad += thief_bad[k];
  }
  BOOST_TEST_MESSAGE(thieves << " thieves, " << elements << " elements, " << rounds << " rounds: claims won "
                             << claims_won << ", owner took " << owner_won << ", thieves took " << total - owner_won);
  BOOST_TEST(wrong == 0u);
  BOOST_TEST(total == static_cast<std::int64_t>(items.size()));
  BOOST_TEST(bad == 0);
}

// The happens-before edge of push -> steal on its own: the owner fills a plain, multi-field
// payload right before each push, only ever in its own thread; thieves read every field. The
// ring starts at capacity 2, so thieves also read slots copied into grown rings. Under
// ThreadSanitizer a missing release/acquire pair is a reported race here, not just a wrong
// value.
BOOST_AUTO_TEST_CASE(thief_sees_data_written_before_push)
{
  struct message
  {
    std::int64_t words[8];
    std::vector<int> list; // heap memory written by the owner, read by the thief
    std::int64_t checked;  // incremented by the taker, read after the join
  };
  const std::size_t n = 200000 / BOOST_THREAD_FJ_TEST_SCALE;
  const int thieves = 2;
  std::vector<message> messages(n);
  chase_lev_deque<message> d(2);
  std::atomic<bool> done{false};

  // The taker's side: every field as the owner wrote it.
  auto check = [&](message* m) {
    const std::int64_t i = m - messages.data();
    bool ok = m->list.size() == 3 && m->list[0] == static_cast<int>(i % 1000) && m->list[2] == -1;
    for (int w = 0; w < 8; ++w)
      ok = ok && m->words[w] == i * 8 + w;
    m->checked += ok ? 1 : 1000; // 1 exactly when taken once and seen whole
  };

  std::vector<std::thread> ts;
  for (int k = 0; k < thieves; ++k)
    ts.emplace_back([&] {
      for (;;)
      {
        // acquire: pairs with the owner's release store of `done`, which follows its last push:
        // a thief that sees it and then finds the deque empty has seen everything.
        const bool last = done.load(std::memory_order_acquire);
        if (message* m = d.steal())
          check(m);
        else if (last)
          break;
      }
    });

  std::minstd_rand rng(11);
  for (std::size_t i = 0; i < n; ++i)
  {
    message& m = messages[i];
    for (int w = 0; w < 8; ++w)
      m.words[w] = static_cast<std::int64_t>(i) * 8 + w;
    m.list = {static_cast<int>(i % 1000), 0, -1};
    d.push(&m);
    if (rng() % 4 == 0)
      if (message* p = d.pop())
        check(p);
  }
  done.store(true, std::memory_order_release);
  while (message* p = d.pop())
    check(p);
  for (std::thread& t : ts)
    t.join();

  std::size_t wrong = 0;
  for (std::size_t i = 0; i < n; ++i)
    if (messages[i].checked != 1 && wrong++ == 0)
      BOOST_TEST(messages[i].checked == 1, "message " << i << ": checked " << messages[i].checked);
  BOOST_TEST(wrong == 0u);
}

BOOST_AUTO_TEST_SUITE_END()

// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// The per-worker deque: a lock-free work-stealing deque of task pointers.
//
// Algorithm: D. Chase, Y. Lev, "Dynamic Circular Work-Stealing Deque" (SPAA 2005), with the
// memory orders of N. M. Lê, A. Pop, A. Cohen, F. Zappa Nardelli, "Correct and Efficient
// Work-Stealing for Weak Memory Models" (PPoPP 2013), strengthened where ThreadSanitizer or
// C++20's release sequences need it (each such place says so):
//   - push publishes a slot with a release store of bottom_ (the paper: release fence + relaxed
//     store), because ThreadSanitizer does not model std::atomic_thread_fence;
//   - pop's stores of bottom_ are release too (the paper: relaxed): since C++20 (P0982) a later
//     relaxed store by the same thread no longer continues the release sequence of push's
//     store, and a thief that reads pop's value of bottom_ must still see the slots below it;
//   - the ring is published with release and read with acquire (the paper: relaxed / consume).
// The paper's two seq_cst fences (pop, steal) stay: they order a store before a later load of
// another location (bottom_ then top_ in pop, top_ then bottom_ in steal), which no
// release/acquire pair can do, and without them the owner and a thief could both take the same
// element (the owner without the compare-exchange).
// ThreadSanitizer cannot see these fences, and does not need to: it checks happens-before,
// which the release/acquire pairs above carry on their own, and it runs the real fences.
//
// Threading contract:
//   - one thread, the owner, calls push(), pop(), pop_if(), take_at() and next_index(); it
//     alone writes bottom_, ring_ and the slots (checked in assertion builds: the first thread
//     that calls one of them is the owner, until it calls release_owner());
//   - any thread (the owner included) calls steal(), size(), empty() and capacity();
//   - top_ only grows, by a seq_cst compare-exchange (a thief's steal, or the owner's pop of the
//     last element);
//   - the deque stores T* and never owns, copies, or deletes the pointees;
//   - each slot also holds a 64-bit tag, stored with the pointer and published with it, so that
//     pop_if() and steal_if() can decide whether to take an element without reading the
//     pointee, which another taker may already have freed (search.hpp uses it to let a
//     waiting thread take only the tasks it may run, admission.hpp).
// Progress: push and take_at are wait-free except when push grows the ring (an allocation); pop
// is wait-free but for the holes it discards on its way (below), each once; steal is lock-free
// (a thief that loses a race returns at once; it goes on inside the deque only past a hole it
// took, and each hole is taken once).
//
// Holes. take_at(i) lets the owner take the element at any index i in [top, bottom),
// not only the newest: a join in fork order waits for its oldest child first, which sits under
// the younger ones (Java's ForkJoinPool does the same in awaitJoin / tryRemoveAndExec). When i
// is neither end, the owner leaves a hole, a slot holding nullptr, in its place (so push()
// never takes nullptr); pop and steal take a hole like an element and discard it. The claim is
// pop's protocol with bottom_ lowered to i instead of bottom - 1: store bottom_ = i, seq_cst
// fence, load top_. If top_ < i, no thief can take index i any more, nor any above it: a thief
// that read a value of bottom_ stored before ours would have read top_ == i from a
// compare-exchange C coherence-ordered after our load of top_, so our fence precedes C in the
// fences' total order S, C precedes its fence (C is read by its acquire load, which precedes
// the fence), and its fence precedes ours (its load of bottom_ is coherence-ordered before our
// store): a cycle in S. So the owner writes the hole and stores bottom_ back (release: a thief
// that reads it sees the hole). If top_ == i, it races the thieves for index i with the
// compare-exchange on top_, as pop does for the last element; if top_ > i, a thief took it.
// The cost is O(1): no element moves, and a hole is taken once.
//
// Indices are 64-bit signed and never wrap in practice (2^63 pushes); the slot of index i is
// i & (capacity - 1), the capacity a power of two. The live elements are [top_, bottom_):
// the owner works at the bottom (newest, LIFO), thieves at the top (oldest, FIFO).
//
// Growth: when a push finds the ring full, the owner allocates a ring of twice the capacity
// (or four times, or more: as many doublings as a push_all of many elements needs), copies the
// live range [top, bottom) into it and publishes it. The old ring is NOT freed: a thief that
// loaded the old ring pointer just before the swap may still read a slot from it
// (the value it reads there is the same as in the new ring, and its compare-exchange on top_
// decides whether it may use it). Retired rings hang off the new ring in an owner-only chain
// and are freed by the destructor; their total size is below the current capacity, so the
// deque never holds more than twice its current capacity.

#ifndef BOOST_THREAD_EXECUTORS_DETAIL_FORK_JOIN_PRIMITIVES_CHASE_LEV_DEQUE_HPP
#define BOOST_THREAD_EXECUTORS_DETAIL_FORK_JOIN_PRIMITIVES_CHASE_LEV_DEQUE_HPP

#include <boost/thread/executors/detail/fork_join/base/config.hpp>
#include <boost/thread/executors/detail/fork_join/base/fence.hpp>
#include <boost/throw_exception.hpp>

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <new>
#include <stdexcept>
#ifdef BOOST_THREAD_FJ_ENABLE_ASSERT
#include <thread>
#endif

namespace boost {
namespace detail {
namespace fork_join {

  template <class T>
  class chase_lev_deque
  {
  public:
    typedef T* value_type;
    typedef std::size_t size_type;

    // Effects: an empty deque whose ring holds `capacity` slots, rounded up to a power of two
    //   and to at least 2.
    // Throws: std::length_error if capacity exceeds 2^62 (2^31 on 32-bit targets);
    //   std::bad_alloc.
    explicit chase_lev_deque(size_type capacity = 256);

    // Requires: no other thread uses the deque any more.
    // Effects: frees every ring this deque allocated; does not touch the pointees.
    ~chase_lev_deque();

    chase_lev_deque(const chase_lev_deque&) = delete;
    chase_lev_deque& operator=(const chase_lev_deque&) = delete;

    // Requires: called by the owner; x is not null (nullptr marks a hole).
    // Effects: inserts x, with its tag, at the bottom (it is the next pop()), at index
    //   next_index(); doubles the ring when full.
    // Synchronization: everything the owner did before push(x) happens before the thread that
    //   later takes x (by pop or steal) returns it.
    // Returns: the number of elements before x, as the owner saw top_ (a hint: 0 means that
    //   every earlier element had been taken; a nonzero count may include elements a thief is
    //   taking at that moment).
    // Throws: std::bad_alloc when growing fails; the deque is then unchanged.
    // Progress: wait-free (no read-modify-write) unless the ring grows.
    size_type push(T* x, std::uint64_t tag = 0)
    {
      return push_all(&x, 1, [tag](T*) noexcept { return tag; });
    }

    // Requires: called by the owner; xs[0], ..., xs[n - 1] are not null; tag_of(x) does not
    //   throw.
    // Effects: as push(xs[i], tag_of(xs[i])) for i = 0, ..., n - 1 in turn (xs[n - 1] is the next
    //   pop()), at indices next_index(), ..., next_index() + n - 1, with one store of bottom_
    //   for all of them: a thief sees none of them or a prefix of them, oldest first.
    // Synchronization: as push(), for each element.
    // Returns: the number of elements before xs[0], as push() does.
    // Throws: std::bad_alloc when growing fails; the deque is then unchanged.
    // Progress: wait-free unless the ring grows.
    template <class TagOf>
    size_type push_all(T* const* xs, size_type n, TagOf&& tag_of);

    // Requires: called by the owner.
    // Effects: grows the ring, if needed, so that the next pushes of n elements in all do not
    //   grow it (whatever thieves take meanwhile: they only make room).
    // Throws: std::bad_alloc when growing fails; the deque is then unchanged.
    // Progress: wait-free unless the ring grows.
    void reserve(size_type n);

    // Requires: called by the owner.
    // Effects: removes the newest element, if any (holes are discarded, as by pop_if()).
    // Returns: that element, or nullptr when the deque was empty (or a thief took its last
    //   element first).
    // Progress: wait-free.
    T* pop() noexcept
    {
      return pop_if([](T*, std::uint64_t) { return true; });
    }

    // Requires: called by the owner; accept(element, tag) does not throw (and must not use the
    //   element's pointee: it may belong to a thief already).
    // Effects: discards the holes at the bottom (take_at), then as pop(), but only if
    //   accept(newest element, its tag) is true; otherwise that element stays and nullptr is
    //   returned.
    template <class Accept>
    T* pop_if(Accept&& accept) noexcept;

    // Requires: called by the owner.
    // Returns: the index the next push() gives its element. An element keeps its index until it
    //   is taken (growth copies it to the same index).
    // Progress: wait-free.
    std::int64_t next_index() const noexcept
    {
      BOOST_THREAD_FJ_ASSERT(called_by_owner());
      return bottom_.load(std::memory_order_relaxed); // relaxed: owner-only, as in push()
    }

    // Requires: called by the owner, whose thread will not use the deque again.
    // Effects: the next thread that calls an owner-only function is the owner (a pool slot's
    //   fresh thread, after the one that left was joined). Only assertion builds record the
    //   owner; in others this does nothing.
    void release_owner() noexcept
    {
#ifdef BOOST_THREAD_FJ_ENABLE_ASSERT
      BOOST_THREAD_FJ_ASSERT(called_by_owner());
      owner_.store(std::thread::id(), std::memory_order_relaxed); // relaxed: the next owner's thread starts after this one is joined
#endif
    }

    // Requires: called by the owner; accept as for pop_if().
    // Effects: takes the element at index i if it is still in the deque (not taken by pop, a
    //   thief or an earlier take_at) and accept(it, its tag) is true; returns it, or nullptr.
    //   An element taken from between the ends leaves a hole (see the file comment).
    //   accept must identify the element itself (a pointer and a tag that no other push
    //   reuses): a slot keeps its old value after its element was stolen, and another
    //   element may have been pushed at index i since.
    // Synchronization: as pop().
    // Progress: wait-free.
    template <class Accept>
    T* take_at(std::int64_t i, Accept&& accept) noexcept;

    // Effects: removes the oldest element, if any and if no other taker wins it first (holes
    //   on the way are taken and discarded).
    // Synchronization: the push of the returned element happens before this call returns.
    // Returns: that element, or nullptr. lost_race is set to true when nullptr is returned
    //   because another thief (or the owner's pop of the last element) took the element this
    //   call tried to take: the deque may well be non-empty, and a retry may succeed. It is set
    //   to false otherwise (success, or the deque was seen empty).
    // Progress: lock-free (one compare-exchange, never a retry loop).
    T* steal(bool& lost_race) noexcept
    {
      return steal_if([](T*, std::uint64_t) { return true; }, lost_race);
    }

    // Effects, Returns: as steal(lost_race), for callers that treat a lost race as "empty".
    T* steal() noexcept
    {
      bool lost_race;
      return steal(lost_race);
    }

    // Requires: accept(element, tag) does not throw and does not use the element's pointee
    //   (another taker may own it already).
    // Effects: as steal(lost_race), but takes the oldest element only if accept(it, its tag) is
    //   true; otherwise takes nothing and returns nullptr (lost_race false). The tag is read
    //   before the compare-exchange, and the element it belongs to is the one the
    //   compare-exchange takes when it succeeds: a slot is only overwritten once top_ has moved
    //   past it, and then the compare-exchange fails.
    template <class Accept>
    T* steal_if(Accept&& accept, bool& lost_race) noexcept;

    // Returns: a snapshot of bottom - top, clamped at 0, holes included. Exact for the owner when
    //   no thief is active; from any other thread (or during steals) only a hint, which
    //   pop/steal re-check.
    // Progress: wait-free.
    size_type size() const noexcept;

    // Returns: size() == 0 (a hint, as size()).
    bool empty() const noexcept { return size() == 0; }

    // Returns: the number of slots of the current ring (a power of two, at least 2).
    // Progress: wait-free.
    size_type capacity() const noexcept;

  private:
    // A power-of-two array of slots, with the chain of rings it replaced (owner-only).
    struct ring
    {
      struct slot_type
      {
        std::atomic<T*> item{nullptr};
        std::atomic<std::uint64_t> tag{0};
      };

      explicit ring(std::int64_t cap) : mask(cap - 1), slots(new slot_type[static_cast<std::size_t>(cap)]) {}

      // relaxed: a slot is published by the release store of bottom_ (or of ring_) that
      // follows its store, and read after the acquire load of bottom_ / ring_ that pairs with it.
      BOOST_FORCEINLINE T* get(std::int64_t i) const noexcept { return slot(i).item.load(std::memory_order_relaxed); }
      BOOST_FORCEINLINE std::uint64_t get_tag(std::int64_t i) const noexcept { return slot(i).tag.load(std::memory_order_relaxed); }
      // The slot's address is taken once: GCC reloads mask and slots after an atomic store,
      // which costs each push four instructions more when put() names the slot twice.
      BOOST_FORCEINLINE void put(std::int64_t i, T* x, std::uint64_t tag) noexcept
      {
        slot_type& s = slot(i);
        s.item.store(x, std::memory_order_relaxed);
        s.tag.store(tag, std::memory_order_relaxed);
      }
      BOOST_FORCEINLINE slot_type& slot(std::int64_t i) const noexcept { return slots[static_cast<std::size_t>(i & mask)]; }

      const std::int64_t mask;
      const std::unique_ptr<slot_type[]> slots;
      std::unique_ptr<ring> retired; // the ring this one replaced; owner-only, freed with this one
    };

    // Effects: replaces old with a ring of the smallest capacity, old's times a power of two,
    // that holds [t, b) and `room` more elements; returns it. Throws: std::bad_alloc (nothing
    // changed).
    ring* grow(ring* old, std::int64_t t, std::int64_t b, std::int64_t room);

    // The largest ring: 2^62 on 64-bit targets (indices stay far from std::int64_t's limit),
    // 2^31 on 32-bit ones.
    static constexpr size_type max_capacity = static_cast<size_type>(
        std::min<std::uint64_t>(std::numeric_limits<size_type>::max() / 2 + 1, std::uint64_t(1) << 62));
    static constexpr std::size_t cache_line = 64;

    // Written by takers (compare-exchange), read by everyone: its own cache line.
    alignas(cache_line) std::atomic<std::int64_t> top_{0};
    // Written by the owner only, read by thieves on every steal: together on another line.
    alignas(cache_line) std::atomic<std::int64_t> bottom_{0};
    std::atomic<ring*> ring_{nullptr};

#ifdef BOOST_THREAD_FJ_ENABLE_ASSERT
    // Assertion builds only (a user's deque has no such member): the owner, bound by the first
    // owner-only call. relaxed: the compare-exchange only makes the binding unique (a load
    // first, so that the owner's later calls only read the line); a thread
    // that is not the owner and calls an owner-only function breaks the contract, which is
    // what the check reports.
    mutable std::atomic<std::thread::id> owner_{std::thread::id()};

    // Returns: whether the calling thread is the owner (binding it if there is none yet).
    bool called_by_owner() const noexcept
    {
      const std::thread::id self = std::this_thread::get_id();
      std::thread::id seen = owner_.load(std::memory_order_relaxed); // relaxed: as above
      if (seen == std::thread::id() && owner_.compare_exchange_strong(seen, self, std::memory_order_relaxed))
        return true;
      return seen == self;
    }
#endif
  };

  template <class T>
  chase_lev_deque<T>::chase_lev_deque(size_type capacity)
  {
    size_type cap = 2;
    while (cap < capacity)
    {
      if (cap > max_capacity / 2)
        boost::throw_exception(std::length_error("chase_lev_deque: capacity too large"));
      cap <<= 1;
    }
    // relaxed: the deque is not shared yet; whoever receives it is ordered by that hand-over.
    ring_.store(new ring(static_cast<std::int64_t>(cap)), std::memory_order_relaxed);
  }

  template <class T>
  chase_lev_deque<T>::~chase_lev_deque()
  {
    // relaxed: no other thread uses the deque (Requires); the chain of retired rings goes with
    // the current one.
    delete ring_.load(std::memory_order_relaxed);
  }

  template <class T>
  template <class TagOf>
  BOOST_FORCEINLINE typename chase_lev_deque<T>::size_type chase_lev_deque<T>::push_all(T* const* xs, size_type n, TagOf&& tag_of)
  {
    BOOST_THREAD_FJ_ASSERT(called_by_owner());
    // relaxed: owner-only (the owner is bottom_'s only writer).
    const std::int64_t b = bottom_.load(std::memory_order_relaxed);
    // acquire: pairs with the seq_cst (so also release) compare-exchange of the thief that
    // moved top_ here: its read of the slot it took happens before we reuse that slot below.
    const std::int64_t t = top_.load(std::memory_order_acquire);
    // relaxed: owner-only (the owner is ring_'s only writer).
    ring* a = ring_.load(std::memory_order_relaxed);
    const std::int64_t count = static_cast<std::int64_t>(n);
    // b - t + count > capacity: no room for all (a stale t only makes us grow early).
    if (b - t + count - 1 > a->mask)
      a = grow(a, t, b, count);
    for (std::int64_t i = 0; i != count; ++i)
    {
      T* const x = xs[i];
      BOOST_THREAD_FJ_ASSERT(x != nullptr); // nullptr is a hole
      a->put(b + i, x, tag_of(x));
    }
    // release: publishes the slots just written and everything the owner did before the push;
    // pairs with the acquire load of bottom_ in steal(). (The paper's release fence + relaxed
    // store, spelled so that ThreadSanitizer sees the edge.)
    bottom_.store(b + count, std::memory_order_release);
    return static_cast<size_type>(b - t);
  }

  template <class T>
  void chase_lev_deque<T>::reserve(size_type n)
  {
    BOOST_THREAD_FJ_ASSERT(called_by_owner());
    // The loads of push_all(), for the same reasons: relaxed for what only the owner writes,
    // acquire for top_ (a slot a thief took is read before growth copies over it).
    const std::int64_t b = bottom_.load(std::memory_order_relaxed);
    const std::int64_t t = top_.load(std::memory_order_acquire);
    ring* const a = ring_.load(std::memory_order_relaxed);
    const std::int64_t count = static_cast<std::int64_t>(n);
    if (b - t + count - 1 > a->mask)
      grow(a, t, b, count);
  }

  template <class T>
  template <class Accept>
  BOOST_FORCEINLINE T* chase_lev_deque<T>::pop_if(Accept&& accept) noexcept
  {
    BOOST_THREAD_FJ_ASSERT(called_by_owner());
    for (;;)
    {
      // relaxed: owner-only, as in push().
      const std::int64_t b = bottom_.load(std::memory_order_relaxed) - 1;
      ring* a = ring_.load(std::memory_order_relaxed);
      // The owner is the only writer of slots, so it may read the newest one before deciding.
      // If the deque is empty the slot is stale and the pop below finds nothing anyway; if a
      // thief takes that element meanwhile, it was the last one and the compare-exchange below
      // fails. A hole (nullptr) is taken without asking accept.
      const typename ring::slot_type& s = a->slot(b); // its address once, as in put()
      // relaxed, both loads (as ring::get() and get_tag()): the owner reads a slot that only
      // it writes, so program order is the only edge it needs.
      T* const x = s.item.load(std::memory_order_relaxed);
      if (x && !accept(x, s.tag.load(std::memory_order_relaxed)))
        return nullptr;
      // release (the paper: relaxed): a thief may read this value with its acquire load and
      // then take a slot below it; since C++20 this store does not continue the release
      // sequence of push's store, so it carries the release itself. Free on x86 (a plain store).
      bottom_.store(b, std::memory_order_release);
      // seq_cst fence: store bottom_, then load top_ (store-load order). Paired with the fence
      // in steal(): either this pop sees the thief's increment of top_, or that thief sees our
      // decrement of bottom_, so the two never both take the element at b without the
      // compare-exchange below.
      seq_cst_fence();
      // relaxed: ordered by the fence above; the last element is decided by the compare-exchange.
      std::int64_t t = top_.load(std::memory_order_relaxed);
      if (t > b)
      {
        // Empty: restore bottom_ (release: as the decrement above).
        bottom_.store(b + 1, std::memory_order_release);
        return nullptr;
      }
      if (t == b)
      {
        // The last element: race the thieves for it on top_. seq_cst as in the paper (a single
        // total order with the thieves' compare-exchanges); relaxed on failure: x is dropped.
        // Empty either way (top_ is b + 1 now), so a hole taken here also ends the pop.
        const bool won = top_.compare_exchange_strong(t, t + 1, std::memory_order_seq_cst, std::memory_order_relaxed);
        // Restore bottom_ (release: as the decrement above).
        bottom_.store(b + 1, std::memory_order_release);
        return won ? x : nullptr;
      }
      if (x)
        return x;
      // A hole taken from the bottom (t < b: no thief could race for it): look at the next.
    }
  }

  template <class T>
  template <class Accept>
  T* chase_lev_deque<T>::take_at(std::int64_t i, Accept&& accept) noexcept
  {
    BOOST_THREAD_FJ_ASSERT(called_by_owner());
    // relaxed: owner-only, as in push().
    const std::int64_t b = bottom_.load(std::memory_order_relaxed);
    // relaxed: a hint; top_ only grows, so a value past i proves the element taken, and a
    // stale smaller one is decided by the protocol below.
    if (i >= b || top_.load(std::memory_order_relaxed) > i)
      return nullptr; // not in the deque any more (or never was)
    ring* a = ring_.load(std::memory_order_relaxed); // relaxed: owner-only, as in push()
    T* const x = a->get(i);
    if (!x || !accept(x, a->get_tag(i)))
      return nullptr; // a hole, or another element (the slot may be stale: accept identifies)
    if (i == b - 1) // the newest, not a hole: pop's own case
      return pop_if([](T*, std::uint64_t) { return true; });
    // Lower bottom_ to i, as pop() lowers it to b - 1 (release, fence: as there), then load
    // top_ (relaxed: ordered by the fence). The file comment has the argument.
    bottom_.store(i, std::memory_order_release);
    seq_cst_fence();
    std::int64_t t = top_.load(std::memory_order_relaxed);
    T* taken = nullptr;
    if (t < i)
    {
      // No thief can take index i now: leave a hole there. relaxed: published by the release
      // store of bottom_ below, which every thief that reaches index i reads (or a later one).
      a->put(i, nullptr, a->get_tag(i));
      taken = x;
    }
    else if (t == i && top_.compare_exchange_strong(t, t + 1, std::memory_order_seq_cst, std::memory_order_relaxed))
      taken = x; // the oldest element, won against the thieves as pop() wins the last one
    // Restore bottom_ (release: as pop() restores it): [top_, b) stay, with a hole at i if taken
    // from between the ends.
    bottom_.store(b, std::memory_order_release);
    return taken;
  }

  template <class T>
  template <class Accept>
  T* chase_lev_deque<T>::steal_if(Accept&& accept, bool& lost_race) noexcept
  {
    lost_race = false;
    for (;;)
    {
      // acquire (as in the paper): pairs with the compare-exchange that moved top_ here.
      std::int64_t t = top_.load(std::memory_order_acquire);
      // seq_cst fence: load top_, then load bottom_, ordered against pop's store of bottom_
      // followed by its load of top_ (see pop()).
      seq_cst_fence();
      // acquire: pairs with the release store of bottom_ in push() (or pop(), take_at()): the
      // slots in [t, b), holes included, the ring they live in and the pointees' contents are
      // visible from here on.
      const std::int64_t b = bottom_.load(std::memory_order_acquire);
      if (t >= b)
        return nullptr;
      // acquire: pairs with the release store in grow(): a new ring is seen with its copied
      // slots. The ring read here is never older than the one the owner used when it stored
      // the value of bottom_ read above (that ring's publication happens before that store), so
      // it holds slot t unless top_ has moved past t, and then the compare-exchange fails. A
      // ring replaced meanwhile stays alive until the destructor (see the file comment).
      ring* a = ring_.load(std::memory_order_acquire);
      // Read the slot BEFORE the compare-exchange: once top_ moves past t, the owner may reuse
      // the slot. The value is only used when the compare-exchange below succeeds, i.e. when
      // top_ was still t, and then slot t still held the element at index t (take_at() writes
      // a hole only at an index no thief can take, see the file comment).
      T* x = a->get(t);
      // The tag likewise; an element this thread may not run stays where it is. A hole is
      // taken whatever accept says: it hides the elements above it.
      if (x && !accept(x, a->get_tag(t)))
        return nullptr;
      // seq_cst as in the paper: one total order among all takers of index t; the winner alone
      // returns x. relaxed on failure: nothing read after it.
      if (!top_.compare_exchange_strong(t, t + 1, std::memory_order_seq_cst, std::memory_order_relaxed))
      {
        lost_race = true;
        return nullptr;
      }
      if (x)
        return x;
      // A hole taken: look at the next index (each hole is taken once, so this ends).
    }
  }

  template <class T>
  BOOST_FORCEINLINE typename chase_lev_deque<T>::size_type chase_lev_deque<T>::size() const noexcept
  {
    // relaxed (both): a hint; nobody takes or skips an element because of it, pop() and steal()
    // re-check. bottom_ first and top_ last: for the owner bottom_ is exact, and top_ is then
    // as fresh as one load can make it.
    const std::int64_t b = bottom_.load(std::memory_order_relaxed);
    const std::int64_t t = top_.load(std::memory_order_relaxed);
    return b > t ? static_cast<size_type>(b - t) : 0;
  }

  template <class T>
  typename chase_lev_deque<T>::size_type chase_lev_deque<T>::capacity() const noexcept
  {
    // acquire: pairs with the release store in grow(), so that a non-owner reads the new
    // ring's mask initialized.
    return static_cast<size_type>(ring_.load(std::memory_order_acquire)->mask + 1);
  }

  // Owner only, from push_all(): a ring holding [t, b) and room for `room` more, published.
  // Nothing changes if the allocation throws.
  template <class T>
  typename chase_lev_deque<T>::ring* chase_lev_deque<T>::grow(ring* old, std::int64_t t, std::int64_t b, std::int64_t room)
  {
    std::int64_t capacity = old->mask + 1;
    do
    {
      if (static_cast<size_type>(capacity) > max_capacity / 2)
        boost::throw_exception(std::bad_alloc());
      capacity *= 2;
    } while (b - t + room > capacity);
    std::unique_ptr<ring> fresh(new ring(capacity));
    // Elements in [t, b) keep their indices; slots below t (taken, or being taken by a thief
    // that will lose or already won) need no copy.
    for (std::int64_t i = t; i != b; ++i)
      fresh->put(i, old->get(i), old->get_tag(i));
    fresh->retired.reset(old); // kept alive for thieves that still read from it
    ring* a = fresh.release();
    // release: pairs with the acquire load of ring_ in steal() (and capacity()): a thief that
    // sees the new ring sees its copied slots.
    ring_.store(a, std::memory_order_release);
    return a;
  }

} // namespace fork_join
} // namespace detail
} // namespace boost

#endif // header

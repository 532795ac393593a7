// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// The configuration of the fork/join executor, in one place: the check of the compiler and
// Boost.Thread macros, the sanitizer in use, every tunable with its default and meaning, the
// build switches, and the assertion macro.
//
// Boost.Thread's own executor headers expand to nothing when the executor macros are missing,
// which leaves a user with "basic_thread_pool is not a member of boost::executors" and no hint.
// Ours stop with a message that names the macros instead.
//
// Build switches (define them, with no value, before the first include, and alike in every
// translation unit of a program: some change the layout of internal classes, e.g.
// BOOST_THREAD_FJ_ENABLE_ASSERT adds the deque's owner record; the user manual's
// "Boost versions, internals and the public-API-only mode" says what each changes):
//   BOOST_THREAD_FJ_PUBLIC_API_ONLY  use no Boost.Thread internal (base/boost_compat.hpp): forks
//                                    complete a boost::promise; joins of other futures poll
//   BOOST_THREAD_FJ_NO_STATE_CACHE   allocate every fork's shared state with operator new (the
//                                    default under AddressSanitizer, futures/state_cache.hpp)
//   BOOST_THREAD_FJ_NO_FORK_RECYCLING  give every fork's shared state back at its end instead of
//                                    keeping it for the thread's next fork (futures/fork_recycler.hpp)
//   BOOST_THREAD_FJ_FIBER_GUARD_MPROTECT  guard fiber stacks with mprotect from the start, as on
//                                    kernels without guard markers (primitives/fiber_stack.hpp)
//   BOOST_THREAD_FJ_ENABLE_ASSERT    check the cheap preconditions and invariants
//                                    (BOOST_THREAD_FJ_ASSERT below); the tests' builds define it

#ifndef BOOST_THREAD_EXECUTORS_DETAIL_FORK_JOIN_BASE_CONFIG_HPP
#define BOOST_THREAD_EXECUTORS_DETAIL_FORK_JOIN_BASE_CONFIG_HPP

#include <boost/thread/detail/config.hpp>

#if __cplusplus < 201703L && !(defined(_MSVC_LANG) && _MSVC_LANG >= 201703L)
#error "Boost.Thread fork/join executor: C++17 or later is required (compile with -std=c++17)."
#endif

#if !defined BOOST_THREAD_PROVIDES_EXECUTORS
#error "Boost.Thread fork/join executor: define BOOST_THREAD_VERSION=5 (or BOOST_THREAD_VERSION=4 together with BOOST_THREAD_PROVIDES_EXECUTORS) before including any Boost header; the CMake target Boost::fork_join does this for you."
#endif

#if !defined BOOST_THREAD_PROVIDES_FUTURE_CONTINUATION || !defined BOOST_THREAD_USES_MOVE
#error "Boost.Thread fork/join executor: BOOST_THREAD_PROVIDES_FUTURE_CONTINUATION and BOOST_THREAD_USES_MOVE are required (BOOST_THREAD_VERSION=4 or 5 provides them)."
#endif

// Which sanitizer instruments this translation unit, for the files that must tell it what it
// cannot see (fork_state.hpp's recycled mutexes, parking.hpp's stack switches).
#if defined __SANITIZE_THREAD__
#define BOOST_THREAD_FJ_TSAN
#elif defined __has_feature
#if __has_feature(thread_sanitizer)
#define BOOST_THREAD_FJ_TSAN
#endif
#endif
#if defined __SANITIZE_ADDRESS__
#define BOOST_THREAD_FJ_ASAN
#elif defined __has_feature
#if __has_feature(address_sanitizer)
#define BOOST_THREAD_FJ_ASAN
#endif
#endif

// Tunables. Each may be defined before the first include to change it; the defaults are the
// measured choices (doc/benchmark/README.md).

#ifndef BOOST_THREAD_FJ_WORKER_STACK_SIZE
// Stack size of each worker thread, in bytes: enough for a chain of 10^6 nested fork+join
// levels of parallel_invoke on one worker (about 500 bytes a level with GCC 12 -O2; fork/join
// with futures about 350, define_task_block about 1 KiB: the figures of doc/reference.md,
// "Constructors"). Address space only: the pages a chain never touches are never committed.
#define BOOST_THREAD_FJ_WORKER_STACK_SIZE (std::size_t(640) << 20)
#endif

#ifndef BOOST_THREAD_FJ_HELPER_STACK_RESERVE
// Stack a thread keeps free: below this it stops running queued tasks (a quarter of a stack
// no larger than this, a half under AddressSanitizer: stack_bounds.hpp, small_stack_reserve).
#define BOOST_THREAD_FJ_HELPER_STACK_RESERVE (std::size_t(1) << 20)
#endif

#ifndef BOOST_THREAD_FJ_FIBER_STACK_SIZE
// Size in bytes of each stack a pool thread switches to when one of its frames parks (the
// default of fork_join_thread_pool::options::fiber_stack_size): 8 MiB, the stack a thread gets
// by default on Linux (RLIMIT_STACK), so that a task that runs on a basic_thread_pool's thread
// runs on a fiber too. Address space only: a fiber commits the pages it touches, a few KiB for
// most. Nesting of this library's own fork/join forms does not depend on it: a join near the
// end of a stack goes on on a fresh one (doc/index.md, "Deep chains"). 0: the size of the
// pool's worker stacks (stack_bounds.hpp).
#define BOOST_THREAD_FJ_FIBER_STACK_SIZE (std::size_t(8) << 20)
#endif

#ifndef BOOST_THREAD_FJ_FIBER_STACK_CACHE
// How many free fiber stacks, with their pages, a pool thread keeps for its next parkings.
#define BOOST_THREAD_FJ_FIBER_STACK_CACHE 16
#endif

#ifndef BOOST_THREAD_FJ_FIBER_STACKS_PER_MAPPING
// How many fiber stacks one mapping (a slab) holds; a slab that cannot be mapped at this size
// (an address-space limit) is retried with one stack.
#define BOOST_THREAD_FJ_FIBER_STACKS_PER_MAPPING 16
#endif

#ifndef BOOST_THREAD_FJ_FIBER_STACK_MMAP
// The function that maps fiber stacks, with mmap's signature: the tests put one there that can
// refuse, as a system at its limits does (test/stack_mappings.hpp).
#define BOOST_THREAD_FJ_FIBER_STACK_MMAP ::mmap
#endif

#ifndef BOOST_THREAD_FJ_IDLE_SPIN_ROUNDS
// Rounds of "look everywhere, then yield" an idle worker makes before it sleeps (and a joiner
// with nothing it may run before its frame parks or, off the pool, its thread sleeps). 64
// rather than 16: a thread that sleeps while another pushes one task at a time (a deep chain)
// makes the pusher's next push a wake-up call, a system call on its path, and then sleeps
// again; doc/benchmark/README.md has the measurements.
#define BOOST_THREAD_FJ_IDLE_SPIN_ROUNDS 64
#endif

#ifndef BOOST_THREAD_FJ_PARKED_SPIN_ROUNDS
// The same rounds for a pool thread that has frames parked: it expects their posts, and a post
// that finds it asleep puts a system call on the poster's path and a wake-up before the frame
// resumes (a deep chain at two threads pays that once per level the other thread stole;
// doc/benchmark/README.md has the measurements).
#define BOOST_THREAD_FJ_PARKED_SPIN_ROUNDS 256
#endif

#ifndef BOOST_THREAD_FJ_FOREIGN_SPIN_ROUNDS
// The spin rounds of a join before it parks when none of its futures has a task of this
// library behind it (a boost::promise's, then()'s, another executor's): such a join may run
// nothing while it waits (no task is awaited), so its rounds only wait, yielding the thread,
// for a future that something outside is to make ready. 0: it parks at once, hooked to the
// future, and its thread runs other tasks. With 64 rounds (those of a fork's join) a park on
// a promise's future took about 120 us of a worker, with 0 about 3 us (10^4 frames parked on
// a pool of 2, doc/benchmark/README.md).
#define BOOST_THREAD_FJ_FOREIGN_SPIN_ROUNDS 0
#endif

#ifndef BOOST_THREAD_FJ_POLL_SLEEP_MAX_US
// While a pool thread has a polled parked frame (one waiting for a future that nothing posts),
// it sleeps at most this many microseconds at a time: 50 at first, doubling up to this.
#define BOOST_THREAD_FJ_POLL_SLEEP_MAX_US 5000
#endif

#ifndef BOOST_THREAD_FJ_SHARED_LOOKAHEAD
// How many tasks at the front of the shared queue a waiting thread looks at for one it may run.
#define BOOST_THREAD_FJ_SHARED_LOOKAHEAD 64
#endif

#ifndef BOOST_THREAD_FJ_DEFER_DEPTH
// A parallel_invoke of two children or more on a pool thread whose deque already holds this
// many tasks or more, or holds one or more while no thread of the pool looks for work, keeps
// its children back from the deque and runs them itself, unless its thread must park or block
// first (invoke/invoke_all.hpp, pool_core::defer_stack_tasks); 0: never.
#define BOOST_THREAD_FJ_DEFER_DEPTH 16
#endif

#ifndef BOOST_THREAD_FJ_BLOCK_DEFER_DEPTH
// A task block's child made on a pool thread whose deque already holds this many tasks or more
// is kept back: it becomes a record (invoke/block_record.hpp) for which the block queues no
// task, and the block's join runs it, unless the thread parks or blocks first, or a join of a
// stolen child finds the deque empty, which offer it to thieves (invoke/block_state.hpp); 0:
// never.
#define BOOST_THREAD_FJ_BLOCK_DEFER_DEPTH 4
#endif

#ifndef BOOST_THREAD_FJ_TASK_CREDITS
// How many task credits a pool thread draws from the pool's count at a time (pool_core below):
// one shared read-modify-write per this many counted tasks a thread queues.
#define BOOST_THREAD_FJ_TASK_CREDITS 256
#endif
static_assert(BOOST_THREAD_FJ_TASK_CREDITS > 0, "BOOST_THREAD_FJ_TASK_CREDITS must be positive");

// Under AddressSanitizer the shared states of forks are not cached, so that it sees each one's
// lifetime (futures/state_cache.hpp).
#if defined BOOST_THREAD_FJ_ASAN && !defined BOOST_THREAD_FJ_NO_STATE_CACHE
#define BOOST_THREAD_FJ_NO_STATE_CACHE
#endif

// BOOST_THREAD_FJ_HOT_LOOP_ALIGN: placed before a function whose loops take most of a
// path's time, so that their alignment, and with it their speed, does not depend on where the
// linker places them in a program: the function starts on a cache line (GCC and Clang; nothing
// elsewhere).
#if defined(__GNUC__) || defined(__clang__)
#define BOOST_THREAD_FJ_HOT_LOOP_ALIGN __attribute__((aligned(64)))
#else
#define BOOST_THREAD_FJ_HOT_LOOP_ALIGN
#endif

// BOOST_THREAD_FJ_ASSERT(expr): checks a documented precondition or invariant that is cheap to
// check (an owner-only deque operation called by its owner, a counter that never goes below
// zero, a frame resumed on its own thread, ...). On with BOOST_THREAD_FJ_ENABLE_ASSERT (the
// tests' builds define it): a false expr prints the file, line and expression to stderr and
// calls std::abort. Off (no code, expr not evaluated) by default, also without NDEBUG: a
// user's debug build does not pay for the library's internal checks.
#ifdef BOOST_THREAD_FJ_ENABLE_ASSERT
#include <cstdio>
#include <cstdlib>
#define BOOST_THREAD_FJ_ASSERT(expr)                                                                  \
  ((expr) ? (void)0                                                                                \
          : (std::fprintf(stderr, "%s:%d: BOOST_THREAD_FJ_ASSERT(%s) failed\n", __FILE__, __LINE__, #expr), \
             std::abort()))
#else
#define BOOST_THREAD_FJ_ASSERT(expr) ((void)0)
#endif

#endif // header

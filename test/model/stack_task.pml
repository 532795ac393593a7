/* Copyright (C) 2026 The Boost.ForkJoin authors.
 * Distributed under the Boost Software License, Version 1.0. (See LICENSE_1_0.txt)
 *
 * Promela model of the completion handshake of a stack task (stack_task.hpp) as it will be
 * once joiners no longer enlist wake tokens in the event count: a per-task atomic `state` in
 * {pending, done, waiter} and a per-thread semaphore of the parent. Checked by check.sh.
 *
 *   parent (join, after its pop did not return the child, i.e. a thief took it):
 *     if (state.compare_exchange_strong(pending, waiter)) sem.wait();  // until posted
 *     the child has run; the frame, and the task in it, may end now
 *   thief (after running the child):
 *     s = task->parent's semaphore;                 // read while the task surely exists
 *     if (state.exchange(done) == waiter) s->post(); // no access to the task from here on
 *
 * The parent runs ROUNDS rounds of: spawn NC children (construct each in the frame, push it),
 * then join them newest first, so the semaphore is reused across joins and two children can
 * be outstanding at once. Each child has its own thief, which may take it before the parent's
 * pop does (or not: then the parent runs it inline and there is no handshake).
 *
 * Checked:
 *  - the parent never sleeps forever: a parent blocked in sem.wait() is an invalid end state;
 *  - the thief never touches a task whose frame has ended: every access asserts live[j];
 *  - exactly one post per sleep: the semaphore never exceeds 1, a woken parent finds its
 *    child done (so no stale post from an earlier join woke it), and at the end posts ==
 *    sleeps and the semaphore is 0.
 *
 * Memory model. Spin explores sequentially consistent interleavings only. Here that is
 * faithful with acq_rel orders: the handshake is read-modify-writes on one location (state),
 * which coherence totally orders, so the interleavings decide every outcome; the happens-
 * before edges the parent needs come from the exchange (release: the child's effects and the
 * thief's last reads of the task) read by the compare-exchange (acquire, also on failure), or
 * from the semaphore's post/wait when the parent slept. Nothing compares two locations, so
 * there is no store-buffering pair as in event_count.pml.
 *
 * Abstractions: the deque is a claim per child (parent's pop or the thief's steal, one wins,
 * in any order, not only oldest-first for thieves); the parent does not help while it waits
 * (the real one may run other tasks first; that does not change the handshake); the
 * semaphore is a counting semaphore without spurious wake-ups.
 *
 * Mutations (spin -DM_..., each must make pan report an error; check.sh verifies that):
 *  M_LOAD_STORE     the thief loads state, then stores done (no single RMW)
 *  M_STORE_WAITER   the parent loads state, then stores waiter if it read pending (no CAS)
 *  M_POST_ALWAYS    the thief posts whatever the exchange returned
 *  M_TOUCH_AFTER    the thief reads the parent's semaphore from the task after the exchange
 */

#ifndef ROUNDS
#define ROUNDS 2
#endif
#ifndef NC
#define NC 2
#endif
#define NTASK (ROUNDS * NC)

#define PENDING 0
#define DONE 1
#define WAITER 2

byte state[NTASK];
bool live[NTASK];       /* the task's frame has not ended */
bool pushed[NTASK];
byte taker[NTASK];      /* 0: nobody yet, 1: the parent's pop, 2: the thief */
bool ran[NTASK];

byte sem;               /* the parent's per-thread semaphore */
byte sleeps;
byte posts;

proctype parent()
{
  byte r, c, j;
  bool ok;
  do
  :: r == ROUNDS -> break
  :: else ->
     c = 0;
     do                                        /* spawn NC children */
     :: c == NC -> break
     :: else ->
        j = r * NC + c;
        d_step { live[j] = true; state[j] = PENDING; pushed[j] = true };
        c++
     od;
     do                                        /* join them, newest first */
     :: c == 0 -> break
     :: else ->
        c--;
        j = r * NC + c;
        if
        :: atomic { taker[j] == 0 -> taker[j] = 1 } ->
           ran[j] = true                       /* popped back: run inline, no handshake */
        :: else ->                             /* stolen */
#ifdef M_STORE_WAITER
           ok = (state[j] == PENDING);
           if
           :: ok -> state[j] = WAITER
           :: else
           fi;
#else
           d_step {                            /* compare_exchange_strong(pending, waiter) */
             if
             :: state[j] == PENDING -> state[j] = WAITER; ok = true
             :: else -> ok = false
             fi
           };
#endif
           if
           :: ok -> sleeps++; atomic { sem > 0 -> sem-- }   /* sem.wait() */
           :: else
           fi;
           assert(state[j] == DONE && ran[j]);
           ok = false
        fi;
        live[j] = false                        /* the frame ends: the task is gone */
     od;
     r++
  od
}

proctype thief(byte j)
{
  byte old;
  if
  :: atomic { pushed[j] && taker[j] == 0 -> taker[j] = 2 } ->
     d_step { assert(live[j] && !ran[j]); ran[j] = true };  /* runs the child */
#ifndef M_TOUCH_AFTER
     assert(live[j]);                          /* reads task->parent's semaphore */
#endif
#ifdef M_LOAD_STORE
     d_step { assert(live[j]); old = state[j] };
     d_step { assert(live[j]); state[j] = DONE };
#else
     d_step { assert(live[j]); old = state[j]; state[j] = DONE };  /* exchange(done) */
#endif
#ifdef M_TOUCH_AFTER
     assert(live[j]);                          /* reads task->parent's semaphore: too late */
#endif
#ifdef M_POST_ALWAYS
     d_step { posts++; sem++; assert(sem <= 1) }
#else
     if
     :: old == WAITER -> d_step { posts++; sem++; assert(sem <= 1) }  /* sem.post() */
     :: else
     fi
#endif
  :: taker[j] == 1                             /* the parent popped it back first */
  fi
}

init
{
  byte j;
  atomic {
    run parent();
    do
    :: j < NTASK -> run thief(j); j++
    :: else -> break
    od
  };
  _nr_pr == 1;                                 /* everybody else has finished */
  assert(sem == 0 && posts == sleeps);
  j = 0;
  do
  :: j < NTASK -> assert(ran[j] && !live[j]); j++
  :: else -> break
  od
}

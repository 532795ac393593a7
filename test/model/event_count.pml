/* Copyright (C) 2026 The Boost.ForkJoin authors.
 * Distributed under the Boost Software License, Version 1.0. (See LICENSE_1_0.txt)
 *
 * Promela model of the pool's sleep/wake protocol: event_count.hpp and the parts of
 * pool_core.hpp that use it (schedule(), submit, push_own, push_shared, finish_one, close,
 * and with -DSTACK park() and post_parked()), as they are once joiners no longer enlist wake
 * tokens: only idle workers sleep on the event count. Checked by check.sh (spin 6), which also
 * checks that each mutation below fails.
 *
 * What is checked, for NW workers (2..3), NS outside submitters of NPER tasks each, every task
 * forking one child onto its worker's own deque, and one closer thread:
 *  - every accepted task runs exactly once, and no task that was refused runs (assertions);
 *  - no worker sleeps forever while a task is queued: in the closer's `timeout` branch, once no
 *    thread can move any more, nothing accepted is unfinished (an assertion);
 *  - after close(), every worker leaves once the pool is drained: a worker stuck in
 *    commit_wait() is an invalid end state, and the closer asserts the accounting only after
 *    every worker and submitter has finished;
 *  - check.sh also runs a non-progress-cycle search (pan -l, no progress labels): finding no
 *    cycle at all proves every run finite, so the end-state check above is a liveness check
 *    (no livelock in which workers chase an ever-moving epoch).
 *
 * With -DSTACK -DISOLATED, the join blocks instead of parking, as an isolated frame's does
 * (help.hpp, executors::isolate): it runs what is left of its children in its own deque, and
 * when a thief has one it advertises its deque and sleeps, outside the worker's loop, until
 * both children are done. The same properties are checked: a worker blocked in a join strands
 * no task and no sleeper. (In this model only a root's children are pushed to a deque, so
 * the deque of a blocking join is empty and the advertisement never fires; hazard 2 of
 * pool_core.hpp (lost wake-ups) has the argument for it.)
 *
 * With -DSTACK, every outside task instead pushes two stack tasks onto its worker's deque and
 * joins them, as parallel_invoke does: the pushes are uncounted, and push_own notifies only for
 * the one that finds the deque empty; a thief that leaves tasks behind notifies if anyone waits
 * (advertise_rest). The join runs what is left of its children in its own deque; when none is
 * left and one is not done (a thief has it), it PARKS (help_until, park(), parking.hpp): the
 * frame registers with its children and the worker goes on with its loop, exactly as an idle
 * worker does (its own deque, the shared queue, steals, then sleep on the event count), other
 * roots included. Nothing notifies when a frame parks. The completion that makes a parked
 * frame ready POSTS it (post_parked(): the frame is published, then event_count::notify_all()),
 * and the frame's worker, its home, resumes it between two tasks (take_ready()), and also
 * looks for it after prepare_wait() and before it sleeps (has_ready()); the resumed join ends
 * and its root finishes. The same three properties are checked, so the skipped notifies
 * strand no task and no sleeper, no post is lost (a frame left parked leaves its root's count
 * in unfinished, which the `timeout` branch asserts to be 0; the closer also asserts at the
 * end that no frame is parked), and the exit test, which counts only the root, never lets a
 * worker leave while a stack task is queued or one of its frames is parked.
 *
 * Memory model. Spin explores sequentially consistent (SC) interleavings only. SC is a faithful
 * model of the C++ code because the protocol's only cross-variable orderings are the two
 * store-buffering (Dekker) pairs of event_count.hpp, and both sides of each are seq_cst:
 *   waiter:   waiters_.fetch_add(seq_cst); epoch_.load(seq_cst); re-check: steal() runs a
 *             seq_cst fence between its loads (chase_lev_deque.hpp), the shared queue a mutex;
 *   notifier: publish (the deque's release store of bottom_, or the shared queue's mutex);
 *             epoch_.fetch_add(seq_cst); waiters_.load(seq_cst)   -- notify();
 *             or, after a push to its own deque: seq_cst fence; waiters_.load(relaxed)
 *                                                                 -- notify_one_if_waiting().
 * With STACK, a post is the notifier's side of the same pair (publish the frame: a release
 * compare-exchange on posted_; then notify_all()) and the home's has_ready() (an acquire load
 * of posted_ after prepare_wait()) the waiter's re-check; parking.pml argues this pair for
 * posted_ itself, which this model folds into "both children done" (see Abstractions).
 * All seq_cst operations and fences lie in one total order S, so the outcome in which the
 * notifier misses the increment of waiters_ AND the waiter misses the epoch increment (or, via
 * the fences, the pushed task) is forbidden, exactly as in an interleaving. Everything else is
 * either under a mutex (the epoch load in commit_wait, the condition variable, closed_ and the
 * shared queue), or a read-modify-write chain on one location (unfinished_, waiters_, epoch_),
 * where coherence gives the same answers as SC: unfinished_'s relaxed increment is published
 * with the task it counts, and the acq_rel decrements form a release sequence, so the exit test
 * cannot read 0 while a counted task is queued or running. cancel_wait()'s relaxed decrement
 * only lets a notifier see a stale, larger count: a spurious lock, never a missed sleeper.
 * Hence a bug that needs weaker orders (for instance removing the fence of
 * notify_one_if_waiting()) is OUT OF REACH of this model; check.sh's mutations are all bugs
 * that show up under SC.
 *
 * Abstractions (known):
 *  - the Chase-Lev deque is taken to be linearizable (its own tests and the paper of Le, Pop,
 *    Cohen, Zappa Nardelli, PPoPP 2013 cover that); each deque is a FIFO channel, so the
 *    owner, too, takes the oldest task: which task a take returns does not matter to this
 *    protocol. A steal is two steps, read top_ and then (read bottom_ and) compare-exchange,
 *    and fails (returns "empty", as steal() does) when any other take from that deque came in
 *    between: the lost race the real steal() reports, over-approximated (a real owner pop of
 *    a non-last task does not make a steal fail);
 *  - victims are visited in a fixed rotation (me+1, me+2, ...), not from a random start;
 *  - the idle spin rounds before sleeping are left out: they are more failed look-ups, which
 *    the interleavings already contain; shared_hint_ is left out: under SC it is >= the
 *    shared queue's length, so skipping the queue when it reads 0 equals finding it empty;
 *  - condition_variable: no spurious wake-ups (they only add re-checks of the epoch, and
 *    would hide a lost wake-up behind an endless wait loop); notify_one wakes one waiter in
 *    the wait set, chosen nondeterministically;
 *  - steps merged where no other thread can tell (each is argued where it is written): the
 *    load of waiters, lock, signal and unlock in notify(); prepare_wait()'s increment of
 *    waiters and load of the epoch; each pass of commit_wait()'s loop (lock, or wake-up and
 *    relock; compare; then wait, or unlock and decrement waiters), except with
 *    M_UNLOCKED_SIGNAL, whose bug lies between the compare and the wait (so the event count's
 *    mutex is never seen held but in that variant); the looks at the own deque and at the
 *    shared queue; a child's push with its increment of unfinished_; a steal from a deque that
 *    is empty at its first step fails there; with STACK, a join's test of its children, its
 *    take of one from its deque and its registration; a stack task's run, its completion and
 *    its test for a parked parent; a home's look at its posted frames with the take (only the
 *    home takes them); the worker skips that look while none of its frames is parked (nparked,
 *    its own count);
 *  - the epoch and the waiter's key are kept as one bit per worker, "my key equals the
 *    epoch", and a steal's read of top_ as "no take from that deque since": exact, since
 *    both numbers are only ever compared for equality, and it keeps the state space finite
 *    without counting;
 *  - each shared-queue operation, and close(), is one atomic step (it runs under the queue's
 *    mutex); closed() is one atomic read;
 *  - tasks: every outside task forks exactly one child (a push_own from the running task), or
 *    with STACK two stack tasks it joins; children fork nothing; no submit_back() from
 *    workers, no exceptions, no interruption, no joins of heap tasks (the handshake that
 *    replaces them: stack_task.pml); a stack task's parent runs its own children in the order
 *    of its FIFO deque (the abstraction above) and nothing else while it joins (what a thief
 *    spawns for a child, rule (b) of task_frame.hpp, does not arise: children fork nothing);
 *  - parking (STACK): the fibers are left out (which stack the worker's loop runs on changes
 *    nothing here); a parked frame is registered with both children at once and posted by
 *    the completion that makes both done, in the same step as that completion and its test
 *    for the registration (the real join waits for one child at a time, so it may be posted
 *    for the first, resume and park again for the second: one more post and wake-up, which
 *    the model's single post stands for; the exchange against the registration is
 *    stack_task.pml's, and posted_'s push and take are parking.pml's); "the frame was posted"
 *    is "it is parked and both its children are done"; a resumed join ends at once; polled
 *    frames and the idle spin rounds before a park are left out.
 *
 * Mutations (spin -DM_..., each must make pan report an error; check.sh verifies that):
 *  M_NO_RECHECK           the worker sleeps after prepare_wait() without looking again
 *  M_EARLY_DEREGISTER     commit_wait() decrements waiters before it sleeps, not after
 *  M_EPOCH_AFTER_SIGNAL   notify() signals the condition variable, then advances the epoch
 *  M_UNLOCKED_SIGNAL      notify() signals without holding the event count's mutex
 *  M_FINISH_NO_NOTIFY     finish_one() does not notify_all() when the last task ends
 *  M_CLOSE_NOTIFY_ONE     close() wakes one sleeper instead of all
 *  M_EXIT_WHEN_CLOSED     a worker leaves once closed, without waiting for unfinished == 0
 *  M_STACK_NEVER_NOTIFY   (with STACK) no stack push notifies, and
 *  M_NO_ADVERTISE_REST    (with STACK) a thief does not advertise what it leaves: both
 *                         together are NOT bugs of progress, which is what this model checks:
 *                         a non-empty deque's owner is awake, in a join that takes its
 *                         children or in a loop that looks at its own deque before it sleeps
 *                         (a join never sleeps: it parks). They cost parallelism, which the
 *                         model cannot see; check.sh expects them to PASS, to show that the
 *                         notifies pool_core.hpp keeps for stack tasks are for parallelism,
 *                         not progress.
 *  M_JOIN_NO_HELP         (with STACK) the parent runs none of its children, as a join whose
 *                         deque holds tasks it may not run (task_frame.hpp): it parks at once.
 *                         NOT a bug of progress either, now: the parked worker's own loop
 *                         runs them (and posts the frame to itself). check.sh expects it to
 *                         PASS, with two roots (two such parents at once), alone and together
 *                         with the two above: a parent's children need no notify. (Before
 *                         parking, the blocked parent relied on begin_block()'s notify for
 *                         them, and the same run without it was caught.)
 *  M_POST_NO_NOTIFY       (with STACK) the completion that makes a parked frame ready
 *                         publishes it but does not notify: a home already asleep on the
 *                         event count is never woken (invalid end state)
 *  M_NO_POSTED_RECHECK    (with STACK) the home does not look for posted frames after
 *                         prepare_wait(): a post that falls between its last look and its
 *                         prepare_wait() is missed, and the home sleeps (invalid end state)
 *  M_POST_NOTIFY_ONE      (with STACK) the post wakes one sleeper, not all: with NW=3 it can
 *                         wake the idle third worker instead of the home (invalid end state;
 *                         with NW=2 it passes: the poster is the only other worker)
 *  M_WAITERS_FIRST        notify() tests waiters before it advances the epoch (and skips the
 *                         increment when nobody waits): NOT a bug under SC, a store-buffering
 *                         bug only once the orders are weakened; check.sh expects it to PASS,
 *                         to show this limit of the model (see "Memory model" above).
 */

#ifndef NW
#define NW 2            /* workers, 1..3 */
#endif
#ifndef NS
#define NS 1            /* outside submitters */
#endif
#ifndef NPER
#define NPER 2          /* tasks each submitter submits */
#endif
#define NROOT (NS * NPER)
#ifdef STACK
/* task ids: roots 0..NROOT-1; the two stack children of root r are r + NROOT, r + 2 NROOT */
#define NT (3 * NROOT)
/* A root's two children: a worker takes a root only from the shared queue, so with its deque
 * empty, and a join parks only once its children have left the deque (with M_JOIN_NO_HELP,
 * the worker's loop takes them before it takes another root); the join asserts that what it
 * takes from its deque is its own child. */
#define DEQUE_CAP 2
#else
#define NT (2 * NROOT)  /* task ids: roots 0..NROOT-1, the child of root r is r + NROOT */
#define DEQUE_CAP NROOT
#endif
#define MAXW 3

/* event_count */
/* The epoch is only ever compared with a waiter's key, so the model keeps, instead of the two
 * numbers, whether each worker's key still equals the epoch: prepare_wait() sets it, every
 * epoch increment clears all of them. Exact, and it keeps the state space from counting. */
bool key_is_epoch[MAXW];
byte waiters;
byte ec_mutex;          /* 0: free, else the holder's _pid + 1 */
bool in_wait_set[MAXW]; /* condition variable: worker i blocked in cv_.wait */

/* pool_core */
bool closed;            /* shared_.closed() */
byte unfinished;
chan shared_queue = [NROOT] of { byte };
chan deque[NW] = [DEQUE_CAP] of { byte };
/* A steal's read of top_, as the pair (victim + 1, still valid): every take from that deque
 * clears `valid`, so the thief's compare-exchange then fails. Exact, as for the epoch. */
byte steal_from[MAXW];
bool steal_valid[MAXW];

/* accounting (ghost) */
bool accepted[NT];
bool ran[NT];
#ifdef STACK
/* parked[r]: 0, or me + 1 while root r's join is parked on worker me (registered with its
 * children, waiting to be posted and resumed by me's loop) */
byte parked[NROOT];
#endif
byte workers_left;
byte submitters_done;

inline unlock_ec() { assert(ec_mutex == _pid + 1); ec_mutex = 0 }

inline signal(all)
{
  atomic {
    if
    :: all -> in_wait_set[0] = false; in_wait_set[1] = false; in_wait_set[2] = false
    :: else ->
       if
       :: in_wait_set[0] -> in_wait_set[0] = false
       :: in_wait_set[1] -> in_wait_set[1] = false
       :: in_wait_set[2] -> in_wait_set[2] = false
       :: else
       fi
    fi
  }
}

/* epoch_.fetch_add(1) */
inline advance_epoch()
{
  d_step { key_is_epoch[0] = false; key_is_epoch[1] = false; key_is_epoch[2] = false }
}

/* Any take from deque v (pop, or a steal that wins) moves top_ past a concurrent thief's read. */
inline took_from(v)
{
  if
  :: steal_from[0] == v + 1 -> steal_valid[0] = false
  :: else
  fi;
  if
  :: steal_from[1] == v + 1 -> steal_valid[1] = false
  :: else
  fi;
  if
  :: steal_from[2] == v + 1 -> steal_valid[2] = false
  :: else
  fi
}

/* lock_guard lk(mtx_); cv_.notify_one() / notify_all(); as one step: a woken worker must
 * take mtx_ before it can do anything, so nothing can tell this from three steps. */
inline locked_signal(all)
{
  atomic { ec_mutex == 0 -> signal(all) }
}

/* event_count::notify(all) */
inline notify(all)
{
#if defined(M_EPOCH_AFTER_SIGNAL)
  if
  :: waiters == 0
  :: else -> locked_signal(all)
  fi;
  advance_epoch()
#elif defined(M_WAITERS_FIRST)
  if
  :: waiters == 0
  :: else -> advance_epoch(); locked_signal(all)
  fi
#elif defined(M_UNLOCKED_SIGNAL)
  advance_epoch();
  if
  :: waiters == 0
  :: else -> signal(all)
  fi
#else
  advance_epoch();
  /* The load of waiters, lock, signal and unlock are one step. Nobody can tell: every worker
   * in the wait set is counted in waiters, so a signal after a load that read 0 would wake
   * nobody; a worker that registers between the load and the signal took its key after the
   * increment above, so if the signal (which the split steps would send it) wakes it, it
   * only compares and waits again; one that deregisters in between has left the wait set. */
  atomic {
    if
    :: waiters == 0
    :: else -> ec_mutex == 0 -> signal(all)
    fi
  }
#endif
}

/* pool_core::finish_one() */
inline finish_one(old)
{
  d_step { old = unfinished; unfinished-- };
#ifndef M_FINISH_NO_NOTIFY
  if
  :: old == 1 ->
     if
     :: closed -> notify(true)
     :: else
     fi
  :: else
  fi;
#endif
  old = 0
}

/* A steal from deque v by worker me: read top_, then compare-exchange it; fails if another
 * take from v came in between (steal() reports that lost race as "empty"). A deque that is
 * empty at the first step fails the steal there and then (stealing stays false): exact, as
 * that steal can only fail or take a task pushed after the first step, and the same steal
 * begun just after that push (the thief does nothing else in between) is in the model too. */
inline steal(me, v, t, found)
{
  d_step {
    if
    :: len(deque[v]) > 0 -> steal_from[me] = v + 1; steal_valid[me] = true; stealing = true
    :: else
    fi
  };
  if
  :: stealing ->
     d_step {
       if
       :: steal_valid[me] && len(deque[v]) > 0 -> deque[v]?t; took_from(v); found = true
       :: else
       fi;
       steal_from[me] = 0; steal_valid[me] = false; stealing = false
     }
  :: else
  fi;
#if defined(STACK) && !defined(M_NO_ADVERTISE_REST)
  /* pool_core::advertise_rest(): a thief that leaves tasks behind notifies if anyone waits */
  if
  :: found && len(deque[v]) > 0 && waiters != 0 -> notify(false)
  :: else
  fi
#endif
}

/* pool_core::find_task(): own deque, shared queue, then every other worker's deque.
 * The first two looks are one step: only the owner pushes to its deque, so a deque the owner
 * found empty is still empty when it looks at the shared queue. */
inline find_task(me, t, found)
{
  atomic {
    if
    :: len(deque[me]) > 0 -> deque[me]?t; took_from(me); found = true
    :: else ->
       if
       :: len(shared_queue) > 0 -> shared_queue?t; found = true
       :: else -> found = false
       fi
    fi
  };
  if
  :: NW > 1 && !found -> steal(me, (me + 1) % NW, t, found)
  :: else
  fi;
  if
  :: NW > 2 && !found -> steal(me, (me + 2) % NW, t, found)
  :: else
  fi
}

#ifdef STACK
/* fiber_home::take_ready(): a parked frame of worker me that was posted, if any, is taken to
 * be resumed: found, and t is its root (r: a scratch index, left 0). "Posted" is "parked and
 * both children done": the completion that makes the frame ready is the one that posts it
 * (run_task), in the same step (the exchange of stack_task.hpp; push_posted's own race is
 * parking.pml's). One step: only me takes its frames. */
inline take_ready(me, r, t, found)
{
  d_step {
    r = 0;
    do
    :: r == NROOT -> break
    :: else ->
       if
       :: parked[r] == me + 1 && ran[r + NROOT] && ran[r + 2 * NROOT] ->
          parked[r] = 0; t = r; found = true; break
       :: else -> r++
       fi
    od;
    r = 0
  }
}
#endif

proctype worker(byte me)
{
  byte t, old;
  bool found, sleep, stealing;
#ifdef STACK
  byte nparked;
#endif
look:
#ifdef STACK
  /* schedule(): between two tasks, resume a posted frame first (none to look for unless
   * one of this worker's frames is parked: nparked, a local copy of fiber_home::parked()) */
  if
  :: nparked > 0 ->
     take_ready(me, old, t, found);
     if
     :: found -> found = false; nparked--; goto join
     :: else
     fi
  :: else
  fi;
#endif
  find_task(me, t, found);
  if
  :: found -> goto run_task
  :: else
  fi;
  /* prepare_wait(): waiters_.fetch_add, then epoch_.load, as one step: an epoch increment
   * that falls between them reads neither waiters nor this key (only its owner sets a key),
   * so it may as well come first, and the notifier's later load of waiters sees the count
   * either way. */
  d_step { waiters++; key_is_epoch[me] = true };
#ifndef M_NO_RECHECK
#if defined(STACK) && !defined(M_NO_POSTED_RECHECK)
  /* has_ready(): the posted frames, then (below) the queues. Merged with the take that
   * follows its cancel_wait(): nobody else can take or unpark me's frames in between. */
  if
  :: nparked > 0 ->
     take_ready(me, old, t, found);
     if
     :: found ->                            /* cancel_wait(), resume it */
        d_step { waiters--; key_is_epoch[me] = false; found = false }; nparked--; goto join
     :: else
     fi
  :: else
  fi;
#endif
  find_task(me, t, found);
  if
  :: found ->                               /* cancel_wait(), run it */
     d_step { waiters--; key_is_epoch[me] = false }; goto run_task
  :: else
  fi;
#endif
  /* The exit test: with STACK, unfinished == 0 implies that no frame is parked (a parked
   * root's own count is still in it), so schedule()'s test of parked() is implied. */
  if
  :: closed ->
     if
#ifdef M_EXIT_WHEN_CLOSED
     :: true -> d_step { waiters--; key_is_epoch[me] = false }; goto leave
#else
     :: unfinished == 0 ->                  /* cancel_wait(), leave */
        d_step { waiters--; key_is_epoch[me] = false }; goto leave
     :: else
#endif
     fi
  :: else
  fi;
  /* commit_wait(key): lock; while (epoch == key) cv_.wait(lk); unlock; then (waiter_guard)
   * --waiters. */
#ifdef M_EARLY_DEREGISTER
  waiters--;
#endif
#ifdef M_UNLOCKED_SIGNAL
  /* The mutex held in steps: the lock and the compare, then the wait that releases it; a
   * wake-up and the relock are one step (a woken worker blocks on mtx_ and does nothing else
   * in between). */
  atomic { ec_mutex == 0 -> ec_mutex = _pid + 1; sleep = key_is_epoch[me] };
  do
  :: sleep ->
     atomic { unlock_ec(); in_wait_set[me] = true; sleep = false };
     atomic {
       !in_wait_set[me] && ec_mutex == 0 -> ec_mutex = _pid + 1; sleep = key_is_epoch[me]
     }
  :: else -> break
  od;
  unlock_ec();
#ifndef M_EARLY_DEREGISTER
  waiters--;
#endif
#else
  /* Each pass is one step: lock (or, woken, relock), compare the epoch with the key, then
   * wait (which releases the mutex) or unlock and --waiters. Nobody can tell it from the
   * steps: the mutex is held throughout, so no signal falls inside it; an epoch increment
   * after the compare commutes with the rest (it touches neither the wait set nor waiters);
   * and a notifier that would read waiters between the unlock and the decrement only signals
   * nobody more (this worker is out of the wait set and its key is stale). */
  atomic {
    ec_mutex == 0 ->
    if
    :: key_is_epoch[me] -> in_wait_set[me] = true; sleep = true
    :: else
#ifndef M_EARLY_DEREGISTER
       -> waiters--
#endif
    fi
  };
  do
  :: sleep ->
     atomic {
       !in_wait_set[me] && ec_mutex == 0 ->
       if
       :: key_is_epoch[me] -> in_wait_set[me] = true
       :: else ->
          sleep = false;
#ifndef M_EARLY_DEREGISTER
          waiters--
#endif
       fi
     }
  :: else -> break
  od;
#endif
  goto look;

run_task:
#ifdef STACK
  /* A stack task's run and its completion are one step; the completion that makes its
   * parent's parked frame ready posts it (found), as the thief's exchange of the task's state
   * finds the parent's waker there (stack_task.hpp; the handshake: stack_task.pml). */
  atomic {
    assert(accepted[t] && !ran[t]); ran[t] = true;
    found = (t >= NROOT && parked[t % NROOT] != 0 &&
             ran[t % NROOT + NROOT] && ran[t % NROOT + 2 * NROOT])
  };
  if
  :: t < NROOT ->
     /* The root pushes two stack tasks to its own deque (pool_core::push_stack_task, uncounted:
      * the root's own count covers them); push_own advertises one only if the deque was empty
      * before it (notify_one_if_waiting: a fence, nothing to model under SC, then the test). */
     d_step { deque[me]!t + NROOT; accepted[t + NROOT] = true; found = (len(deque[me]) == 1) };
#ifdef M_STACK_NEVER_NOTIFY
     found = false;
#endif
     if
     :: found && waiters != 0 -> notify(false)
     :: else
     fi;
     d_step { deque[me]!t + 2 * NROOT; accepted[t + 2 * NROOT] = true; found = (len(deque[me]) == 1) };
#ifdef M_STACK_NEVER_NOTIFY
     found = false;
#endif
     if
     :: found && waiters != 0 -> notify(false)
     :: else
     fi;
     found = false
  :: else ->                                /* a stack task, uncounted: no finish */
     if
     :: found ->                 /* post_parked(): push_posted (the completion above), then */
        found = false;
#if defined(M_POST_NOTIFY_ONE)
        notify(false)
#elif !defined(M_POST_NO_NOTIFY)
        notify(true)                        /* all: the home must wake, not just anyone */
#else
        skip
#endif
     :: else
     fi;
     t = 0; goto look
  fi;
  /* The join (stack_task.hpp, help.hpp): run the children still in the own deque; when
   * none is left and one is not done, park: register the frame (arm(): a compare-exchange
   * against the children's completion; if both are done by then, the join is over) and go on
   * with the worker's loop at `look`, which resumes the frame once it is posted. One step: a
   * child still in the deque is not done, and a deque found empty stays empty (only its owner
   * pushes), so the test of "both done", the take and the registration may as well be one.
   * old: 0 (ran a child: look again), 1 (both done), 2 (parked). */
join:
  do
  :: atomic {
       if
       :: ran[t + NROOT] && ran[t + 2 * NROOT] -> old = 1
       :: else ->
          if
#ifndef M_JOIN_NO_HELP
          :: len(deque[me]) > 0 ->          /* run it inline */
             deque[me]?old; took_from(me);
             assert((old == t + NROOT || old == t + 2 * NROOT) && !ran[old]); ran[old] = true;
             old = 0
#endif
#ifdef ISOLATED
          :: else -> old = 3
#else
          :: else -> parked[t] = me + 1; t = 0; old = 2
#endif
          fi
       fi
     };
     if
     :: old == 1 -> old = 0; break
     :: old == 2 -> old = 0; nparked++; goto look  /* park(): schedule() on a fresh stack */
#ifdef ISOLATED
     :: old == 3 ->
        /* An isolated frame's join blocks instead (help.hpp): it advertises its deque
         * (advertise_own(): notify_one_if_waiting() if the deque holds tasks), then sleeps
         * until its children are done, outside the worker's loop. */
        if
        :: len(deque[me]) > 0 && waiters != 0 -> notify(false)
        :: else
        fi;
        (ran[t + NROOT] && ran[t + 2 * NROOT]);
        old = 0; break
#endif
     :: else
     fi
  od;
#else
  atomic { assert(accepted[t] && !ran[t]); ran[t] = true; found = false };
  if
  :: t < NROOT ->
     /* The task forks a child: submit(child, front) from a worker = push_own(). One step
      * with the increment of unfinished: the parent's own count keeps it above zero in
      * between, so nobody can tell the two apart. */
     d_step { unfinished++; deque[me]!t + NROOT; accepted[t + NROOT] = true };
     /* notify_one_if_waiting(): seq_cst fence (nothing to model under SC), then */
     if
     :: waiters != 0 -> notify(false)
     :: else
     fi
  :: else
  fi;
#endif
  finish_one(old);                          /* run_task()'s finish_guard */
  t = 0;
  goto look;

leave:
  workers_left++
}

/* A thread that is not a worker: submit(task, back) = push_shared(), force == false. */
proctype submitter(byte s)
{
  byte k, id, old;
  bool ok;
  do
  :: k == NPER -> break
  :: else ->
     id = s * NPER + k;
     unfinished++;
     atomic {                               /* under the shared queue's mutex */
       if
       :: closed -> ok = false
       :: else -> shared_queue!id; accepted[id] = true; ok = true
       fi
     };
     if
     :: ok -> ok = false; notify(false)
     :: else -> finish_one(old); break      /* submit() discards t and throws */
     fi;
     k++
  od;
  submitters_done++
}

/* The thread that closes the pool: either at any moment, racing with the submitters, or once
 * no other thread can move (`timeout`), when nothing accepted may be left unfinished. */
proctype closer()
{
  bool early;
  byte i;
  if
  :: early = true
  :: early = false
  fi;
  if
  :: early
  :: !early && timeout -> assert(unfinished == 0)
  fi;
  closed = true;                            /* close(): shared_.close(), then */
#ifdef M_CLOSE_NOTIFY_ONE
  notify(false);
#else
  notify(true);
#endif
  (workers_left == NW && submitters_done == NS);
  do
  :: i < NT -> assert(ran[i] == accepted[i]); i++
  :: else -> break
  od;
  assert(unfinished == 0 && waiters == 0);
#ifdef STACK
  i = 0;
  do
  :: i < NROOT -> assert(parked[i] == 0); i++
  :: else -> break
  od
#endif
}

init
{
  byte i;
  atomic {
    do
    :: i < NW -> run worker(i); i++
    :: else -> break
    od;
    i = 0;
    do
    :: i < NS -> run submitter(i); i++
    :: else -> break
    od;
    run closer()
  }
}

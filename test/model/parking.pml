/* Copyright (C) 2026 The Boost.ForkJoin authors.
 * Distributed under the Boost Software License, Version 1.0. (See LICENSE_1_0.txt)
 *
 * Promela model of the wake-up of parked frames: waker.hpp (add_waker, post_wakers), the
 * runner's fetch_or of a forked task's result_stored (fork_state.hpp, promise_task.hpp),
 * parking.hpp (push_posted, take_ready, has_ready), pool_core.hpp (post_parked, and the part
 * of schedule() that sleeps) and event_count.hpp. Checked by check.sh (spin 6), which also
 * checks that each mutation below fails.
 *
 * The protocol, for a pool thread T (the home of its parked frames) and the threads that
 * complete the tasks they wait for:
 *   T, a frame F joining task X (help_until, with arm_for's registration):
 *     if ready() (run_record::stored(): X's stored bit): go on, get() takes the result;
 *     add_waker(X.result_stored, F): old = load(acquire); loop { if (old & stored) fail;
 *       F.next = list(old); CAS(old -> F | flags(old), release) }
 *     registered: park F, and run the scheduler loop (on a fresh fiber);
 *     failed: loop, and ready() is true: go on.
 *   T, the scheduler loop (schedule()):
 *     take_ready(): if the ready queue is empty, posted_.exchange(null, acquire) moves the
 *       posted frames to it; resume one, if any (it finds ready() true and goes on);
 *     else run a task, if any (here: the task of T's next frame); else
 *     key = prepare_wait() (waiters.fetch_add, then epoch.load, both seq_cst);
 *     has_ready() (the ready queue, posted_.load(acquire)): if so, cancel_wait() and loop;
 *     else commit_wait(key): under the mutex, sleep on the condition variable while
 *     epoch == key; --waiters; loop.
 *   completer of task X (fork_state::act, promise_task::act):
 *     run X and store its result;
 *     old = X.result_stored.fetch_or(stored, acq_rel): sets the bit and takes the whole list
 *       in the same step;
 *     post_wakers(old): for each waker F of the list: next = F.next (read first: once posted,
 *       F may be gone); post F = post_parked(): push F onto its home's posted_ (a Treiber
 *       stack: F.link = head; CAS(head -> F, release)), then event_count.notify_all()
 *       (epoch.fetch_add seq_cst; if waiters.load(seq_cst) != 0: lock the mutex, notify all).
 *
 * What is checked, for NH home threads (1..2) and NF frames (1..4), frame f being home
 * f % NH's and waiting for task f % NX (NX tasks, 1..2, each with a completer that runs it
 * concurrently with everything else), and, with IDLE, a pool thread that has nothing to do
 * and sleeps on the same event count (as the homes do, a notify_all wakes it too):
 *  - no lost wake-up: every frame that parks is resumed: a home asleep in commit_wait() for
 *    ever, or any thread stuck anywhere, is an invalid end state; and once every thread has
 *    finished, init asserts that every frame that registered (so parked) was posted and resumed,
 *    and that no posted frame is left behind;
 *  - exactly once, and only when done: a waker is posted only if it was registered, only
 *    once, while its frame lives and after its task's result is stored; a frame resumes only
 *    once, only after it was posted, and only when its task's result is stored; a frame that
 *    goes on without parking (ready(), or a failed registration) finds the result stored; no
 *    frame is taken from posted_ twice (assertions);
 *  - a poster never touches a frame that has ended (its home may resume it, and the frame end,
 *    as soon as it is pushed): every access of a poster to a waker asserts live[f];
 *  - check.sh also runs a non-progress-cycle search (pan -l, no progress labels): finding no
 *    cycle at all proves every run finite, so the end-state check above is a liveness check
 *    (no CAS loop or sleep/wake loop that can go on for ever).
 *
 * Memory model. Spin explores sequentially consistent (SC) interleavings only. That is faithful
 * to the C++ code here:
 *  - result_stored and each posted_ are only read-modify-written (add_waker's CAS against the
 *    runner's fetch_or; push_posted's CAS against take_posted's exchange), apart from the plain
 *    loads that seed a CAS (a stale value only makes the CAS fail and retry), stored() (the
 *    acquire load of ready(): it sees the bit only after the result, stored before the release
 *    fetch_or) and has_ready()'s load (below): coherence orders each location as an
 *    interleaving does. A waker's `next` and a frame's `link` are written before the release
 *    RMW that publishes them and read after the acquire RMW that takes them; a frame ends only
 *    after its home's acquire exchange took it, so every poster's access to it happens before
 *    its end.
 *  - the wake-up is a store-buffering pair, as in event_count.pml: the poster: push (release
 *    CAS on posted_), epoch.fetch_add(seq_cst), waiters.load(seq_cst); the home: waiters.
 *    fetch_add(seq_cst), epoch.load(seq_cst), posted_.load(acquire). If the poster's load
 *    misses the home's increment, its epoch increment precedes the home's epoch load in the
 *    single total order S, so the home's key includes it, and that load, an acquire reading a
 *    release RMW (or a later RMW of its release sequence), puts the push before the re-check,
 *    which reads it or a later value of posted_ (a later push: only the home takes, and a take
 *    of the home's after the push moved the frame to its ready queue). Otherwise the poster
 *    locks the mutex and notifies, and commit_wait() reads the epoch under that mutex. So the
 *    C++ orders allow no outcome that SC forbids; a bug that needs weaker orders (the push
 *    relaxed, the re-check before the epoch load) is out of reach of this model.
 *
 * Abstractions (known):
 *  - the fibers are left out: which stack a home's scheduler loop runs on, and the switches
 *    between stacks, change nothing in this protocol. A home starts the task of its next frame
 *    only once its previous frame has parked or ended (a parked frame's thread goes on in the
 *    scheduler loop, which runs it); a resumed frame's task ends at once (what it does next is
 *    not part of the protocol); a home leaves once its frames have ended;
 *  - a frame's registration and its parking are one step: a frame can be posted before its
 *    thread has switched away from it, which nobody can tell, as only that thread resumes it,
 *    from its scheduler loop;
 *  - the ready queue is a set (resumed lowest frame first), not a FIFO: its order is the
 *    home's own business;
 *  - compare_exchange_weak does not fail spuriously (that only adds a retry), and the
 *    condition variable has no spurious wake-ups (they only add re-checks of the epoch);
 *  - other steps merged where no other thread can tell: a poster's read of F.next with its load
 *    of posted_ (F.next is written before F registers, never after); F.link's store with the
 *    CAS that publishes it; take_posted's exchange with the walk of the list it took (the
 *    home's own from then on); a resume with the end of the frame's task; lock, signal, unlock
 *    in notify(); a wake-up and the relock in commit_wait();
 *  - the epoch and a waiter's key are kept as one bit per sleeper, "my key equals the epoch",
 *    as in event_count.pml (exact, since both are only compared for equality, and finite);
 *  - not modelled: the idle spin rounds before the sleep (more looks, which the interleavings
 *    already contain), other tasks and their queues (event_count.pml), polled frames,
 *    interruption, outside waiters (thread_sleeper) in a list, the orphaned bit; init's close()
 *    stands for the pool's end, which lets the idle thread leave.
 *
 * Mutations (spin -DM_..., each must make pan report an error; check.sh verifies that):
 *  M_NO_RECHECK       a home sleeps after prepare_wait() without looking at posted_ again: a
 *                     frame posted (and notified) before its prepare_wait() is never resumed
 *                     (invalid end state)
 *  M_NOTIFY_FIRST     the poster notifies, then pushes the frame onto posted_: the notify can
 *                     fall before the home's prepare_wait() and the push after its re-check
 *                     (invalid end state)
 *  M_SPLIT_FETCH_OR   the completer reads the list, then sets the stored bit, in two steps: a
 *                     waker registered in between is never posted (invalid end state)
 *  M_NO_STORED_CHECK  add_waker() pushes even when the stored bit is set: a frame registered
 *                     after the completer took the list is never posted (invalid end state)
 *  M_NOTIFY_ONE       post_parked() wakes one sleeper, not all: with IDLE or NH=2, it can wake
 *                     another thread instead of the frame's home (invalid end state)
 *  M_PUSH_LOAD_STORE  push_posted() loads posted_ and stores the frame, without a CAS (needs
 *                     two frames of a home): a push over a list that the home took meanwhile
 *                     links the new frame to a frame already resumed (assertion violated
 *                     !(resumed[f]): the home resumes it again); two racing pushes lose one
 *                     (invalid end state)
 *  M_TAKE_LOAD_STORE  take_posted() loads posted_, then stores null, without an exchange: a
 *                     frame pushed in between is lost (invalid end state)
 *  M_TOUCH_AFTER      the poster reads F.next after posting F: F may have resumed and ended
 *                     (assertion violated live[fr], the poster's f)
 *  M_STORED_EARLY     the completer sets the stored bit (and takes the list) before it stores
 *                     the task's result: a frame that sees the bit (ready(), or a failed
 *                     registration) goes on without the result (assertion violated x_ready[x])
 */

#ifndef NF
#define NF 2            /* frames, 1..4: frame f is home f % NH's and awaits task f % NX */
#endif
#ifndef NX
#define NX 2            /* tasks awaited, each with its completer, 1..2 */
#endif
#ifndef NH
#define NH 1            /* home threads, 1..2 */
#endif
#define MAXF 4
#define MAXX 2
#define MAXH 2
#define IDLER 2         /* the idle thread's index among the sleepers (homes: 0..NH-1) */

/* run_record::result_stored of each task: the stored bit and the head of its list of wakers
 * (frame + 1, 0: empty); waker::next of each frame (frame + 1, 0: none). */
bool stored[MAXX];
byte head[MAXX];
byte next_w[MAXF];

/* fiber_home of each home thread: posted_ (frame + 1, 0: null), and parked_frame::link_ of
 * each frame; the ready queue, a set of frames (bit f), is the home's own. */
byte posted[MAXH];
byte link[MAXF];
byte ready[MAXH];

/* event_count */
bool key_is_epoch[3];
byte waiters;
byte ec_mutex;          /* 0: free, else the holder's _pid + 1 */
bool in_wait_set[3];    /* condition variable: sleeper i blocked in cv_.wait */
bool closed;            /* the pool is closed (init, once the homes are done): the idle leaves */

/* accounting (ghost) */
bool x_ready[MAXX];     /* the task has run and its result is stored: the future is ready */
bool live[MAXF];        /* the frame's join is running or parked: its waker exists */
bool registered[MAXF];
bool parked[MAXF];
bool posted_once[MAXF];
bool resumed[MAXF];
byte homes_done;

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

/* event_count::notify(all): epoch_.fetch_add(1); if (waiters_ != 0) { lock; notify; unlock }.
 * Lock, signal and unlock are one step: a woken sleeper must take the mutex first. */
inline notify(all)
{
  d_step { key_is_epoch[0] = false; key_is_epoch[1] = false; key_is_epoch[2] = false };
  if
  :: waiters == 0
  :: else -> atomic { ec_mutex == 0 -> signal(all) }
  fi
}

/* event_count::commit_wait(key): lock; while (epoch == key) cv_.wait(lk); unlock; --waiters.
 * The wake-up and the relock are one step: a woken thread blocks on the mutex and does
 * nothing else in between. */
inline commit_wait(me, sleep)
{
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
  waiters--
}

/* fiber_home::take_posted(): after posted_.exchange(nullptr), the list it took (the home's own
 * from then on) goes to the ready queue. A frame found twice is a double post. */
inline take_list(me, h)
{
  do
  :: h == 0 -> break
  :: else ->
     assert((ready[me] & (1 << (h - 1))) == 0);
     ready[me] = ready[me] | (1 << (h - 1));
     h = link[h - 1]
  od
}

/* pool_core::post_parked(frame f): push_posted(f) onto f's home, then notify_all(). `nx` is
 * f's next in the list of wakers, read first (before f may be gone) in post_wakers(). */
inline post(f, nx, h, ok)
{
#ifdef M_NOTIFY_FIRST
  notify(true);
#endif
  d_step {                                  /* next = F.next; head = posted_.load(relaxed) */
    assert(live[f] && registered[f] && !posted_once[f] && x_ready[f % NX]);
    posted_once[f] = true;
#ifndef M_TOUCH_AFTER
    nx = next_w[f];
#endif
    h = posted[f % NH]
  };
#ifdef M_PUSH_LOAD_STORE
  d_step { assert(live[f]); link[f] = h; posted[f % NH] = f + 1 };
#else
  do                                        /* do F.link = head; while (!CAS(head -> F)) */
  :: d_step {
       assert(live[f]);
       link[f] = h;
       if
       :: posted[f % NH] == h -> posted[f % NH] = f + 1; ok = true
       :: else -> h = posted[f % NH]
       fi
     };
     if
     :: ok -> break
     :: else
     fi
  od;
  ok = false;
#endif
  h = 0;
#ifdef M_TOUCH_AFTER
  d_step { assert(live[f]); nx = next_w[f] };
#endif
#ifndef M_NOTIFY_FIRST
#ifdef M_NOTIFY_ONE
  notify(false)
#else
  notify(true)
#endif
#endif
}

/* The thread that runs task x, then wakes its waiters (fork_state::act, post_wakers). */
proctype completer(byte x)
{
  byte w, fr, nx, h;
  bool ok;
#ifdef M_STORED_EARLY
  d_step { w = head[x]; stored[x] = true };
  x_ready[x] = true;                        /* the task runs, its result is stored */
#else
  x_ready[x] = true;                        /* the task runs, its result is stored */
#ifdef M_SPLIT_FETCH_OR
  w = head[x];
  stored[x] = true;
#else
  d_step { w = head[x]; stored[x] = true }  /* old = result_stored.fetch_or(stored_bit) */
#endif
#endif
  do                                        /* post_wakers(old) */
  :: w == 0 -> break
  :: else -> fr = w - 1; post(fr, nx, h, ok); d_step { w = nx; nx = 0; fr = 0 }
  od
}

/* Home thread `me`: its frames me, me + NH, ..., each joining a task, and its scheduler loop. */
proctype home(byte me)
{
  byte f, nf, done, mine, x, oh, h;
  bool os, armed, sleep;
  d_step { nf = me; mine = (NF - me + NH - 1) / NH };
loop:
  /* take_ready() */
#ifdef M_TAKE_LOAD_STORE
  if
  :: ready[me] == 0 -> h = posted[me]; d_step { posted[me] = 0; take_list(me, h); skip }
  :: else
  fi;
#endif
  atomic {                                  /* (atomic, not d_step: a goto's target) */
#ifndef M_TAKE_LOAD_STORE
    if
    :: ready[me] == 0 -> h = posted[me]; posted[me] = 0; take_list(me, h)
    :: else
    fi;
#endif
    f = 1;                                  /* the lowest frame + 1 in the set, or 0 */
    do
    :: f > MAXF -> f = 0; break
    :: ready[me] & (1 << (f - 1)) -> ready[me] = ready[me] & ~(1 << (f - 1)); break
    :: else -> f++
    od
  };
  if
  :: f != 0 ->
     /* resume the frame: help_until() finds ready() true, get() takes the result; the task,
      * and the frame with its waker, end */
     d_step {
       f--;
       assert(!resumed[f]);
       assert(parked[f] && posted_once[f] && live[f] && stored[f % NX] && x_ready[f % NX]);
       resumed[f] = true; live[f] = false; done++; f = 0
     };
     goto loop
  :: else
  fi;
  if
  :: nf < NF ->
     /* run a task (try_run_one): the next frame's, which joins task x */
     d_step { f = nf; nf = nf + NH; x = f % NX; live[f] = true };
     if
     :: stored[x] ->                        /* ready() (run_record::stored()): go on */
        assert(x_ready[x])                  /* get() takes the result */
     :: else ->
        /* arm: add_waker(result_stored, stored_bit, frame) */
        d_step { os = stored[x]; oh = head[x] };
        do
#ifndef M_NO_STORED_CHECK
        :: os -> break
#endif
        :: else ->
           d_step {                         /* F.next = list(old); CAS(old -> F | flags(old)) */
             next_w[f] = oh;
             if
             :: stored[x] == os && head[x] == oh ->
                head[x] = f + 1; registered[f] = true; armed = true;
                parked[f] = true            /* park: the home runs schedule() on a fiber */
             :: else -> os = stored[x]; oh = head[x]
             fi
           };
           if
           :: armed -> break
           :: else
           fi
        od;
        if
        :: armed -> d_step { armed = false; os = false; oh = 0; f = 0; x = 0 }; goto loop
        :: else ->
           /* arm_result::done: help_until() loops, finds ready() true, and get() takes the
            * result */
           assert(x_ready[x])
        fi
     fi;
     d_step { live[f] = false; done++; os = false; oh = 0; f = 0; x = 0 };
     goto loop
  :: else
  fi;
  if
  :: done == mine -> goto leave             /* (the pool's exit test, for this model) */
  :: else
  fi;
  /* key = prepare_wait() */
  waiters++;
  key_is_epoch[me] = true;
#ifndef M_NO_RECHECK
  if
  :: posted[me] != 0 || ready[me] != 0 ->   /* has_ready(): cancel_wait(), loop */
     d_step { waiters--; key_is_epoch[me] = false }; goto loop
  :: else
  fi;
#endif
  commit_wait(me, sleep);
  goto loop;
leave:
  homes_done++
}

/* Another pool thread with nothing to do: it sleeps on the same event count until closed. */
proctype idle()
{
  bool sleep;
look:
  waiters++;                                /* prepare_wait() */
  key_is_epoch[IDLER] = true;
  if
  :: closed -> d_step { waiters--; key_is_epoch[IDLER] = false }; goto leave
  :: else
  fi;
  commit_wait(IDLER, sleep);
  goto look;
leave:
  skip
}

init
{
  byte i;
  atomic {
    do
    :: i < NH -> run home(i); i++
    :: else -> break
    od;
    i = 0;
    do
    :: i < NX -> run completer(i); i++
    :: else -> break
    od;
#ifdef IDLE
    run idle()
#endif
  };
  homes_done == NH;                         /* then close(): shared_.close(), notify_all() */
  closed = true;
  notify(true);
  _nr_pr == 1;                              /* everybody else has finished */
  assert(waiters == 0 && ec_mutex == 0);
  i = 0;
  do
  :: i < NH -> assert(posted[i] == 0 && ready[i] == 0); i++
  :: else -> break
  od;
  i = 0;
  do
  :: i < NF ->
     assert(!live[i] && x_ready[i % NX] && registered[i] == parked[i] &&
            parked[i] == posted_once[i] && posted_once[i] == resumed[i]);
     i++
  :: else -> break
  od
}

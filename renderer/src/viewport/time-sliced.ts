/**
 * Long work on the page's main thread cut into slices (issue 19): a 400-megatile level or a
 * 100 MB map's world built in one go held the page for a second, so input, the progress
 * bar and the walkmesh's own frames waited. The work is a generator whose every `yield`
 * is a point where it may stop; slices run steps until `budgetMs` is spent, then give the
 * event loop back (a macrotask, so input and rendering get their turn) and go on after.
 * A step may yield a promise (work going on elsewhere, e.g. a shader compiling): the run
 * then waits for it, settled either way, without using the main thread meanwhile.
 */
export interface SliceClock {
  now(): number;
  /** Runs `next` later, after the page has had its turn (setTimeout in the page). */
  later(next: () => void): void;
}

export const pageClock: SliceClock = {
  now: () => performance.now(),
  later: (next) => void setTimeout(next, 0),
};

export interface SlicedRun {
  /** Resolves true once every step ran, false if cancelled first; rejects with a step's error. */
  readonly done: Promise<boolean>;
  /** Stops before the next step (the generator's `finally` blocks run). */
  cancel(): void;
  /** Slices run so far (each is one task of the page's main thread). */
  readonly slices: number;
}

/**
 * Runs `steps` in slices of about `budgetMs` each: a step is never cut, so the budget is
 * kept as well as the steps are small. The first slice starts at once (the caller's task).
 */
export function runSliced(iterator: Iterator<unknown>, budgetMs: number, clock: SliceClock = pageClock): SlicedRun {
  let steps = iterator;
  let cancelled = false;
  let running = false;
  let slices = 0;
  let settle: (finished: boolean) => void = () => {};
  let fail: (e: unknown) => void = () => {};
  const done = new Promise<boolean>((resolve, reject) => {
    settle = resolve;
    fail = reject;
  });
  const slice = (): void => {
    if (cancelled) return;
    slices++;
    const start = clock.now();
    try {
      for (;;) {
        running = true;
        const step = steps.next();
        running = false;
        if (step.done) {
          // What the steps built is theirs to keep; the finished iterator is let go at once.
          steps = FINISHED;
          settle(true);
          return;
        }
        if (cancelled) {
          // Cancelled by the step itself: the generator is closed now that it has stopped.
          steps.return?.(undefined);
          return;
        }
        if (isPromiseLike(step.value)) {
          const resume = (): void => clock.later(slice);
          step.value.then(resume, resume);
          return;
        }
        if (clock.now() - start >= budgetMs) break;
      }
    } catch (e) {
      running = false;
      fail(e);
      return;
    }
    clock.later(slice);
  };
  slice();
  return {
    done,
    cancel() {
      if (cancelled) return;
      cancelled = true;
      if (!running) steps.return?.(undefined);
      settle(false);
    },
    get slices() {
      return slices;
    },
  };
}

const FINISHED: Iterator<unknown> = { next: () => ({ done: true, value: undefined }) };

function isPromiseLike(v: unknown): v is PromiseLike<unknown> {
  return typeof v === 'object' && v !== null && typeof (v as { then?: unknown }).then === 'function';
}

/** Time source, injected so that tests and jobs can control it. */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** Time source, injected so that tests and jobs can control it. */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/**
 * A clock that starts at `startMs` and runs on at real speed from there
 * (`newsindex serve --now`): the service behaves as of another time, so plan
 * windows, watch runs and retention can be exercised on archived data.
 */
export function replayClock(startMs: number, real: Clock = systemClock): Clock {
  const offset = startMs - real.now();
  return { now: () => real.now() + offset };
}

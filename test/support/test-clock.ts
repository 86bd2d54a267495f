import type { Clock } from "../../src/shared/clock.js";

/** A clock the test moves: budgets refill, keys expire and months turn when it says so. */
export class TestClock implements Clock {
  constructor(private ms: number) {}

  now(): number {
    return this.ms;
  }

  advance(ms: number): void {
    this.ms += ms;
  }

  set(ms: number): void {
    this.ms = ms;
  }
}

import { describe, expect, it } from "vitest";
import { SessionMeter } from "./session-meter.js";

describe("SessionMeter", () => {
  const clockAt = (ms: { now: number }) => ({ now: () => ms.now });

  it("counts calls and credits per key and session id, separately", () => {
    const meter = new SessionMeter(clockAt({ now: 0 }));
    meter.record({ keyId: "k1", sessionId: "s" }, 2);
    expect(meter.record({ keyId: "k1", sessionId: "s" }, 3)).toEqual({ calls_this_session: 2, credits_this_session: 5 });
    expect(meter.record({ keyId: "k2", sessionId: "s" }, 1)).toEqual({ calls_this_session: 1, credits_this_session: 1 });
    expect(meter.record({ keyId: "k1", sessionId: undefined }, 0)).toEqual({ calls_this_session: 1, credits_this_session: 0 });
  });

  it("starts a session again after it idles or ends", () => {
    const time = { now: 0 };
    const meter = new SessionMeter(clockAt(time), { idleMs: 1000, maxSessions: 10 });
    meter.record({ keyId: "k", sessionId: "s" }, 1);
    time.now = 1000;
    expect(meter.record({ keyId: "k", sessionId: "s" }, 1).calls_this_session).toBe(2);
    time.now = 2001;
    expect(meter.record({ keyId: "k", sessionId: "s" }, 1).calls_this_session).toBe(1);
    meter.end({ keyId: "k", sessionId: "s" });
    expect(meter.record({ keyId: "k", sessionId: "s" }, 1).calls_this_session).toBe(1);
  });

  it("forgets the least recently used session past its bound", () => {
    const meter = new SessionMeter(clockAt({ now: 0 }), { idleMs: 60_000, maxSessions: 2 });
    meter.record({ keyId: "k", sessionId: "a" }, 1);
    meter.record({ keyId: "k", sessionId: "b" }, 1);
    meter.record({ keyId: "k", sessionId: "a" }, 1);
    meter.record({ keyId: "k", sessionId: "c" }, 1);
    expect(meter.record({ keyId: "k", sessionId: "a" }, 0).calls_this_session).toBe(3);
    expect(meter.record({ keyId: "k", sessionId: "b" }, 0).calls_this_session).toBe(1);
  });
});

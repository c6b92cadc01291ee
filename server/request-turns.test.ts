import { afterEach, expect, test } from "vitest";
import { createRequestTurns } from "./request-turns.js";
import { createTestApp, type TestApp } from "../testing/test-app.js";

/**
 * Counts turns of the event loop: one setImmediate chain runs exactly once per turn, in the same
 * check phase as the turns' own end-of-turn callback.
 */
function turnCounter() {
  let turn = 0;
  let running = true;
  const tick = () => {
    if (!running) return;
    turn += 1;
    setImmediate(tick);
  };
  setImmediate(tick);
  return { now: () => turn, stop: () => void (running = false) };
}

/** A clock the test moves by hand: a started request "works" by moving it. */
function manualClock() {
  let at = 0;
  return { now: () => at, advance: (ms: number) => void (at += ms) };
}

test("a request starts at once while the turn has time left and nobody waits", () => {
  const clock = manualClock();
  const turns = createRequestTurns({ sliceMs: 5, now: clock.now });
  expect(turns.admit()).toBeUndefined();
  clock.advance(2);
  expect(turns.admit()).toBeUndefined();
  expect(turns.waiting()).toBe(0);
});

test("once a turn's slice is spent, later requests start in arrival order, one per turn of the event loop", async () => {
  const clock = manualClock();
  const turns = createRequestTurns({ sliceMs: 5, now: clock.now });
  const counter = turnCounter();
  const started: { name: string; turn: number }[] = [];

  // A arrives first and starts; its work spends the slice.
  expect(turns.admit()).toBeUndefined();
  clock.advance(8);
  // B, C and D arrive in the same turn and wait.
  const waits = ["B", "C", "D"].map((name) => {
    const wait = turns.admit();
    expect(wait).toBeInstanceOf(Promise);
    return wait?.then(() => {
      started.push({ name, turn: counter.now() });
      // E arrives while B runs: the turn has time left, but C and D came first.
      if (name === "B") {
        const late = turns.admit();
        expect(late).toBeInstanceOf(Promise);
        void late?.then(() => started.push({ name: "E", turn: counter.now() }));
      }
    });
  });
  expect(turns.waiting()).toBe(3);

  await Promise.all(waits);
  await new Promise((resolve) => setImmediate(resolve));
  await new Promise((resolve) => setImmediate(resolve));
  counter.stop();

  expect(started.map((s) => s.name)).toEqual(["B", "C", "D", "E"]);
  // Each waiting request started in a turn of its own, so between two of them the event loop
  // polled its sockets (and the listening socket: a new connection is accepted there).
  const at = started.map((s) => s.turn);
  for (let i = 1; i < at.length; i += 1) expect(at[i]).toBe((at[i - 1] ?? 0) + 1);
  expect(turns.waiting()).toBe(0);
});

test("a new turn starts requests at once again when nobody waits", async () => {
  const clock = manualClock();
  const turns = createRequestTurns({ sliceMs: 5, now: clock.now });
  expect(turns.admit()).toBeUndefined();
  clock.advance(50);
  const wait = turns.admit();
  expect(wait).toBeInstanceOf(Promise);
  await wait;
  // The queue is empty: the turns after it start what arrives without waiting.
  await new Promise((resolve) => setImmediate(resolve));
  await new Promise((resolve) => setImmediate(resolve));
  expect(turns.admit()).toBeUndefined();
});

let testApp: TestApp | undefined;
afterEach(async () => {
  await testApp?.close();
  testApp = undefined;
});

test("the app answers every one of many simultaneous requests, taken in turns", async () => {
  testApp = await createTestApp();
  const { app } = testApp;
  const answers = await Promise.all(
    Array.from({ length: 50 }, () => app.inject({ method: "GET", url: "/api/health" })),
  );
  expect(answers.map((a) => a.statusCode)).toEqual(Array.from({ length: 50 }, () => 200));
});

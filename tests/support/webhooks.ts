import { afterAll, afterEach, beforeAll, beforeEach } from "vitest";
import { createDeliveryWorker, type DeliveryWorker, type DeliveryWorkerOptions } from "@/lib/services/webhooks/worker";
import type { Client, TestApp } from "./app";
import { type Receiver, startReceiver } from "./webhook-receiver";

/** A clock the test moves on by hours or days: what the delivery workers of useWebhooks read as now. */
interface TestClock {
  now(): number;
  advance(ms: number): void;
}

export interface WebhookTesting {
  receiver: Receiver;
  clock: TestClock;
  /** A delivery worker of this app on the test clock (not started: the test runs `runDue`). */
  worker(options?: DeliveryWorkerOptions & { db?: TestApp["app"]["db"] }): DeliveryWorker;
  /** Adds a webhook through the API, to the receiver at `path`; answers it with its secret. */
  add(client: Client, scope: "me" | "admin", path: string, events?: string[]): Promise<{ id: string; secret: string; url: string }>;
}

/**
 * A receiver for the file (its host allowed by the app's WEBHOOK_ALLOWED_HOSTS, given to
 * useTestApp), a test clock set back to the real time before each test, and every webhook a test added removed
 * after it (with its deliveries), so one test's webhooks never receive the next one's events.
 */
export function useWebhooks(t: TestApp): WebhookTesting {
  let ahead = 0;
  const clock: TestClock = {
    now: () => Date.now() + ahead,
    advance: (ms) => {
      ahead += ms;
    },
  };
  const added: Array<{ client: Client; path: string }> = [];
  const testing = { clock } as WebhookTesting;
  beforeAll(async () => {
    testing.receiver = await startReceiver();
  });
  afterAll(() => testing.receiver.close());
  beforeEach(() => {
    ahead = 0;
  });
  afterEach(async () => {
    for (const { client, path } of added.splice(0)) await client.delete(path);
  });
  testing.worker = ({ db, ...options } = {}) =>
    createDeliveryWorker(
      { db: db ?? t.app.db, config: t.app.config, secretKey: t.app.secretKey, resolveHost: t.app.resolveHost, clock: clock.now },
      options,
    );
  testing.add = async (client, scope, path, events = ["*"]) => {
    const url = testing.receiver.url(path);
    const created = await client.post(`/ext/svc/${scope}/webhooks`, { url, events });
    if (created.status !== 201) throw new Error(`adding a webhook: ${created.status} ${created.text}`);
    added.push({ client, path: `/ext/svc/${scope}/webhooks/${created.body.id}` });
    return { id: created.body.id, secret: created.body.secret, url };
  };
  return testing;
}

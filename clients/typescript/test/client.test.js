// @sail/client against a real `sail serve` (scripts/client-libraries-test.sh
// starts it and exports SAIL_URL, SAIL_KEY, SAIL_TOKEN_ADMIN_KEY,
// SAIL_LIMITED_KEY and SAIL_ORPHAN_URL): every operation, retries with one
// idempotency key, pagination, each error class from a real refusal, and a
// real delivered webhook verified from its raw bytes. Node's own runner.

import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { createServer } from "node:http";
import { after, test } from "node:test";

import Sail, {
  AuthenticationError, ConflictError, InvalidRequestError, NotFoundError, PermissionError, RateLimitError,
  SailError, ServiceUnavailableError, SignatureVerificationError,
} from "@sail/client";

const env = process.env;
const client = (options = {}) => new Sail({ apiKey: env.SAIL_KEY, baseUrl: env.SAIL_URL, ...options });
const unique = (prefix) => `${prefix}-${crypto.randomUUID().slice(0, 12)}`;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// Every operation the suite calls, by method and route template.
const called = new Set();
const recording = (inner = fetch) => async (url, init) => {
  const route = new URL(url).pathname.replace(/^\/api\/v1/, "").replace(/\/[a-z]+_[0-9a-f]{32}/g, "/{id}");
  called.add(`${init.method} ${route}`);
  return inner(url, init);
};

after(async () => {
  const document = await (await fetch(`${env.SAIL_URL}/openapi.json`)).json();
  const operations = [];
  for (const [route, item] of Object.entries(document.paths)) {
    for (const method of ["get", "post", "patch", "delete"]) {
      if (item[method]) operations.push(`${method.toUpperCase()} ${route.replace(/\{[a-z_]+\}/g, "{id}")}`);
    }
  }
  assert.ok(operations.length >= 35);
  const missing = operations.filter((op) => !called.has(op));
  assert.deepEqual(missing, [], "operations the suite never called");
});

function receiver() {
  const deliveries = [];
  const server = createServer((request, response) => {
    const chunks = [];
    request.on("data", (chunk) => chunks.push(chunk));
    request.on("end", () => {
      deliveries.push({ raw: Buffer.concat(chunks), headers: request.headers });
      response.end("ok");
    });
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve({
    url: `http://localhost:${server.address().port}/hooks`,
    close: () => server.close(),
    async waitFor(type) {
      for (let i = 0; i < 600; i++) {
        const found = deliveries.find((d) => JSON.parse(d.raw).type === type);
        if (found) return found;
        await sleep(50);
      }
      throw new Error(`no ${type} delivery`);
    },
  })));
}

test("every operation on a partner's first afternoon, and a verified webhook", async () => {
  const sail = client({ fetch: recording() });
  const admin = client({ apiKey: env.SAIL_TOKEN_ADMIN_KEY, fetch: recording() });
  const hooks = await receiver();
  try {
    const endpoint = await sail.webhookEndpoints.create({ url: hooks.url });
    assert.match(endpoint.secret, /^whsec_/);
    assert.ok((await sail.webhookEndpoints.list().toArray()).some((e) => e.id === endpoint.id));

    const user = await sail.users.create({ external_user_id: unique("ts"), email: "jane@example.com" });
    assert.equal((await sail.users.get(user.id)).external_user_id, user.external_user_id);
    assert.equal((await sail.users.update(user.id, { first_name: "Jane" })).id, user.id);
    assert.ok((await sail.users.list({ status: "active" }).toArray()).some((u) => u.id === user.id));

    const bank = await sail.connections.create(user.id, { type: "external", provider_label: "Partner Bank" });
    assert.equal((await sail.connections.get(user.id, bank.id)).id, bank.id);
    const pushed = await sail.transactions.push(user.id, bank.id, {
      transactions: [{ external_transaction_id: "t-1", date: "2026-11-01", amount: 24.99,
        description: "CVS PHARMACY #123", mcc: "5912" }],
    });
    assert.equal(pushed.accepted, 1);
    let job;
    for (let i = 0; i < 300 && job?.status !== "completed"; i++) {
      job = await sail.jobs.get(pushed.job_id);
      await sleep(100);
    }
    assert.equal(job.status, "completed");

    const delivery = await hooks.waitFor("transactions.ingested");
    const event = await Sail.webhooks.constructEvent(delivery.raw, delivery.headers["sail-signature"], endpoint.secret);
    assert.equal(event.type, "transactions.ingested");
    assert.equal(event.data.job_id, pushed.job_id);
    const reserialised = JSON.stringify(JSON.parse(delivery.raw), null, 2);
    await assert.rejects(Sail.webhooks.verify(endpoint.secret, delivery.headers["sail-signature"], reserialised),
      SignatureVerificationError);
    await assert.rejects(Sail.webhooks.verify("whsec_wrong", delivery.headers["sail-signature"], delivery.raw),
      SignatureVerificationError);

    const expenses = await sail.expenses.list(user.id, { from: "2026-10-01" }).toArray();
    const expense = await sail.expenses.get(user.id, expenses[0].id);
    assert.equal(expense.external_transaction_id, "t-1");
    const receipt = await sail.receipts.upload(user.id, expense.id, {
      file: "CVS PHARMACY\nIBUPROFEN 200MG   24.99\nTOTAL 24.99\n", fileName: "receipt.txt", contentType: "text/plain",
    });
    assert.equal((await sail.receipts.get(user.id, expense.id, receipt.id)).id, receipt.id);

    const [administrator] = (await sail.administrators.list({ search: "Fidelity Investments", limit: 1 }).page()).data;
    const benefits = await sail.sandbox.createConnection({
      user_id: user.id, type: "benefit_account", provider_id: administrator.id,
    });
    assert.ok((await sail.connections.list(user.id).toArray()).some((c) => c.id === benefits.id));
    let accounts = [];
    for (let i = 0; i < 300 && accounts.length === 0; i++) {
      accounts = await sail.accounts.list(user.id, { connection_id: benefits.id }).toArray();
      if (accounts.length === 0) await sleep(100);
    }
    const hsa = accounts.find((a) => a.type === "hsa");
    assert.equal((await sail.accounts.get(user.id, hsa.id)).id, hsa.id);

    const token = await admin.userTokens.create({ user_id: user.id, scopes: ["identity", "account_numbers"] });
    const personal = client({ userToken: token.token, fetch: recording() });
    assert.ok(await personal.identity.get(user.id));
    assert.equal((await personal.users.export(user.id)).user.id, user.id);
    assert.equal((await personal.accounts.numbers(user.id, hsa.id)).account_id, hsa.id);
    assert.equal((await admin.userTokens.delete(token.id)).id, token.id);

    const session = await sail.hostedSessions.create({
      user_id: user.id, flow: "connect_account", options: { connection_type: "card" },
    });
    assert.equal((await sail.hostedSessions.get(session.id)).id, session.id);
    assert.ok((await sail.hostedSessions.list({ user_id: user.id }).toArray()).some((s) => s.id === session.id));

    assert.ok((await sail.merchants.list({ search: "walgreens", limit: 3 }).page()).data.length > 0);
    const listed = (await sail.events.list({ type: "transactions.ingested" }).page()).data;
    assert.ok(listed.some((e) => e.id === event.id));
    assert.equal((await sail.events.get(event.id)).id, event.id);
    await sail.events.redeliver(event.id);

    const fired = await sail.sandbox.createEvent({ type: "user.deactivated", user_id: user.id });
    const test = await hooks.waitFor("user.deactivated");
    const testEvent = await Sail.webhooks.constructEvent(test.raw, test.headers["sail-signature"], endpoint.secret);
    assert.equal(testEvent.id, fired.id);

    assert.equal((await sail.connections.delete(user.id, bank.id)).id, bank.id);
    assert.equal((await sail.webhookEndpoints.delete(endpoint.id)).id, endpoint.id);
    assert.equal((await sail.users.delete(user.id)).deleted, true);
    await assert.rejects(sail.users.get(user.id), NotFoundError);
  } finally {
    hooks.close();
  }
});

test("lists follow pages", async () => {
  const gets = [];
  const sail = client({ fetch: recording(async (url, init) => {
    if (init.method === "GET") gets.push(String(url));
    return fetch(url, init);
  }) });
  const made = [];
  for (let i = 0; i < 5; i++) made.push((await sail.users.create({ external_user_id: unique("page") })).id);
  const first = await sail.users.list({ limit: 2 }).page();
  assert.equal(first.data.length, 2);
  assert.ok(first.pagination.has_more && first.pagination.total >= 5);
  gets.length = 0;
  const seen = [];
  for await (const user of sail.users.list({ limit: 2 })) seen.push(user.id);
  assert.ok(made.every((id) => seen.includes(id)));
  assert.equal(new Set(seen).size, first.pagination.total);
  assert.ok(gets.length >= 3, gets.join("\n"));
  assert.match(gets[1], /offset=2/);
  assert.match(gets[2], /offset=4/);
});

test("a retried POST keeps its Idempotency-Key and creates once", async () => {
  const keys = [];
  const losesFirstAnswer = recording(async (url, init) => {
    const response = await fetch(url, init);
    if (init.method === "POST") {
      keys.push(init.headers["Idempotency-Key"]);
      if (keys.length === 1) {
        await response.arrayBuffer();
        throw new TypeError("fetch failed: connection reset");
      }
    }
    return response;
  });
  const sail = client({ fetch: losesFirstAnswer });
  const external = unique("once");
  const user = await sail.users.create({ external_user_id: external });
  // At least the lost attempt and its retry (a 429 on the way adds more),
  // all under one key.
  assert.ok(keys.length >= 2, JSON.stringify(keys));
  assert.equal(new Set(keys).size, 1, JSON.stringify(keys));
  const all = await client().users.list().toArray();
  assert.deepEqual(all.filter((u) => u.external_user_id === external).map((u) => u.id), [user.id]);
  const mine = crypto.randomUUID();
  const again = await client().users.create({ external_user_id: unique("mine") }, { idempotencyKey: mine });
  const replay = await client().users.create({ external_user_id: again.external_user_id }, { idempotencyKey: mine });
  assert.equal(replay.id, again.id);
});

test("a POST whose first attempt never finished is retried after Retry-After", async () => {
  const key = crypto.randomUUID();
  const user = await client().users.create({ external_user_id: unique("cut-off") }, { idempotencyKey: key });
  // As if the first attempt's process died before keeping its reply: the
  // key stays reserved, with nothing to replay, until it goes stale.
  const path = env.SAIL_DATABASE_URL.replace(/^sqlite:\/\//, "").split("?")[0];
  execFileSync("python3", ["-c", [
    "import sqlite3, sys",
    "db = sqlite3.connect(sys.argv[1], timeout=10)",
    "db.execute('UPDATE idempotency_keys SET response_hex = NULL " +
      "WHERE created_at = (SELECT max(created_at) FROM idempotency_keys)')",
    "db.commit()",
  ].join("\n"), path]);
  const retries = [];
  const refused = await client({ maxRetries: 2, onRetry: (r) => retries.push(r) })
    .users.create({ external_user_id: user.external_user_id }, { idempotencyKey: key })
    .catch((err) => err);
  assert.ok(refused instanceof ConflictError, String(refused));
  assert.equal(refused.code, "idempotency_key_reused");
  assert.deepEqual(retries.map((r) => [r.status, r.waitMs]), [[409, 1000], [409, 1000]]);
});

test("a 429 is retried after Retry-After", async () => {
  const hasty = client({ apiKey: env.SAIL_LIMITED_KEY, maxRetries: 0 });
  const refused = await (async () => {
    for (let i = 0; i < 200; i++) {
      try {
        await hasty.merchants.list({ limit: 1 }).page();
      } catch (err) {
        return err;
      }
    }
    return undefined;
  })();
  assert.ok(refused instanceof RateLimitError, String(refused));
  assert.equal(refused.status, 429);
  assert.equal(refused.code, "rate_limited");
  assert.ok(refused.requestId);
  const retries = [];
  const patient = client({ apiKey: env.SAIL_LIMITED_KEY, maxRetries: 5, onRetry: (r) => retries.push(r) });
  for (let i = 0; i < 80; i++) assert.ok((await patient.merchants.list({ limit: 1 }).page()).data.length > 0);
  assert.ok(retries.some((r) => r.status === 429 && r.waitMs >= 0), JSON.stringify(retries));
});

test("each error class comes from a real refusal", async () => {
  const sail = client();
  const invalid = await sail.users.create({ external_user_id: "" }).catch((e) => e);
  assert.ok(invalid instanceof InvalidRequestError);
  assert.equal(invalid.param, "external_user_id");
  const unauthenticated = await client({ apiKey: "sk_test_not_a_key" }).users.list().page().catch((e) => e);
  assert.ok(unauthenticated instanceof AuthenticationError);
  const forbidden = await client({ apiKey: env.SAIL_TOKEN_ADMIN_KEY }).users.list().page().catch((e) => e);
  assert.ok(forbidden instanceof PermissionError);
  const missing = await sail.users.get("usr_00000000000000000000000000000000").catch((e) => e);
  assert.ok(missing instanceof NotFoundError);
  assert.equal(missing.code, "not_found");
  const taken = await sail.users.create({ external_user_id: unique("dup") });
  const conflict = await sail.users.create({ external_user_id: taken.external_user_id }).catch((e) => e);
  assert.ok(conflict instanceof ConflictError);
  assert.equal(conflict.param, "external_user_id");
  const unavailable = await client({ baseUrl: env.SAIL_ORPHAN_URL, maxRetries: 1 }).users.list().page()
    .catch((e) => e);
  assert.ok(unavailable instanceof ServiceUnavailableError);
  assert.equal(unavailable.code, "service_unavailable");
  for (const error of [invalid, unauthenticated, forbidden, missing, conflict, unavailable]) {
    assert.ok(error instanceof SailError && error.requestId && error.status >= 400, String(error));
  }
});

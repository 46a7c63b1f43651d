// Sail's partner data API for TypeScript and JavaScript: `new Sail({ apiKey,
// baseUrl })`, a resource per area with a method per operation, lists that
// follow their pages (`for await`), errors thrown as `SailError` subclasses,
// retries with one `Idempotency-Key` across them, and `Sail.webhooks` to
// verify deliveries. No runtime dependency: `fetch` and WebCrypto, as Node
// 18+, Deno, Bun and browsers have them. The types (src/index.d.ts) come
// from src/schema.d.ts, generated from the OpenAPI document
// (scripts/generate-clients.sh); docs/clients.md is the guide.

const DEFAULT_BASE_URL = "http://127.0.0.1:8080/api/v1";
const RETRIED_STATUSES = new Set([429, 503]);
const INITIAL_BACKOFF_MS = 500;
const MAX_BACKOFF_MS = 8000;
const MAX_RETRY_AFTER_MS = 60000;

/** Anything this library throws. */
export class SailError extends Error {
  constructor(message, { status, code, param, requestId } = {}) {
    super(message);
    this.name = new.target.name;
    this.status = status;
    this.code = code;
    this.param = param;
    this.requestId = requestId;
  }
}
export class InvalidRequestError extends SailError {}
export class AuthenticationError extends SailError {}
export class PermissionError extends SailError {}
export class NotFoundError extends SailError {}
export class ConflictError extends SailError {}
export class RateLimitError extends SailError {}
export class ServiceUnavailableError extends SailError {}
export class SignatureVerificationError extends SailError {}

const BY_STATUS = {
  400: InvalidRequestError, 401: AuthenticationError, 403: PermissionError, 404: NotFoundError,
  409: ConflictError, 413: InvalidRequestError, 415: InvalidRequestError, 422: InvalidRequestError,
  429: RateLimitError,
};

async function errorFrom(response) {
  let error = {};
  try {
    const body = await response.json();
    if (body && typeof body.error === "object" && body.error) error = body.error;
  } catch {
    // Not the envelope: the status says enough.
  }
  const Class = BY_STATUS[response.status] ?? (response.status >= 500 ? ServiceUnavailableError : SailError);
  return new Class(error.message ?? `HTTP ${response.status}`, {
    status: response.status,
    code: error.code ?? undefined,
    param: error.param ?? undefined,
    requestId: response.headers.get("request-id") ?? undefined,
  });
}

/** Milliseconds a `Retry-After` asks for (seconds or an HTTP date), bounded. */
export function retryAfterMs(response) {
  const value = response.headers.get("retry-after");
  if (value === null) return undefined;
  let ms = Number(value) * 1000;
  if (Number.isNaN(ms)) ms = Date.parse(value) - Date.now();
  if (Number.isNaN(ms)) return undefined;
  return Math.min(Math.max(ms, 0), MAX_RETRY_AFTER_MS);
}

function backoffMs(attempt) {
  return Math.random() * Math.min(MAX_BACKOFF_MS, INITIAL_BACKOFF_MS * 2 ** attempt);
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Every item of a list, fetched a page at a time; `.page()` is the first page. */
export class ListIterator {
  #fetchPage;
  #offset;
  constructor(fetchPage, offset = 0) {
    this.#fetchPage = fetchPage;
    this.#offset = offset;
  }
  page() {
    return this.#fetchPage(this.#offset);
  }
  async *[Symbol.asyncIterator]() {
    let offset = this.#offset;
    for (;;) {
      const page = await this.#fetchPage(offset);
      yield* page.data;
      if (!page.pagination.has_more || page.data.length === 0) return;
      offset += page.data.length;
    }
  }
  /** Every item, as an array. */
  async toArray() {
    const all = [];
    for await (const item of this) all.push(item);
    return all;
  }
}

const path = (strings, ...ids) =>
  strings.reduce((out, part, i) => out + part + (i < ids.length ? encodeURIComponent(ids[i]) : ""), "");

export class Sail {
  #apiKey;
  #baseUrl;
  #userToken;
  #maxRetries;
  #timeoutMs;
  #fetch;
  #onRetry;

  constructor({ apiKey, baseUrl, userToken, maxRetries = 2, timeoutMs = 30000, fetch, onRetry } = {}) {
    const env = globalThis.process?.env ?? {};
    this.#apiKey = apiKey ?? env.SAIL_KEY;
    if (!this.#apiKey) throw new SailError("an API key is needed: new Sail({ apiKey }) or SAIL_KEY");
    this.#baseUrl = (baseUrl ?? env.SAIL_URL ?? DEFAULT_BASE_URL).replace(/\/+$/, "");
    this.#userToken = userToken;
    this.#maxRetries = Math.max(0, maxRetries);
    this.#timeoutMs = timeoutMs;
    this.#fetch = fetch ?? globalThis.fetch.bind(globalThis);
    this.#onRetry = onRetry;

    const list = (route, query) => new ListIterator((offset) => this.request("GET", route, {
      query: { ...query, offset: offset || undefined },
    }));
    const post = (route, body, options) => this.request("POST", route, { ...options, body });
    const personal = (options) => ({ userToken: options?.userToken ?? this.#userToken });

    this.users = {
      create: (body, options) => post("/users", body, options),
      get: (userId) => this.request("GET", path`/users/${userId}`),
      list: (query = {}) => list("/users", query),
      update: (userId, body) => this.request("PATCH", path`/users/${userId}`, { body }),
      delete: (userId) => this.request("DELETE", path`/users/${userId}`),
      export: (userId, options) => this.request("GET", path`/users/${userId}/export`, personal(options)),
    };
    this.connections = {
      create: (userId, body, options) => post(path`/users/${userId}/connections`, body, options),
      get: (userId, connectionId) => this.request("GET", path`/users/${userId}/connections/${connectionId}`),
      list: (userId, query = {}) => list(path`/users/${userId}/connections`, query),
      delete: (userId, connectionId) => this.request("DELETE", path`/users/${userId}/connections/${connectionId}`),
    };
    this.accounts = {
      list: (userId, query = {}) => list(path`/users/${userId}/accounts`, query),
      get: (userId, accountId) => this.request("GET", path`/users/${userId}/accounts/${accountId}`),
      numbers: (userId, accountId, options) =>
        this.request("GET", path`/users/${userId}/accounts/${accountId}/numbers`, personal(options)),
    };
    this.identity = {
      get: (userId, options) => this.request("GET", path`/users/${userId}/identity`, personal(options)),
    };
    this.transactions = {
      push: (userId, connectionId, body, options) =>
        post(path`/users/${userId}/connections/${connectionId}/transactions`, body, options),
    };
    this.expenses = {
      list: (userId, query = {}) => list(path`/users/${userId}/expenses`, query),
      get: (userId, expenseId) => this.request("GET", path`/users/${userId}/expenses/${expenseId}`),
    };
    this.receipts = {
      upload: (userId, expenseId, { file, fileName = "receipt", contentType }, options) => {
        const blob = file instanceof Blob ? file : new Blob([file], { type: contentType ?? "application/octet-stream" });
        const form = new FormData();
        form.append("file", blob, fileName);
        return this.request("POST", path`/users/${userId}/expenses/${expenseId}/receipts`, { ...options, form });
      },
      get: (userId, expenseId, receiptId) =>
        this.request("GET", path`/users/${userId}/expenses/${expenseId}/receipts/${receiptId}`),
    };
    this.jobs = { get: (jobId) => this.request("GET", path`/jobs/${jobId}`) };
    this.userTokens = {
      create: (body, options) => post("/user-tokens", body, options),
      delete: (userTokenId) => this.request("DELETE", path`/user-tokens/${userTokenId}`),
    };
    this.hostedSessions = {
      create: (body, options) => post("/hosted-sessions", body, options),
      get: (hostedSessionId) => this.request("GET", path`/hosted-sessions/${hostedSessionId}`),
      list: (query = {}) => list("/hosted-sessions", query),
    };
    this.webhookEndpoints = {
      create: (body, options) => post("/webhook-endpoints", body, options),
      list: (query = {}) => list("/webhook-endpoints", query),
      delete: (webhookEndpointId) => this.request("DELETE", path`/webhook-endpoints/${webhookEndpointId}`),
    };
    this.events = {
      list: (query = {}) => list("/events", query),
      get: (eventId) => this.request("GET", path`/events/${eventId}`),
      redeliver: (eventId, options) => post(path`/events/${eventId}/redeliver`, undefined, options),
    };
    this.merchants = { list: (query = {}) => list("/merchants", query) };
    this.administrators = { list: (query = {}) => list("/administrators", query) };
    this.sandbox = {
      createConnection: (body, options) => post("/sandbox/connections", body, options),
      createEvent: (body, options) => post("/sandbox/events", body, options),
    };
  }

  /**
   * One call: every POST gets an Idempotency-Key (the caller's, or a UUID
   * made once for the call and kept across its retries); network errors,
   * timeouts, 429 and 503 are retried after Retry-After or a jittered
   * backoff; a refusal is thrown as its SailError subclass.
   */
  async request(method, route, { query, body, form, userToken, idempotencyKey } = {}) {
    const url = new URL(this.#baseUrl + route);
    for (const [name, value] of Object.entries(query ?? {})) {
      if (value !== undefined && value !== null) url.searchParams.set(name, String(value));
    }
    const headers = { Authorization: `Bearer ${this.#apiKey}`, "User-Agent": "sail-typescript/0.1.0" };
    if (userToken) headers["Sail-User-Token"] = userToken;
    if (method === "POST") headers["Idempotency-Key"] = idempotencyKey ?? globalThis.crypto.randomUUID();
    let payload;
    if (form !== undefined) {
      payload = form;
    } else if (body !== undefined) {
      headers["Content-Type"] = "application/json";
      payload = JSON.stringify(body);
    }
    for (let attempt = 0; ; attempt++) {
      let response;
      try {
        response = await this.#fetch(url, {
          method, headers, body: payload, signal: AbortSignal.timeout(this.#timeoutMs),
        });
      } catch (err) {
        if (attempt >= this.#maxRetries) {
          throw new ServiceUnavailableError(`${method} ${route}: ${err?.message ?? err}`, { status: 0 });
        }
        const wait = backoffMs(attempt);
        this.#onRetry?.({ method, route, attempt: attempt + 1, waitMs: wait, error: err });
        await sleep(wait);
        continue;
      }
      // A 409 with Retry-After: the key's first request is still in
      // progress (or was cut off and its key is not yet free).
      const inProgress = response.status === 409 && response.headers.has("retry-after");
      if ((RETRIED_STATUSES.has(response.status) || inProgress) && attempt < this.#maxRetries) {
        const wait = retryAfterMs(response) ?? backoffMs(attempt);
        await response.arrayBuffer().catch(() => undefined);
        this.#onRetry?.({ method, route, attempt: attempt + 1, waitMs: wait, status: response.status });
        await sleep(wait);
        continue;
      }
      if (!response.ok) throw await errorFrom(response);
      return response.status === 204 ? undefined : response.json();
    }
  }

  static webhooks = {
    /** Throws SignatureVerificationError unless `Sail-Signature` holds for the raw body. */
    async verify(secret, signatureHeader, rawBody, tolerance = 300) {
      const bytes = typeof rawBody === "string" ? new TextEncoder().encode(rawBody) : new Uint8Array(rawBody);
      let timestamp;
      const candidates = [];
      for (const part of String(signatureHeader ?? "").split(",")) {
        const [key, value] = part.trim().split("=", 2);
        if (key === "t" && /^\d+$/.test(value ?? "")) timestamp = Number(value);
        if (key === "v1" && value) candidates.push(value);
      }
      if (timestamp === undefined || candidates.length === 0) {
        throw new SignatureVerificationError("Sail-Signature is not of the form t=<unix seconds>,v1=<hex>");
      }
      if (Math.abs(Date.now() / 1000 - timestamp) > tolerance) {
        throw new SignatureVerificationError(`the signature's timestamp is more than ${tolerance} s from now`);
      }
      const key = await globalThis.crypto.subtle.importKey(
        "raw", new TextEncoder().encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["verify"]);
      const signed = new Uint8Array([...new TextEncoder().encode(`${timestamp}.`), ...bytes]);
      for (const candidate of candidates) {
        if (!/^[0-9a-f]{64}$/.test(candidate)) continue;
        const mac = Uint8Array.from(candidate.match(/../g), (byte) => parseInt(byte, 16));
        // WebCrypto's verify compares in constant time.
        if (await globalThis.crypto.subtle.verify("HMAC", key, mac, signed)) return;
      }
      throw new SignatureVerificationError("no v1 signature matches the body and secret");
    },
    /** Verifies, then parses the delivery: `{ id, type, created_at, data }`, typed by `type`. */
    async constructEvent(rawBody, signatureHeader, secret, tolerance = 300) {
      await Sail.webhooks.verify(secret, signatureHeader, rawBody, tolerance);
      const text = typeof rawBody === "string" ? rawBody : new TextDecoder().decode(rawBody);
      return JSON.parse(text);
    },
  };
}

export default Sail;

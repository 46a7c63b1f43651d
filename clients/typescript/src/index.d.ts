// Types of @sail/client, over src/schema.d.ts: the OpenAPI document as
// openapi-typescript generates it (scripts/generate-clients.sh; never edited
// by hand). Each method's body, query and result are the document's own
// types for its operation, so a changed document changes them.

import type { components, operations, webhooks } from "./schema.js";

export type { components, operations, webhooks };
/** Every schema of the document by name: `Schemas["User"]`, `Schemas["Expense"]`, … */
export type Schemas = components["schemas"];

type Json<T> = T extends { content: { "application/json": infer B } } ? B : never;
/** The JSON body an operation takes. */
export type Body<Op extends keyof operations> = Json<NonNullable<operations[Op]["requestBody"]>>;
/** The query parameters an operation takes, without the paging ones the iterator sets. */
export type Query<Op extends keyof operations> = Omit<NonNullable<operations[Op]["parameters"]["query"]>, "offset">;
/** What an operation answers on success. */
export type Result<Op extends keyof operations> = operations[Op]["responses"] extends infer R
  ? 200 extends keyof R ? Json<R[200]> : 201 extends keyof R ? Json<R[201]> : 202 extends keyof R ? Json<R[202]> : never
  : never;
type Item<Op extends keyof operations> = Result<Op> extends { data: (infer I)[] } ? I : never;

/** A delivered event: `{ id, type, created_at, data }`, its `data` typed by its `type`. */
export type WebhookEvent = {
  [K in keyof webhooks]: Json<NonNullable<webhooks[K]["post"]>["requestBody"]>;
}[keyof webhooks];

export interface Page<T> {
  data: T[];
  pagination: Schemas["Pagination"];
}

export declare class ListIterator<T> implements AsyncIterable<T> {
  /** The first page alone, with its `pagination`. */
  page(): Promise<Page<T>>;
  [Symbol.asyncIterator](): AsyncIterator<T>;
  /** Every item, following `has_more` across pages. */
  toArray(): Promise<T[]>;
}

export interface RequestOptions {
  /** Your own `Idempotency-Key`; one is made for every POST otherwise. */
  idempotencyKey?: string;
}
export interface PersonalDataOptions {
  /** The user token for this call; the client's `userToken` otherwise. */
  userToken?: string;
}

export interface RetryInfo {
  method: string;
  route: string;
  attempt: number;
  waitMs: number;
  status?: number;
  error?: unknown;
}

export interface SailOptions {
  /** A key (`sk_…`); `SAIL_KEY` otherwise. */
  apiKey?: string;
  /** `https://…/api/v1`; `SAIL_URL` otherwise, then `http://127.0.0.1:8080/api/v1`. */
  baseUrl?: string;
  /** Sent on the calls that read personal data unless a call names its own. */
  userToken?: string;
  /** Retries of network errors, timeouts, 429 and 503 (default 2). */
  maxRetries?: number;
  timeoutMs?: number;
  /** A fetch of your own (a proxy, a test double of the network). */
  fetch?: typeof globalThis.fetch;
  /** Called before each retry, e.g. to log it. */
  onRetry?: (retry: RetryInfo) => void;
}

export declare class SailError extends Error {
  status?: number;
  code?: string;
  param?: string;
  requestId?: string;
}
export declare class InvalidRequestError extends SailError {}
export declare class AuthenticationError extends SailError {}
export declare class PermissionError extends SailError {}
export declare class NotFoundError extends SailError {}
export declare class ConflictError extends SailError {}
export declare class RateLimitError extends SailError {}
export declare class ServiceUnavailableError extends SailError {}
export declare class SignatureVerificationError extends SailError {}

export declare function retryAfterMs(response: Response): number | undefined;

export declare class Sail {
  constructor(options?: SailOptions);
  users: {
    create(body: Body<"CreateUser">, options?: RequestOptions): Promise<Result<"CreateUser">>;
    get(userId: string): Promise<Result<"GetUser">>;
    list(query?: Query<"ListUsers">): ListIterator<Item<"ListUsers">>;
    update(userId: string, body: Body<"UpdateUser">): Promise<Result<"UpdateUser">>;
    delete(userId: string): Promise<Result<"DeleteUser">>;
    export(userId: string, options?: PersonalDataOptions): Promise<Result<"ExportUser">>;
  };
  connections: {
    create(userId: string, body: Body<"CreateConnection">, options?: RequestOptions): Promise<Result<"CreateConnection">>;
    get(userId: string, connectionId: string): Promise<Result<"GetConnection">>;
    list(userId: string, query?: Query<"ListConnections">): ListIterator<Item<"ListConnections">>;
    delete(userId: string, connectionId: string): Promise<Result<"DeleteConnection">>;
  };
  accounts: {
    list(userId: string, query?: Query<"ListAccounts">): ListIterator<Item<"ListAccounts">>;
    get(userId: string, accountId: string): Promise<Result<"GetAccount">>;
    numbers(userId: string, accountId: string, options?: PersonalDataOptions): Promise<Result<"GetAccountNumbers">>;
  };
  identity: {
    get(userId: string, options?: PersonalDataOptions): Promise<Result<"GetIdentity">>;
  };
  transactions: {
    push(userId: string, connectionId: string, body: Body<"PushTransactions">, options?: RequestOptions):
      Promise<Result<"PushTransactions">>;
  };
  expenses: {
    list(userId: string, query?: Query<"ListExpenses">): ListIterator<Item<"ListExpenses">>;
    get(userId: string, expenseId: string): Promise<Result<"GetExpense">>;
  };
  receipts: {
    upload(
      userId: string,
      expenseId: string,
      file: { file: Blob | Uint8Array | ArrayBuffer | string; fileName?: string; contentType?: string },
      options?: RequestOptions,
    ): Promise<Result<"CreateReceipt">>;
    get(userId: string, expenseId: string, receiptId: string): Promise<Result<"GetReceipt">>;
  };
  jobs: { get(jobId: string): Promise<Result<"GetJob">> };
  userTokens: {
    create(body: Body<"CreateUserToken">, options?: RequestOptions): Promise<Result<"CreateUserToken">>;
    delete(userTokenId: string): Promise<Result<"DeleteUserToken">>;
  };
  hostedSessions: {
    create(body: Body<"CreateHostedSession">, options?: RequestOptions): Promise<Result<"CreateHostedSession">>;
    get(hostedSessionId: string): Promise<Result<"GetHostedSession">>;
    list(query?: Query<"ListHostedSessions">): ListIterator<Item<"ListHostedSessions">>;
  };
  webhookEndpoints: {
    create(body: Body<"CreateWebhookEndpoint">, options?: RequestOptions): Promise<Result<"CreateWebhookEndpoint">>;
    list(query?: Query<"ListWebhookEndpoints">): ListIterator<Item<"ListWebhookEndpoints">>;
    delete(webhookEndpointId: string): Promise<Result<"DeleteWebhookEndpoint">>;
  };
  events: {
    list(query?: Query<"ListEvents">): ListIterator<Item<"ListEvents">>;
    get(eventId: string): Promise<Result<"GetEvent">>;
    redeliver(eventId: string, options?: RequestOptions): Promise<Result<"RedeliverEvent">>;
  };
  merchants: { list(query?: Query<"ListMerchants">): ListIterator<Item<"ListMerchants">> };
  administrators: { list(query?: Query<"ListAdministrators">): ListIterator<Item<"ListAdministrators">> };
  sandbox: {
    createConnection(body: Body<"CreateSandboxConnection">, options?: RequestOptions):
      Promise<Result<"CreateSandboxConnection">>;
    createEvent(body: Body<"CreateSandboxEvent">, options?: RequestOptions): Promise<Result<"CreateSandboxEvent">>;
  };
  /** One call by method and route; what every method above goes through. */
  request(
    method: "GET" | "POST" | "PATCH" | "DELETE",
    route: string,
    options?: { query?: Record<string, unknown>; body?: unknown; form?: FormData; userToken?: string; idempotencyKey?: string },
  ): Promise<any>;

  static webhooks: {
    /** Throws SignatureVerificationError unless `Sail-Signature` holds for the raw body. */
    verify(secret: string, signatureHeader: string, rawBody: string | Uint8Array | ArrayBuffer, tolerance?: number):
      Promise<void>;
    /** Verifies, then parses the delivery, typed by its `type`. */
    constructEvent(rawBody: string | Uint8Array | ArrayBuffer, signatureHeader: string, secret: string,
      tolerance?: number): Promise<WebhookEvent>;
  };
}

export default Sail;

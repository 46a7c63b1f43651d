// Compiled by `tsc -p .` (never run): the declared types hold against the
// generated schema, and misuse is a type error.
import Sail, { type Schemas, type WebhookEvent, NotFoundError } from "../src/index.js";

async function firstAfternoon(sail: Sail): Promise<void> {
  const user: Schemas["User"] = await sail.users.create({ external_user_id: "u-1", email: "jane@example.com" });
  const bank = await sail.connections.create(user.id, { type: "external", provider_label: "Bank" });
  const pushed = await sail.transactions.push(user.id, bank.id, {
    transactions: [{ external_transaction_id: "t-1", date: "2026-11-01", amount: 1.5, description: "CVS" }],
  });
  const accepted: number = pushed.accepted;
  for await (const expense of sail.expenses.list(user.id, { status: "needs_review", limit: 50 })) {
    const status: "pending" | "eligible" | "ineligible" | "needs_review" = expense.status;
    void status;
  }
  const page = await sail.users.list({ limit: 10 }).page();
  const total: number = page.pagination.total;
  // @ts-expect-error: a status the document does not have
  sail.users.list({ status: "asleep" });
  // @ts-expect-error: external_user_id is required
  await sail.users.create({ email: "x@example.com" });
  // Each flow takes its own options, each connection type its own products.
  await sail.hostedSessions.create({
    user_id: user.id,
    flow: "connect_account",
    options: { connection_type: "store", merchant_id: "mer_x", modal: true },
  });
  await sail.hostedSessions.create({ user_id: user.id, flow: "reconnect", options: { connection_id: bank.id } });
  // @ts-expect-error: a card takes no merchant
  await sail.hostedSessions.create({ user_id: user.id, flow: "connect_account", options: { connection_type: "card", merchant_id: "mer_x" } });
  // @ts-expect-error: reconnect needs its connection
  await sail.hostedSessions.create({ user_id: user.id, flow: "reconnect" });
  await sail.sandbox.createConnection({ user_id: user.id, type: "benefit_account", products: ["identity"] });
  // @ts-expect-error: a card offers no identity
  await sail.sandbox.createConnection({ user_id: user.id, type: "card", products: ["identity"] });
  try {
    await sail.users.get("usr_x");
  } catch (err) {
    if (err instanceof NotFoundError) console.log(err.code, err.param, err.requestId, err.status);
  }
  void accepted;
  void total;
}

async function handle(raw: string, header: string, secret: string): Promise<string | undefined> {
  const event: WebhookEvent = await Sail.webhooks.constructEvent(raw, header, secret);
  if (event.type === "transactions.ingested") {
    // Narrowed by its type: the data of a push.
    const jobId: string = event.data.job_id;
    return jobId;
  }
  if (event.type === "user.deleted") {
    const closed: string[] = event.data.connection_ids;
    return closed[0];
  }
  return undefined;
}

void firstAfternoon;
void handle;

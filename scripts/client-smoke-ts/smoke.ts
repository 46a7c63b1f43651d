// A partner's first calls through a TypeScript client: the types
// openapi-typescript generates from Sail's served OpenAPI document
// (`schema.d.ts`, made by scripts/generated-clients.sh) and openapi-fetch.
// `tsc` checks these calls against the document; node then runs them
// against `sail serve`: a user, an external connection, a pushed purchase
// and its job, and a PDF receipt uploaded as multipart bytes.
import createClient from "openapi-fetch";
import { readFileSync } from "node:fs";
import type { paths } from "./schema.js";

const baseUrl = process.env.SAIL_URL!;
const client = createClient<paths>({ baseUrl, headers: { Authorization: `Bearer ${process.env.SAIL_KEY}` } });

function expect(what: string, condition: boolean, detail: unknown = ""): void {
  if (!condition) {
    throw new Error(`client smoke (typescript): ${what} failed ${JSON.stringify(detail)}`);
  }
  console.log(`ok: ${what}`);
}

async function eventually<T>(what: string, check: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const found = await check();
    if (found !== undefined) return found;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`client smoke (typescript): timed out waiting for ${what}`);
}

async function main(): Promise<void> {
  const externalId = `ts-client-${Date.now()}`;
  const user = await client.POST("/users", { body: { external_user_id: externalId } });
  expect("a user is created", !!user.data?.id.startsWith("usr_"), user.error);
  const userId = user.data!.id;

  const connection = await client.POST("/users/{user_id}/connections", {
    params: { path: { user_id: userId } },
    body: { type: "external", provider_label: "TypeScript Bank" },
  });
  expect("an external connection is created", !!connection.data?.id.startsWith("conn_"), connection.error);
  const connectionId = connection.data!.id;

  const pushed = await client.POST("/users/{user_id}/connections/{connection_id}/transactions", {
    params: { path: { user_id: userId, connection_id: connectionId } },
    body: {
      transactions: [
        { external_transaction_id: "ts-1", date: "2026-11-01", amount: 23.1, description: "CVS/PHARMACY #04562", mcc: "5912" },
      ],
    },
  });
  expect("the push is accepted", !!pushed.data?.job_id.startsWith("job_"), pushed.error);
  const jobId = pushed.data!.job_id;
  const job = await eventually("the ingestion job", async () => {
    const found = await client.GET("/jobs/{job_id}", { params: { path: { job_id: jobId } } });
    return found.data?.status === "completed" ? found.data : undefined;
  });
  expect("the job completed with the row", job.accepted === 1, job);

  const expenses = await client.GET("/users/{user_id}/expenses", {
    params: { path: { user_id: userId }, query: { limit: 10 } },
  });
  const expense = expenses.data!.data.find((e) => e.external_transaction_id === "ts-1")!;
  expect("the pharmacy basket waits for a receipt", expense.status === "needs_review", expense);

  const pdf = readFileSync(process.argv[2]);
  const created = await client.POST("/users/{user_id}/expenses/{expense_id}/receipts", {
    params: { path: { user_id: userId, expense_id: expense.id } },
    body: { file: "receipt.pdf" },
    bodySerializer: () => {
      const form = new FormData();
      form.append("file", new Blob([pdf], { type: "application/pdf" }), "receipt.pdf");
      return form;
    },
  });
  expect("the receipt's bytes are sent and recognised", created.data?.content_type === "application/pdf", created.error);
  const receiptId = created.data!.id;
  const receipt = await eventually("the receipt to be read", async () => {
    const found = await client.GET("/users/{user_id}/expenses/{expense_id}/receipts/{receipt_id}", {
      params: { path: { user_id: userId, expense_id: expense.id, receipt_id: receiptId } },
    });
    return found.data && found.data.status !== "processing" ? found.data : undefined;
  });
  expect("the PDF receipt is read", receipt.status === "read", receipt);
  console.log("client smoke (typescript): every step answered as documented");
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});

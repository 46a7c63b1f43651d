"""A partner's first afternoon, through the Python client that
openapi-python-client generates from Sail's served OpenAPI document
(scripts/generated-clients.sh makes it and runs this): a user, an external
connection, a pushed purchase, its job and expense, and a PDF receipt
uploaded for it, read and matched. Fails loudly on any step that does not
answer as documented (docs/openapi.json).

Usage: python3 client_smoke.py PACKAGE_DIR [WRITE_PDF_TO]  (with SAIL_URL and SAIL_KEY set)
"""

import io
import os
import sys
import time
import uuid

sys.path.insert(0, sys.argv[1])

from sail_partner_data_api_client import AuthenticatedClient  # noqa: E402
from sail_partner_data_api_client.api.connections import create_connection  # noqa: E402
from sail_partner_data_api_client.api.expenses import list_expenses  # noqa: E402
from sail_partner_data_api_client.api.jobs import get_job  # noqa: E402
from sail_partner_data_api_client.api.receipts import create_receipt, get_receipt  # noqa: E402
from sail_partner_data_api_client.api.transactions import push_transactions  # noqa: E402
from sail_partner_data_api_client.api.users import create_user  # noqa: E402
from sail_partner_data_api_client.models import (  # noqa: E402
    CreateConnectionRequest,
    CreateReceiptBody,
    CreateUserRequest,
    PushTransactionsRequest,
)
from sail_partner_data_api_client.types import File  # noqa: E402


def receipt_pdf(lines):
    """A one-page PDF whose text is `lines`, in a standard font: what a
    pharmacy's e-receipt is, with nothing the reader does not need."""
    text = " ".join("({}) Tj T*".format(line.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)"))
                    for line in lines)
    content = f"BT /F1 11 Tf 72 720 Td 14 TL {text} ET"
    objects = [
        "<< /Type /Catalog /Pages 2 0 R >>",
        "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] "
        "/Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>",
        "<< /Type /Font /Subtype /Type1 /BaseFont /Courier /Encoding /WinAnsiEncoding >>",
        f"<< /Length {len(content)} >>\nstream\n{content}\nendstream",
    ]
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += f"{number} 0 obj\n{body}\nendobj\n".encode()
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    for offset in offsets:
        out += f"{offset:010d} 00000 n \n".encode()
    out += f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode()
    return bytes(out)


RECEIPT_LINES = ["CVS/pharmacy #04562", "11/01/2026", "IBUPROFEN 200MG 50CT    23.10", "TOTAL    23.10"]


def eventually(what, check, seconds=30):
    deadline = time.time() + seconds
    while time.time() < deadline:
        found = check()
        if found is not None:
            return found
        time.sleep(0.2)
    raise SystemExit(f"client smoke: timed out waiting for {what}")


def expect(what, condition, detail=""):
    if not condition:
        raise SystemExit(f"client smoke: {what} failed {detail}")
    print(f"ok: {what}")


def main():
    if len(sys.argv) > 2:
        # The PDF for the TypeScript smoke test, written where it is asked.
        with open(sys.argv[2], "wb") as out:
            out.write(receipt_pdf(RECEIPT_LINES))
    client = AuthenticatedClient(base_url=os.environ["SAIL_URL"], token=os.environ["SAIL_KEY"])
    external_id = f"py-client-{uuid.uuid4().hex[:12]}"
    user = create_user.sync(client=client, body=CreateUserRequest.from_dict({"external_user_id": external_id}))
    expect("a user is created", getattr(user, "id", "").startswith("usr_"), repr(user))

    connection = create_connection.sync(
        user.id, client=client,
        body=CreateConnectionRequest.from_dict({"type": "external", "provider_label": "Python Bank"}),
    )
    expect("an external connection is created", getattr(connection, "id", "").startswith("conn_"), repr(connection))

    push = PushTransactionsRequest.from_dict({"transactions": [{
        "external_transaction_id": "py-1", "date": "2026-11-01", "amount": 23.10,
        "description": "CVS/PHARMACY #04562", "mcc": "5912",
    }]})
    accepted = push_transactions.sync(user.id, connection.id, client=client, body=push,
                                      idempotency_key=f"py-push-{external_id}")
    expect("the push is accepted", getattr(accepted, "job_id", "").startswith("job_"), repr(accepted))

    def job_done():
        job = get_job.sync(accepted.job_id, client=client)
        return job if str(job.status) == "completed" else None
    job = eventually("the ingestion job", job_done)
    expect("the job completed with the row", job.accepted == 1, repr(job))

    expenses = list_expenses.sync(user.id, client=client, limit=10)
    expense = next(e for e in expenses.data if e.external_transaction_id == "py-1")
    expect("the pharmacy basket waits for a receipt", str(expense.status) == "needs_review", repr(expense))

    pdf = receipt_pdf(RECEIPT_LINES)
    body = CreateReceiptBody(file=File(payload=io.BytesIO(pdf), file_name="receipt.pdf", mime_type="application/pdf"))
    created = create_receipt.sync(user.id, expense.id, client=client, body=body)
    expect("the receipt is accepted", getattr(created, "id", "").startswith("rcpt_"), repr(created))
    expect("the bytes of the file were sent, not their text", str(created.content_type) == "application/pdf",
           repr(created))

    def read():
        receipt = get_receipt.sync(user.id, expense.id, created.id, client=client)
        return receipt if str(receipt.status) != "processing" else None
    receipt = eventually("the receipt to be read", read)
    expect("the PDF receipt is read", str(receipt.status) == "read", repr(receipt))

    expenses = list_expenses.sync(user.id, client=client, limit=10)
    expense = next(e for e in expenses.data if e.external_transaction_id == "py-1")
    expect("the receipt clears the expense", str(expense.status) == "eligible", repr(expense))
    print("client smoke (python): every step answered as documented")


if __name__ == "__main__":
    main()

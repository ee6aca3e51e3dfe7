import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { APPLICATION_PARTS, PNG_BYTES, smallPdf, validApplication } from "#tests/application-fixture";
import { formActionHarness, type PostedFile } from "#tests/form-action";
import { storedByReference } from "#tests/stored-submission";
import { createTestDatabase, type TestDatabase } from "#tests/test-database";
import { company } from "~/content/company";
import { isMultipartBody } from "~/outbox/multipart-body";
import { submissions } from "~/services/db/schema.server";
import { submitApplication } from "./submit-application.server";

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.drop());

const harness = formActionHarness({
  path: "/apply",
  database: () => database.db,
  env: {
    WEBHOOK_APPLICATION_URL: "http://127.0.0.1:9/primary",
    WEBHOOK_APPLICATION_SECONDARY_URL: "http://127.0.0.1:9/secondary",
    SMTP_URL: "smtp://127.0.0.1:9",
    MAIL_FROM: "Website <website@example.com>",
    STAFF_NOTIFY_EMAIL: "office@example.com",
  },
  clientIp: "192.0.2.20",
});
const { contextFor } = harness;
/** The application always posts its resume input, empty when no file was chosen. */
const post = (fields: Record<string, string>, resume?: PostedFile) => harness.post(fields, { files: { resume } });

/** The parts a stored multipart webhook delivery will send. */
function partsOf(delivery: { body: unknown } | undefined): Array<{ name: string; value?: string }> {
  if (!isMultipartBody(delivery?.body)) throw new Error("not a multipart delivery");
  return delivery.body.parts.map((part) => ("value" in part ? part : { name: part.name }));
}

const referenceOf = (response: { data: unknown }) => (response.data as { reference: string }).reference;
const fieldErrors = (response: { data: unknown }) =>
  (response.data as { result?: { error?: Record<string, string[]> } }).result?.error ?? {};
const countSubmissions = () => database.db.$count(submissions);

describe("the application action", () => {
  it("stores the application with its resume, two multipart webhooks, a receipt and an office email", async () => {
    const pdf = smallPdf();
    const response = await submitApplication(
      post({ ...validApplication, submissionKey: crypto.randomUUID() }, { bytes: pdf, name: "jordan-resume.pdf" }),
      contextFor(),
    );
    expect(response.init?.status ?? 200).toBe(200);
    const reference = referenceOf(response);
    expect(reference).toMatch(/^APP-[0-9A-Z]{6}$/);

    const { submission, deliveries, files } = await storedByReference(database.db, reference);
    expect(submission.type).toBe("application");
    expect(submission.payload).toMatchObject({ firstName: "Jordan", experienceLevel: 0 });
    expect(files).toHaveLength(1);
    expect(files[0]).toMatchObject({
      fieldName: "resume",
      fileName: `${reference}-resume.pdf`,
      sentAs: "jordan-resume.pdf",
      contentType: "application/pdf",
      sizeBytes: pdf.length,
      sha256: createHash("sha256").update(pdf).digest("hex"),
    });
    expect(Buffer.compare(files[0]?.content ?? Buffer.alloc(0), pdf)).toBe(0);

    expect(deliveries.map((delivery) => [delivery.channel, delivery.target, delivery.bodyFormat])).toEqual([
      ["webhook", "WEBHOOK_APPLICATION_URL", "multipart"],
      ["webhook", "WEBHOOK_APPLICATION_SECONDARY_URL", "multipart"],
      ["email", "APPLICANT_RECEIPT", "json"],
      ["email", "STAFF_NOTIFY_EMAIL", "json"],
    ]);
    const parts = partsOf(deliveries[0]);
    expect(parts.map((part) => part.name)).toEqual(APPLICATION_PARTS);
    expect(deliveries[2]?.destination).toBe("jordan@example.com");
    const receipt = deliveries[2]?.body as { subject: string; text: string; replyTo?: string };
    expect(receipt.subject).toBe(`We received your application (${reference})`);
    // A reply reaches the office, not the site's sending address.
    expect(receipt.replyTo).toBe("office@example.com");
    // Whoever typed the address chose it: the receipt carries fixed words and the reference, nothing typed.
    expect(receipt.text).toBe(
      `Thank you for your application to ${company.name}; we will be in touch. Reference: ${reference}`,
    );
    const office = deliveries[3]?.body as { text: string };
    expect(office.text).toContain("Years of experience: 0");
    expect(office.text).toContain(`Resume (PDF, at most 5 MB): ${reference}-resume.pdf`);
  });

  it("stores, serves and forwards a resume under a generated name, keeping the sender's only as clean text", async () => {
    // A page for a browser, dressed as a PDF: it starts with %PDF-, and its name hides .hta behind a bidi override.
    const hostile = Buffer.concat([smallPdf(), Buffer.from("<script>alert(1)</script>")]);
    const response = await submitApplication(
      post(
        { ...validApplication, submissionKey: crypto.randomUUID() },
        { bytes: hostile, name: "cv\u202Efdp.hta\u0007" },
      ),
      contextFor(),
    );
    const reference = referenceOf(response);
    const { deliveries, files } = await storedByReference(database.db, reference);
    expect(files[0]).toMatchObject({ fileName: `${reference}-resume.pdf`, sentAs: "cvfdp.hta" });
    // The webhooks' resume part and the email attachments are named from the stored file (worker.server.ts).
    expect(partsOf(deliveries[0]).map((part) => part.name)).toContain("resume");
    const office = deliveries.find((delivery) => delivery.target === "STAFF_NOTIFY_EMAIL")?.body as { text: string };
    expect(office.text).toContain(`${reference}-resume.pdf`);
    expect(office.text).not.toContain(".hta");
  });

  it("sends one address at most three receipts a day, and records each one it leaves out", async () => {
    const to = `Receipts.${crypto.randomUUID()}@example.com`;
    const send = async (email: string) => {
      const response = await submitApplication(
        post({ ...validApplication, email, submissionKey: crypto.randomUUID() }),
        contextFor(),
      );
      return storedByReference(database.db, referenceOf(response));
    };
    // Five at once, in any case: the per-address lock makes them count one after another.
    const sent = await Promise.all([to, to.toLowerCase(), to.toUpperCase(), to, to].map(send));
    const targetsOf = (stored: (typeof sent)[number]) => stored.deliveries.map((delivery) => delivery.target);
    const withReceipt = sent.filter((stored) => targetsOf(stored).includes("APPLICANT_RECEIPT"));
    const without = sent.filter((stored) => !targetsOf(stored).includes("APPLICANT_RECEIPT"));
    expect(withReceipt).toHaveLength(3);
    expect(without).toHaveLength(2);
    for (const stored of without) {
      // The office still hears of every application.
      expect(targetsOf(stored)).toEqual([
        "WEBHOOK_APPLICATION_URL",
        "WEBHOOK_APPLICATION_SECONDARY_URL",
        "STAFF_NOTIFY_EMAIL",
      ]);
      const events = await database.db.query.submissionEvents.findMany({
        where: (t, { eq }) => eq(t.submissionId, stored.submission.id),
      });
      expect(events).toEqual([
        expect.objectContaining({
          actorId: null,
          kind: "delivery-withheld",
          fromValue: "APPLICANT_RECEIPT",
          toValue: stored.submission.contactEmail,
        }),
      ]);
    }
    const elsewhere = await send(`other.${crypto.randomUUID()}@example.com`);
    expect(targetsOf(elsewhere)).toContain("APPLICANT_RECEIPT");
  });

  it("leaves the resume part out when no resume was chosen", async () => {
    const response = await submitApplication(
      post({ ...validApplication, submissionKey: crypto.randomUUID() }),
      contextFor(),
    );
    const { deliveries, files } = await storedByReference(database.db, referenceOf(response));
    expect(files).toEqual([]);
    const parts = partsOf(deliveries[0]);
    expect(parts.map((part) => part.name)).not.toContain("resume");
  });

  it("requires the license number only with a license, and the explanation only with a criminal background", async () => {
    const before = await countSubmissions();
    const missing = await submitApplication(
      post({ ...validApplication, hasDriversLicense: "yes", hasCriminalBackground: "yes" }),
      contextFor(),
    );
    expect(missing.init?.status).toBe(400);
    expect(fieldErrors(missing)).toEqual({ licenseNumber: ["required"], criminalBackgroundExplanation: ["required"] });
    expect(await countSubmissions()).toBe(before);

    const answered = await submitApplication(
      post({
        ...validApplication,
        hasDriversLicense: "yes",
        licenseNumber: "SC-1234567",
        hasCriminalBackground: "yes",
        criminalBackgroundExplanation: "A traffic matter in 2015.",
        submissionKey: crypto.randomUUID(),
      }),
      contextFor(),
    );
    expect(answered.data).toMatchObject({ status: "success" });
    const { submission } = await storedByReference(database.db, referenceOf(answered));
    expect(submission.payload).toMatchObject({ licenseNumber: "SC-1234567" });
  });

  it("drops a follow-up typed in before its question was answered no", async () => {
    const response = await submitApplication(
      post({ ...validApplication, licenseNumber: "SC-typed-then-no", submissionKey: crypto.randomUUID() }),
      contextFor(),
    );
    const { submission, deliveries } = await storedByReference(database.db, referenceOf(response));
    expect(submission.payload).not.toHaveProperty("licenseNumber");
    const parts = partsOf(deliveries[0]);
    expect(parts.find((part) => part.name === "licenseNumber")).toEqual({ name: "licenseNumber", value: "" });
  });

  it("accepts 0 years of experience and refuses what is not a whole number of years", async () => {
    const zero = await submitApplication(
      post({ ...validApplication, experienceLevel: "0", submissionKey: crypto.randomUUID() }),
      contextFor(),
    );
    expect(zero.data).toMatchObject({ status: "success" });
    for (const value of ["", "-1", "two", "2.5"]) {
      const response = await submitApplication(post({ ...validApplication, experienceLevel: value }), contextFor());
      expect(response.init?.status, value).toBe(400);
      expect(Object.keys(fieldErrors(response)), value).toEqual(["experienceLevel"]);
    }
  });

  it("marks every missing required field at once and stores nothing", async () => {
    const before = await countSubmissions();
    const response = await submitApplication(post({ hasDriversLicense: "no" }), contextFor());
    expect(response.init?.status).toBe(400);
    expect(Object.keys(fieldErrors(response)).sort()).toEqual(
      Object.keys(validApplication)
        .filter((name) => name !== "hasDriversLicense")
        .sort(),
    );
    expect(await countSubmissions()).toBe(before);
  });

  it("refuses a PNG renamed .pdf, whatever type the browser claimed", async () => {
    const before = await countSubmissions();
    const response = await submitApplication(
      post(validApplication, { bytes: PNG_BYTES, name: "photo.pdf", type: "application/pdf" }),
      contextFor(),
    );
    expect(response.init?.status).toBe(400);
    expect(response.data).toMatchObject({ status: "error", message: expect.stringContaining("must be a PDF") });
    expect(await countSubmissions()).toBe(before);
  });

  it("refuses a resume over 5 MB with the form's message", async () => {
    const big = Buffer.concat([smallPdf(), Buffer.alloc(5 * 1024 * 1024)]);
    const response = await submitApplication(post(validApplication, { bytes: big, name: "big.pdf" }), contextFor());
    expect(response.init?.status).toBe(413);
    expect(response.data).toMatchObject({ status: "error", message: "File size should be less than 5MB" });
  });

  it("answers 4xx, not 500, to a body that is not a form, or a broken multipart body", async () => {
    const json = new Request("http://localhost/apply", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(validApplication),
    });
    expect((await submitApplication(json, contextFor())).init?.status).toBe(400);
    const broken = new Request("http://localhost/apply", {
      method: "POST",
      headers: { "content-type": "multipart/form-data; boundary=xyz" },
      body: '--xyz\r\nContent-Disposition: form-data; name="firstName"\r\n\r\nJordan',
    });
    const answer = await submitApplication(broken, contextFor());
    expect(answer.init?.status).toBe(400);
    expect(answer.data).toMatchObject({ status: "error", message: expect.stringContaining("send it again") });
  });

  it("makes a resend with the same key the same application", async () => {
    const submissionKey = crypto.randomUUID();
    const before = await countSubmissions();
    const answers = await Promise.all(
      Array.from({ length: 3 }, () =>
        submitApplication(
          post({ ...validApplication, submissionKey }, { bytes: smallPdf(), name: "r.pdf" }),
          contextFor(),
        ),
      ),
    );
    expect(new Set(answers.map(referenceOf)).size).toBe(1);
    expect(await countSubmissions()).toBe(before + 1);
  });

  it("answers 503 with the form's failure message, not a 500, when the database is down", async () => {
    await database.setReachable(false);
    try {
      const response = await submitApplication(
        post({ ...validApplication, submissionKey: crypto.randomUUID() }),
        contextFor(),
      );
      expect(response.init?.status).toBe(503);
      expect(response.data).toMatchObject({
        status: "error",
        message: "There was an error submitting your application. Please try again.",
      });
    } finally {
      await database.setReachable(true);
    }
  });
});

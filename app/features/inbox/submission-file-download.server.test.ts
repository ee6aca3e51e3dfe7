import { createHash } from "node:crypto";
import type { AppLoadContext } from "react-router";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { smallPdf } from "#tests/application-fixture";
import { RESUME_NAME, signedInRequest, storeApplication } from "#tests/inbox-fixture";
import { loadContextFor } from "#tests/load-context";
import { addStaffUser } from "#tests/staff";
import { asStaffRoute } from "#tests/staff-request";
import { createTestDatabase, type TestDatabase } from "#tests/test-database";
import { loadSubmissionDetail } from "./submission-detail.server";
import { downloadHeaders, serveSubmissionFile } from "./submission-file-download.server";

let database: TestDatabase;
let context: AppLoadContext;
let staffId: number;

beforeAll(async () => {
  database = await createTestDatabase();
  context = loadContextFor(database.db);
  staffId = (await addStaffUser(database.db)).id;
});
afterAll(() => database.drop());

async function download(submissionId: number, fileId: number | string) {
  const url = `/admin/inbox/${submissionId}/files/${fileId}`;
  const request = await signedInRequest(context, staffId, url);
  return serveSubmissionFile(request, context, { submissionId: String(submissionId), fileId: String(fileId) });
}

describe("the file route", () => {
  it("serves a stored resume byte for byte as a PDF attachment under a generated name, never cached", async () => {
    const resume = smallPdf("Resume for the download test");
    const { id, reference } = await storeApplication(database.db, resume);
    const [file] = (await loadSubmissionDetail(database.db, id, {}, "admin")).files;
    if (!file) throw new Error("no file listed");
    expect(file).toMatchObject({
      fileName: `${reference}-resume.pdf`,
      sentAs: RESUME_NAME,
      sizeBytes: resume.byteLength,
    });

    const response = await download(id, file.id);
    expect(response.status).toBe(200);
    expect(Object.fromEntries(response.headers)).toEqual({
      "content-type": "application/pdf",
      "content-length": String(resume.byteLength),
      "content-disposition": `attachment; filename="${reference}-resume.pdf"`,
      "cache-control": "private, no-store",
    });
    const body = Buffer.from(await response.arrayBuffer());
    expect(createHash("sha256").update(body).digest("hex")).toBe(createHash("sha256").update(resume).digest("hex"));
  });

  it("serves anything but a PDF as bytes to save, and quotes a name that needs it", () => {
    const headers = downloadHeaders({ fileName: 'notes "final".html', contentType: "text/html", sizeBytes: 3 });
    expect(headers.get("content-type")).toBe("application/octet-stream");
    expect(headers.get("content-disposition")).toBe('attachment; filename="notes \\"final\\".html"');
  });

  it("gives a 404 for an unknown file, a file of another submission, and an id that is not a number", async () => {
    const first = await storeApplication(database.db);
    const second = await storeApplication(database.db);
    const [fileOfFirst] = (await loadSubmissionDetail(database.db, first.id, {}, "admin")).files;
    if (!fileOfFirst) throw new Error("no file listed");
    for (const [submissionId, fileId] of [
      [first.id, 987_654],
      [second.id, fileOfFirst.id],
      [first.id, "1e3"],
    ] as const) {
      await expect(download(submissionId, fileId)).rejects.toMatchObject({ init: { status: 404 } });
    }
  });

  it("sends a request without a session to sign in, with no file", async () => {
    const { id } = await storeApplication(database.db);
    const request = new Request(`http://localhost/admin/inbox/${id}/files/1`);
    const params = { submissionId: String(id), fileId: "1" };
    const refused = await asStaffRoute(request, context, () => serveSubmissionFile(request, context, params)).catch(
      (thrown: unknown) => thrown,
    );
    expect(refused).toBeInstanceOf(Response);
    expect((refused as Response).status).toBe(302);
    expect((refused as Response).headers.get("location")).toMatch(/^\/admin\?redirectTo=/);
  });
});

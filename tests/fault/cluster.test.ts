import { chmod, mkdtemp, readFile } from "node:fs/promises";
import { request } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PHOTOS_FIELD } from "../../app/features/estimate-checklist/schema";
import { RESUMABLE_UPLOADS_PATH, uploadIdsFieldOf } from "../../app/forms/resumable-uploads";
import { startSession } from "../../app/services/auth/sessions.server";
import { loadConfig } from "../../app/services/config.server";
import { connectDatabase } from "../../app/services/db/database.server";
import { findFreePort } from "../../app/services/free-port.server";
import { cleanPhotoWithThumbnail } from "../../app/services/photos/clean-photo.server";
import { checklistAnswers, grainyJpegWithGps } from "../support/checklist-fixture";
import { builtSiteUrl, startCluster, stopCluster } from "../support/cluster";
import { type EstimatePostResult, postEstimate } from "../support/estimate-post";
import { addStaffUser, cookieFrom } from "../support/staff";
import { tusMetadata } from "../support/tus-upload";
import { waitFor } from "../support/wait-for";
import { startWebhookReceiver, type WebhookReceiver } from "../support/webhook-receiver";
import { allDelivered, formatFaultTable, reconcile, sameWebhookIdAcrossRetries } from "./delivery-ledger";

const POSTS = 300;
const VISITORS = 16;
/** Above what one of the 16 visitors posts (300 / 16 < 19), far below 300: a limit per balancer would show. */
const RATE_LIMIT = 25;

describe("two instances behind nginx (npm run cluster -- 2)", () => {
  let receiver: WebhookReceiver;
  let cluster: Awaited<ReturnType<typeof startCluster>>;
  let pool: pg.Pool;
  let dataDir: string;

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    dataDir = await mkdtemp(path.join(tmpdir(), "tce-cluster-"));
    // As root the shared embedded server runs as the postgres user, who must be able to enter it.
    await chmod(dataDir, 0o755);
    cluster = await startCluster({
      DATA_DIR: dataDir,
      CLUSTER_PORT: String(await findFreePort()),
      WEBHOOK_ESTIMATE_URL: `${receiver.url}hooks/estimate`,
      PUBLIC_FORM_RATE_LIMIT: String(RATE_LIMIT),
      DELIVERY_RETRY_SCHEDULE: ["0", "500ms", ...Array.from({ length: 30 }, () => "1s")].join(","),
      LOG_LEVEL: "warn",
      // The system's server or the test run's: the cluster then starts its own embedded one, shared by both.
      DATABASE_URL: "",
      // The suite's build: without it the cluster would build again for its own address, in place.
      SITE_URL: await builtSiteUrl(),
    });
    pool = new pg.Pool({ connectionString: cluster.ready.databaseUrl });
  });
  afterAll(async () => {
    await pool?.end();
    if (cluster) await stopCluster(cluster.child);
    await receiver?.close();
  });

  it("stores and delivers every acknowledged post while one instance is killed halfway", async () => {
    const { ready } = cluster;
    const [doomed] = ready.instances;
    if (!doomed) throw new Error("no instances");
    const visitors = Array.from({ length: VISITORS }, (_, n) => `127.0.0.${n + 2}`);

    const results: (EstimatePostResult & { visitor: string })[] = [];
    let next = 0;
    let killed = false;
    await Promise.all(
      Array.from({ length: 12 }, async () => {
        while (next < POSTS) {
          const n = next++;
          if (n === POSTS / 2 && !killed) {
            killed = true;
            try {
              process.kill(doomed.pid, "SIGKILL");
            } catch (error) {
              // Gone already: what the cluster and its instances said is the only clue to why.
              throw new Error(`instance ${doomed.index} had stopped before the kill:\n${cluster.output.join("\n")}`, {
                cause: error,
              });
            }
          }
          const visitor = visitors[n % VISITORS] as string;
          const result = await postEstimate(`${ready.url}/lighting`, {
            comments: `cluster #${n}`,
            localAddress: visitor,
          });
          results.push({ ...result, visitor });
        }
      }),
    );

    const references = results.flatMap((result) => (result.reference ? [result.reference] : []));
    // nginx sends a post the killed instance refused to the other one; only posts cut mid-way fail.
    expect(references.length).toBeGreaterThan(POSTS * 0.9);
    expect(results.filter((result) => result.status === 429)).toEqual([]);

    await waitFor("every acknowledged post to be delivered", () => allDelivered(pool, references), 120_000);
    const row = await reconcile("cluster: 2 instances, one killed -9 halfway", pool, receiver, references);
    row.note = `${POSTS - references.length} posts cut by the kill (not acknowledged)`;
    console.log(`\nCluster\n${formatFaultTable([row])}\n`);
    expect(row).toMatchObject({ stored: references.length, delivered: references.length, lost: 0 });
    expect(await sameWebhookIdAcrossRetries(pool, receiver)).toBe(true);
    expect([...receiver.overlappingIds]).toEqual([]);

    // Each visitor was counted on its own: the rows carry the 16 addresses nginx forwarded.
    const { rows } = await pool.query<{ client_ip: string }>(
      "SELECT DISTINCT client_ip FROM submissions WHERE reference = ANY($1)",
      [references],
    );
    expect(rows.map((row) => row.client_ip).sort()).toEqual([...visitors].sort());
  });

  it("counts the rate limit per visitor, not per balancer", async () => {
    const visitor = "127.0.0.40";
    const answers: number[] = [];
    for (let n = 0; n <= RATE_LIMIT; n++) {
      answers.push(
        (await postEstimate(`${cluster.ready.url}/lighting`, { comments: `limit #${n}`, localAddress: visitor }))
          .status,
      );
    }
    expect(answers.slice(0, RATE_LIMIT).every((status) => status === 200)).toBe(true);
    expect(answers[RATE_LIMIT]).toBe(429);
    // Another visitor behind the same balancer is not held back.
    const other = await postEstimate(`${cluster.ready.url}/lighting`, {
      comments: "someone else",
      localAddress: "127.0.0.41",
    });
    expect(other.status).toBe(200);
  });

  it("continues an upload cut part way on either instance, and a checklist posted to the other takes it", async () => {
    const { ready } = cluster;
    const [first, second] = ready.instances;
    if (!first || !second) throw new Error("two instances expected");
    // The first is the one the test before killed: the cluster starts it again, which takes a moment (its
    // connection was refused once in CI when this test came sooner).
    for (const instance of [first, second]) {
      await waitFor(`instance ${instance.index} to answer again`, () =>
        fetch(`${instance.url}/readyz`).then(
          (response) => response.ok,
          () => false,
        ),
      );
    }
    const cookie = await signedInCookie(ready.databaseUrl, dataDir);
    const photo = await grainyJpegWithGps();
    const tus = { cookie, "tus-resumable": "1.0.0" };

    const created = await fetch(`${first.url}${RESUMABLE_UPLOADS_PATH}`, {
      method: "POST",
      headers: {
        ...tus,
        "upload-length": String(photo.byteLength),
        "upload-metadata": tusMetadata({
          formType: "estimate-checklist",
          fieldName: PHOTOS_FIELD,
          filename: "IMG_1.jpg",
        }),
      },
    });
    expect(created.status).toBe(201);
    const location = created.headers.get("location") ?? "";
    await patchCutAfter(`${ready.url}${location}`, cookie, photo, Math.floor(photo.byteLength / 2));

    // Where the cut left it, as each instance tells it: the same offset from both.
    const offsetAt = async (url: string) => {
      const response = await fetch(`${url}${location}`, { method: "HEAD", headers: tus });
      return response.status === 200 ? Number(response.headers.get("upload-offset")) : -response.status;
    };
    const held = await waitFor("the bytes sent before the cut to be held", async () => {
      const offset = await offsetAt(first.url);
      return offset > 0 && offset;
    });
    expect(held).toBeLessThan(photo.byteLength);
    expect([await offsetAt(first.url), await offsetAt(second.url)]).toEqual([held, held]);

    const resumed = await fetch(`${ready.url}${location}`, {
      method: "PATCH",
      headers: { ...tus, "upload-offset": String(held), "content-type": "application/offset+octet-stream" },
      body: new Uint8Array(photo.subarray(held)),
    });
    expect(resumed.status, await resumed.text()).toBe(204);
    expect([await offsetAt(first.url), await offsetAt(second.url)]).toEqual([photo.byteLength, photo.byteLength]);

    const form = new FormData();
    for (const [name, value] of Object.entries(checklistAnswers)) form.append(name, value);
    form.append(uploadIdsFieldOf(PHOTOS_FIELD), location.split("/").pop() ?? "");
    const posted = await fetch(`${second.url}/admin/quick-links/estimate-checklist/submit`, {
      method: "POST",
      headers: { cookie, accept: "application/json" },
      body: form,
    });
    const answer = (await posted.json()) as { status: string; reference: string };
    expect(answer.status).toBe("success");
    const { rows } = await pool.query<{ content: Buffer }>(
      "SELECT f.content FROM submission_files f JOIN submissions s ON s.id = f.submission_id WHERE s.reference = $1 AND f.field_name = $2",
      [answer.reference, PHOTOS_FIELD],
    );
    // The photo as the app cleans the bytes sent: the upload, pieced together across the cut, is the photo.
    const caps = { photoPixels: 1e9, submissionPixels: 1e9, submissionPixelsLeft: 1e9 };
    const expected = await cleanPhotoWithThumbnail(
      { fileName: "IMG_1.jpg", contentType: "image/jpeg", content: photo },
      undefined,
      caps,
    );
    if (!expected.ok) throw new Error(expected.reason);
    expect(rows.map((row) => Buffer.compare(row.content, Buffer.from(expected.file.content)))).toEqual([0]);
  });
});

/** A session of a new staff user on the cluster's database, signed with the secret its instances share. */
async function signedInCookie(databaseUrl: string, dataDir: string) {
  const database = connectDatabase(databaseUrl, pino({ level: "silent" }), "cluster test");
  try {
    const secret = (await readFile(path.join(dataDir, "cluster", "session-secret"), "utf8")).trim();
    const config = loadConfig({ NODE_ENV: "production", SESSION_SECRET: secret });
    const staff = await addStaffUser(database.db);
    return cookieFrom(await startSession(database.db, config, { userId: staff.id, secondFactorPending: false }));
  } finally {
    await database.close();
  }
}

/**
 * A PATCH of the whole photo whose connection is cut once `cutAt` bytes are out, as a phone losing its signal:
 * resolves when the connection is gone.
 */
function patchCutAfter(url: string, cookie: string, photo: Uint8Array, cutAt: number): Promise<void> {
  return new Promise((resolve) => {
    const patch = request(url, {
      method: "PATCH",
      agent: false,
      headers: {
        cookie,
        "tus-resumable": "1.0.0",
        "upload-offset": "0",
        "content-type": "application/offset+octet-stream",
        "content-length": String(photo.byteLength),
      },
    });
    patch.on("error", () => resolve());
    patch.on("close", () => resolve());
    patch.write(photo.subarray(0, cutAt), () => setTimeout(() => patch.destroy(), 200));
  });
}

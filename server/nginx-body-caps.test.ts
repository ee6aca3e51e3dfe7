import { type ChildProcess, spawn } from "node:child_process";
import { chmod, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppServer, startAppServer } from "#tests/app-server";
import { checklistAnswers } from "#tests/checklist-fixture";
import { addStaffUser, cookieFrom } from "#tests/staff";
import { storedByReference } from "#tests/stored-submission";
import { createTestDatabase, type TestDatabase } from "#tests/test-database";
import { TEST_SESSION_SECRET } from "#tests/test-session-secret";
import { uploadChecklistPhoto } from "#tests/tus-upload";
import { waitFor } from "#tests/wait-for";
import { startSession } from "~/services/auth/sessions.server";
import { loadConfig } from "~/services/config.server";
import { findFreePort } from "~/services/free-port.server";
import { nginxConfig } from "../scripts/nginx-config";

const NGINX = process.env.NGINX_PATH || "/usr/sbin/nginx";
const MB = 1024 * 1024;
const PHOTO_COPIES = 3;

/** Fine grain at quality 95 hardly compresses: about 3.7 MB at 2400 by 1800. */
function grainyPhoto(width: number, height: number): Promise<Buffer> {
  const grain = { type: "gaussian", mean: 120, sigma: 40 } as const;
  return sharp({ create: { width, height, channels: 3, background: "#777777", noise: grain } })
    .jpeg({ quality: 95 })
    .toBuffer();
}

/**
 * The built app behind Debian's nginx with the production site's proxy settings and locations
 * (deploy/nginx/proxy.conf, as `npm run cluster` runs it), on the test database.
 */
describe("nginx in front of the app", () => {
  let database: TestDatabase;
  let app: AppServer;
  let nginx: ChildProcess;
  let nginxDir: string;
  let url: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    app = await startAppServer({ env: { DATABASE_URL: database.url, TRUST_PROXY: "127.0.0.1" } });
    nginxDir = await mkdtemp(path.join(tmpdir(), "tce-nginx-"));
    // As root nginx's workers run as nobody, who must be able to enter it.
    await chmod(nginxDir, 0o755);
    const port = await findFreePort();
    const configFile = path.join(nginxDir, "nginx.conf");
    await writeFile(
      configFile,
      nginxConfig({ listen: `127.0.0.1:${port}`, upstreams: [new URL(app.url).host], runDir: nginxDir }),
    );
    nginx = spawn(NGINX, ["-p", nginxDir, "-c", configFile, "-e", path.join(nginxDir, "error.log")], {
      stdio: "inherit",
    });
    url = `http://127.0.0.1:${port}`;
    await waitFor("nginx to answer", () =>
      fetch(`${url}/readyz`).then(
        (response) => response.ok,
        () => false,
      ),
    );
  });
  afterAll(async () => {
    if (nginx && nginx.exitCode === null) {
      const exited = new Promise((resolve) => nginx.once("exit", resolve));
      nginx.kill("SIGQUIT");
      await exited;
    }
    await app?.stop();
    await database?.drop();
    if (nginxDir) await rm(nginxDir, { recursive: true, force: true });
  });

  const signedInCookie = async () => {
    const staff = await addStaffUser(database.db);
    const config = loadConfig({ NODE_ENV: "production", SESSION_SECRET: TEST_SESSION_SECRET });
    return cookieFrom(await startSession(database.db, config, { userId: staff.id, secondFactorPending: false }));
  };

  it("lets an estimate checklist larger than 9 MB through to the app, which stores it", async () => {
    const cookie = await signedInCookie();
    const photo = await grainyPhoto(2400, 1800);
    const form = new FormData();
    for (const [name, value] of Object.entries(checklistAnswers)) form.append(name, value);
    for (let copy = 1; copy <= PHOTO_COPIES; copy++) {
      form.append("photos", new Blob([new Uint8Array(photo)], { type: "image/jpeg" }), `IMG_${copy}.jpg`);
    }
    const encoded = new Response(form);
    const contentType = encoded.headers.get("content-type") ?? "";
    const body = new Uint8Array(await encoded.arrayBuffer());
    expect(body.byteLength).toBeGreaterThan(9 * MB);

    const response = await fetch(`${url}/admin/quick-links/estimate-checklist/submit`, {
      method: "POST",
      headers: {
        cookie,
        origin: url,
        accept: "application/json",
        "content-type": contentType,
      },
      body,
    });
    const text = await response.text();
    expect(response.status, text).toBe(200);
    const answer = JSON.parse(text) as { status: string; reference: string };
    expect(answer.status).toBe("success");
    const stored = await storedByReference(database.db, answer.reference);
    expect(stored.files.filter((file) => file.fieldName === "photos")).toHaveLength(PHOTO_COPIES);
    expect(stored.files.some((file) => file.contentType === "application/pdf")).toBe(true);
  });

  it("lets a photo larger than 9 MB go up while the checklist is filled, in one request", async () => {
    const cookie = await signedInCookie();
    const photo = await grainyPhoto(4000, 3000);
    expect(photo.byteLength).toBeGreaterThan(9 * MB);
    const { created, sent } = await uploadChecklistPhoto(url, { cookie, origin: url }, photo, "IMG_1.jpg");
    expect(created.status).toBe(201);
    expect(sent.status, await sent.text()).toBe(204);
    expect(sent.headers.get("upload-offset")).toBe(String(photo.byteLength));
  });
});

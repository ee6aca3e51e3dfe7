import type { Server } from "node:http";
import { Writable } from "node:stream";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { waitFor } from "#tests/wait-for";
import { createLogger } from "../app/services/logger.server";
import { accessLog, giveRequestsALogger } from "./access-log";

const lines: Array<{ msg: string; req?: { url: string } }> = [];
let server: Server;
let baseUrl: string;

beforeAll(async () => {
  const destination = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split("\n").filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  const logger = createLogger("info", destination);
  const app = express();
  giveRequestsALogger(app, logger);
  app.use(accessLog(logger));
  app.get("/admin/inbox", (req, res) => {
    req.log.warn("a handler's own line");
    res.send("the inbox");
  });
  app.get("/calendar/:file", (_req, res) => {
    res.status(404).send("no such calendar");
  });
  server = await new Promise<Server>((resolve) => {
    const listening = app.listen(0, "127.0.0.1", () => resolve(listening));
  });
  const address = server.address();
  baseUrl = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

describe("the access log", () => {
  it("keeps a URL's path and parameter names but none of the values typed into it", async () => {
    await fetch(`${baseUrl}/admin/inbox?q=Nguy%E1%BB%85n%20Smith&status=New&q=803-555-0142`);
    await waitFor("the access log's line", () => lines.some((line) => line.msg === "request completed"));
    const logged = lines.filter((line) => line.req);
    expect(logged.map((line) => line.msg).sort()).toEqual(["a handler's own line", "request completed"]);
    for (const line of logged) expect(line.req?.url).toBe("/admin/inbox?q&status&q");
    expect(JSON.stringify(lines)).not.toMatch(/Smith|Nguy|555|New/);
  });

  it("leaves out a calendar address's token, which is what lets anyone read that calendar", async () => {
    const token = "ab".repeat(32);
    await fetch(`${baseUrl}/calendar/${token}.ics?x=1`);
    await waitFor("the calendar's line", () => lines.some((line) => line.req?.url.startsWith("/calendar/")));
    expect(lines.find((line) => line.req?.url.startsWith("/calendar/"))?.req?.url).toBe("/calendar/<address>?x");
    expect(JSON.stringify(lines)).not.toContain(token);
  });

  it("writes the line of a path the URL parser refuses once decoded, and the server goes on answering", async () => {
    // `/%0A/` decodes to a line break between two slashes, read as `//` with no host: it once threw where the
    // line is written, as the connection closed, and the uncaught error ended the process.
    const answer = await fetch(`${baseUrl}/%0A/`);
    expect(answer.status).toBe(404);
    await waitFor("the refused path's line", () => lines.some((line) => line.req?.url === "/%0A/"));
    expect((await fetch(`${baseUrl}/admin/inbox`)).status).toBe(200);
  });
});

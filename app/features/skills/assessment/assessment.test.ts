import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findAnswerKeyLeaks, questionsFoundIn } from "#tests/answer-key-leaks";
import { type AppServer, projectRoot, startAppServer } from "#tests/app-server";
import { assessmentAnswers } from "#tests/assessment-fixture";
import { startWebhookReceiver, type WebhookReceiver } from "#tests/webhook-receiver";
import { ASSESSMENT_ANSWER_KEY } from "~/features/skills/assessment/answer-key.server";
import { choiceQuestions } from "~/features/skills/assessment/questions";

const CLIENT_BUILD = path.join(projectRoot, "build/client");

function clientFiles(directory = CLIENT_BUILD): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(directory, entry.name);
    if (entry.isDirectory()) return clientFiles(full);
    return /\.(js|html|data)$/.test(entry.name) ? [full] : [];
  });
}

describe("the answer-key leak detector", () => {
  // The real questions, as a bundler would write them, with the key slipped in one way or another.
  const options = (id: string) =>
    JSON.stringify(choiceQuestions.find((question) => question.id === id)?.options).replace(/"(id|text)":/g, "$1:");
  const question = (id: string, extra = "") =>
    `x("${id}",${JSON.stringify(choiceQuestions.find((candidate) => candidate.id === id)?.question)},${options(id)}${extra})`;

  it("passes the questions as questions.ts has them", () => {
    expect(findAnswerKeyLeaks(`const q=[${question("4")},${question("5")},${question("6")}];`)).toEqual([]);
  });

  it.each([
    ["a property after the options", `[${question("4")},${question("5").replace(/\)$/, ',{correct:"A"})')}]`],
    ["an extra argument", `[${question("4", ',"C"')},${question("5")}]`],
    [
      "a property before the text",
      `[{id:"4",key:"C",question:${JSON.stringify(choiceQuestions[0]?.question)},options:${options("4")}}]`,
    ],
    ["a correctAnswer property", `[${question("4").replace("[", 'correctAnswer:"C",[')}]`],
  ])("catches a key moved into the questions as %s", (_, code) => {
    expect(findAnswerKeyLeaks(code)).not.toEqual([]);
  });

  it("catches the key module bundled, or its mapping serialized", () => {
    expect(findAnswerKeyLeaks(JSON.stringify(ASSESSMENT_ANSWER_KEY))).not.toEqual([]);
    const flat = Object.fromEntries(Object.entries(ASSESSMENT_ANSWER_KEY).map(([id, { answer }]) => [id, answer]));
    expect(findAnswerKeyLeaks(`var k=${JSON.stringify(flat).replace(/"(\d+)":/g, "$1:")}`)).not.toEqual([]);
  });
});

describe("the assessment through the running app", () => {
  let receiver: WebhookReceiver;
  let app: AppServer;
  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    app = await startAppServer({ env: { WEBHOOK_ASSESSMENT_URL: `${receiver.url}hooks/assessment` } });
  });
  afterAll(async () => {
    await app.stop();
    await receiver.close();
  });

  it("never ships which answer is right: not in any client chunk, prerendered page or data file", () => {
    const files = clientFiles();
    expect(files.some((file) => file.endsWith(".js"))).toBe(true);
    let questionsSeen = 0;
    for (const file of files) {
      const text = readFileSync(file, "utf8");
      questionsSeen = Math.max(questionsSeen, questionsFoundIn(text));
      expect(findAnswerKeyLeaks(text), path.relative(CLIENT_BUILD, file)).toEqual([]);
    }
    // The questions are in the bundle, so the scan above looked at them.
    expect(questionsSeen).toBe(choiceQuestions.length);
  });

  it("never serves which answer is right: not in the pages nor in their data", async () => {
    for (const url of ["/assessment", "/assessment?all", "/assessment.data", "/quiz"]) {
      const response = await fetch(`${app.url}${url}`);
      expect(response.status, url).toBe(200);
      const text = await response.text();
      expect(findAnswerKeyLeaks(text), url).toEqual([]);
      expect(text, url).not.toMatch(/correct/i);
    }
    const form = await (await fetch(`${app.url}/assessment?all`)).text();
    const asHtml = (text: string) => text.replaceAll("'", "&#x27;");
    expect(choiceQuestions.filter((question) => !form.includes(asHtml(question.question)))).toEqual([]);
  });

  it("takes a plain form post, shows the score and delivers the answers keyed by id with the score (spec §7)", async () => {
    const answers = assessmentAnswers(9);
    const response = await fetch(`${app.url}/assessment`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: app.url },
      body: new URLSearchParams(answers),
    });
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain("Fair performance");
    expect(html).toMatch(/>60<!-- -->%</);

    const [webhook] = await receiver.waitForRequests(1, 15_000);
    expect(webhook?.path).toBe("/hooks/assessment");
    expect(webhook?.headers["content-type"]).toContain("application/json");
    expect(JSON.parse(webhook?.body ?? "null")).toEqual({ answers, score: { correct: 9, total: 15, percentage: 60 } });
  });

  it("refuses invalid answers with a 400 and a message naming the question", async () => {
    const response = await fetch(`${app.url}/assessment`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: app.url },
      body: new URLSearchParams({ ...assessmentAnswers(15), "12": "E" }),
    });
    expect(response.status).toBe(400);
    expect(await response.text()).toContain("question 12: Choose A, B or C");
  });
});

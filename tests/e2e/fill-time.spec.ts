import { startAppServer } from "../support/app-server";
import { storedSubmissionOf } from "../support/submission-lookup";
import { startWebhookReceiver } from "../support/webhook-receiver";
import { expect, test } from "./fixtures";
import { fillEstimate, sendButton } from "./public-forms";

/** Longer than the 3 s the server expects a person to need. */
const HUMAN_PAUSE_MS = 3_500;
const FIVE_MINUTES_MS = 5 * 60_000;

test.describe("a visitor whose device clock is wrong", () => {
  for (const [skew, offsetMs] of [
    ["5 minutes fast", FIVE_MINUTES_MS],
    ["5 minutes slow", -FIVE_MINUTES_MS],
  ] as const) {
    test(`sends an estimate request with a clock ${skew}: it is delivered and not marked as spam or suspicious`, async ({
      page,
    }) => {
      test.setTimeout(90_000);
      const receiver = await startWebhookReceiver();
      const app = await startAppServer({ env: { WEBHOOK_ESTIMATE_URL: receiver.url, PUBLIC_FORM_RATE_LIMIT: "1000" } });
      try {
        await page.clock.install({ time: new Date(Date.now() + offsetMs) });
        await page.goto(`${app.url}/learnmore#form`);
        await fillEstimate(page, "Commercial");
        await page.waitForTimeout(HUMAN_PAUSE_MS);
        await sendButton(page).click();
        const dialog = page.getByRole("dialog", { name: "success!" });
        await expect(dialog).toContainText(/Your reference number is EST-[0-9A-Z]{6}\./);
        const reference = /EST-[0-9A-Z]{6}/.exec((await dialog.textContent()) ?? "")?.[0] ?? "";

        const [delivered] = await receiver.waitForRequests(1, 20_000);
        expect(delivered?.headers["submission-reference"]).toBe(reference);
        expect(JSON.parse(delivered?.body ?? "{}")).toMatchObject({ firstName: "Avery", projectType: "commercial" });
        expect(await storedSubmissionOf(app.dataDir, reference)).toMatchObject({
          isSpam: false,
          suspiciousReason: null,
        });
      } finally {
        await app.stop();
        await receiver.close();
      }
    });
  }
});
